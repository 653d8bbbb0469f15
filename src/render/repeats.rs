//! A repeated run (`--repeat N`) as text: each measure's mean ± standard deviation with its
//! 95 % confidence interval and range, then the flaky cases, one per line (at most `limit`,
//! then how many more). What the terminal shows under the run table, and `compare` beside
//! each run.

use crate::report::repeats::Repeats;

/// `repeats` of the report named `name`.
pub(crate) fn repeats_text(name: &str, repeats: &Repeats, limit: usize) -> String {
    let mut text = format!(
        "{name}: {} repeats, each on a fresh store (mean ± sd, 95% CI, range)\n",
        repeats.n
    );
    for m in &repeats.measures {
        let s = &m.spread;
        text.push_str(&format!(
            "  {:<14} {:.4} ± {:.4}  [{:.4}, {:.4}]  ({:.4} – {:.4})\n",
            m.measure, s.mean, s.sd, s.ci95[0], s.ci95[1], s.min, s.max
        ));
    }
    match repeats.flaky.len() {
        0 => text.push_str("  flaky: none (every case passed or failed in every repeat)\n"),
        n => {
            text.push_str(&format!(
                "  flaky ({n}, pass/fail differs across repeats):\n"
            ));
            for f in repeats.flaky.iter().take(limit) {
                text.push_str(&format!(
                    "    {}: passed {} of {}\n",
                    f.case, f.passed, f.of
                ));
            }
            if n > limit {
                text.push_str(&format!("    … and {} more\n", n - limit));
            }
        }
    }
    text
}
