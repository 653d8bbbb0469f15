//! A system that fails: faults recorded per case while the run completes, and seeding progress
//! reaching the observer.

use super::*;

/// The case the faults below hit, and its query.
const FAULTY: &str = "alias-kube-resolves";
const FAULTY_QUERY: &str = "how does kube schedule pods";

/// A server that answers like a good memory system (the case's gold) except on the faulty
/// case's search, where `fault(n)` answers (`n` counts the faulty searches so far).
fn faulty_server(fault: std::sync::Arc<dyn Fn(usize) -> Reply + Send + Sync>) -> MemoryServer {
    let faulty = std::sync::atomic::AtomicUsize::new(0);
    MemoryServer::start(move |r: &Received, _| match r.path.as_str() {
        "/search" if r.body.contains(FAULTY_QUERY) => {
            fault(faulty.fetch_add(1, std::sync::atomic::Ordering::SeqCst))
        }
        "/search" => json(j!({"results": []})),
        _ => json(j!({"status": "ok"})),
    })
}

/// The pmb static cases against a faulty server; the report must be written.
fn run_faulty(url: &str, compat: bool, extra: &[&str]) -> Outcome {
    let mut args = vec!["--format", "json"];
    if compat {
        args.extend(["--compat", "pmb"]);
    }
    args.extend_from_slice(extra);
    let mut run = http_run("static", &["--suite", "pmb"], "pmb", url, "f", &args);
    Outcome {
        report: run.report.take().expect("the report is written"),
        code: run.code,
        stderr: run.stderr,
    }
}

struct Outcome {
    code: i32,
    stderr: String,
    report: Value,
}

fn entry<'a>(report: &'a Value, id: &str) -> Option<&'a Value> {
    report["cases"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["caseId"] == id)
}

#[test]
fn faults_are_recorded_per_case_and_the_run_completes() {
    let plain = |status: u16, text: &str| Reply::Body(status, text.to_string());
    // (name, fault, careful error kind or None when the careful run recovers, compat keeps the entry)
    type Fault = std::sync::Arc<dyn Fn(usize) -> Reply + Send + Sync>;
    let faults: Vec<(&str, Fault, Option<&str>, bool)> = vec![
        (
            "503 once",
            std::sync::Arc::new(move |n| {
                if n == 0 {
                    plain(503, "Service Unavailable")
                } else {
                    json(j!({"results": [{"id": "b-ci-gha-entity"}]}))
                }
            }),
            None,
            false,
        ),
        (
            "404 JSON",
            std::sync::Arc::new(move |_| plain(404, r#"{"detail":"Not Found"}"#)),
            Some("permanent"),
            true,
        ),
        (
            "500 text",
            std::sync::Arc::new(move |_| plain(500, "Internal Server Error")),
            Some("transient"),
            false,
        ),
        (
            "not JSON",
            std::sync::Arc::new(move |_| plain(200, "<html>oops</html>")),
            Some("permanent"),
            false,
        ),
        (
            "truncated",
            std::sync::Arc::new(move |_| {
                Reply::Truncated(400, r#"{"results": [{"id": "b-ci"#.into())
            }),
            Some("transient"),
            false,
        ),
        (
            "null element",
            std::sync::Arc::new(move |_| json(j!({"results": [null]}))),
            Some("permanent"),
            false,
        ),
        (
            "wrong shape",
            std::sync::Arc::new(move |_| json(j!({"results": "b-ci-gha-entity"}))),
            Some("permanent"),
            true,
        ),
        (
            "hang-up",
            std::sync::Arc::new(move |_| Reply::Hangup),
            Some("transient"),
            false,
        ),
        (
            "slow",
            std::sync::Arc::new(move |_| {
                Reply::Slow(std::time::Duration::from_secs(3), 200, "{}".into())
            }),
            Some("transient"),
            false,
        ),
    ];
    for (name, fault, careful_kind, compat_keeps) in faults {
        let extra = ["--timeout", "1", "--retries", "1"];
        let server = faulty_server(fault.clone());
        let careful = run_faulty(&server.url, false, &extra);
        assert_eq!(
            careful.report["cases"].as_array().unwrap().len(),
            77,
            "{name}"
        );
        let e = entry(&careful.report, FAULTY).unwrap();
        match careful_kind {
            None => {
                assert_eq!(careful.code, 0, "{name}: {}", careful.stderr);
                assert!(e.get("error").is_none());
                assert_eq!(
                    careful.report["manifest"]["retries"], 1,
                    "{name}: the retry is counted"
                );
            }
            Some(kind) => {
                assert_eq!(careful.code, 3, "{name}: {}", careful.stderr);
                assert_eq!(e["error"]["kind"], kind, "{name}: {}", e["error"]);
                assert_eq!(
                    e["error"]["attempts"],
                    if kind == "transient" { 2 } else { 1 },
                    "{name}"
                );
                assert_eq!(e["passed"], false);
                assert_eq!(careful.report["retrieval"]["errored"], 1, "{name}");
                assert!(
                    careful.stderr.contains(FAULTY),
                    "{name}: {}",
                    careful.stderr
                );
            }
        }
        // Only the faulty case is touched.
        let errored: Vec<&Value> = careful.report["cases"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c.get("error").is_some())
            .collect();
        assert!(errored.len() <= 1, "{name}");

        // Compat mode never retries, as upstream's client: --retries is refused there.
        let server = faulty_server(fault);
        let compat = run_faulty(&server.url, true, &extra[..2]);
        let kept = entry(&compat.report, FAULTY).is_some();
        assert_eq!(
            kept, compat_keeps,
            "{name}: upstream keeps the entry iff the body is JSON"
        );
        assert_eq!(compat.report["retrieval"]["caseCount"], 77);
        assert_eq!(
            compat.report["retrieval"]["totalCases"],
            if kept { 77 } else { 76 },
            "{name}"
        );
        assert!(
            compat.stderr.contains("warning"),
            "{name}: compat warns: {}",
            compat.stderr
        );
        assert_eq!(
            compat.code,
            if kept { 0 } else { 3 },
            "{name}: {}",
            compat.stderr
        );
    }
}

/// The runner tells its observer how seeding goes (the terminal's progress bar), one event
/// before each `/add` and one at the end, and then one event per finished case.
#[test]
fn seeding_progress_reaches_the_observer() {
    use tenure_eval::backend::http::HttpConfig;
    use tenure_eval::backend::BackendConfig;
    use tenure_eval::run::{run_static_with, Observer};

    #[derive(Default)]
    struct Seen {
        seeding: Vec<(usize, usize)>,
        cases: usize,
        adds_at_each_event: Vec<usize>,
    }
    struct Watch<'a>(&'a MemoryServer, Seen);
    impl Observer for Watch<'_> {
        fn seeding(&mut self, done: usize, total: usize) {
            self.1.seeding.push((done, total));
            self.1.adds_at_each_event.push(self.0.to("/add").len());
        }
        fn finished(&mut self, _done: usize, _total: usize, _label: &str) {
            self.1.cases += 1;
        }
    }

    let server = recording_server();
    let suite = crate::common::builtin("pmb");
    let config = BackendConfig::Http(Box::new(HttpConfig::new(&server.url, "watch")));
    let mut watch = Watch(&server, Seen::default());
    run_static_with(&suite, &config, &mut watch, 1).unwrap();
    let n = suite.corpus.len();
    let expected: Vec<(usize, usize)> = (0..=n).map(|done| (done, n)).collect();
    assert_eq!(watch.1.seeding, expected);
    // Each event comes before its /add: after `done` adds the bar says `done`.
    assert_eq!(watch.1.adds_at_each_event, (0..=n).collect::<Vec<_>>());
    assert_eq!(watch.1.cases, suite.cases.len());
}
