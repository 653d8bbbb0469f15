//! One rule for flags that do not apply to the chosen backends: giving one is a usage error
//! (exit 2) that names the flag and what it applies to. A warning would leave a run that looks
//! configured but is not (`--hnsw-m 64` under an exact index measures nothing of HNSW), and a
//! rule that is sometimes an error and sometimes silence is no rule. A flag counts as given
//! when it is on the command line, whatever its value ([`given`]).

use super::args::{BackendArg, FusionArgs};
use super::backends::IndexArg;
use clap::parser::ValueSource;
use std::collections::BTreeSet;
use std::sync::OnceLock;
use tenure_eval::{Error, Result};

/// The ids (field names) of the flags given on the command line, of the subcommand run.
static GIVEN: OnceLock<BTreeSet<String>> = OnceLock::new();

/// Parse the command line, remembering which flags were given.
pub fn parse() -> std::result::Result<super::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = super::Cli::command().try_get_matches()?;
    let mut given = BTreeSet::new();
    if let Some((_, sub)) = matches.subcommand() {
        for id in sub.ids() {
            if sub.value_source(id.as_str()) == Some(ValueSource::CommandLine) {
                given.insert(id.as_str().to_string());
            }
        }
    }
    let _ = GIVEN.set(given);
    super::Cli::from_arg_matches(&matches)
}

/// Was the flag whose field is `id` given on the command line?
pub fn given(id: &str) -> bool {
    GIVEN.get().is_some_and(|g| g.contains(id))
}

/// `--flag-name` of the field `id`.
fn flag(id: &str) -> String {
    format!("--{}", id.replace('_', "-"))
}

/// Which backend (or setting) each backend-specific flag needs.
const NEEDS: &[(&str, &[&str])] = &[
    ("bm25", &["min_score"]),
    (
        "cosine",
        &[
            "model",
            "index",
            "belief_text",
            "query_text",
            "ort_lib",
            "store_dir",
            "store_name",
            "threads",
            "batch_size",
            "ollama_api",
            "api_key_env",
            "query_prefix",
            "document_prefix",
        ],
    ),
    (
        "hnsw",
        &["hnsw_m", "hnsw_ef_construction", "hnsw_ef_search"],
    ),
    ("fusion", &["fuse", "fusion_depth", "fusion_floor"]),
    ("rrf", &["rrf_k"]),
    ("combsum", &["combsum_weights"]),
    (
        "http",
        &[
            "url",
            "name",
            "provider",
            "providers_config",
            "compat",
            "no_reseed",
            "seed_delay_ms",
            "supports_update",
            "wait_after_seed",
            "settle_ms",
        ],
    ),
];

/// Refuse a flag given for a backend that is not among `chosen` (nor fused by one of them).
pub fn check(chosen: &[BackendArg], fusion: &FusionArgs, index: IndexArg) -> Result<()> {
    let mut used: Vec<BackendArg> = chosen.to_vec();
    let fuses = chosen.iter().any(|b| fusion.method(*b).is_some());
    if fuses {
        used.extend(fusion.fuse.iter().copied());
    }
    let has = |b: BackendArg| used.contains(&b);
    let mut names: Vec<String> = chosen.iter().map(|b| b.name().to_string()).collect();
    if has(BackendArg::Cosine) && index == IndexArg::Exact {
        names.push("with --index exact".into());
    }
    for (needs, ids) in NEEDS {
        let (applies, what) = match *needs {
            "bm25" => (has(BackendArg::Bm25), "--backend bm25 (or a fusion of it)"),
            "cosine" => (
                has(BackendArg::Cosine),
                "--backend cosine (or a fusion of it)",
            ),
            "hnsw" => (
                has(BackendArg::Cosine) && index == IndexArg::Hnsw,
                "--backend cosine with --index hnsw",
            ),
            "fusion" => (fuses, "--backend rrf, combsum or fallback"),
            "rrf" => (has(BackendArg::Rrf), "--backend rrf"),
            "combsum" => (has(BackendArg::Combsum), "--backend combsum"),
            _ => (has(BackendArg::Http), "--backend http (or a fusion of it)"),
        };
        if applies {
            continue;
        }
        if let Some(id) = ids.iter().find(|id| given(id)) {
            return Err(Error::Usage(format!(
                "{} applies to {what}; the backends chosen are {}: drop the flag or choose \
                 what it applies to",
                flag(id),
                names.join(", ")
            )));
        }
    }
    Ok(())
}
