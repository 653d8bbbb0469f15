//! Run history (issue 36): three runs with `--history` give three points per measure, and a
//! regression planted in the third (the system under the label changed: plain BM25 for alias
//! BM25) is flagged by the exact McNemar test, in `history`, its JSON, its exit code under
//! `--fail-on-regression`, its figure and the page. A run on edited suite files is a series of
//! its own, never the system's regression.

use crate::common::{cli, read_json};
use serde_json::Value;
use std::path::Path;

/// The pmb suite as custom files; `broken` cases expect a belief they never get.
fn cases(dir: &Path, name: &str, broken: usize) -> std::path::PathBuf {
    let mut cases = read_json("cases/pmb/retrieval.cases.json");
    let mut changed = 0;
    for case in cases.as_array_mut().unwrap() {
        let rb = &mut case["expect"]["relevantBeliefs"];
        if changed < broken && rb["shouldOnlyInclude"].is_array() {
            rb["shouldOnlyInclude"] = serde_json::json!(["b-react-entity"]);
            changed += 1;
        }
    }
    assert_eq!(changed, broken);
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_vec(&cases).unwrap()).unwrap();
    path
}

#[test]
fn three_runs_give_three_points_and_a_planted_regression_is_flagged() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("beliefs.json");
    std::fs::write(
        &corpus,
        serde_json::to_vec(&read_json("seeds/pmb/beliefs.seed.json")).unwrap(),
    )
    .unwrap();
    let good = cases(dir.path(), "good.json", 0);
    let broken = cases(dir.path(), "broken.json", 8);
    let history = dir.path().join("history");
    let runs = [
        (&good, "a1", "bm25"),
        (&good, "b2", "bm25"),
        (&good, "c3", "bm25-text"),
        (&broken, "d4", "bm25"),
    ];
    for (i, (file, commit, backend)) in runs.iter().enumerate() {
        let mut command = cli(&["static", "--quiet", "--label", "sys", "--backend", backend]);
        command
            .arg("--corpus")
            .arg(&corpus)
            .arg("--cases")
            .arg(file);
        command.arg("--out").arg(dir.path().join(format!("run{i}")));
        command
            .arg("--history")
            .arg(&history)
            .args(["--commit", commit]);
        if i == 2 {
            command.arg("--html").arg(dir.path().join("page.html"));
        }
        let o = command.output().unwrap();
        assert!(
            matches!(o.status.code(), Some(0) | Some(1)),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    let shown = |extra: &[&str]| {
        let mut c = cli(&["history"]);
        c.arg(&history).args(extra);
        c.output().unwrap()
    };
    let o = shown(&["--format", "json"]);
    assert_eq!(o.status.code(), Some(0));
    let series: Value = serde_json::from_slice(&o.stdout).unwrap();
    let series = series.as_array().unwrap();
    // One label, suite and kind; the run on edited cases apart, named by its inputs, with
    // nothing to compare (an audit found such a run read as the system's regression).
    assert_eq!(series.len(), 2, "{series:?}");
    let edited = series[1]["shown"].as_str().unwrap();
    assert_eq!(series[1]["suite"], "custom");
    let digest = series[1]["inputs"].as_str().unwrap();
    assert_eq!(edited, format!("custom (inputs {digest})"));
    assert!(digest.len() == 12 && digest != series[0]["inputs"].as_str().unwrap());
    assert_eq!(series[1]["rows"].as_array().unwrap().len(), 1);
    assert!(series[1]["lastChange"].is_null());
    let rows = series[0]["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3, "three points");
    let header: Vec<&str> = series[0]["header"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h.as_str().unwrap())
        .collect();
    let passed = header.iter().position(|h| *h == "totalPassed").unwrap();
    let points: Vec<f64> = rows
        .iter()
        .map(|r| r[passed].as_str().unwrap().parse().unwrap())
        .collect();
    assert_eq!(points[..2], [77.0, 77.0]);
    // Plain BM25 misses what only an alias names: k cases broke, none mended.
    let k = 77 - points[2] as usize;
    assert_eq!(k, 48, "plain BM25 passes 29 of the 77: {points:?}");
    assert_eq!(
        rows.iter()
            .map(|r| r[2].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["a1", "b2", "c3"]
    );
    let change = &series[0]["lastChange"];
    assert_eq!(change["passToFail"].as_array().unwrap().len(), k);
    assert_eq!(change["failToPass"].as_array().unwrap().len(), 0);
    // Exact McNemar on k discordant pairs all one way: p = 2 · 0.5^k.
    let p = 2.0 * 0.5f64.powi(k as i32);
    assert!((change["p"].as_f64().unwrap() - p).abs() < 1e-12);
    assert_eq!(change["regression"], true);

    let o = shown(&[
        "--fail-on-regression",
        "--plot",
        dir.path().join("h.svg").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "a regression fails the gate");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("REGRESSION from run 2 to run 3"), "{text}");
    assert!(
        text.contains(&format!(
            "{k} pass→fail, 0 fail→pass, exact McNemar p = {p:.4}"
        )),
        "{text}"
    );
    let svg = std::fs::read_to_string(dir.path().join("h.svg")).unwrap();
    assert_eq!(
        svg.matches("<circle").count(),
        4,
        "three points of the series, one of the run on edited cases"
    );
    // The format the file's name says, or a refusal before any output; never SVG under .png.
    if cfg!(feature = "figures") {
        let png = dir.path().join("h.png");
        let o = shown(&["--plot", png.to_str().unwrap()]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(
            std::fs::read(&png).unwrap().starts_with(b"\x89PNG\r\n"),
            "a PNG"
        );
    }
    let o = shown(&["--plot", dir.path().join("h.gif").to_str().unwrap()]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!dir.path().join("h.gif").exists());
    // A measure no run recorded is refused, naming it (it printed a column of dashes).
    let o = shown(&["--metric", "bogus"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--metric bogus: no run of"));
    // A shard is not a whole run: appended, it stood in the series beside whole runs. Refused
    // on the command line; from a config file, left for `merge --history`, said.
    let lines = || {
        std::fs::read_to_string(history.join("history.jsonl"))
            .unwrap()
            .lines()
            .count()
    };
    let before = lines();
    let o = cli(&["run", "--suite", "pmb", "--shard", "1/3", "--out"])
        .arg(dir.path().join("shard"))
        .arg("--history")
        .arg(&history)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--history records whole runs"));
    // A selection neither: its 11 cases read beside the suite's 77 as one series.
    let o = cli(&["run", "--suite", "pmb", "--case", "alias-*", "--out"])
        .arg(dir.path().join("selected"))
        .arg("--history")
        .arg(&history)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("--history records whole runs, and this is a selection of cases"));
    assert_eq!(lines(), before, "nothing appended");
    let config = dir.path().join("tenure-eval.toml");
    std::fs::write(
        &config,
        format!("[run]\nhistory = {:?}\n", history.display().to_string()),
    )
    .unwrap();
    let o = cli(&[
        "--config",
        config.to_str().unwrap(),
        "run",
        "--suite",
        "pmb",
        "--shard",
    ])
    .args(["1/3", "--out"])
    .arg(dir.path().join("shard"))
    .output()
    .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("history is not appended for a shard"),
        "{stderr}"
    );
    assert_eq!(lines(), before, "nothing appended");
    // The page `run --html` wrote with the history shows it, the verdict as an alert.
    let page = dir.path().join("page.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(
        html.contains("\"regression\":true") && html.contains("REGRESSION from run 2 to run 3")
    );
    if let Some(b) = crate::common::browser::browser_or_skip() {
        b.goto(&crate::common::browser::Browser::file_url(&page, ""));
        let rows = b.wait("return document.querySelectorAll('table.history tbody tr').length;");
        assert_eq!(rows, 3);
        let alert = b.wait("const p = [...document.querySelectorAll('p[role=alert]')].find((p) => p.textContent.includes('REGRESSION')); return p && p.textContent;");
        assert!(
            alert.as_str().unwrap().contains(&format!("{k} pass→fail")),
            "{alert}"
        );
    }
}

/// A line written before history recorded profiles and inputs joins its system's series (an
/// upgrade must not split a history, and with it the comparison of its last two runs); a run at
/// another profile is a series of its own, named by it.
#[test]
fn an_old_line_joins_its_series_and_another_profile_starts_one() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("h");
    let run = |profile: &str| {
        let o = cli(&["static", "--backend", "bm25", "--label", "sys", "--corpus"])
            .arg(crate::common::repo("seeds/pmb/beliefs.seed.json"))
            .arg("--cases")
            .arg(crate::common::repo("cases/pmb/retrieval.cases.json"))
            .args(["--quiet", "--profile", profile, "--out"])
            .arg(dir.path().join(profile))
            .arg("--history")
            .arg(&history)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    run("head");
    // The first line as an older tenure-eval wrote it: no profile, no inputs.
    let file = history.join("history.jsonl");
    let mut line: Value =
        serde_json::from_str(std::fs::read_to_string(&file).unwrap().trim()).unwrap();
    assert_eq!(line["profile"], "head");
    assert!(line["inputs"].is_string());
    let map = line.as_object_mut().unwrap();
    map.remove("profile");
    map.remove("inputs");
    std::fs::write(&file, format!("{line}\n")).unwrap();
    run("head");
    let shown = || -> Vec<Value> {
        let o = cli(&["history", "--format", "json"])
            .arg(&history)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice(&o.stdout).unwrap()
    };
    let series = shown();
    assert_eq!(series.len(), 1, "{series:?}");
    assert_eq!(series[0]["rows"].as_array().unwrap().len(), 2);
    assert!(series[0]["lastChange"].is_object(), "the two runs compared");
    run("paper");
    let series = shown();
    assert_eq!(series.len(), 2, "{series:?}");
    assert_eq!(series[0]["shown"], "custom (profile head)");
    assert_eq!(series[1]["shown"], "custom (profile paper)");
}
