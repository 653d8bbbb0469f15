//! A checkup as the text `tenure-eval doctor` prints: a line per check (`ok    check   what it
//! saw`) with, indented under it, what that does to a run; then the counts and the search
//! latency.

use super::{Checkup, Verdict};

impl Checkup {
    /// The checkup as text, one line per finding and a line of counts.
    pub(crate) fn text(&self) -> String {
        let mut out = format!("doctor: {}\n", self.url);
        for f in &self.findings {
            let mark = match f.verdict {
                Verdict::Ok => "ok",
                Verdict::Warn => "WARN",
                Verdict::Fail => "FAIL",
                Verdict::Skipped => "skip",
            };
            out.push_str(&format!("{mark:<5} {:<13} {}\n", f.check, f.saw));
            if !f.effect.is_empty() {
                out.push_str(&format!("{:<19}-> {}\n", "", f.effect));
            }
        }
        let count = |v| self.findings.iter().filter(|f| f.verdict == v).count();
        out.push_str(&format!(
            "{} ok, {} warnings, {} failed",
            count(Verdict::Ok),
            count(Verdict::Warn),
            count(Verdict::Fail)
        ));
        if let Some(ms) = self.search_p50_ms {
            out.push_str(&format!("; search p50 {ms:.1} ms"));
        }
        out.push('\n');
        out
    }
}
