//! The LaTeX of `tables`, `compare` and `claims` compiles: each output is put in a plain
//! `article` (pdflatex's default OT1 fonts, where `<` prints as "¡"), compiled with a real
//! pdflatex, and the log must show no error, no missing character and no overfull box wider
//! than 10 pt. pdflatex comes from Debian's texlive packages (`scripts/setup-tex.sh`, which
//! `scripts/test.sh` runs); without it the tests say they skip, except in CI, where they fail.

use crate::common::needs::{needs, Need};
use crate::common::{repo, tenure_eval_ok};
use std::path::Path;
use std::process::Command;

/// Compile `body` in an article; return the log after checking it.
fn compile(name: &str, body: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let tex = format!(
        "\\documentclass{{article}}\n\\usepackage{{booktabs,adjustbox,tabularx}}\n\
         \\begin{{document}}\n{body}\n\\end{{document}}\n"
    );
    std::fs::write(dir.path().join("t.tex"), &tex).unwrap();
    let out = Command::new("pdflatex")
        .args(["-interaction=nonstopmode", "-halt-on-error", "t.tex"])
        .current_dir(dir.path())
        .output()
        .unwrap();
    let log = std::fs::read_to_string(dir.path().join("t.log")).unwrap_or_default();
    assert!(
        out.status.success(),
        "{name}: pdflatex failed:\n{}\n--- source ---\n{tex}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(!log.contains("Missing character"), "{name}: {log}");
    for line in log.lines().filter(|l| l.starts_with("Overfull \\hbox")) {
        let pt: f64 = line
            .split('(')
            .nth(1)
            .and_then(|s| s.split("pt").next())
            .unwrap()
            .parse()
            .unwrap();
        assert!(pt <= 10.0, "{name}: {line}\n--- source ---\n{tex}");
    }
    log
}

fn stdout(args: &[&str], paths: &[&Path]) -> String {
    String::from_utf8(tenure_eval_ok(args, paths).stdout).unwrap()
}

#[test]
fn tables_compare_and_claims_compile_under_pdflatex() {
    if !needs(&[Need::Pdflatex]) {
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
    let tables = stdout(
        &["tables", "--format", "latex"],
        &[&bm25, &cosine, &bm25_session, &cosine_session],
    );
    compile("tables", &tables);
    // compare's caption says "p < 0.05": it must print as such, not "p ¡ 0.05".
    let compare = stdout(&["compare", "--format", "latex"], &[&bm25, &cosine]);
    assert!(compare.contains("\\textless{}"), "{compare}");
    compile("compare", &compare);
    // claims measured here (with its ≥, × and →), and from BM25 reports alone.
    compile("claims", &stdout(&["claims", "--format", "latex"], &[]));
    let paper = tempfile::tempdir().unwrap();
    tenure_eval_ok(
        &[
            "run",
            "--suite",
            "paper",
            "--quiet",
            "--out",
            paper.path().to_str().unwrap(),
        ],
        &[],
    );
    let reports: Vec<_> = std::fs::read_dir(paper.path().join("paper"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    let refs: Vec<&Path> = reports.iter().map(|p| p.as_path()).collect();
    compile(
        "claims of BM25 reports",
        &stdout(&["claims", "--format", "latex"], &refs),
    );
    let _ = repo("");
}
