//! `tenure-eval doctor` against real memory systems on 127.0.0.1: tenure-eval's own `serve`
//! (every check passes), a toy store with one published wrapper's flaw at a time (the doctor
//! names it), and a port nobody listens on (exit 3). Where the doctor predicts a score
//! consequence, a run against the same store shows it.

use crate::common::needs::{needs, Need};
use crate::common::toy_memory::{self, Flaws};
use crate::common::{http_run, tenure_eval};
use crate::serve::Served;
use serde_json::Value;

struct Diagnosis {
    code: i32,
    findings: Vec<Value>,
    stdout: String,
}

impl Diagnosis {
    fn verdict(&self, check: &str) -> &str {
        self.finding(check)["verdict"].as_str().unwrap()
    }

    fn finding(&self, check: &str) -> &Value {
        self.findings
            .iter()
            .find(|f| f["check"] == check)
            .unwrap_or_else(|| panic!("no check {check}: {}", self.stdout))
    }

    fn not_ok(&self) -> Vec<(String, String)> {
        self.findings
            .iter()
            .filter(|f| f["verdict"] != "ok")
            .map(|f| {
                (
                    f["check"].as_str().unwrap().to_string(),
                    f["verdict"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

fn doctor(url: &str) -> Diagnosis {
    let output = tenure_eval(&[
        "doctor",
        "--url",
        url,
        "--format",
        "json",
        "--patience-ms",
        "300",
    ]);
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let parsed: Value = serde_json::from_str(&stdout)
        .unwrap_or_else(|e| panic!("{e}: {stdout} {}", String::from_utf8_lossy(&output.stderr)));
    Diagnosis {
        code: output.status.code().unwrap(),
        findings: parsed["findings"].as_array().unwrap().clone(),
        stdout,
    }
}

#[test]
fn serve_passes_every_check() {
    let served = Served::start("pmb");
    let d = doctor(&served.url);
    assert_eq!(d.code, 0, "{}", d.stdout);
    assert_eq!(d.not_ok(), Vec::<(String, String)>::new(), "{}", d.stdout);
    let checks: Vec<&str> = d
        .findings
        .iter()
        .map(|f| f["check"].as_str().unwrap())
        .collect();
    assert_eq!(
        checks,
        [
            "health",
            "reset",
            "add",
            "round-trip",
            "isolation",
            "scope",
            "scopes",
            "update",
            "error-path",
            "limit",
            "reset-again",
            "reset-clears"
        ]
    );
    // The text form says the same, one line per check and a tally.
    let text = tenure_eval(&["doctor", "--url", &served.url]);
    let text = String::from_utf8_lossy(&text.stdout);
    assert!(text.contains("12 ok, 0 warnings, 0 failed"), "{text}");
}

#[test]
fn a_sound_toy_store_passes_and_each_flaw_is_named() {
    let sound = toy_memory::start(Flaws::default());
    let d = doctor(&sound.url);
    assert_eq!((d.code, d.not_ok()), (0, vec![]), "{}", d.stdout);

    // (flaw, the check that names it, its verdict, words its effect must say, exit code)
    let cases: [(Flaws, &str, &str, &str, i32); 8] = [
        (
            Flaws {
                ids_in_metadata_only: true,
                ..Flaws::default()
            },
            "round-trip",
            "warn",
            "compat mode drops every hit",
            0,
        ),
        (
            Flaws {
                ignore_user: true,
                ..Flaws::default()
            },
            "isolation",
            "fail",
            "Cross-user isolation cases fail",
            1,
        ),
        (
            Flaws {
                ignore_scope: true,
                ..Flaws::default()
            },
            "scope",
            "warn",
            "out-of-scope beliefs are kept",
            0,
        ),
        (
            Flaws {
                first_scope_only: true,
                ..Flaws::default()
            },
            "scopes",
            "warn",
            "miss every belief outside their first scope",
            0,
        ),
        (
            Flaws {
                no_update: true,
                ..Flaws::default()
            },
            "update",
            "warn",
            "leave supportsUpdate off",
            0,
        ),
        (
            Flaws {
                errors_as_ok: true,
                ..Flaws::default()
            },
            "error-path",
            "warn",
            "an error looks like an empty result",
            0,
        ),
        (
            Flaws {
                reset_keeps_data: true,
                ..Flaws::default()
            },
            "reset-clears",
            "fail",
            "re-seeding duplicates them",
            1,
        ),
        // An update that changes nothing, on a store that answers any word: the new alias finds
        // the belief before the update, so no search can show the update (it was advised on).
        (
            Flaws {
                neighbours_and_no_op_update: true,
                ..Flaws::default()
            },
            "update",
            "warn",
            "cannot be told from searches",
            0,
        ),
    ];
    for (flaws, check, verdict, effect, code) in cases {
        let server = toy_memory::start(flaws);
        let d = doctor(&server.url);
        assert_eq!(d.verdict(check), verdict, "{flaws:?}: {}", d.stdout);
        let said = d.finding(check)["effect"].as_str().unwrap();
        assert!(said.contains(effect), "{flaws:?}: {said}");
        assert_eq!(
            d.not_ok().len(),
            1,
            "{flaws:?}: only {check} is flagged: {}",
            d.stdout
        );
        assert_eq!(d.code, code, "{flaws:?}");
    }
}

#[test]
fn nothing_listening_is_exit_3() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let output = tenure_eval(&["doctor", "--url", &url]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    // The words `run` uses for the same thing.
    assert!(
        stderr.contains(&format!("nothing answers at {url}")) && stderr.contains("refused"),
        "{stderr}"
    );
    assert!(output.stdout.is_empty());
    // --format json answers in JSON on stdout even then, and still exits 3.
    let output = tenure_eval(&["doctor", "--url", &url, "--format", "json"]);
    assert_eq!(output.status.code(), Some(3));
    let answer: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(answer["passed"], false);
    assert_eq!(answer["url"], url.as_str());
    assert!(
        answer["error"]
            .as_str()
            .unwrap()
            .contains("nothing answers at"),
        "{answer}"
    );
}

/// Run the pmb static cases against `url`; the report.
fn run_pmb(url: &str, compat: bool) -> Value {
    let extra: &[&str] = if compat {
        &["--quiet", "--compat", "pmb"]
    } else {
        &["--quiet"]
    };
    let run = http_run("static", &["--suite", "pmb"], "pmb", url, "toy", extra);
    assert!(run.code <= 1, "{}", run.stderr);
    run.written()
}

fn relevant_total(report: &Value) -> usize {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["relevantBeliefs"].as_array().map_or(0, Vec::len))
        .sum()
}

#[test]
fn the_predicted_consequences_are_what_a_run_shows() {
    // Ids only in metadata: compat keeps no hit at all, careful keeps what the sound store gives.
    let sound = toy_memory::start(Flaws::default());
    let baseline = relevant_total(&run_pmb(&sound.url, false));
    assert!(baseline > 0);
    let flawed = toy_memory::start(Flaws {
        ids_in_metadata_only: true,
        ..Flaws::default()
    });
    assert_eq!(relevant_total(&run_pmb(&flawed.url, true)), 0);
    assert_eq!(relevant_total(&run_pmb(&flawed.url, false)), baseline);

    // Other users' beliefs: the careful client counts them, and cross-user cases that passed
    // against the sound store fail.
    let leaky = toy_memory::start(Flaws {
        ignore_user: true,
        ..Flaws::default()
    });
    let report = run_pmb(&leaky.url, false);
    let entries = report["cases"].as_array().unwrap();
    let other_user: usize = entries
        .iter()
        .map(|e| e["diagnostics"]["otherUser"].as_array().map_or(0, Vec::len))
        .sum();
    assert!(other_user > 0);
    let passes = |r: &Value, category: &str| {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["category"] == category && e["passed"] == true)
            .count()
    };
    let sound_report = run_pmb(&sound.url, false);
    assert!(
        passes(&report, "Cross-user isolation") < passes(&sound_report, "Cross-user isolation"),
        "{} vs {}",
        passes(&report, "Cross-user isolation"),
        passes(&sound_report, "Cross-user isolation")
    );
}

/// The guide's wrapper (`examples/memory_wrapper.py`, the same bytes as the guide's block),
/// run with python3: the doctor finds what it leaves out (scope, update) and nothing else, and
/// both clients read it alike, since it answers 2xx with benchmark ids only.
#[test]
fn the_readme_wrapper_runs_and_both_modes_agree_on_it() {
    let source =
        std::fs::read_to_string(crate::common::repo("examples/memory_wrapper.py")).unwrap();
    let guide = std::fs::read_to_string(crate::common::repo("docs/guide.md")).unwrap();
    assert!(
        guide.contains(&format!("```python\n{source}```")),
        "docs/guide.md's wrapper block differs from examples/memory_wrapper.py"
    );

    if !needs(&[Need::Python3]) {
        return;
    }

    let mut child = std::process::Command::new("python3")
        .args([
            crate::common::repo("examples/memory_wrapper.py")
                .to_str()
                .unwrap(),
            "0",
        ])
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3");
    let mut url = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut url,
    )
    .unwrap();
    let url = url.trim().to_string();

    let d = doctor(&url);
    let flagged = d.not_ok();
    let careful = run_pmb(&url, false);
    let compat = run_pmb(&url, true);
    let _ = child.kill();
    let _ = child.wait();

    assert_eq!(d.code, 0, "{}", d.stdout);
    assert_eq!(
        flagged,
        [
            ("scope".to_string(), "warn".to_string()),
            ("update".to_string(), "warn".to_string())
        ]
    );
    let cases = |r: &Value| r["cases"].as_array().unwrap().clone();
    assert_eq!(cases(&careful).len(), 77);
    for (a, b) in cases(&careful).iter().zip(cases(&compat).iter()) {
        assert!(a.get("error").is_none(), "{a}");
        for field in [
            "caseId",
            "passed",
            "relevantBeliefs",
            "pinnedFacts",
            "openQuestions",
            "failures",
        ] {
            assert_eq!(a[field], b[field], "{}: {field}", a["caseId"]);
        }
    }
    assert_eq!(
        careful["retrieval"]["totalPassed"],
        compat["retrieval"]["totalPassed"]
    );
}

/// A store that refuses every `/add`: the checks that need a stored belief are skipped, the
/// error path and the closing reset still run, and the doctor exits 1.
#[test]
fn a_store_that_refuses_adds_fails_and_the_rest_is_skipped() {
    use crate::common::memory_server::{json, MemoryServer, Reply};
    let server = MemoryServer::start(|r, _| match r.path.as_str() {
        "/add" => Reply::Body(500, "Internal Server Error".into()),
        "/search" if !r.body.contains("query") => {
            Reply::Body(422, r#"{"detail":"no query"}"#.into())
        }
        _ => json(serde_json::json!({"status": "ok"})),
    });
    let d = doctor(&server.url);
    assert_eq!(d.code, 1, "{}", d.stdout);
    let verdicts: Vec<(&str, &str)> = d
        .findings
        .iter()
        .map(|f| (f["check"].as_str().unwrap(), f["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("health", "ok"),
            ("reset", "ok"),
            ("add", "fail"),
            ("round-trip", "skipped"),
            ("isolation", "skipped"),
            ("scope", "skipped"),
            ("scopes", "skipped"),
            ("update", "skipped"),
            ("error-path", "ok"),
            ("limit", "skipped"),
            ("reset-again", "ok"),
            ("reset-clears", "skipped"),
        ]
    );
    assert!(d.finding("add")["saw"]
        .as_str()
        .unwrap()
        .contains("HTTP 500"));
    // One /add was tried, then the doctor stopped adding.
    assert_eq!(server.to("/add").len(), 1);
}
