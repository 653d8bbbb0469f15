//! The many-run comparison ([`crate::analysis::compare::significance::RunsTable`]) as GitHub
//! markdown and as a LaTeX table: one row per lettered run, each cell the run's mean with the
//! letters of the runs it beats.

use super::table::{render, Table, TableFormat};
use crate::analysis::compare::significance::{RunsTable, PASSED, PRECISION};

/// A column's heading: the measure's ir_measures name, or the suite's own figure.
fn column_title(measure: &str) -> String {
    match measure {
        // PrecisionMemBench's precision: the share of the whole context that is relevant, a set
        // measure (not P@k); named so beside the rank measures.
        PRECISION => "Set precision".into(),
        PASSED => "Passed".into(),
        m => m.into(),
    }
}

impl RunsTable {
    /// Is run `run`'s mean the best (highest) of column `k`?
    fn best(&self, k: usize, run: usize) -> bool {
        let means = &self.columns[k].means;
        let top = means
            .iter()
            .flatten()
            .fold(f64::NEG_INFINITY, |a, b| a.max(*b));
        means[run] == Some(top)
    }

    /// One cell: the mean (4 decimals) and the letters of the runs it beats, marked up by
    /// `bold` and `sup`.
    fn cell(
        &self,
        k: usize,
        run: usize,
        bold: fn(&str) -> String,
        sup: fn(&str) -> String,
    ) -> String {
        let column = &self.columns[k];
        let Some(mean) = column.means[run] else {
            return "–".into();
        };
        let number = if column.measure == PASSED {
            let passed = self.passed[run].unwrap_or_default();
            format!("{passed}/{}", self.common_cases)
        } else {
            format!("{mean:.4}")
        };
        let number = if self.best(k, run) {
            bold(&number)
        } else {
            number
        };
        let beats = column.beats[run].concat();
        if beats.is_empty() {
            number
        } else {
            format!("{number}{}", sup(&beats))
        }
    }

    fn how(&self) -> String {
        format!(
            "Superscripts name the runs a run beats: Fisher's paired randomisation test on the \
             cases both runs have a value for, two-sided, Holm-adjusted over each measure's \
             pairs, p < {}; exact up to {} differing cases, else {} sampled sign patterns (seed \
             {}). Bold: the best mean. {} cases in every run{}.",
            self.alpha,
            crate::eval::stats::EXACT_UP_TO,
            self.resamples,
            self.seed,
            self.common_cases,
            if self.not_in_every_run > 0 {
                format!(", {} left out (not in every run)", self.not_in_every_run)
            } else {
                String::new()
            }
        )
    }

    /// The table as GitHub markdown.
    pub(crate) fn markdown(&self) -> String {
        let mut header = vec!["".to_string(), "Run".to_string()];
        header.extend(self.columns.iter().map(|c| column_title(&c.measure)));
        let rows: Vec<Vec<String>> = self
            .runs
            .iter()
            .enumerate()
            .map(|(i, run)| {
                let mut row = vec![run.letter.clone(), run.name.clone()];
                for k in 0..self.columns.len() {
                    row.push(self.cell(
                        k,
                        i,
                        |n| format!("**{n}**"),
                        |s| format!("<sup>{s}</sup>"),
                    ));
                }
                row
            })
            .collect();
        let table = Table {
            title: "Runs compared".into(),
            header,
            rows,
        };
        format!(
            "{}\n{}\n",
            render(&[table], TableFormat::Markdown),
            self.how()
        )
    }

    /// The table as a captioned, labelled LaTeX float (`table*`, label `tab:compare`) with
    /// booktabs rules, the best value bold and the runs beaten as superscripts, fitted to the
    /// text width.
    pub(crate) fn latex(&self) -> String {
        let mut out = format!(
            "% needs \\usepackage{{{}}}\n\\begin{{table*}}\n\\centering\n{}\n\\caption{{{}}}\\label{{tab:compare}}\n",
            crate::render::tex::PACKAGES,
            // Seven columns or more in 8 pt, as every table we write.
            if self.columns.len() + 2 >= 7 {
                "\\footnotesize\\setlength{\\tabcolsep}{4pt}"
            } else {
                "\\small"
            },
            crate::render::tex::escape(
                &self
                    .how()
                    .replace("Superscripts name the runs a run beats", "A letter in parentheses after a value names the runs it beats")
            )
        );
        out.push_str(&format!(
            "\\begin{{tabularx}}{{\\textwidth}}{{l>{{\\raggedright\\arraybackslash}}X{}}}\n\\toprule\n",
            "r".repeat(self.columns.len())
        ));
        let mut header = vec![String::new(), "Run".to_string()];
        header.extend(
            self.columns
                .iter()
                .map(|c| crate::render::tex::escape(&column_title(&c.measure))),
        );
        out.push_str(&format!("{} \\\\\n\\midrule\n", header.join(" & ")));
        for (i, run) in self.runs.iter().enumerate() {
            let mut row = vec![run.letter.clone(), crate::render::tex::breakable(&run.name)];
            for k in 0..self.columns.len() {
                // The runs beaten follow the value at text size ("0.91 (b)"): a superscript
                // would print under 8 pt.
                let cell = self.cell(k, i, |n| format!("\\textbf{{{n}}}"), |s| format!("~({s})"));
                row.push(cell.replace('–', "--"));
            }
            out.push_str(&format!("{} \\\\\n", row.join(" & ")));
        }
        out.push_str("\\bottomrule\n\\end{tabularx}\n\\end{table*}\n");
        out
    }
}
