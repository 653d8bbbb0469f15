//! The Ray runner (`scripts/ray_shards.py`, issue 35) on a real local Ray cluster: a head
//! (no CPUs, so no task runs there) and a worker node, both started by `ray start` on 127.0.0.1.
//! A provider run (`static --backend http` against `tenure-eval serve`, one system per task)
//! in 3 shards, merged, equals the single-process run. A worker killed mid-run is run again by
//! Ray and the merge is still equal; with no retries, the runner names the shard, exits 3 and
//! merges nothing. After every run, no shard task's work folder is left in the temp folder,
//! the killed one's included.

use crate::common::needs::{needs, ray_command, Need};
use crate::common::{cli, free_port, repo, spawn_serve, strip_measurements};
use serde_json::Value;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A head and a worker node, each a `ray start --block` in a process group of its own; dropping
/// the cluster ends those two groups, and so only this test's Ray processes (`ray stop` would
/// stop every Ray process on the machine, a user's own cluster too).
struct Cluster {
    address: String,
    nodes: Vec<Child>,
    temp: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Cluster {
        let ray = ray_command().unwrap();
        // Short: Ray's Unix sockets live under the temp dir (a 107-byte path limit).
        let temp = tempfile::Builder::new()
            .prefix("ray")
            .tempdir_in("/tmp")
            .unwrap();
        let port = free_port().to_string();
        let address = format!("127.0.0.1:{port}");
        let tmp = temp.path().to_str().unwrap().to_string();
        let tmp = tmp.as_str();
        let head = [
            "start",
            "--head",
            "--block",
            "--node-ip-address",
            "127.0.0.1",
            "--port",
            &port,
            "--num-cpus",
            "0",
            "--include-dashboard",
            "false",
            "--disable-usage-stats",
            "--temp-dir",
            tmp,
        ];
        let worker = [
            "start",
            "--block",
            "--address",
            &address,
            "--node-ip-address",
            "127.0.0.1",
            "--num-cpus",
            "2",
            "--disable-usage-stats",
        ];
        let mut cluster = Cluster {
            address: address.clone(),
            nodes: Vec::new(),
            temp,
        };
        for (name, args) in [("head", &head[..]), ("worker", &worker[..])] {
            let log = cluster.temp.path().join(format!("{name}.log"));
            let child = Command::new(&ray)
                .args(args)
                .envs(RAY_ENV)
                .process_group(0)
                .stdout(std::fs::File::create(&log).unwrap())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            cluster.nodes.push(child);
            // `--block` says so once its node is up, and then waits for a signal.
            let start = Instant::now();
            loop {
                let said = std::fs::read_to_string(&log).unwrap_or_default();
                if said.contains("will now block forever") {
                    break;
                }
                let exited = cluster.nodes.last_mut().unwrap().try_wait().unwrap();
                assert!(
                    exited.is_none() && start.elapsed() < Duration::from_secs(120),
                    "ray {args:?} did not start ({exited:?}): {said}"
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
        cluster
    }
}

impl Drop for Cluster {
    /// SIGTERM to each node's group (`ray start --block` then stops its processes, and their
    /// task workers with them), worker first; SIGKILL to what is left after 30 s.
    fn drop(&mut self) {
        let signal = |node: &Child, sig: &str| {
            let _ = Command::new("kill")
                .args([sig, "--", &format!("-{}", node.id())])
                .stderr(Stdio::null())
                .status();
        };
        for node in self.nodes.iter_mut().rev() {
            signal(node, "-TERM");
            let start = Instant::now();
            while node.try_wait().ok().flatten().is_none()
                && start.elapsed() < Duration::from_secs(30)
            {
                std::thread::sleep(Duration::from_millis(100));
            }
            signal(node, "-KILL");
            let _ = node.wait();
        }
    }
}

/// Every Ray process of the test: no usage statistics, and no token authentication, which Ray
/// turns on by itself when `~/.ray/auth_token` exists (a laptop run of the runner leaves one),
/// and which then kept the worker node out of the test's cluster.
const RAY_ENV: [(&str, &str); 2] = [
    ("RAY_USAGE_STATS_ENABLED", "0"),
    ("RAY_AUTH_MODE", "disabled"),
];

fn runner(cluster: &Cluster, out: &Path, latency_ms: u64, retries: u32) -> Command {
    let python = std::env::var_os("TENURE_EVAL_PYTHON").unwrap();
    let mut c = Command::new(python);
    c.arg(repo("scripts/ray_shards.py"))
        .args([
            "--address",
            &cluster.address,
            "--shards",
            "3",
            "--suite-args",
            "--suite pmb",
        ])
        .args(["--run", "static --backend http --url {url}"])
        .arg("--system")
        .arg(format!(
            "{{bin}} serve --suite pmb --backend cosine --port 0 --quiet --latency-ms {latency_ms}"
        ))
        .args([
            "--retries",
            &retries.to_string(),
            "--binary",
            env!("CARGO_BIN_EXE_tenure-eval"),
        ])
        .arg("--out")
        .arg(out)
        .current_dir(repo(""))
        .envs(RAY_ENV);
    c
}

/// A report without what one process measured or was told: latencies (also per seeded belief
/// and of the searches), the start time, the URL of its system (each task starts its own, and
/// how a system is reached is not a setting of the run), and the requests that process sent
/// (`backendStats`: a merge replays journals and sends none).
fn report(path: &Path) -> Value {
    let mut v: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    strip_measurements(&mut v);
    let manifest = v["manifest"].as_object_mut().unwrap();
    manifest.remove("backendStats");
    manifest["backendSettings"]
        .as_object_mut()
        .unwrap()
        .remove("url");
    for field in ["p50Ms", "p95Ms"] {
        manifest["searchLatency"][field] = Value::Null;
    }
    for belief in v["ingestion"]["perBelief"].as_array_mut().unwrap() {
        belief["latencyMs"] = Value::Null;
    }
    v
}

/// The first JSON path where `a` and `b` differ (the reports are too long to print whole).
fn first_difference(a: &Value, b: &Value, path: &str) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<_> = x.keys().chain(y.keys()).collect();
            keys.into_iter().find_map(|k| {
                let (u, v) = (
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                );
                first_difference(u, v, &format!("{path}.{k}"))
            })
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (u, v))| first_difference(u, v, &format!("{path}[{i}]"))),
        _ => (a != b).then(|| format!("{path}: {a} against {b}")),
    }
}

fn assert_same(a: &Value, b: &Value) {
    if let Some(d) = first_difference(a, b, "$") {
        panic!("the merged report differs from the single-process run's at {d}");
    }
}

/// The single-process run against one `serve`.
fn whole_run(out: &Path) -> Value {
    let (mut child, url) = spawn_serve(&[
        "--suite",
        "pmb",
        "--backend",
        "cosine",
        "--quiet",
        "--port",
        "0",
    ]);
    let o = cli(&[
        "static",
        "--suite",
        "pmb",
        "--backend",
        "http",
        "--url",
        &url,
        "--quiet",
        "--out",
    ])
    .arg(out)
    .output()
    .unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    // Exit 1: the run's cases fail (cosine behind HTTP passes 11 of 77), which is its result.
    assert!(
        matches!(o.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    report(&out.join("pmb/retrieval-report-http.json"))
}

/// Ray workers running a shard's tenure-eval now: a process titled `ray::run_shard` (Ray
/// titles a busy worker by its task) whose child runs `--shard`. Killing it then is mid-run.
fn shard_workers() -> Vec<u32> {
    let cmdline = |pid: &str| {
        let raw = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        String::from_utf8_lossy(&raw).replace('\0', " ")
    };
    let mut pids = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let pid = entry.file_name().to_string_lossy().into_owned();
        if !pid.bytes().all(|b| b.is_ascii_digit()) || !cmdline(&pid).contains(" --shard ") {
            continue;
        }
        // /proc/PID/stat: "pid (comm) state ppid ..."; comm may hold spaces, so after ')'.
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let Some(ppid) = stat
            .rsplit(')')
            .next()
            .and_then(|r| r.split_whitespace().nth(1))
        else {
            continue;
        };
        if cmdline(ppid).starts_with("ray::run_shard") {
            pids.push(ppid.parse().unwrap());
        }
    }
    pids
}

/// Shard tasks' work folders in the temp folder (Ray's workers share the test's TMPDIR). After
/// a run there are none: a task removes its own, and a killed task's is swept (by its retry, or
/// by the runner's sweep of every node when the run ends).
fn work_folders_left() -> Vec<String> {
    let mut left: Vec<String> = std::fs::read_dir(std::env::temp_dir())
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with("tenure-shard") && name.contains("-pid"))
        .collect();
    left.sort();
    left
}

/// Start the runner, kill the first Ray worker seen running a shard, and wait.
fn kill_one_worker_mid_run(mut command: Command) -> Output {
    let child: Child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        if let Some(&pid) = shard_workers().first() {
            assert!(Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status()
                .unwrap()
                .success());
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no shard ever started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn shards_on_a_local_ray_cluster_merge_to_the_single_process_run_and_survive_a_lost_worker() {
    if !needs(&[Need::Ray]) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let whole = whole_run(&dir.path().join("whole"));
    let cluster = Cluster::start();

    // 1. Three shards as Ray tasks, merged: equal to the single-process run.
    let out = dir.path().join("ray");
    let o = runner(&cluster, &out, 0, 2).output().unwrap();
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{said}");
    assert_same(&report(&out.join("pmb/retrieval-report-http.json")), &whole);
    assert_eq!(work_folders_left(), Vec::<String>::new());
    for k in 1..=3 {
        let part = report(&out.join(format!("shards/{k}/pmb/retrieval-report-http.json")));
        assert_eq!(
            part["manifest"]["shard"],
            serde_json::json!({"k": k, "n": 3})
        );
        assert!(
            said.contains(&format!("shard {k}/3 finished on node")),
            "{said}"
        );
    }

    // 2. A worker killed mid-run: Ray runs its shard again, and the merge is still equal.
    let out = dir.path().join("killed");
    let o = kill_one_worker_mid_run(runner(&cluster, &out, 40, 2));
    let said = String::from_utf8_lossy(&o.stderr);
    assert!(matches!(o.status.code(), Some(0 | 1)), "{said}");
    assert!(
        said.contains("ran 2 times (Ray retried it after a lost worker)"),
        "{said}"
    );
    assert_same(&report(&out.join("pmb/retrieval-report-http.json")), &whole);
    assert_eq!(work_folders_left(), Vec::<String>::new(), "{said}");

    // 3. No retries: the lost shard is named, exit 3, and nothing is merged.
    let out = dir.path().join("failed");
    let o = kill_one_worker_mid_run(runner(&cluster, &out, 40, 0));
    let said = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{said}");
    let named = (1..=3).filter(|k| said.contains(&format!("shard {k}/3 failed; nothing merged")));
    assert_eq!(named.count(), 1, "{said}");
    assert!(!out.join("pmb").exists(), "nothing merged");
    assert_eq!(work_folders_left(), Vec::<String>::new(), "{said}");
}
