//! `tenure-eval doctor`: probe a memory system before running the suites against it.

use crate::backend::http::doctor::{self, Probe};
use crate::backend::http::Client;
use crate::cli::format::{only, OutputFormat};
use crate::cli::remote::{HttpArgs, RemoteArgs};
use crate::{Error, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// `tenure-eval doctor`.
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Base URL of the memory system (`http://127.0.0.1:8080`).
    #[arg(long)]
    pub url: Option<String>,
    /// A provider of --providers-config, whose URL to probe unless --url is given.
    #[arg(long, requires = "providers_config")]
    pub provider: Option<String>,
    /// PrecisionMemBench's providers.config.json.
    #[arg(long)]
    pub providers_config: Option<PathBuf>,
    /// Per-call timeout in seconds (at least 1, as `run` takes it: 0 was printed and ran as 1).
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// How long to keep searching for a belief just added before calling it lost, in ms (for
    /// stores that index in the background).
    #[arg(long, default_value_t = 10_000)]
    pub patience_ms: u64,
    /// Findings as a text list or as JSON.
    #[arg(long, default_value = "text", value_parser = only(&[OutputFormat::Text, OutputFormat::Json]))]
    pub format: OutputFormat,
}

/// Probe; exit 0 when nothing fails, 1 when a check fails, 3 when the system cannot be reached.
pub(crate) fn run(args: DoctorArgs) -> Result<ExitCode> {
    if args.url.is_some() && args.providers_config.is_some() {
        return Err(Error::Usage(
            "--url names the system to probe: --provider and --providers-config, which find a \
             URL, would be ignored; give one or the other"
                .into(),
        ));
    }
    let http = HttpArgs {
        url: args.url.clone(),
        provider: args.provider.clone(),
        providers_config: args.providers_config.clone(),
        ..HttpArgs::none()
    };
    let remote = RemoteArgs {
        concurrency: 1,
        timeout: Some(args.timeout),
        retries: 0,
    };
    let config = http.config(&remote)?;
    let client = Client::new(&config.url, config.timeout_secs);
    let probe = Probe {
        patience: Duration::from_millis(args.patience_ms),
    };
    say!(
        "doctor: probing {} (this resets the store; --timeout {}, --patience-ms {})",
        config.url,
        args.timeout,
        args.patience_ms
    );
    // Nothing listening is said as `run` says it (issue 45), and `--format json` prints JSON
    // even then: a script reading stdout gets an answer to parse.
    let checkup = crate::backend::http::watch::reachable(&config.url)
        .and_then(|()| doctor::examine(&client, &probe).map_err(|e| e.message));
    let checkup = match checkup {
        Ok(checkup) => checkup,
        Err(message) => {
            if args.format == OutputFormat::Json {
                let failed =
                    serde_json::json!({"url": config.url, "passed": false, "error": message});
                crate::cli::write_stdout(&format!("{failed:#}\n"))?;
            }
            return Err(Error::backend("http", message));
        }
    };
    let text = match args.format {
        OutputFormat::Text => checkup.text(),
        _ => {
            let mut s =
                serde_json::to_string_pretty(&checkup).map_err(|e| Error::backend("http", e))?;
            s.push('\n');
            s
        }
    };
    crate::cli::write_stdout(&text)?;
    Ok(if checkup.failed() {
        ExitCode::from(crate::error::exit::FAILED_CHECK)
    } else {
        ExitCode::SUCCESS
    })
}
