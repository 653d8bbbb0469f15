//! Every LaTeX output is ready for a paper: `tables`, `compare`, `claims`, `temporal eval` and
//! `history` put in a plain `article`, once in one column and once in two, compiled with a
//! real pdflatex. A run fails on an error, a missing character, any overfull box, a float too
//! large for its page, a font under 8 pt (pdffonts: Computer Modern's design sizes), a table
//! without its caption and label, or a row missing from the PDF's text (pdftotext). pdflatex
//! and poppler come from Debian's packages (`scripts/setup-tex.sh`, `scripts/setup-poppler.sh`).

use crate::common::needs::{needs, Need};
use crate::common::tenure_eval_ok;
use std::path::Path;
use std::process::Command;

/// Letters and digits only: what survives ligatures, quotes, dashes and line breaks.
fn squash(s: &str) -> String {
    s.chars().filter(|c| c.is_ascii_alphanumeric()).collect()
}

/// Compile `body` in a one- and a two-column article and check it; `rows` are the first cells
/// of the table rows the output must show.
fn compile(name: &str, body: &str, rows: &[String]) {
    let floats = body.matches("\\begin{table*}").count();
    assert!(floats > 0, "{name}: no float:\n{body}");
    let captions = body.matches("\\caption{").count();
    assert_eq!(captions, floats, "{name}: a float without its caption");
    let labels: Vec<&str> = body.split("\\label{tab:").skip(1).collect();
    assert!(!labels.is_empty(), "{name}: no label");
    let mut names: Vec<&str> = labels
        .iter()
        .map(|l| l.split('}').next().unwrap())
        .collect();
    names.sort();
    let n = names.len();
    names.dedup();
    assert_eq!(names.len(), n, "{name}: labels repeat");
    // TeX's opening quotes (``) are the only backquotes left: Markdown's code spans are gone.
    assert!(
        !body.replace("``", "").contains('`'),
        "{name}: a Markdown backquote reached TeX"
    );
    for class in ["", "twocolumn"] {
        let dir = tempfile::tempdir().unwrap();
        let tex = format!(
            "\\documentclass[{class}]{{article}}\n\\usepackage{{booktabs,tabularx,caption,adjustbox}}\n\
             \\begin{{document}}\n{body}\n\\end{{document}}\n"
        );
        std::fs::write(dir.path().join("t.tex"), &tex).unwrap();
        let out = Command::new("pdflatex")
            .args(["-interaction=nonstopmode", "-halt-on-error", "t.tex"])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let what = format!(
            "{name} [{}]",
            if class.is_empty() {
                "one column"
            } else {
                class
            }
        );
        let log = std::fs::read_to_string(dir.path().join("t.log")).unwrap_or_default();
        assert!(
            out.status.success(),
            "{what}: pdflatex failed:\n{}",
            String::from_utf8_lossy(&out.stdout)
        );
        for bad in [
            "Missing character",
            "Overfull \\hbox",
            "Overfull \\vbox",
            "Float too large",
        ] {
            assert!(
                !log.contains(bad),
                "{what}: {bad}\n{}",
                log.lines()
                    .filter(|l| l.contains(bad))
                    .collect::<Vec<_>>()
                    .join("\n")
            );
        }
        let pdf = dir.path().join("t.pdf");
        let fonts = Command::new("pdffonts").arg(&pdf).output().unwrap();
        for line in String::from_utf8_lossy(&fonts.stdout).lines().skip(2) {
            let font = line.split_whitespace().next().unwrap_or("");
            let font = font.rsplit('+').next().unwrap();
            let size: String = font
                .chars()
                .rev()
                .take_while(|c| c.is_ascii_digit())
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if let Ok(size) = size.parse::<u32>() {
                assert!(size >= 8, "{what}: font {font} under 8 pt");
            }
        }
        let text = Command::new("pdftotext")
            .arg(&pdf)
            .arg("-")
            .output()
            .unwrap();
        let text = squash(&String::from_utf8_lossy(&text.stdout));
        for row in rows {
            assert!(
                text.contains(&squash(row)),
                "{what}: row {row:?} is not in the PDF"
            );
        }
    }
}

fn stdout(args: &[&str], paths: &[&Path]) -> String {
    String::from_utf8(tenure_eval_ok(args, paths).stdout).unwrap()
}

/// The first cell of every row of every table of `args --format json` (`tables`' shape).
fn first_cells(args: &[&str], paths: &[&Path]) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&[args, &["--format", "json"]].concat(), paths)).unwrap();
    json.as_array()
        .unwrap()
        .iter()
        .flat_map(|t| t["rows"].as_array().unwrap().iter())
        .map(|r| match &r[0] {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect()
}

/// The first cell of every body row of every markdown table `args` print.
fn markdown_first_cells(args: &[&str], paths: &[&Path]) -> Vec<String> {
    let text = stdout(args, paths);
    let mut out = Vec::new();
    let mut header = true;
    for line in text.lines() {
        if !line.starts_with('|') {
            header = true;
            continue;
        }
        if line.starts_with("|-") {
            continue;
        }
        if header {
            header = false;
            continue;
        }
        out.push(
            line.trim_matches('|')
                .split('|')
                .next()
                .unwrap()
                .trim()
                .to_string(),
        );
    }
    out
}

#[test]
fn every_latex_output_compiles_in_one_and_two_columns() {
    if !needs(&[Need::Pdflatex, Need::Poppler]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "pmb",
            "--quiet",
            "--backend",
            "bm25,cosine",
            "--out",
            out,
        ],
        &[],
    );
    let pmb = dir.path().join("pmb");
    let bm25 = pmb.join("retrieval-report-tenure.json");
    let cosine = pmb.join("all-minilm-l6-v2-retrieval-report-vector.json");
    let bm25_session = pmb.join("session-retrieval-report-tenure.json");
    let cosine_session = pmb.join("all-minilm-l6-v2-session-retrieval-report-vector.json");
    let reports = [bm25.as_path(), &cosine, &bm25_session, &cosine_session];
    for style in ["pmb", "paper"] {
        let args = ["tables", "--style", style];
        let body = stdout(&[&args[..], &["--format", "latex"]].concat(), &reports);
        compile(
            &format!("tables --style {style}"),
            &body,
            &first_cells(&args, &reports),
        );
    }
    // --table picks one table, by label or place.
    let one = stdout(&["tables", "--format", "latex", "--table", "1"], &reports);
    assert_eq!(one.matches("\\label{tab:").count(), 1, "{one}");
    let label = one
        .split("\\label{tab:")
        .nth(1)
        .unwrap()
        .split('}')
        .next()
        .unwrap()
        .to_string();
    assert_eq!(
        stdout(
            &["tables", "--format", "latex", "--table", &label],
            &reports
        ),
        one
    );

    // compare's caption says "p < 0.05": it must print as such, not "p ¡ 0.05".
    let compare = stdout(&["compare", "--format", "latex"], &[&bm25, &cosine]);
    assert!(compare.contains("\\textless{}"), "{compare}");
    compile(
        "compare",
        &compare,
        &["bm25".into(), "all-minilm-l6-v2".into()],
    );

    // claims measured here (with its ≥, ×, → and Markdown backquotes).
    let claims = first_cells(&["claims"], &[]);
    assert_eq!(claims.len(), 16);
    compile(
        "claims",
        &stdout(&["claims", "--format", "latex"], &[]),
        &claims,
    );

    // history: a table as wide as a run's twelve measures, set in groups of columns.
    let history = dir.path().join("history");
    for commit in ["a1", "b2"] {
        tenure_eval_ok(
            &[
                "run",
                "--suite",
                "pmb",
                "--quiet",
                "--out",
                out,
                "--history",
                history.to_str().unwrap(),
                "--commit",
                commit,
            ],
            &[],
        );
    }
    let body = stdout(&["history", "--format", "latex"], &[&history]);
    compile("history", &body, &["a1".into(), "b2".into()]);

    // the temporal evaluation's three tables, the misclassified one long enough to continue.
    let statements = crate::common::repo("cases/temporal/statements.jsonl");
    let temporal = stdout(&["temporal", "eval", "--format", "latex"], &[&statements]);
    compile(
        "temporal eval",
        &temporal,
        &markdown_first_cells(&["temporal", "eval"], &[&statements]),
    );
}
