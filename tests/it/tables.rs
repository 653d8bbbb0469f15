//! `tables` fed PrecisionMemBench's published reports reproduces the figures of its README
//! (`tests/golden/pmb-readme-tables.md`, copied from the README at commit 18c7955), in every
//! output format; and disagreements between a summary block and its rows are reported.

use crate::common::repo;
use tenure_eval::render::tables::pmb_tables;
use tenure_eval::render::{render, TableFormat};
use tenure_eval::report::LoadedReport;

fn published() -> Vec<LoadedReport> {
    let mut paths: Vec<_> = std::fs::read_dir(repo("tests/golden/pmb-baseline"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 28);
    paths
        .iter()
        .map(|p| LoadedReport::load(p).unwrap())
        .collect()
}

/// Markdown tables of a document: (heading, rows of trimmed cells without backticks).
fn markdown_tables(text: &str) -> Vec<(String, Vec<Vec<String>>)> {
    let mut tables: Vec<(String, Vec<Vec<String>>)> = Vec::new();
    let mut heading = String::new();
    let mut in_table = false;
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("### ") {
            heading = h.trim().to_string();
            in_table = false;
        } else if line.starts_with('|') {
            if !in_table {
                tables.push((heading.clone(), Vec::new()));
                in_table = true;
            }
            let cells: Vec<String> = line
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('`', ""))
                .collect();
            if !cells
                .iter()
                .all(|c| c.chars().all(|ch| ch == '-' || ch == ':'))
            {
                tables.last_mut().unwrap().1.push(cells);
            }
        } else {
            in_table = false;
        }
    }
    tables
}

fn readme() -> Vec<(String, Vec<Vec<String>>)> {
    let text = std::fs::read_to_string(repo("tests/golden/pmb-readme-tables.md")).unwrap();
    let tables = markdown_tables(&text);
    assert_eq!(tables.len(), 4);
    tables
}

#[test]
fn markdown_reproduces_every_figure_of_the_published_readme() {
    let mine = markdown_tables(&render(&pmb_tables(&published()), TableFormat::Markdown));
    let expected = readme();
    assert_eq!(mine.len(), expected.len());
    for ((title, rows), (readme_title, readme_rows)) in mine.iter().zip(&expected) {
        assert!(
            readme_title.starts_with(title.split(" — ").next().unwrap()),
            "{title} vs {readme_title}"
        );
        assert_eq!(rows, readme_rows, "{title}");
    }
}

#[test]
fn csv_and_json_carry_the_same_cells() {
    use tenure_eval::render::typed_row;
    let tables = pmb_tables(&published());
    let expected = readme();
    // JSON: the header, and each row as the README's cells read by a machine: the label as
    // text, the rest typed (0.9142 a number, 12/12 {count, total}, --- null).
    let json: serde_json::Value =
        serde_json::from_str(&render(&tables, TableFormat::Json)).unwrap();
    for (t, (_, rows)) in json.as_array().unwrap().iter().zip(&expected) {
        assert_eq!(t["header"], serde_json::json!(rows[0]));
        let typed: Vec<Vec<serde_json::Value>> = rows[1..].iter().map(|r| typed_row(r)).collect();
        assert_eq!(t["rows"], serde_json::json!(typed));
    }
    let mem0_session = &json[3]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r[0] == "mem0")
        .unwrap()
        .clone();
    assert_eq!(
        mem0_session[1],
        serde_json::json!({"count": 0, "total": 12})
    );
    assert_eq!(mem0_session[3], serde_json::json!(0.9398));

    // CSV: one file, one line per cell (table, row, column, value), every README cell once.
    let text = render(&tables, TableFormat::Csv);
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    assert_eq!(
        reader.headers().unwrap(),
        vec!["table", "row", "column", "value"]
    );
    let records: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    let cells: usize = expected
        .iter()
        .map(|(_, rows)| (rows.len() - 1) * rows[0].len())
        .sum();
    assert_eq!(records.len(), cells);
    for (t, (_, rows)) in tables.iter().zip(&expected) {
        for (r, row) in rows[1..].iter().enumerate() {
            for (column, value) in rows[0].iter().zip(row) {
                let line = [
                    t.title.clone(),
                    (r + 1).to_string(),
                    column.clone(),
                    value.clone(),
                ];
                assert!(records.contains(&line.to_vec()), "{line:?}");
            }
        }
    }
}

#[test]
fn latex_is_one_labelled_float_per_table_with_escaped_cells() {
    let text = render(&pmb_tables(&published()), TableFormat::Latex);
    // Each table a captioned, labelled float (continuations, if any, carry no new label).
    assert_eq!(text.matches("\\label{tab:").count(), 4);
    assert_eq!(
        text.matches("\\begin{tabularx}").count(),
        text.matches("\\end{tabularx}").count()
    );
    assert_eq!(
        text.matches("\\begin{table*}").count(),
        text.matches("\\caption{").count()
    );
    assert!(text.contains("tenure & 43/43 & 77/77 & 1.00 & 1.00 & 9.77 & 1.00 \\\\"));
    assert!(text.contains(
        "open-\\allowbreak{}knowledge-\\allowbreak{}format & 2/12 & 0.17 & 0.2153 & 0.17 & 0.5694 & 3349.45 \\\\"
    ));
    assert!(text.contains("% Session eval --- noise isolation under multi-turn drift"));
    // Every data row has as many cells as its header.
    for block in text.split("\\begin{tabularx}").skip(1) {
        let block = block.split("\\end{tabularx}").next().unwrap();
        let lines: Vec<&str> = block.lines().filter(|l| l.ends_with("\\\\")).collect();
        let width = lines[0].split(" & ").count();
        assert!(lines.iter().all(|l| l.split(" & ").count() == width));
    }
}

#[test]
fn summary_blocks_that_contradict_their_rows_are_reported() {
    let mut warnings: Vec<String> = published()
        .iter()
        .flat_map(LoadedReport::disagreements)
        .collect();
    warnings.sort();
    let files: Vec<&str> = warnings
        .iter()
        .map(|w| w.split(": ").next().unwrap().rsplit('/').next().unwrap())
        .collect();
    // The nomic and qwen3 vector reports disagree with themselves on the pass taxonomy, and the
    // mem0 report on its categories: its rows carry PrecisionMemBench's category of
    // `cross-scope-one-empty-domain-does-not-degrade` (Scope disambiguation), its summary counts
    // Tenure's (Cross-user isolation 2, Scope disambiguation 11).
    let allowed = [
        "nomic-retrieval-report-vector.json",
        "qwen3-retrieval-report-vector.json",
        "retrieval-report-mem0.json",
    ];
    assert!(files.iter().all(|f| allowed.contains(f)), "{warnings:#?}");
    assert!(warnings.iter().any(|w| w.contains("nomic")
        && w.contains("retrieval.activeRetrievalPasses is 1 but the per-case rows give 0")));
    assert!(warnings.iter().any(|w| w.contains("qwen3")
        && w.contains("retrieval.activeRetrievalPasses is 1 but the per-case rows give 0")));
    assert!(warnings.iter().any(|w| w.contains("nomic")
        && w.contains("passTypes.triviallyEmpty is 10 but the per-case rows give 3")));
    let mem0: Vec<&String> = warnings
        .iter()
        .filter(|w| w.contains("retrieval-report-mem0.json"))
        .collect();
    assert_eq!(mem0.len(), 1);
    assert!(mem0[0].contains("retrieval.categories differ from the per-case rows"));
    assert!(
        mem0[0].contains(r#"{"category":"Scope disambiguation","caseCount":12,"#),
        "{}",
        mem0[0]
    );
    assert!(
        mem0[0].contains(r#"{"category":"Cross-user isolation","caseCount":1,"#),
        "{}",
        mem0[0]
    );
    assert_eq!(warnings.len(), 8, "{warnings:#?}");
}

#[test]
fn cli_tables_on_our_own_reports_and_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(&["run", "--suite", "pmb"], dir.path());
    let (static_report, session_report) = (
        dir.path().join("pmb/retrieval-report-tenure.json"),
        dir.path().join("pmb/session-retrieval-report-tenure.json"),
    );
    let out = crate::common::tenure_eval_ok(&["tables"], &[&static_report, &session_report]);
    assert!(
        out.stderr.is_empty(),
        "our own summary blocks agree with their rows: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    // Our reports are named as `run` names them (`bm25`), not by the `tenure` their file
    // names keep for upstream's tools.
    assert!(
        text.contains("| bm25     | 43/43         | 77/77        | 1.00           | 1.00        |"),
        "{text}"
    );
    assert!(text.contains("| bm25     | 12/12        | 1.00      | 0.0000     | 1.00            | 1.0000         |"), "{text}");

    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"provider": "x", "cases": [{"caseId": "a", "passed": "yes"}]}"#,
    )
    .unwrap();
    let out = crate::common::tenure_eval_with(&["tables"], &[&bad]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("$.cases[0].passed") && stderr.contains("expected a boolean"),
        "{stderr}"
    );
}

#[test]
fn tables_over_a_paper_folder_glob_skip_the_sidecar_manifests() {
    let dir = tempfile::tempdir().unwrap();
    crate::common::tenure_eval_into(&["run", "--suite", "paper"], dir.path());
    let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir.path().join("paper"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert!(files
        .iter()
        .any(|f| f.to_string_lossy().ends_with(".manifest.json")));
    let paths: Vec<&std::path::Path> = files.iter().map(|p| p.as_path()).collect();
    let out = crate::common::tenure_eval_ok(&["tables", "--style", "paper"], &paths);
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("is a report's manifest, not a report; skipped"));
    assert!(!String::from_utf8_lossy(&out.stdout).is_empty());
}

#[test]
fn a_report_read_in_one_pass_names_where_it_is_wrong() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&str, &[&str]); 7] = [
        (
            r#"[{"caseId": "a", "passed": true}, {"caseId": "b", "passed": 1}]"#,
            &["$[1].passed", "expected a boolean"],
        ),
        (
            r#"{"cases": [], "ingestion": {"totalMs": "slow"}}"#,
            &["$.ingestion.totalMs", "expected f64"],
        ),
        (
            r#"{"provider": "x"}"#,
            &["$: expected a report: an object with `cases` or an array of entries"],
        ),
        (
            r#"{"cases": {"a": 1}}"#,
            &["$.cases", "expected an array of case or turn entries"],
        ),
        (
            "{\"cases\": [\n  {\"caseId\": \"a\", \"passed\": true},\n",
            &["line 3", "EOF"],
        ),
        // The manifest is typed on read (report::RecordedManifest): a field of the wrong type
        // is named, where before it read as absent.
        (
            r#"{"cases": [], "manifest": {"suite": 5}}"#,
            &["$.manifest.suite", "expected a string"],
        ),
        (
            r#"{"cases": [], "manifest": {"inputs": [{"path": "x", "sha256": 7}]}}"#,
            &["$.manifest.inputs[0].sha256", "expected a string"],
        ),
    ];
    for (k, (text, expected)) in cases.iter().enumerate() {
        let file = dir.path().join(format!("r{k}.json"));
        std::fs::write(&file, text).unwrap();
        let out = crate::common::tenure_eval(&["tables", file.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.contains(&*file.to_string_lossy()), "{stderr}");
        for e in *expected {
            assert!(stderr.contains(e), "{text}: expected {e:?} in {stderr}");
        }
    }
}
