//! The files a run writes beside its reports (`--junit`, `--summary-md`, `--html`) never
//! replace one another (however the path is spelt), a file the run reads, or a report: each
//! such path is refused before any work, named (exit 2), and the file it named is left as it
//! was. An audit found each of them overwritten with exit 0.

use crate::common::{refused, repo, tenure_eval_with};

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

/// BEAM and the Temporal Memory Dataset record their files relative to `--data`: a side file
/// named as one of them by its full path is still the run's input, refused (an audit found the
/// check comparing the relative path, and the file replaced). Run on copies: a failing check
/// must not replace a fixture.
#[test]
fn a_side_file_never_replaces_a_benchmark_file_read_under_data() {
    use crate::common::needs::{data_file, needs, Need};
    if !needs(&[Need::Beam, Need::TemporalMemory]) {
        return;
    }
    fn copy_tree(from: &std::path::Path, to: &std::path::Path) {
        std::fs::create_dir_all(to).unwrap();
        for entry in std::fs::read_dir(from).unwrap() {
            let path = entry.unwrap().path();
            let target = to.join(path.file_name().unwrap());
            match path.is_dir() {
                true => copy_tree(&path, &target),
                false => drop(std::fs::copy(&path, &target).unwrap()),
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let beam = dir.path().join("beam");
    copy_tree(&data_file("beam/100K/1"), &beam.join("100K/1"));
    let tmd = dir.path().join("tmd");
    copy_tree(&data_file("zyphra-temporal"), &tmd);
    let chat = beam.join("100K/1/chat.json");
    let log = tmd.join("ConversationData/26.json");
    let out = dir.path().join("out");
    for (suite, data, read, role) in [
        ("beam", &beam, &chat, "chat"),
        ("temporal-memory", &tmd, &log, "log"),
    ] {
        let before = std::fs::read(read).unwrap();
        let args = [
            "run",
            "--suite",
            suite,
            "--backend",
            "bm25-text",
            "--quiet",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--html",
            read.to_str().unwrap(),
        ];
        refused(&args, &format!("the run's {role}"));
        refused(&args, "which it reads");
        assert_eq!(std::fs::read(read).unwrap(), before, "{suite}: kept");
    }
}
