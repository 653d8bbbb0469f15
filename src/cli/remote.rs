//! Flags of remote services: the ones every remote call shares (`--concurrency`, `--timeout`,
//! `--retries`), and a memory system's (`--url`, `--provider`, `--compat`, ...).

use crate::backend::http::{providers, HttpConfig, Mode};
use crate::{Error, Result};
use clap::{Args, ValueEnum};
use std::path::PathBuf;

/// Remote services: served embedding models and memory systems.
#[derive(Debug, Args)]
#[command(next_help_heading = "Remote calls (served models, memory systems)")]
pub(crate) struct RemoteArgs {
    /// Remote calls in flight at once: embedding calls of a served model; static cases of a
    /// memory system after seeding (sessions stay serial). Reports do not depend on it.
    #[arg(long, default_value_t = 1, value_parser = at_least_one)]
    pub concurrency: usize,
    /// Per-call timeout in seconds (default: 120 for served models, 300 for memory systems,
    /// as Node's fetch).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: Option<u64>,
    /// Extra attempts after a transient failure (timeout, refused, 408, 429, 5xx), with
    /// exponential backoff; memory systems: /search and /reset only, never in --compat pmb.
    #[arg(long, default_value_t = 3)]
    pub retries: u32,
}

/// A count of at least 1: zero calls in flight would run nothing.
pub(crate) fn at_least_one(text: &str) -> std::result::Result<usize, String> {
    match text.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("{text:?} is not a whole number ≥ 1")),
    }
}

/// `--compat` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum CompatArg {
    /// PrecisionMemBench's client at 18c7955, byte for byte, quirks included.
    Pmb,
}

/// A memory system behind PrecisionMemBench's HTTP contract (`--backend http`).
#[derive(Debug, Args)]
#[command(next_help_heading = "Memory system over HTTP (--backend http)")]
pub(crate) struct HttpArgs {
    /// Base URL of the memory system (`http://127.0.0.1:8080`).
    #[arg(long)]
    pub url: Option<String>,
    /// Provider name in reports: `retrieval-report-NAME.json` (default: --provider, else
    /// `http`).
    #[arg(long)]
    pub name: Option<String>,
    /// A provider of --providers-config: its seed delay, update support and /wait, and its
    /// URL unless --url is given.
    #[arg(long, requires = "providers_config")]
    pub provider: Option<String>,
    /// PrecisionMemBench's providers.config.json, read as it is (with --provider, the entry
    /// it reads: alone it was taken and never read, an eighteenth audit).
    #[arg(long, requires = "provider")]
    pub providers_config: Option<PathBuf>,
    /// Reproduce upstream's client exactly (default: the careful client).
    #[arg(long, value_enum)]
    pub compat: Option<CompatArg>,
    /// Reuse what the store holds: no /reset, no seeding.
    #[arg(long)]
    pub no_reseed: bool,
    /// Sleep after every seeded /add, in ms (default: the provider's seedDelayMs, else 0).
    #[arg(long)]
    pub seed_delay_ms: Option<u64>,
    /// Session alias updates go to PUT /update (default: the provider's supportsUpdate).
    #[arg(long)]
    pub supports_update: bool,
    /// POST /wait after seeding (default: the provider's waitAfterSeed).
    #[arg(long)]
    pub wait_after_seed: bool,
    /// Careful mode: sleep after each session mutation, in ms, for stores that index late.
    #[arg(long, default_value_t = 0)]
    pub settle_ms: u64,
}

impl HttpArgs {
    /// No memory system named.
    pub(crate) fn none() -> HttpArgs {
        HttpArgs {
            url: None,
            name: None,
            provider: None,
            providers_config: None,
            compat: None,
            no_reseed: false,
            seed_delay_ms: None,
            supports_update: false,
            wait_after_seed: false,
            settle_ms: 0,
        }
    }

    /// The client these flags describe.
    pub(crate) fn config(&self, remote: &RemoteArgs) -> Result<HttpConfig> {
        let mut name = self.name.clone();
        let mut config = HttpConfig::new("", "http");
        let mut url = self.url.clone();
        if let (Some(provider), Some(path)) = (&self.provider, &self.providers_config) {
            let (key, entry) = providers::load(path, provider)?;
            config.seed_delay_ms = entry.seed_delay_ms;
            config.supports_update = entry.supports_update;
            config.wait_after_seed = entry.wait_after_seed;
            if url.is_none() {
                let (from_file, is_default) = entry.url();
                if is_default {
                    say!(
                        "warning: {} is not set; using {key}'s default URL {from_file} (several \
                         providers share default ports: give --url)",
                        entry.env_var
                    );
                }
                url = Some(from_file);
            }
            name = name.or(Some(key));
        }
        config.url = url.ok_or_else(|| {
            Error::Usage(
                "--backend http needs --url URL (or --provider NAME --providers-config FILE)"
                    .into(),
            )
        })?;
        if !(config.url.starts_with("http://") || config.url.starts_with("https://")) {
            return Err(Error::Usage(format!(
                "--url {:?}: expected http://HOST:PORT or https://...",
                config.url
            )));
        }
        config.name = name.unwrap_or_else(|| "http".into());
        crate::io::check_system_name("--name", &config.name)?;
        config.mode = match self.compat {
            Some(CompatArg::Pmb) => Mode::Compat,
            None => Mode::Careful,
        };
        // Upstream's client neither retries nor waits after a mutation: in compat mode both
        // flags did nothing, yet named the run (`-settle1000`) and its manifest (an audit).
        if config.mode == Mode::Compat {
            crate::cli::given::refuse_ignored(&[
                ("settle_ms", "--settle-ms is the careful client's: --compat pmb, as upstream's client, waits after no mutation"),
                ("retries", "--retries is the careful client's: --compat pmb, as upstream's client, never retries a call"),
            ])?;
        }
        config.reseed = !self.no_reseed;
        // Seeding's flags act on a seeding that --no-reseed skips: the manifest recorded them as
        // applied, and nothing waited (a twelfth audit).
        if self.no_reseed {
            crate::cli::given::refuse_ignored(&[
                (
                    "seed_delay_ms",
                    "--seed-delay-ms sleeps after each seeded /add, and --no-reseed seeds nothing",
                ),
                (
                    "wait_after_seed",
                    "--wait-after-seed asks /wait after seeding, and --no-reseed seeds nothing",
                ),
            ])?;
        }
        if let Some(ms) = self.seed_delay_ms {
            config.seed_delay_ms = ms;
        }
        config.supports_update |= self.supports_update;
        config.wait_after_seed |= self.wait_after_seed;
        config.timeout_secs = remote.timeout.unwrap_or(300).max(1);
        let careful = config.mode == Mode::Careful;
        config.retries = if careful { remote.retries } else { 0 };
        config.settle_ms = if careful { self.settle_ms } else { 0 };
        Ok(config)
    }
}
