//! Progress on a terminal (stderr), silent in CI, in pipes and with `--quiet`. Backend errors
//! and retries are printed as they happen unless `--quiet`, each cause once (the first case
//! it hit): the end of the run counts them (`run::report_errored`).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use tenure_eval::backend::BackendError;
use tenure_eval::run::{CaseError, Observer};

/// A progress bar observer.
pub struct Progress {
    bar: ProgressBar,
    visible: bool,
    quiet: bool,
    /// Error and retry messages already shown.
    seen: std::collections::HashSet<String>,
}

impl Progress {
    /// Visible only when stderr is a terminal, CI is unset and not quiet.
    pub fn new(quiet: bool, what: &str) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let progress = Progress {
            bar: ProgressBar::hidden(),
            visible,
            quiet,
            seen: Default::default(),
        };
        progress.start(what);
        progress
    }

    fn start(&self, what: &str) {
        if self.visible {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr());
        }
        self.bar.reset();
        self.bar.set_length(0);
        self.bar.set_style(
            ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        self.bar.set_prefix(what.to_string());
    }

    /// Show `done` of `total` `unit`.
    pub fn update(&self, done: usize, total: usize, unit: &str) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        self.bar.set_message(unit.to_string());
    }

    /// Remove the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }

    fn warn(&self, line: String) {
        if !self.quiet {
            self.bar.suspend(|| say!("{line}"));
        }
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
        if error.kind == tenure_eval::backend::ErrorKind::Lost
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
