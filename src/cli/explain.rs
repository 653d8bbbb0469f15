//! `run --explain CASE` (a flag of `run`, not a command of its own): one backend's account of
//! one static case (alias-BM25's own, with its candidates below the floor; any other backend's
//! through `job::explain`).

use crate::cli::backends::{BackendArg, BackendFlags};
use crate::cli::remote::{HttpArgs, RemoteArgs};
use crate::Result;
use clap::ValueEnum;
use std::process::ExitCode;

/// `--explain CASE`: one backend's account of one static case.
/// The flags of `run` that `--explain` reads.
pub(crate) struct ExplainArgs<'a> {
    /// `--backend` (empty: bm25).
    pub backend: &'a [BackendArg],
    /// The built-in backends' settings.
    pub backends: &'a BackendFlags,
    /// Remote calls.
    pub remote: &'a RemoteArgs,
    /// A memory system's settings.
    pub http: &'a HttpArgs,
    /// `--top`.
    pub top: usize,
}

/// Explain `case` of `suite` through the one backend `args` choose.
pub(crate) fn run(
    args: ExplainArgs<'_>,
    suite: &crate::suite::Suite,
    case: &str,
) -> Result<ExitCode> {
    refuse_unread()?;
    let chosen = if args.backend.is_empty() && suite.has_aliases() {
        vec![BackendArg::Bm25]
    } else if args.backend.is_empty() {
        vec![BackendArg::Bm25Text]
    } else {
        args.backend.to_vec()
    };
    args.backends.check(&chosen, Some(args.http), true)?;
    let mut configs = args
        .backends
        .configs(&chosen, args.remote, Some(args.http))?;
    if configs.len() != 1 {
        return Err(crate::Error::Usage(format!(
            "--explain explains one backend; {} were given (--backend {})",
            configs.len(),
            chosen
                .iter()
                .map(|b| b
                    .to_possible_value()
                    .map_or("?".into(), |v| v.get_name().to_string()))
                .collect::<Vec<_>>()
                .join(",")
        )));
    }
    let text = match &configs[0] {
        crate::backend::BackendConfig::Bm25(c) => {
            let found = crate::backend::bm25::explain::find_static_case(suite, case)?;
            let excluded =
                crate::job::explain::excluded(suite, found, crate::backend::Reader::Text);
            crate::backend::bm25::explain::explain_case(
                suite,
                case,
                c.min_score,
                args.top,
                &excluded,
            )?
            .markdown()
        }
        _ => crate::job::explain::explain_case(suite, case, &mut configs[0], args.top)?,
    };
    crate::cli::write_stdout(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `--explain` prints one case's account and writes nothing: every flag of `run` that writes,
/// gates, records, repeats or names a run would be silently ignored, so each is refused, named
/// (found by an audit: `--explain X --fail-on any-failure --junit FILE` exited 0 and wrote
/// neither). `--quiet` stays: it quiets what `--explain` says on stderr.
fn refuse_unread() -> Result<()> {
    use crate::cli::args::{GateArgs, OutputArgs};
    use crate::cli::backends::ids;
    use crate::cli::finish::RunHistoryArgs;
    use crate::cli::journal::JournalArgs;
    // A static case's account: the session flags (revisitation reads earlier turns; settling
    // and updates act on session mutations) changed nothing in it (a thirteenth audit).
    let mut refused: Vec<String> = [
        "label",
        "html",
        "repeat",
        "max_errors",
        "shard",
        "revisit_rate",
        "revisit_cap",
        "revisit_threshold",
        "settle_ms",
        "supports_update",
    ]
    .map(String::from)
    .into();
    refused.extend(ids::<OutputArgs>().into_iter().filter(|id| id != "quiet"));
    refused.extend(ids::<GateArgs>());
    refused.extend(ids::<JournalArgs>());
    refused.extend(ids::<RunHistoryArgs>());
    match crate::cli::given::first_given(
        &refused,
        "--explain prints one case's account and writes no report",
    ) {
        Some(flag) => Err(crate::Error::Usage(format!(
            "--explain prints one case's account and writes no report; {flag} does not apply"
        ))),
        None => Ok(()),
    }
}
