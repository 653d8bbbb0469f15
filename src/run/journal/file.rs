//! Writing a journal: one line per `write` call on a file opened for appending, so that each
//! finished case is with the operating system before the next begins (a kill of tenure-eval
//! loses at most the cases in flight); `sync` at a stop asks the disk to keep it through a
//! power cut too. A run that ends does not wait for the disk: its report, written and synced,
//! is the result, and the journal is there for a replay. Open journals are registered, so that the Ctrl-C handler can
//! say where each one stopped ([`interrupted`]).

use super::{Line, Stopped};
use crate::error::{Error, Result};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Journals open in this process, each with the last case written (for [`interrupted`]).
static OPEN: Mutex<Vec<(PathBuf, String)>> = Mutex::new(Vec::new());

/// A journal being written.
#[derive(Debug)]
pub struct JournalWriter {
    path: PathBuf,
    file: File,
    /// The cases (by position) this writer wrote.
    written: std::collections::BTreeSet<usize>,
}

impl JournalWriter {
    /// A new journal at `path` (an old one there is replaced), or, with `append`, the one
    /// there continued.
    pub(crate) fn open(path: &Path, append: bool) -> Result<JournalWriter> {
        let output = |source| Error::Output {
            path: path.to_path_buf(),
            source,
        };
        if let Some(dir) = path.parent() {
            crate::io::create_folder(dir).map_err(output)?;
        }
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .truncate(false)
            .open(path)
            .map_err(output)?;
        if !append {
            file.set_len(0).map_err(output)?;
        }
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|(p, _)| p != path);
        open.push((path.to_path_buf(), String::new()));
        Ok(JournalWriter {
            path: path.to_path_buf(),
            file,
            written: Default::default(),
        })
    }

    /// Where it is.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// The cases (by position) written so far.
    pub(crate) fn written(&self) -> &std::collections::BTreeSet<usize> {
        &self.written
    }

    /// Append `line` in one write.
    pub(crate) fn write(&mut self, line: &Line) -> Result<()> {
        let mut text = serde_json::to_string(line).expect("journal lines serialize");
        text.push('\n');
        self.file
            .write_all(text.as_bytes())
            .map_err(|source| Error::Output {
                path: self.path.clone(),
                source,
            })?;
        if let Line::Case(entry) = line {
            self.written.insert(entry.i);
            let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = open.iter_mut().find(|(p, _)| *p == self.path) {
                slot.1 = entry.id.clone();
            }
        }
        Ok(())
    }

    /// Record why the run stopped, and keep the journal through a power cut.
    pub(crate) fn stopped(&mut self, at: &str, reason: &str) -> Result<()> {
        self.write(&Line::Stopped(Stopped {
            at: at.to_string(),
            reason: reason.to_string(),
        }))?;
        self.sync();
        Ok(())
    }

    /// Ask the disk to keep what was written.
    pub(crate) fn sync(&self) {
        let _ = self.file.sync_data();
    }
}

impl Drop for JournalWriter {
    fn drop(&mut self) {
        let mut open = OPEN.lock().unwrap_or_else(|e| e.into_inner());
        open.retain(|(p, _)| *p != self.path);
    }
}

/// For a signal handler: mark every open journal stopped (`interrupted`, at its last case) and
/// return each with that case. Appends with a fresh handle, since the writer belongs to the
/// thread the signal interrupted.
pub fn interrupted() -> Vec<(PathBuf, String)> {
    let open = match OPEN.try_lock() {
        Ok(open) => open.clone(),
        Err(_) => return Vec::new(),
    };
    for (path, at) in &open {
        let line = Line::Stopped(Stopped {
            at: at.clone(),
            reason: "interrupted".into(),
        });
        if let Ok(mut file) = std::fs::OpenOptions::new().append(true).open(path) {
            // On a line of its own even if a write was torn (the reader skips the torn one).
            let mut text = format!("\n{}", serde_json::to_string(&line).unwrap_or_default());
            text.push('\n');
            let _ = file.write_all(text.as_bytes());
            let _ = file.sync_data();
        }
    }
    open
}
