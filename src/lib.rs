//! tenure-eval: measure how precisely LLM memory systems retrieve what a user told them.
//!
//! Data flows one way, from [`suite`] through [`backend`], [`context`] and [`eval`] to
//! [`report`], driven by [`run`]; [`analysis`] judges written reports (compare, gates, verify,
//! claims) and [`render`] shows reports and analyses (tables, figures, TREC, JUnit); [`job`]
//! carries out a whole command's plan. The one picture of that flow, with every module placed in
//! it, is `ARCHITECTURE.md` at the repository's root; the upstream behaviour the code cites as
//! "spec §" is in `docs/spec/`.
//!
//! ```
//! use tenure_eval::backend::BackendConfig;
//! use tenure_eval::run::{run_sessions, run_static, Silent};
//! use tenure_eval::suite::{Suite, SuiteSource};
//!
//! let suite = Suite::load(&SuiteSource::Builtin("pmb".into()))?;
//! let bm25 = BackendConfig::bm25();
//! let static_run = run_static(&suite, &bm25, &mut Silent)?;
//! let summary = static_run.summary();
//! assert_eq!((summary.total_passed, summary.active_retrieval_passes), (77, 43));
//! assert_eq!(static_run.backend.provider, "tenure");
//!
//! let sessions = run_sessions(&suite, &bm25, &mut Silent)?;
//! assert_eq!(sessions.summary().total_passed, 12);
//! # Ok::<(), tenure_eval::Error>(())
//! ```
#![deny(missing_docs)]

pub mod analysis;
pub mod backend;
pub mod context;
pub mod embed;
pub mod error;
pub mod eval;
pub mod io;
pub mod job;
pub mod js;
pub mod profile;
pub mod query;
pub mod render;
pub mod report;
pub mod run;
pub mod serve;
pub mod store;
pub mod study;
pub mod suite;
pub mod temporal;

pub use error::{Error, Result};
pub use profile::Profile;
