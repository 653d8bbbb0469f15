//! Progress on a terminal (stderr), silent in CI, in pipes and with `--quiet`.

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use tenure_eval::run::Observer;

/// A progress bar observer.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// Visible only when stderr is a terminal, CI is unset and not quiet.
    pub fn new(quiet: bool, what: &str) -> Progress {
        let visible = !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
        let bar = if visible {
            ProgressBar::new(0)
        } else {
            ProgressBar::hidden()
        };
        bar.set_style(
            ProgressStyle::with_template("{prefix} {bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_prefix(what.to_string());
        Progress { bar }
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
}

impl Observer for Progress {
    fn indexing(&mut self, beliefs: usize) {
        self.bar.set_message(format!("indexing {beliefs} beliefs"));
    }

    fn finished(&mut self, done: usize, total: usize, label: &str) {
        self.bar.set_length(total as u64);
        self.bar.set_position(done as u64);
        self.bar.set_message(label.to_string());
    }
}
