//! `tenure-eval run|static|session`: a plan from flags, carried out by the library; what
//! happens once it is made (the table, the gate files, the exit code) is `cli::finish`.

use crate::backend::Workload;
use crate::cli::args::{load, GateArgs, OutputArgs, SuiteArgs};
use crate::cli::backends::{BackendArg, BackendFlags};
use crate::cli::finish::{baselines, finish};
use crate::cli::journal::{refuse_backends_in_replay, JournalArgs};
use crate::cli::remote::{HttpArgs, RemoteArgs};
use crate::job::RunPlan;
use crate::shard::Shard;
use crate::suite::Suite;
use crate::Result;
use clap::Args;
use std::process::ExitCode;

/// `tenure-eval run|static|session`.
#[derive(Debug, Args)]
pub(crate) struct RunArgs {
    /// Progress on stderr.
    #[command(flatten)]
    pub progress: crate::cli::progress::ProgressArg,
    /// Suite selection.
    #[command(flatten)]
    pub suite: SuiteArgs,
    /// Run only the cases (static or session) whose id matches: an id or a glob (`conv-26/*`);
    /// repeatable. Reports go to SUITE-selected/, never over a whole run's.
    #[arg(long = "case", value_name = "ID", help_heading = "Cases",
          conflicts_with_all = ["explain", "shard"])]
    pub case: Vec<String>,
    /// Run only the static cases of this category; repeatable (session cases have none).
    #[arg(long, value_name = "NAME", help_heading = "Cases", conflicts_with_all = ["explain", "shard"])]
    pub category: Vec<String>,
    /// Run at most N static cases and N session cases, the first in file order (a smoke test
    /// of a slow system).
    #[arg(long, value_name = "N", help_heading = "Cases", conflicts_with_all = ["explain", "shard"])]
    pub limit: Option<usize>,
    /// Retrieval backends, comma-separated (default: bm25, or cosine when --model is given).
    #[arg(long, value_enum, value_delimiter = ',', help_heading = "Backends")]
    pub backend: Vec<BackendArg>,
    /// The built-in backends' settings.
    #[command(flatten)]
    pub backends: BackendFlags,
    /// Instead of running: why this static case's search tier holds what it holds, through the
    /// one --backend given (default bm25): BM25's best candidates with their terms (those below
    /// the floor too), cosine's similarities, a context scorer's signals and tier, a fusion's
    /// ranks.
    #[arg(long, value_name = "CASE", help_heading = "Explain one case")]
    pub explain: Option<String>,
    /// With --explain: how many candidates to show.
    #[arg(
        long,
        default_value_t = 10,
        requires = "explain",
        help_heading = "Explain one case",
        value_parser = crate::cli::remote::at_least_one
    )]
    pub top: usize,
    /// Remote calls: concurrency, timeout, retries.
    #[command(flatten)]
    pub remote: RemoteArgs,
    /// A memory system over HTTP.
    #[command(flatten)]
    pub http: HttpArgs,
    /// Stop a pass after this many errored cases or turns; a pass with errors, or stopped,
    /// writes its report beside the good one, in failed/.
    #[arg(long, value_name = "N", default_value_t = crate::job::errors::DEFAULT_MAX_ERRORS)]
    pub max_errors: usize,
    /// Output.
    #[command(flatten)]
    pub output: OutputArgs,
    /// Name the run (one backend): its report files (`retrieval-report-NAME.json`), table and
    /// `compare` rows, figure legends, gates and JUnit [default: the backend's name and each
    /// result-changing setting not at its default, e.g. `rrf(bm25+cosine/all-minilm-l6-v2)-k30`].
    #[arg(long, value_name = "NAME", help_heading = "Output")]
    pub label: Option<String>,
    /// CI gates.
    #[command(flatten)]
    pub gates: GateArgs,
    /// Also write one self-contained HTML page of the reports this run wrote (see `html`).
    #[arg(long, value_name = "FILE.html")]
    pub html: Option<std::path::PathBuf>,
    /// Journals: resume, rerun, record, replay.
    #[command(flatten)]
    pub journal: JournalArgs,
    /// Run each pass N times, each on a fresh store, and report every measure's mean, spread
    /// and 95% confidence interval, and the cases whose pass/fail differs (flaky): for a
    /// memory system that answers differently from run to run. The report's cases are the
    /// last repeat's. (A recording holds one run's answers: `--record` is refused.)
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Repeat",
          value_parser = clap::value_parser!(u32).range(1..),
          conflicts_with_all = ["resume", "rerun_errored", "rerun_failed", "replay", "record"])]
    pub repeat: u32,
    /// Run history.
    #[command(flatten)]
    pub history: crate::cli::finish::RunHistoryArgs,
    /// Run shard K of N: the cases whose id hashes to it (sessions whole), into this --out;
    /// `tenure-eval merge` makes the whole run's reports from every shard's folder.
    /// (A history records whole runs: `merge --history` appends the merged one.)
    #[arg(long, value_name = "K/N", help_heading = "Shard",
          conflicts_with_all = ["replay", "repeat"])]
    pub shard: Option<String>,
}

impl RunArgs {
    /// Chosen backends, in order, without repeats. With none named: the memory system, else
    /// cosine when a model is named, else the lexical backend the suite's items can be matched
    /// by: alias-BM25 where they carry names and aliases, plain BM25 (`bm25-text`) where they
    /// are text (LoCoMo, BEAM, a test collection).
    pub(crate) fn backend_args(&self, suite: &Suite) -> Vec<BackendArg> {
        let mut chosen: Vec<BackendArg> = Vec::new();
        if self.backend.is_empty() {
            chosen.push(if self.http.url.is_some() || self.http.provider.is_some() {
                BackendArg::Http
            } else if !self.backends.cosine.model.is_empty() {
                BackendArg::Cosine
            } else if suite.has_aliases() {
                BackendArg::Bm25
            } else {
                BackendArg::Bm25Text
            });
        }
        for b in &self.backend {
            if !chosen.contains(b) {
                chosen.push(*b);
            }
        }
        chosen
    }
}

/// Run `kinds` of the suite through each backend (or, with `--replay`, re-score a recording).
pub(crate) fn run(args: RunArgs, kinds: &[Workload]) -> Result<ExitCode> {
    let mut suite = load(&args.suite)?;
    if !args.output.quiet {
        for note in crate::cli::args::input_notes(&suite) {
            say!("{note}");
        }
    }
    let selection = crate::suite::select::Selection {
        cases: args.case.clone(),
        categories: args.category.clone(),
        limit: args.limit,
    };
    if !selection.is_all() {
        let whole = suite.label();
        let (kept, of, sessions, of_sessions) = suite.select(&selection)?;
        // Said even with --quiet: the reports are of these cases only.
        say!(
            "note: {kept} of {of} static cases and {sessions} of {of_sessions} session cases of \
             {whole} selected; reports go to {}/, never over a whole run's",
            args.output.out.join(suite.label()).display()
        );
    }
    if let Some(case) = &args.explain {
        let explain = crate::cli::explain::ExplainArgs {
            backend: &args.backend,
            backends: &args.backends,
            remote: &args.remote,
            http: &args.http,
            top: args.top,
        };
        return crate::cli::explain::run(explain, &suite, case);
    }
    // The memory system's session flags without a session pass did nothing (`--settle-ms` still
    // renamed the run); nor do they on a suite without sessions (a benchmark's questions).
    let none = match kinds.contains(&Workload::Session) {
        false => "`static` runs no session".to_string(),
        true => format!("{} has no sessions", suite.label()),
    };
    if !kinds.contains(&Workload::Session) || suite.sessions.is_empty() {
        let why = |flag: &str, acts: &str| format!("--{flag} {acts}, and {none}");
        let session = "acts on a session's earlier turns";
        crate::cli::given::refuse_ignored(&[
            (
                "supports_update",
                &why(
                    "supports-update",
                    "sends session alias updates to PUT /update",
                ),
            ),
            (
                "settle_ms",
                &why("settle-ms", "waits after each session mutation"),
            ),
            // The composite scorer's revisitation reads earlier turns (docs/scorer.md: null in
            // static runs); these renamed a static run and changed nothing in it.
            ("revisit_rate", &why("revisit-rate", session)),
            ("revisit_cap", &why("revisit-cap", session)),
            ("revisit_threshold", &why("revisit-threshold", session)),
        ])?;
    }
    // Gate inputs are checked before any work.
    let baselines = baselines(&args.gates)?;
    let replay = args.journal.replay.clone();
    let backends = if replay.is_some() {
        refuse_backends_in_replay()?;
        Vec::new()
    } else {
        let chosen = args.backend_args(&suite);
        args.backends
            .check(&chosen, Some(&args.http), kinds.contains(&Workload::Static))?;
        args.backends
            .configs(&chosen, &args.remote, Some(&args.http))?
    };
    // A `[defaults] min-active-passes` is for the commands that run static cases: `session`
    // says it and leaves it, as it does any default it has no use for (it was exit 2 without
    // naming the file: a thirteenth audit). Given on the command line, it is refused.
    let mut gates = args.gates.gates();
    if gates.min_active_passes.is_some()
        && !kinds.contains(&Workload::Static)
        && !crate::cli::given::given_else_noted("min_active_passes", || {
            "--min-active-passes judges static reports, and this command runs none".into()
        })
    {
        gates.min_active_passes = None;
    }
    let mut plan = RunPlan::new(suite, backends, kinds, &args.output.out)?
        .with_gates(gates, baselines)?
        .with_label(args.label.clone())
        .map_err(|e| match (e, crate::cli::given::from_config("label")) {
            // A label the config file set is refused naming its line: the user may not know
            // the file gave one (a fourteenth audit's leftover).
            (crate::Error::Usage(why), Some(at)) => crate::Error::Usage(format!("{why} ({at})")),
            (e, _) => e,
        })?;
    plan.concurrency = args.remote.concurrency.max(1);
    plan.max_errors = args.max_errors;
    plan.journal = args.journal.plan();
    // Each repeat runs on a fresh store; --no-reseed keeps the store as it is, so repeat 2 ran
    // on what repeat 1 changed, and the manifest said "each on a fresh store" (an eighteenth
    // audit).
    if args.repeat > 1 && args.http.no_reseed {
        return Err(crate::Error::Usage(
            "--repeat runs each repeat on a fresh store, and --no-reseed keeps the store as it \
             is: a later repeat would run on what the one before changed; drop one of them"
                .into(),
        ));
    }
    plan.repeat = args.repeat as usize;
    plan.shard = args.shard.as_deref().map(Shard::parse).transpose()?;
    if let Some(dir) = &replay {
        plan = plan.with_replay(dir)?;
    }
    // A history records whole runs: a shard or a selection in it stood in the series as one
    // (an audit found a selection's 11 cases and a category's 23 read as "no regression" of one
    // series). `--history` with either is refused; one from the config file is skipped, said.
    // Nor does a run that is not one measurement of the system (a twelfth audit): a replay
    // measures nothing anew (it recorded a run at a commit that never ran, dated at the
    // replay), a second look keeps the passes and re-sends the failures (it cleared a flagged
    // regression), and repeats are several measurements of which the report's cases are the
    // last's.
    let mut history = args.history;
    let part = if plan.shard.is_some() {
        Some((
            "a shard",
            "give it to `merge`, which appends the merged run",
        ))
    } else if !selection.is_all() {
        Some((
            "a selection of cases (--case, --category, --limit)",
            "run the whole suite to append to it",
        ))
    } else if replay.is_some() {
        Some(("a replay", "the recorded run is appended when it is made"))
    } else if args.journal.rerun_failed {
        Some((
            "a second look (--rerun-failed: the passes kept, the failures sent again)",
            "append the first look",
        ))
    } else if args.repeat > 1 {
        Some((
            "several measurements (--repeat)",
            "append a run without --repeat; the report's repeats block holds every repeat's",
        ))
    } else {
        None
    };
    if let (Some((what, then)), Some(_)) = (part, &history.history) {
        let why = || format!("the history is not appended for {what}; {then}");
        if crate::cli::given::given_else_noted("history", why) {
            return Err(crate::Error::Usage(format!(
                "--history records whole runs, and this is {what}: {then}"
            )));
        }
        history.history = None;
        history.commit = None;
    }
    finish(
        plan,
        &args.output,
        &args.gates,
        args.html.as_deref(),
        &history,
        None,
    )
}
