//! A run against a memory system that goes wrong says so, early and on the console (issue 22),
//! through the binary against real servers on 127.0.0.1: nothing listening, a system that
//! crashes mid-run and comes back empty, a system that answers its own ids.

use crate::common::memory_server::{json, MemoryServer, Received};
use crate::common::{free_port, http_run, tenure_eval, try_spawn_serve};
use serde_json::json as j;
use std::process::Child;
use std::time::{Duration, Instant};

#[test]
fn nothing_listening_fails_in_seconds_in_one_line_and_keeps_the_last_report() {
    // CI's artifacts of that failure: JUnit with the run in error, the summary, the page.
    let artifacts = tempfile::tempdir().unwrap();
    let file = |name: &str| artifacts.path().join(name).display().to_string();
    let out = tempfile::tempdir().unwrap();
    let folder = out.path().join("pmb");
    std::fs::create_dir_all(&folder).unwrap();
    let good = folder.join("retrieval-report-mine.json");
    std::fs::write(&good, b"{\"the last good report\": true}").unwrap();
    let url = format!("http://127.0.0.1:{}", free_port());
    for mode in [&[][..], &["--compat", "pmb"][..]] {
        let start = Instant::now();
        let mut args = vec![
            "static",
            "--suite",
            "pmb",
            "--backend",
            "http",
            "--url",
            &url,
        ];
        args.extend(["--name", "mine", "--out", out.path().to_str().unwrap()]);
        args.extend(mode);
        let (junit, summary, page) = (file("junit.xml"), file("summary.md"), file("page.html"));
        args.extend(["--junit", &junit, "--summary-md", &summary, "--html", &page]);
        let output = tenure_eval(&args);
        let elapsed = start.elapsed();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(3), "{mode:?}: {stderr}");
        assert!(elapsed < Duration::from_secs(10), "{mode:?}: {elapsed:?}");
        assert!(
            stderr.contains("refused") && stderr.contains(&url),
            "{stderr}"
        );
        assert!(stderr.lines().count() <= 3, "a few lines: {stderr}");
        assert_eq!(
            std::fs::read(&good).unwrap(),
            b"{\"the last good report\": true}"
        );
        assert_eq!(
            std::fs::read_dir(&folder).unwrap().count(),
            1,
            "no report written"
        );
        let read = |path: &str| std::fs::read_to_string(path).unwrap();
        let xml = read(&junit);
        assert!(
            xml.contains("<error") && xml.contains("type=\"not run\"") && xml.contains(&url),
            "{xml}"
        );
        let text = read(&summary);
        assert!(
            text.contains("the run did not start") && text.contains(&url),
            "{text}"
        );
        let html = read(&page);
        assert!(
            html.contains("the run did not start") && html.contains(&url),
            "{html}"
        );
        for path in [&junit, &summary, &page] {
            std::fs::remove_file(path).unwrap();
        }
    }
}

/// `serve --backend bm25` on `port`, with extra flags. A restart on the port of a serve that
/// just died can find it taken for a moment (by another run's outgoing connection, whose local
/// port the kernel drew from the same range): tried again then, as a supervisor would.
fn serve_on(port: u16, extra: &[&str]) -> Child {
    let port = port.to_string();
    let args = [
        &["--suite", "pmb", "--quiet", "--port", port.as_str()][..],
        extra,
    ]
    .concat();
    let mut refused = String::new();
    for _ in 0..50 {
        match try_spawn_serve(&args) {
            Ok((child, url)) => {
                assert!(url.ends_with(&port), "serve listens on {url}");
                return child;
            }
            Err(e) if e.contains("in use") => refused = e,
            Err(e) => panic!("serve on {port}: {e}"),
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("serve on {port}: {refused}");
}

/// A serve that crashes when search 31 arrives (or any other) and is restarted (empty) at once
/// on the same port, as a supervisor would; whichever serve is up is killed when the guard
/// drops.
struct Restarting {
    url: String,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    /// The first serve died of its fault (and the second took its place).
    died: std::sync::Arc<std::sync::atomic::AtomicBool>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl Restarting {
    fn start() -> Restarting {
        Restarting::dying_at(30)
    }

    /// A serve that dies when search `n + 1` arrives (0: the first), then one that does not.
    fn dying_at(n: usize) -> Restarting {
        use std::sync::atomic::Ordering;
        let port = free_port();
        let n = n.to_string();
        let mut up = serve_on(port, &["--exit-after-searches", &n]);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let stopping = stop.clone();
        let died = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let restarted = died.clone();
        let watcher = std::thread::spawn(move || {
            while !stopping.load(Ordering::Relaxed) {
                match up.try_wait().unwrap() {
                    Some(status) if !restarted.load(Ordering::Relaxed) => {
                        // The fault's exit(70) from a worker thread races the others: under
                        // load the process can end on a signal instead. Either way it died.
                        assert!(fault(status), "the fault fired: {status}");
                        up = serve_on(port, &[]);
                        restarted.store(true, Ordering::Relaxed);
                    }
                    Some(status) => panic!("the restarted serve ended: {status}"),
                    None => std::thread::sleep(Duration::from_millis(2)),
                }
            }
            // The run may end before the last poll saw the fault (its search failed at once).
            if !restarted.load(Ordering::Relaxed) {
                let status = up.try_wait().unwrap();
                restarted.store(status.is_some_and(fault), Ordering::Relaxed);
            }
            let _ = up.kill();
            let _ = up.wait();
        });
        Restarting {
            url: format!("http://127.0.0.1:{port}"),
            stop,
            died,
            watcher: Some(watcher),
        }
    }
}

/// How `serve --exit-after-searches` ends: exit 70, or a signal when exiting from a worker
/// thread races the process's other threads.
fn fault(status: std::process::ExitStatus) -> bool {
    status.code().is_none_or(|code| code == 70)
}

impl Drop for Restarting {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(w) = self.watcher.take() {
            let _ = w.join();
        }
    }
}

/// Every crash point of a run against a system restarted empty by its supervisor, in careful
/// and compat mode, the static pass and the session pass (issue 45): the system dies when
/// search N arrives, for N = 1, 2, ... until a run sends fewer than N searches (the careful
/// client's store-check probes included), and no run whose system died exits 0; the run whose
/// system never died does.
#[test]
fn no_crash_point_gives_a_report_with_exit_0() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let runs: [(&str, &[&str]); 4] = [
        ("static", &[]),
        ("static", &["--compat", "pmb"]),
        ("session", &[]),
        ("session", &["--compat", "pmb"]),
    ];
    for (kind, mode) in runs {
        // Crash points are tried eight at a time (most of a run is waiting); the first run whose system never died ends
        // the loop (the ones after it, already started, never die either).
        let next = AtomicUsize::new(0);
        let survived = AtomicUsize::new(usize::MAX);
        let failures = std::sync::Mutex::new(Vec::new());
        std::thread::scope(|scope| {
            for _ in 0..8 {
                scope.spawn(|| loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n > survived.load(Ordering::Relaxed) || n > 200 {
                        break;
                    }
                    let server = Restarting::dying_at(n);
                    let run = http_run(
                        kind,
                        &["--suite", "pmb"],
                        "pmb",
                        &server.url,
                        "crashy",
                        mode,
                    );
                    let died = server.died.clone();
                    drop(server);
                    let died = died.load(Ordering::Relaxed);
                    if !died {
                        survived.fetch_min(n, Ordering::Relaxed);
                    }
                    let want = if died { 3 } else { 0 };
                    if run.code != want {
                        failures.lock().unwrap().push(format!(
                            "{kind} {mode:?}, the system {}: exit {}: {}",
                            if died {
                                format!("died at search {}", n + 1)
                            } else {
                                format!("never died ({n} searches)")
                            },
                            run.code,
                            run.stderr.lines().last().unwrap_or_default()
                        ));
                    }
                });
            }
        });
        let failures = failures.into_inner().unwrap();
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        let searches = survived.into_inner();
        assert!(
            searches > 10 && searches < 200,
            "{kind} {mode:?}: {searches}"
        );
    }
}

#[test]
fn a_store_lost_mid_run_stops_the_careful_client_and_warns_in_compat() {
    let server = Restarting::start();
    let run = http_run(
        "static",
        &["--suite", "pmb"],
        "pmb",
        &server.url,
        "crashy",
        &[],
    );
    assert_eq!(run.code, 3, "{}", run.stderr);
    // What was measured before the loss is kept: a report of those cases, in failed/, saying
    // where and why the run stopped (--resume continues it).
    let report = run
        .report
        .as_ref()
        .expect("the cases before the loss are kept");
    let stopped = &report["manifest"]["stopped"];
    assert!(
        stopped["reason"]
            .as_str()
            .unwrap()
            .starts_with("store lost at "),
        "{stopped}"
    );
    let cases = report["cases"].as_array().unwrap();
    assert_eq!(stopped["at"], cases.last().unwrap()["caseId"]);
    assert!(cases.len() < 77, "{}", cases.len());
    assert!(run.stderr.contains("store lost at "), "{}", run.stderr);
    // The note, a retry line per cause (shown once each), the error.
    assert!(run.stderr.lines().count() <= 5, "{}", run.stderr);
    drop(server);

    // Compat keeps upstream's numbers (the entry whose search failed is lost, the rest are
    // scored against the empty store) and says so.
    let server = Restarting::start();
    let run = http_run(
        "static",
        &["--suite", "pmb"],
        "pmb",
        &server.url,
        "crashy",
        // How many searches meet the restart depends on how fast it is: let them all through.
        &["--compat", "pmb", "--max-errors", "77"],
    );
    drop(server);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(run.stderr.contains("failed in transport"), "{}", run.stderr);
    assert!(
        run.stderr.contains("compat mode does not re-probe"),
        "{}",
        run.stderr
    );
    let report = run.report.expect("compat writes the failed run's report");
    let entries = report["cases"].as_array().unwrap();
    assert!(
        entries.len() < 77,
        "the failed searches' entries are lost, as upstream"
    );
    assert_eq!(report["retrieval"]["caseCount"], 77);
    // After the restart the store is empty: the last cases found nothing.
    assert_eq!(entries.last().unwrap()["relevantBeliefs"], j!([]));
}

#[test]
fn own_ids_in_compat_mode_warn_once_and_in_the_summary() {
    let server = MemoryServer::start(|r: &Received, n| match r.path.as_str() {
        "/search" => json(j!({"results": [{"id": format!("mem-{n}")}, {"id": "mem-x"}]})),
        _ => json(j!({"status": "ok"})),
    });
    let run = http_run(
        "static",
        &["--suite", "pmb"],
        "pmb",
        &server.url,
        "own",
        &["--compat", "pmb"],
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let warnings: Vec<_> = run
        .stderr
        .lines()
        .filter(|l| l.contains("ids that are not the suite's"))
        .collect();
    assert_eq!(warnings.len(), 1, "once per kind: {}", run.stderr);
    assert!(
        warnings[0].contains("x)"),
        "with its count: {}",
        warnings[0]
    );
    let report = run.report.unwrap();
    let recorded = report["manifest"]["backendStats"]["warnings"].to_string();
    assert!(recorded.contains("not the suite's"), "{recorded}");
}

/// A system that answered and then went away (nothing listens on its port any more): the
/// careful run stops at the first refused connection, in about a second instead of retrying
/// case after case, says so and names `--resume` (issue 45).
#[test]
fn a_system_that_went_away_stops_the_run_at_once_and_names_resume() {
    let port = free_port();
    let mut serve = serve_on(port, &["--exit-after-searches", "5"]);
    let url = format!("http://127.0.0.1:{port}");
    let start = Instant::now();
    let run = http_run("static", &["--suite", "pmb"], "pmb", &url, "gone", &[]);
    let elapsed = start.elapsed();
    assert!(fault(serve.wait().unwrap()), "the serve died of its fault");
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("went away") && run.stderr.contains("--resume"),
        "{}",
        run.stderr
    );
    assert!(
        elapsed < Duration::from_secs(3),
        "{elapsed:?}: {}",
        run.stderr
    );
}
