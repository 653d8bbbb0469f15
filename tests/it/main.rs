//! The integration tests, one binary (each test file used to link its own copy of the
//! library). Modules by concern; `common` holds shared helpers.

mod attribution;
mod backend_errors;
mod bad_input;
mod claims;
mod common;
mod compare;
mod conformance;
mod cosine;
mod determinism;
mod doctor;
mod flywheel;
mod fuzz;
mod gates;
mod golden_pmb_session;
mod golden_pmb_static;
mod http_provider;
mod lucene;
mod onnx;
mod output;
mod paper_static;
mod paper_tables;
mod plot;
mod process_faults;
mod provenance;
mod rank_metrics;
mod readme;
mod scale;
mod segments;
mod serve;
mod service;
mod significance;
mod streamed;
mod tables;
mod trec;
mod verify;
