//! tenure-eval: measure how precisely LLM memory systems retrieve what a user told them.
//!
//! Data flows one way, from [`suite`] through [`backend`], [`context`] and [`eval`] to
//! [`report`], driven by [`run`]; [`analysis`] judges written reports (compare, gates, verify,
//! claims) and [`render`] shows reports and analyses (tables, figures, TREC, JUnit); [`job`]
//! carries out a whole command's plan. The one picture of that flow, with every module placed in
//! it, is `ARCHITECTURE.md` at the repository's root; the upstream behaviour the code cites as
//! "spec §" is in `docs/spec/`.
//!
//! # The public API
//!
//! What a library user needs, and the tests, benches and examples use; every other item is
//! `pub(crate)`, the command line ([`cli`], hidden: [`cli::main`] is all it offers) among them,
//! so that the compiler, not a convention, keeps the surface this small:
//! - load a suite: [`suite::Suite::load`] from a [`suite::SuiteSource`] (built-in, custom files,
//!   LoCoMo, LongMemEval), its beliefs, cases and sessions;
//! - pick and build a backend: [`backend::BackendConfig`] (every built-in backend's settings)
//!   and [`backend::BackendFactory`]; or write one: the [`backend::Backend`] trait, its
//!   [`backend::SearchRequest`], [`backend::Hit`] and [`backend::BackendInfo`]
//!   (`examples/custom_backend.rs` is the tutorial);
//! - run: [`run::run_static`], [`run::run_sessions`] with an [`run::Observer`] (or
//!   [`run::Silent`]), or a whole plan: [`job::RunPlan`] and [`job::execute`], and then
//!   the files a run writes beside its reports (JUnit, the step summary, the history, the
//!   page): [`job::files::write_outputs`], and the table `run` prints: [`job::show`]
//!   (`examples/library_run.rs`);
//! - read what was written: [`report::LoadedReport`] (ours and upstream's reports), its rows and
//!   manifest; [`eval::rank`] and [`eval::qrels`] for the rank measures;
//! - compare and judge: [`analysis::compare::compare`] (two reports: flips, McNemar, score
//!   changes), [`analysis::compare::significance::runs_table`] (many runs, paired tests,
//!   Holm-adjusted), [`analysis::gates`] and [`analysis::verify`];
//! - show: [`render`] (the paper's and PrecisionMemBench's tables, any [`render::Table`] as
//!   markdown, CSV, LaTeX or JSON, figures, TREC runs and qrels);
//! - the studies a library user drives: [`study::flywheel`] and [`study::alias_learning`];
//! - vectors: [`embed`] (stores, ONNX and served models), and stores filled for some suites as
//!   `embed` fills them: [`job::embed::FillPlan`].
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
// The modules' docs are written for contributors too and link the crate-private items they
// explain; `cargo doc --document-private-items` resolves those links.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod backend;
/// The command line (`src/main.rs` calls [`cli::main`]); everything else in it is crate-private.
#[doc(hidden)]
pub mod cli;
pub mod context;
pub mod embed;
pub mod error;
pub mod eval;
pub(crate) mod hash;
pub mod io;
pub mod job;
pub mod js;
pub mod profile;
pub mod query;
pub mod render;
pub mod report;
pub mod run;
pub mod serve;
pub mod shard;
pub mod store;
pub mod study;
pub mod suite;
pub mod temporal;

pub use error::{Error, Result};
pub use profile::Profile;
