//! `provider.py`: a memory system as a process of its own on 127.0.0.1, which a test can kill
//! (or which kills itself after N searches) and start again on the same port, with a log of
//! every request it received (needs `python3`, the standard library only).

use serde_json::Value;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running provider.
pub struct Provider {
    child: Child,
    pub url: String,
    pub port: u16,
    pub log: PathBuf,
}

/// A provider with `faults` (see provider.py), logging into a fresh folder the test writes in
/// too; `None` (said) where python3 is missing. The audits' tests start one this way.
pub fn faulty(faults: &[&str]) -> Option<(tempfile::TempDir, Provider)> {
    use super::needs::{needs, Need};
    if !needs(&[Need::Python3]) {
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let provider = Provider::start(0, &dir.path().join("p.log"), faults);
    Some((dir, provider))
}

impl Provider {
    /// Start on `port` (0: any), logging to `log` (appended), with `flags` (see provider.py).
    pub fn start(port: u16, log: &Path, flags: &[&str]) -> Provider {
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/common/provider.py");
        let mut child = Command::new("python3")
            .arg(script)
            .arg(port.to_string())
            .arg(log)
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.trim().to_string();
        assert!(
            url.starts_with("http://127.0.0.1:"),
            "provider printed {line:?}"
        );
        let port = url.rsplit(':').next().unwrap().parse().unwrap();
        Provider {
            child,
            url,
            port,
            log: log.to_path_buf(),
        }
    }

    /// Wait until it has exited (killed itself, or was killed).
    pub fn wait_dead(&mut self) {
        let _ = self.child.wait();
    }
}

impl Drop for Provider {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Every request in `log`, in order.
pub fn requests(log: &Path) -> Vec<Value> {
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The queries of the searches in `log`, in order.
pub fn searches(log: &Path) -> Vec<String> {
    requests(log)
        .into_iter()
        .filter(|r| r["path"] == "/search")
        .map(|r| r["query"].as_str().unwrap_or("").to_string())
        .collect()
}

/// The searches of cases in `log`: every search but the careful client's probes (the search it
/// makes right after seeding, the first in the log, and again to check the store is kept).
pub fn case_searches(log: &Path) -> Vec<String> {
    let all = searches(log);
    let Some(probe) = all.first().cloned() else {
        return all;
    };
    all.into_iter().filter(|q| *q != probe).collect()
}

/// `tenure-eval static --suite pmb --backend http --url URL --name toy --out OUT --quiet
/// EXTRA...`, not yet run.
pub fn static_toy(url: &str, out: &Path, extra: &[&str]) -> Command {
    toy("static", url, out, extra)
}

/// [`static_toy`] for `command` (`run`, `static` or `session`).
pub fn toy(command: &str, url: &str, out: &Path, extra: &[&str]) -> Command {
    let mut c = super::cli(&[
        command,
        "--suite",
        "pmb",
        "--backend",
        "http",
        "--url",
        url,
        "--name",
        "toy",
        "--quiet",
    ]);
    c.arg("--out").arg(out).args(extra);
    c
}

/// Wait until the journal at `path` holds `n` cases (a run well under way).
pub fn wait_for_cases(path: &Path, n: usize) {
    let started = std::time::Instant::now();
    while std::fs::read_to_string(path).map_or(0, |t| t.matches("{\"case\":").count()) < n {
        assert!(
            started.elapsed().as_secs() < 60,
            "the run never got to case {n}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}
