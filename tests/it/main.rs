//! The integration tests, one binary (each test file used to link its own copy of the
//! library). Modules by concern; `common` holds shared helpers: the one CLI helper
//! (`common::cli`, `tenure_eval*`), the test servers, the Python references, and
//! `common::needs`, which skips a test whose machine lacks ONNX Runtime, the venv, Lucene, a
//! browser or TeX (one line saying what and how to get it) and fails it under
//! `scripts/test.sh`. Modules marked (needs …) skip without it on a plain `cargo test`.

/// The alias flywheel on held-out questions: the split, the captures, the figures.
mod alias_learning;
/// The house's rules: ARCHITECTURE.md names every folder, imports point down, no sibling
/// circles, no module over 400 lines.
mod architecture;
/// Score attribution: contributions add up to each belief's score.
mod attribution;
/// The fifth audit: a repeated run that fails, client flags a run ignores, a gate over no case,
/// a flaky case of a repeated run.
mod audit_ci;
mod audit_eighteenth;
mod audit_eighth;
/// An eleventh audit's findings (compare, plot, html, trec over reports), each kept closed.
mod audit_eleventh;
/// The review of the third audit's fixes and the fourth audit: errored turns, compat runs that
/// failed their calls, `--explain --top 0`, the chance test's cases, `serve`'s default, prune.
mod audit_fourteenth;
mod audit_later;
/// The third audit for wrong numbers with exit 0: settings refused, figures of nothing as "-",
/// edited means caught by `verify`, a page of part of a run or of runs on other files.
mod audit_nineteenth;
/// A ninth audit's findings (models, embed, history, temporal, beam), each kept closed.
mod audit_ninth;
mod audit_numbers;
mod audit_seventeenth;
mod audit_seventh;
mod audit_sixteenth;
mod audit_sixth;
/// A tenth audit's findings (the benchmarks in run, validate, verify and tables), each kept
/// closed.
mod audit_tenth;
mod audit_thirteenth;
mod audit_twelfth;
/// A failing backend is recorded in a complete report, not fatal (exit 3 after the run).
mod backend_errors;
/// Bad input: exit 2, a message naming the file and the JSON path, no report written.
mod bad_input;
/// BEAM as a suite: a small folder in its format, and its released tiers (needs the data).
mod beam;
/// benches/all.rs, the gate's one bench target, holds every bench of Cargo.toml.
mod bench_targets;
/// LoCoMo-Plus and the Temporal Memory Dataset as suites: small files, and the released ones.
mod benchmarks;
/// Each new benchmark through every command that takes a suite, on small files.
mod benchmarks_everywhere;
/// The built-in `bitemporal` suite: valid, and what BM25 and cosine pass by group.
mod bitemporal;
/// `claims` on the paper suite: the pass counts reproduce, cosine claims measured.
mod claims;
/// Grouped help, and one rule for flags that do not apply to the chosen backend.
mod cli_flags;
/// Any qrels as a suite: TREC files and BEIR folders, measured as ir_measures measures them.
mod collections;
/// No command imports another (src/cli/cmd/).
mod command_imports;
/// Shared helpers (see above).
mod common;
/// `compare` on published reports, and a report against itself.
mod compare;
/// tenure-eval.toml: found from the folder up, the command line wins, bad files refused.
mod config;
/// The backend contract, checked the same way for every backend.
mod conformance;
/// The cosine backend over the committed vectors against PrecisionMemBench's vector reports.
mod cosine;
/// Same inputs, byte-identical reports apart from measured fields.
mod determinism;
/// `doctor` against real memory systems on 127.0.0.1 (the README wrapper needs python3).
mod doctor;
/// `embed`'s plan through the library writes the command line's store.
mod embed_plan;
/// `run --explain CASE` through each backend, saying which.
mod explain;
/// Figures as PNG and PDF: size, text in the embedded font, poppler reads the PDF, same bytes.
#[cfg(feature = "figures")]
mod figures;
/// Every flag acts or is refused; no command writes over another's reports.
mod flag_sweep;
/// Flags a command would take and ignore are exit 2; no command writes over another's reports.
mod flags_act;
/// `tenure-eval flywheel`: deterministic by seed, each mechanism alone, the fixed cases.
mod flywheel;
/// The flywheel's sessions pooled, claim C2's condition, and `--sweep` moving the store's size.
mod flywheel_sweep;
/// Property tests: readers and analyzers never panic; refusals are input errors.
mod fuzz;
/// CI gates (exit 1 / 0), JUnit counts, a gate without its baseline refused up front.
mod gates;
/// `pmb` sessions through BM25 against PrecisionMemBench's published session report.
mod golden_pmb_session;
/// `pmb` static cases through BM25 against PrecisionMemBench's published report.
mod golden_pmb_static;
/// Run history: three runs, three points, a planted regression flagged.
mod history;
/// `tenure-eval html` driven in headless Chromium over WebDriver (needs Chromium).
mod html;
/// The html page over the published reports and a 10,000-case report (needs Chromium).
mod html_large;
/// `--backend http` against memory systems on 127.0.0.1, both client modes.
mod http_provider;
/// Input files from pipes, /dev/stdin and `-`; folders refused.
mod inputs;
/// Every command reading benchmark files says when they are not the release.
mod inputs_named;
/// Runs that survive: journals, resume, record and replay, against a provider process.
mod journal;
/// One run label everywhere: distinct files and labels for runs that differ in a
/// result-changing setting, today's names at defaults, `--label`, and `compare` rows.
mod labels;
/// LaTeX of tables, compare and claims compiles under a real pdflatex (needs TeX).
mod latex;
mod left_closed;
/// LoCoMo's released file as a suite: every question, isolation, anomalies, ir_measures.
mod locomo;
/// LoCoMo's observation and summary databases, and its answer key's corrections as a layer.
mod locomo_databases;
/// LongMemEval's importer and metrics on a sample in its documented format.
mod longmemeval;
/// Loud where a system is broken: invented ids, failed calls in compat mode, seeding.
mod loud;
/// Real Lucene gives our answers on a grown store (needs a JDK and liblucene8-java).
mod lucene;
/// Reports of different suites: warned about or refused, naming the files.
mod mixed_reports;
/// `models`: rank measures, the chance row and its test; the cosine floor.
mod models;
/// The second real model against its numpy reference.
mod mpnet;
/// The ONNX embedder on the real MiniLM models (needs ONNX Runtime, the models, the venv).
mod onnx;
/// Output faults through the real binary: full stdout, closed pipes, no panic.
mod output;
/// The `paper` suite through BM25: the paper's 60/60 static claim.
mod paper_static;
/// The paper's tables from a paper-suite run.
mod paper_tables;
/// Figure 2 renders as well-formed SVG.
mod plot;
/// `--compat pmb` against `serve --backend cosine` equals PrecisionMemBench's harness run.
mod pmb_harness;
/// Signals and kills during report writes: nothing half-written is left.
mod process_faults;
/// The built-in suites are the upstream files (sha256 against PROVENANCE.md).
mod provenance;
/// Rank metrics equal ir_measures on the exported TREC files (needs the venv).
mod rank_metrics;
/// The Ray runner on a real local Ray cluster: shards merged, a lost worker (needs the venv
/// with Ray).
mod ray_cluster;
/// The README's commands and facts stay true.
mod readme;
/// `--repeat N`: spread over repeats, and the flaky cases, against a provider process.
mod repeats;
/// A run that goes wrong says so: nothing listening, a store lost mid-run, foreign ids.
mod run_faults;
/// `scale`: a suite-sized store is the suite; grown stores are deterministic.
mod scale;
/// Context scorers through the binary: every hit's score recomputed from its signals.
mod scorers;
/// A multi-segment index scores exactly as a single-segment one.
mod segments;
/// Choosing cases: --case, --category, --limit.
mod selection;
/// `serve` over real HTTP, evaluated by our own HTTP client.
mod serve;
/// Embedding services against the in-process embedder (needs ONNX Runtime, the venv).
mod service;
/// Sharded runs merged: equal to the whole run; mixed, missing and duplicate shards refused.
mod shards;
/// A run's side files never replace one another, an input or a report.
mod side_files;
/// Many-run `compare` with p-values that scipy confirms (needs the venv).
mod significance;
/// Every "spec §" citation resolves to a section under docs/spec/.
mod spec_refs;
/// Streamed reports are the bytes of reports built in memory.
mod streamed;
/// `tables` reproduces PrecisionMemBench's README figures from its published reports.
mod tables;
/// `tenure-eval temporal classify|eval` through the binary.
mod temporal;
/// Two labellings of one set compared (`temporal eval --predicted`), and what it refuses.
mod temporal_agreement;
/// The classifier's BEAM statements are the ones the documented rule draws, in its order.
mod temporal_beam;
/// The classifier's embedded model: its figures on LoCoMo, the embedder it refuses, its retrain.
mod temporal_embedded;
/// The classifier's developer-chat statements are the ones the documented rule draws from LiveChat.
mod temporal_livechat;
/// The classifier's Slack statements are the ones the documented rule draws from the Slack chats.
mod temporal_slack;
/// TREC export: precision recomputed from the files equals the report's.
mod trec;
/// A TREC run made elsewhere, read back, scores what its report says.
mod trec_run;
/// Texts exported, vectors computed elsewhere (the venv's MiniLM), imported, run.
mod vectors_elsewhere;
/// Every study's verdict agrees with the cells beside it.
mod verdicts;
/// `verify` catches tampered aggregates, rows and inputs.
mod verify;
/// The studies read only a whole, finished run on the files they are given.
mod whole_runs;
