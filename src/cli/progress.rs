//! Progress on stderr: a bar on a terminal (done, rate, time left); on a pipe or in CI, a plain
//! line every 10 s once a step has run for 5 s (so a quick command says nothing and a slow one
//! shows it moving in a log); nothing with `--quiet` or `--progress none`. `--progress lines`
//! writes the lines from a step's start. Backend errors and retries are printed as they happen unless `--quiet`, each cause
//! once (the first case it hit): the end of the run counts them (`run::report_errored`).

use crate::backend::BackendError;
use crate::run::{CaseError, Observer};
use clap::ValueEnum;
use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// `--progress` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum ProgressMode {
    /// A bar on a terminal; on a pipe or in CI (`CI` set), a line every 10 s once a step has
    /// run for 5 s.
    Auto,
    /// A bar.
    Bar,
    /// A plain line every 10 s and at the end of each step.
    Lines,
    /// Nothing.
    None,
}

/// `--progress`, on the commands that have long steps to show (run, static, session, merge,
/// embed, models, serve, flywheel); a command without any does not offer it.
#[derive(Debug, Clone, Copy, clap::Args)]
pub(crate) struct ProgressArg {
    /// Progress of long work on stderr: `auto` (a bar on a terminal, nothing in CI or a pipe),
    /// `bar`, `lines` (a plain line every 10 s and at the end of each step, for CI logs) or
    /// `none`. `--quiet` silences it.
    #[arg(long, value_enum, default_value = "auto")]
    pub progress: ProgressMode,
}

/// The mode of this process, set once from the command line.
static MODE: OnceLock<ProgressMode> = OnceLock::new();

/// Set the mode (`--progress`) before any work.
pub(crate) fn set_mode(mode: ProgressMode) {
    let _ = MODE.set(mode);
}

/// How often `lines` writes while a step goes on.
const LINE_EVERY: Duration = Duration::from_secs(10);

/// How long a step runs before `auto` writes lines on a pipe.
const QUIET_FOR: Duration = Duration::from_secs(5);

/// A progress bar observer.
pub(crate) struct Progress {
    bar: ProgressBar,
    visible: bool,
    quiet: bool,
    /// `--progress lines`: the step's name, when a line was last written, and the last state.
    lines: Option<Lines>,
    /// Error and retry messages already shown.
    seen: std::collections::HashSet<String>,
}

/// What the lines keep of the step under way.
struct Lines {
    what: String,
    started: Instant,
    last: Instant,
    state: Option<(usize, usize, String)>,
    written: bool,
    /// A line has been written in this step.
    any: bool,
    /// Nothing is written before the step has run this long (`auto` on a pipe: 5 s).
    quiet_for: Duration,
}

impl Progress {
    /// A bar only when stderr is a terminal, CI is unset and not quiet (`--progress auto`); lines
    /// or nothing when `--progress` says so.
    pub(crate) fn new(quiet: bool, what: &str) -> Progress {
        let mode = MODE.get().copied().unwrap_or(ProgressMode::Auto);
        let terminal = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let visible = !quiet
            && match mode {
                ProgressMode::Auto => terminal,
                ProgressMode::Bar => true,
                ProgressMode::Lines | ProgressMode::None => false,
            };
        let piped = mode == ProgressMode::Auto && !terminal;
        let quiet_for = if piped { QUIET_FOR } else { Duration::ZERO };
        let lines = (!quiet && (mode == ProgressMode::Lines || piped)).then(|| Lines {
            what: String::new(),
            started: Instant::now(),
            last: Instant::now(),
            state: None,
            written: false,
            any: false,
            quiet_for,
        });
        let mut progress = Progress {
            bar: ProgressBar::hidden(),
            visible,
            quiet,
            lines,
            seen: Default::default(),
        };
        progress.start(what);
        progress
    }

    fn start(&mut self, what: &str) {
        self.end_lines();
        if let Some(lines) = &mut self.lines {
            *lines = Lines {
                what: what.to_string(),
                started: Instant::now(),
                last: Instant::now(),
                state: None,
                written: false,
                any: false,
                quiet_for: lines.quiet_for,
            };
        }
        if self.visible {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.reset();
        self.bar.set_length(0);
        self.bar.set_style(
            ProgressStyle::with_template(
                "{prefix} {bar:30} {pos}/{len} {msg} · {per_sec} · {eta} left",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        self.bar.set_prefix(what.to_string());
    }

    /// Show `done` of `total` `unit`.
    pub(crate) fn update(&mut self, done: usize, total: usize, unit: &str) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        self.bar.set_message(unit.to_string());
        if let Some(lines) = &mut self.lines {
            lines.state = Some((done, total, unit.to_string()));
            lines.written = false;
            // The first line once the step has run `quiet_for` (a pipe) or `LINE_EVERY`
            // (`--progress lines`), then one every `LINE_EVERY`.
            let due = if lines.any {
                lines.last.elapsed() >= LINE_EVERY
            } else {
                lines.started.elapsed() >= lines.quiet_for.max(Duration::from_millis(1))
                    && (lines.quiet_for > Duration::ZERO || lines.last.elapsed() >= LINE_EVERY)
            };
            if due {
                lines.write();
            }
        }
    }

    /// Remove the bar (and write the step's last line).
    pub(crate) fn finish(&mut self) {
        self.bar.finish_and_clear();
        self.end_lines();
    }

    /// The step's last state, unless written already (or the step was too short to say
    /// anything of, on a pipe).
    fn end_lines(&mut self) {
        if let Some(lines) = &mut self.lines {
            let long = lines.started.elapsed() >= lines.quiet_for;
            if !lines.written && lines.state.is_some() && long {
                lines.write();
            }
        }
    }

    fn warn(&self, line: String) {
        if !self.quiet {
            self.bar.suspend(|| say!("{line}"));
        }
    }
}

impl Lines {
    /// `embedding for locomo: 2400/7850 texts, 245/s, about 22 s left`.
    fn write(&mut self) {
        if let Some((done, total, unit)) = &self.state {
            let seconds = self.started.elapsed().as_secs_f64();
            let rate = *done as f64 / seconds.max(1e-9);
            let mut line = format!("{}: {done}/{total} {unit}", self.what);
            if *done > 0 && done < total {
                let left = (total - done) as f64 / rate;
                line.push_str(&format!(", {rate:.0}/s, about {left:.0} s left"));
            } else if *done > 0 {
                line.push_str(&format!(" in {seconds:.1} s, {rate:.0}/s"));
            }
            say!("{line}");
        }
        self.last = Instant::now();
        self.written = true;
        self.any = true;
    }
}

impl Observer for Progress {
    fn preparing(&mut self, suite: &str) {
        self.start(&format!("embedding for {suite}"));
    }

    fn embedding(&mut self, done: usize, total: usize) {
        self.update(done, total, "texts");
    }

    fn pass_started(&mut self, title: &str) {
        self.start(title);
    }

    fn pass_finished(&mut self) {
        self.finish();
    }

    fn indexing(&mut self, beliefs: usize) {
        self.bar.set_message(format!("indexing {beliefs} beliefs"));
    }

    fn seeding(&mut self, done: usize, total: usize) {
        self.update(done, total, "beliefs seeded");
    }

    fn finished(&mut self, done: usize, total: usize, label: &str) {
        self.update(done, total, label);
    }

    fn retrying(&mut self, label: &str, attempt: u32, error: &BackendError) {
        if self.seen.insert(format!("retry {}", error.message)) {
            self.warn(format!(
                "warning: {label}: {error}; attempt {attempt} (shown once per cause)"
            ));
        }
    }

    fn errored(&mut self, label: &str, error: &CaseError) {
        // A lost store stops the run; its error says where.
        if error.kind == crate::backend::ErrorKind::Lost
            || !self.seen.insert(format!("error {}", error.message))
        {
            return;
        }
        self.warn(format!(
            "warning: {label}: backend error ({}, after {} attempt{}): {}; recorded, the run goes \
             on (shown once per cause)",
            error.kind,
            error.attempts,
            if error.attempts == 1 { "" } else { "s" },
            error.message
        ));
    }
}
