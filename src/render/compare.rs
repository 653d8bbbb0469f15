//! `compare BASE NEW` as markdown: the comparison [`crate::analysis::compare::compare`]
//! measured, with its flips, per-category table and largest score changes.

use super::table::{number_cell as opt, render, Table, TableFormat};
use crate::analysis::compare::{Comparison, FLIPS_SHOWN};

impl Comparison {
    /// The comparison as markdown.
    pub(crate) fn markdown(&self) -> String {
        let mut out = format!(
            "## Comparison\n\nBASE `{}` → NEW `{}`: {} paired cases",
            self.base, self.new, self.paired
        );
        if !self.only_in_base.is_empty() || !self.only_in_new.is_empty() {
            out.push_str(&format!(
                " ({} only in BASE, {} only in NEW)",
                self.only_in_base.len(),
                self.only_in_new.len()
            ));
        }
        out.push_str(".\n\n");
        out.push_str(&format!(
            "- flips: {} pass→fail, {} fail→pass; exact McNemar p = {}\n- set precision per case (PrecisionMemBench's, over the whole context; both non-null): {} wins, {} ties, {} losses\n",
            self.pass_to_fail.len(),
            self.fail_to_pass.len(),
            if self.mcnemar_p < 1e-4 { format!("{:.3e}", self.mcnemar_p) } else { format!("{:.4}", self.mcnemar_p) },
            self.wins,
            self.ties,
            self.losses
        ));
        match &self.precision_difference {
            Some(i) => out.push_str(&format!(
                "- mean set precision difference (NEW − BASE): {:+.4}, 95 % paired bootstrap interval [{:+.4}, {:+.4}] ({} resamples, seed {})\n\n",
                i.mean, i.bounds.low, i.bounds.high, i.resamples, i.seed
            )),
            None => out.push_str("- mean set precision difference: no case has a precision in both runs\n\n"),
        }
        if let Some(d) = &self.drift {
            out.push_str(&format!(
                "- mean drift, 1 − precision (PrecisionMemBench): {} → {}\n",
                opt(d.base_precision_drift, 4),
                opt(d.new_precision_drift, 4)
            ));
            out.push_str(&format!(
                "- mean drift, noise / (relevant + pinned) (the paper): {} → {}\n",
                opt(d.base_noise_drift, 4),
                opt(d.new_noise_drift, 4)
            ));
            out.push('\n');
        }
        for (side, repeats) in [("BASE", &self.base_repeats), ("NEW", &self.new_repeats)] {
            if let Some(r) = repeats {
                out.push_str(&crate::render::repeats::repeats_text(side, r, FLIPS_SHOWN));
                out.push('\n');
            }
        }
        for (title, flips) in [
            ("Pass → fail", &self.pass_to_fail),
            ("Fail → pass", &self.fail_to_pass),
        ] {
            if !flips.is_empty() {
                out.push_str(&format!("### {title} ({})\n\n", flips.len()));
                for f in flips.iter().take(FLIPS_SHOWN) {
                    let why = match f.failures.as_slice() {
                        [] => String::new(),
                        [one] => format!(": {one}"),
                        [first, rest @ ..] => format!(": {first} (+{} more)", rest.len()),
                    };
                    let flaky = if self.flaky(&f.case) { " (flaky)" } else { "" };
                    out.push_str(&format!("- `{}` ({}){flaky}{why}\n", f.case, f.category));
                }
                if flips.len() > FLIPS_SHOWN {
                    out.push_str(&format!(
                        "- … and {} more (`--format json` lists every one)\n",
                        flips.len() - FLIPS_SHOWN
                    ));
                }
                out.push('\n');
            }
        }
        let categories = Table {
            title: "Per category".into(),
            header: [
                "Category",
                "Cases",
                "Passed (BASE)",
                "Passed (NEW)",
                "Precision (BASE)",
                "Precision (NEW)",
            ]
            .map(String::from)
            .to_vec(),
            rows: self
                .categories
                .iter()
                .map(|c| {
                    vec![
                        c.category.clone(),
                        c.cases.to_string(),
                        c.base_passed.to_string(),
                        c.new_passed.to_string(),
                        opt(c.base_precision, 4),
                        opt(c.new_precision, 4),
                    ]
                })
                .collect(),
        };
        out.push_str(&render(&[categories], TableFormat::Markdown));
        if let Some(why) = &self.scores_not_compared {
            out.push_str(&format!("\n{why}.\n"));
        }
        if !self.largest_score_changes.is_empty() {
            let changes = Table {
                title: "Largest score changes".into(),
                header: ["Case", "Belief", "BASE", "NEW"].map(String::from).to_vec(),
                rows: self
                    .largest_score_changes
                    .iter()
                    .map(|s| {
                        vec![
                            s.case.clone(),
                            s.belief.clone(),
                            opt(s.base, 2),
                            opt(s.new, 2),
                        ]
                    })
                    .collect(),
            };
            out.push('\n');
            out.push_str(&render(&[changes], TableFormat::Markdown));
        }
        out
    }
}
