//! The files a run writes beside its reports (`--junit`, `--summary-md`, `--html`) never
//! replace one another (however the path is spelt), a file the run reads, or a report: each
//! such path is refused before any work, named (exit 2), and the file it named is left as it
//! was. An audit found each of them overwritten with exit 0.

use crate::common::{repo, tenure_eval_with};

fn refused(args: &[&str], says: &str) {
    let out = tenure_eval_with(args, &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

#[test]
fn a_side_file_never_replaces_another_an_input_or_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // A custom suite: copies of pmb's files, so that one can be named as an output.
    for (from, to) in [
        ("seeds/pmb/beliefs.seed.json", "beliefs.json"),
        ("cases/pmb/retrieval.cases.json", "cases.json"),
    ] {
        std::fs::copy(repo(from), d(to)).unwrap();
    }
    let cases_before = std::fs::read(d("cases.json")).unwrap();
    let (beliefs, cases, out) = (d("beliefs.json"), d("cases.json"), d("out"));
    let suite = [
        "static", "--corpus", &beliefs, "--cases", &cases, "--out", &out,
    ];
    fn with<'a>(suite: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [suite, extra].concat()
    }

    let same = d("same.xml");
    refused(
        &with(&suite, &["--junit", &same, "--html", &same]),
        "--html",
    );
    refused(
        &with(&suite, &["--junit", &same, "--html", &same]),
        "the file --junit writes too",
    );
    // The same file by another spelling (`..`), not yet written.
    std::fs::create_dir(d("sub")).unwrap();
    let other = format!("{}/../same.md", d("sub"));
    let same_md = d("same.md");
    refused(
        &with(&suite, &["--summary-md", &same_md, "--html", &other]),
        "the file --summary-md writes too",
    );
    refused(&with(&suite, &["--html", &cases]), "the run's cases file");
    assert_eq!(std::fs::read(d("cases.json")).unwrap(), cases_before);
    assert!(!std::path::Path::new(&out).exists(), "nothing ran");

    // A first run writes its report; a second naming that report as its JUnit is refused and
    // the report kept.
    let first = tenure_eval_with(&with(&suite, &[]), &[]);
    assert!(first.status.success());
    let report = std::fs::read_dir(&out)
        .unwrap()
        .flat_map(|suite_dir| std::fs::read_dir(suite_dir.unwrap().path()).unwrap())
        .map(|f| f.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "json"))
        .unwrap();
    let report = report.to_str().unwrap().to_string();
    refused(
        &with(&suite, &["--junit", &report]),
        "where this run writes its reports",
    );
    let kept: serde_json::Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    assert!(kept.is_object() || kept.is_array());
    // And a baseline is an input too.
    let base = d("base.json");
    std::fs::copy(&report, &base).unwrap();
    refused(
        &with(
            &suite,
            &[
                "--baseline",
                &base,
                "--fail-on",
                "new-failures",
                "--summary-md",
                &base,
            ],
        ),
        "the run's baseline file",
    );
    // Distinct files are written.
    let ok = tenure_eval_with(
        &with(
            &suite,
            &["--junit", &d("j.xml"), "--summary-md", &d("s.md")],
        ),
        &[],
    );
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(std::fs::read_to_string(d("j.xml"))
        .unwrap()
        .contains("<testsuite"));
}
