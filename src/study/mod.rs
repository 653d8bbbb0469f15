//! Studies: questions the harness asks of retrieval beyond one run's pass/fail, each in its own
//! folder with its model, its job, its tables and its figure. A study reads and drives the layers
//! below it (suites, backends, runs, reports, analyses, rendering); nothing below imports it.
//!
//! - [`paper`]: every quantitative claim of the paper beside what the reports measure (`claims`);
//! - [`scale`]: a suite planted in a growing synthetic store, beside real Lucene (`scale`);
//! - [`flywheel`]: the alias-enrichment flywheel essay, simulated (`flywheel`);
//! - [`alias_learning`]: the flywheel's capture on a benchmark's held-out questions (`alias-learning`);
//! - [`temporal`]: the temporal classifier measured on labelled statements (`temporal eval`);
//! - [`locomo`]: LoCoMo's results by category, with its own recall accuracy (`locomo`);
//! - [`longmemeval`]: LongMemEval's retrieval metrics by question type (`longmemeval`);
//! - [`beam`]: BEAM's results by tier and ability, and its knowledge updates' order (`beam`);
//! - [`models`]: embedding models beside a lexical reference, fusions and chance (`models`).
//!
//! Adding one is a recipe in CONTRIBUTING.md ("Adding a study").

pub mod alias_learning;
pub(crate) mod beam;
pub mod flywheel;
pub(crate) mod locomo;
pub(crate) mod longmemeval;
pub(crate) mod models;
pub(crate) mod paper;
pub(crate) mod scale;
pub(crate) mod temporal;
