//! `run --explain CASE` explains the backend it is given, and says which: BM25's terms,
//! cosine's similarities, a context scorer's signals and tier, a fusion's ranks.

use crate::common::{tenure_eval_ok, tenure_eval_with};

fn explain(args: &[&str]) -> String {
    let out = tenure_eval_ok(&[&["run", "--explain"], args].concat(), &[]);
    String::from_utf8(out.stdout).unwrap()
}

/// The `- \`id\` score: ...` lines.
fn hits(text: &str) -> Vec<&str> {
    text.lines().filter(|l| l.starts_with("- `")).collect()
}

#[test]
fn each_backend_explains_its_own_scores() {
    let bm25 = explain(&["alias-gha-resolves", "--suite", "pmb"]);
    assert!(
        bm25.starts_with("### alias-gha-resolves · explained by bm25\n"),
        "{bm25}"
    );
    assert!(bm25.contains("aliases:gha 6.55"), "{bm25}");

    let cosine = explain(&[
        "alias-gha-resolves",
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--top",
        "3",
    ]);
    assert!(
        cosine.contains("explained by cosine/all-minilm-l6-v2"),
        "{cosine}"
    );
    let lines = hits(&cosine);
    assert_eq!(lines.len(), 3, "{cosine}");
    for line in lines {
        // `b` 0.629: cosine 0.257: the score is (1 + cos) / 2.
        let score: f64 = line
            .split('`')
            .nth(2)
            .unwrap()
            .trim()
            .split(':')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let cos: f64 = line
            .split("cosine ")
            .nth(1)
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!((2.0 * score - 1.0 - cos).abs() < 0.002, "{line}");
    }

    let rrf = explain(&[
        "alias-gha-resolves",
        "--suite",
        "pmb",
        "--backend",
        "rrf",
        "--top",
        "2",
    ]);
    assert!(
        rrf.contains("explained by rrf(bm25+cosine/all-minilm-l6-v2)"),
        "{rrf}"
    );
    assert!(
        hits(&rrf)[0].contains("bm25: rank 1")
            && hits(&rrf)[0].contains("cosine/all-minilm-l6-v2: rank 1"),
        "{rrf}"
    );

    let composite = explain(&[
        "history-stays-out-of-current-ci",
        "--suite",
        "bitemporal",
        "--backend",
        "composite",
        "--bitemporal",
        "--top",
        "3",
    ]);
    assert!(
        composite.contains("explained by composite+bitemporal/all-minilm-l6-v2"),
        "{composite}"
    );
    let first = hits(&composite)[0];
    for part in [
        "recency ",
        " × relevance ",
        " × confidence ",
        " × currency ",
        "→ ",
        "tier ",
        "valid time ",
    ] {
        assert!(first.contains(part), "{part} in {first}");
    }
}

#[test]
fn explain_takes_one_backend() {
    let out = tenure_eval_with(
        &[
            "run",
            "--suite",
            "pmb",
            "--explain",
            "alias-gha-resolves",
            "--backend",
            "bm25,cosine",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("--explain explains one backend; 2 were given"));
    assert!(out.stdout.is_empty());
}

/// `--explain` prints one case's account and writes nothing, so every flag that writes, gates,
/// records or names a run is refused, named, and nothing is written (an audit found them taken
/// and ignored with exit 0).
#[test]
fn explain_refuses_what_it_would_not_do() {
    let dir = tempfile::tempdir().unwrap();
    let junit = dir.path().join("j.xml");
    let out_dir = dir.path().join("out");
    let junit = junit.to_str().unwrap();
    let out_dir = out_dir.to_str().unwrap();
    for (flag, value) in [
        ("--fail-on", Some("any-failure")),
        ("--junit", Some(junit)),
        ("--out", Some(out_dir)),
        ("--label", Some("mine")),
        ("--repeat", Some("2")),
        ("--format", Some("json")),
        ("--history", Some(out_dir)),
        ("--record", Some(out_dir)),
    ] {
        let mut args = vec![
            "run",
            "--suite",
            "pmb",
            "--explain",
            "alias-gha-resolves",
            flag,
        ];
        args.extend(value);
        let out = tenure_eval_with(&args, &[]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("{flag} does not apply")),
            "{flag}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{flag}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // --quiet is read (it quiets stderr), and --top is --explain's own.
    let text = explain(&[
        "alias-gha-resolves",
        "--suite",
        "pmb",
        "--quiet",
        "--top",
        "3",
    ]);
    assert!(!hits(&text).is_empty());
}
