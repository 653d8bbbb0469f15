//! Shared helpers of the integration tests.
#![allow(dead_code)]

pub mod browser;
pub mod embed_server;
pub mod memory_server;
pub mod needs;
pub mod provider;
pub mod python_reference;
pub mod rank_reference;
pub mod toy_memory;
pub mod train;

use serde_json::Value;
use std::path::{Path, PathBuf};
use tenure_eval::backend::BackendConfig;
use tenure_eval::report::{json, Manifest, Shape};
use tenure_eval::run::{run_static, Silent, StaticRun};
use tenure_eval::suite::{Suite, SuiteSource};

pub fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A fresh, empty folder `name` in cargo's folder for integration tests' data (target/tmp),
/// emptied by the next run instead of left in /tmp as a `TempDir` in a `static` would be.
pub fn shared_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    match std::fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => panic!("{}: {e}", dir.display()),
        _ => {}
    }
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The folder `name` (target/tmp) after `make` filled it once for every test that asks, in
/// this process or another (nextest runs each test in its own process): the first caller
/// makes it under a file lock, the others wait on the lock and reuse it. A folder made by
/// another build of the binary, or for another `key`, is made again.
pub fn shared_run(name: &str, key: &str, make: impl FnOnce(&Path)) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(root).unwrap();
    let lock = std::fs::File::create(root.join(format!("{name}.lock"))).unwrap();
    lock.lock().unwrap();
    let dir = root.join(name);
    let binary = std::fs::metadata(env!("CARGO_BIN_EXE_tenure-eval")).unwrap();
    let stamp = format!("{key}\n{:?} {}\n", binary.modified().unwrap(), binary.len());
    let stamp_file = root.join(format!("{name}.done"));
    if std::fs::read_to_string(&stamp_file).ok().as_deref() != Some(stamp.as_str()) {
        let _ = std::fs::remove_file(&stamp_file);
        let dir = shared_dir(name);
        make(&dir);
        std::fs::write(&stamp_file, &stamp).unwrap();
    }
    lock.unlock().unwrap();
    dir
}

/// The JSON file at `path` (anywhere: a run's output, a temporary file).
pub fn json_at(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

pub fn read_json(path: &str) -> Value {
    serde_json::from_slice(&std::fs::read(repo(path)).unwrap()).unwrap()
}

pub fn builtin(name: &str) -> Suite {
    Suite::load(&SuiteSource::Builtin(name.into())).unwrap()
}

pub fn static_run(name: &str) -> (Suite, StaticRun) {
    let suite = builtin(name);
    let run = run_static(&suite, &BackendConfig::bm25(), &mut Silent).unwrap();
    (suite, run)
}

/// The report JSON exactly as the CLI writes it.
pub fn static_report(suite: &Suite, run: &StaticRun) -> Value {
    let manifest = Manifest::for_static(suite, run);
    json::static_report(run, &manifest, Shape::of(suite.profile)).body
}

pub fn ids(v: &Value) -> Vec<String> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_str().unwrap().to_string())
        .collect()
}

/// The `id` of every line of a JSON Lines text (a statements file, `temporal draw`'s output).
pub fn jsonl_ids(text: &[u8]) -> Vec<String> {
    std::str::from_utf8(text)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["id"].as_str().unwrap().to_string()
        })
        .collect()
}

pub fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// Clause list as a sorted multiset of (path, term, score in hundredths).
pub fn clause_multiset(v: &Value) -> Vec<(String, String, i64)> {
    let mut out: Vec<_> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["path"].as_str().unwrap().to_string(),
                c["term"].as_str().unwrap().to_string(),
                (c["score"].as_f64().unwrap() * 100.0).round() as i64,
            )
        })
        .collect();
    out.sort();
    out
}

/// Numbers compare as numbers (the published files print `1.0` and `1` alike).
pub fn same_number(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) => (x - y).abs() < 1e-9,
        _ => a == b,
    }
}

#[allow(unused_imports)]
pub use tenure_eval::report::same_json;

/// `tenure-eval ARGS` as a child process run from the repository root (where `embeddings/`
/// is): the one place the tests name the binary. Add paths, environment and stdio, then
/// `output()`, `status()` or `spawn()`.
pub fn cli(args: &[&str]) -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_tenure-eval"));
    // The user cache of embedding stores is this test process's own (absent until a test
    // writes to it), never the machine's: what one test embeds cannot answer another's.
    let cache = std::env::temp_dir().join(format!("tenure-eval-test-cache-{}", std::process::id()));
    cmd.args(args)
        .current_dir(repo(""))
        .env("TENURE_EVAL_CACHE", cache);
    cmd
}

/// Every command `tenure-eval --help` lists (`help` aside), in its order.
pub fn commands() -> Vec<String> {
    subcommands(&[])
}

/// The subcommands `tenure-eval PATH --help` lists (`help` aside), in its order; none for a
/// command without subcommands.
pub fn subcommands(path: &[&str]) -> Vec<String> {
    let help = String::from_utf8(tenure_eval(&[path, &["--help"]].concat()).stdout).unwrap();
    let Some(list) = help.split("Commands:").nth(1) else {
        return Vec::new();
    };
    list.lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

/// Cosine of two vectors (their dot product: the models' vectors are normalised).
pub fn cosine(a: &[f32], b: &[f32]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| f64::from(*x) * f64::from(*y))
        .sum()
}

/// Run `tenure-eval ARGS`; any exit code.
pub fn tenure_eval(args: &[&str]) -> std::process::Output {
    tenure_eval_with(args, &[])
}

/// Run `tenure-eval ARGS PATHS...`; any exit code.
pub fn tenure_eval_with(args: &[&str], paths: &[&Path]) -> std::process::Output {
    cli(args).args(paths).output().unwrap()
}

/// Run `tenure-eval ARGS`, require exit 2 (a usage or input error) and `says` on stderr.
pub fn refused(args: &[&str], says: &str) {
    let out = tenure_eval(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

/// Run `command`, require exit `code` (stderr in the message), return its output.
pub fn exits(command: &mut std::process::Command, code: i32) -> std::process::Output {
    let out = command.output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{said}");
    out
}

/// Owned arguments as the `&str`s the runners take.
pub fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

/// Run `tenure-eval ARGS PATHS...`, require success, return its output.
pub fn tenure_eval_ok(args: &[&str], paths: &[&Path]) -> std::process::Output {
    let output = tenure_eval_with(args, paths);
    assert!(
        output.status.success(),
        "tenure-eval {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// Run `tenure-eval ARGS --quiet --out DIR` and require success.
pub fn tenure_eval_into(args: &[&str], out: &Path) {
    tenure_eval_ok(&[args, &["--quiet", "--out"]].concat(), &[out]);
}

/// pmb's session cases on bm25 into `out`: the session report's path.
pub fn pmb_session(out: &Path) -> PathBuf {
    tenure_eval_into(&["session", "--suite", "pmb", "--backend", "bm25"], out);
    out.join("pmb/session-retrieval-report-tenure.json")
}

/// Measured fields: latencies, index build time, start time.
pub fn strip_measurements(v: &mut Value) {
    match v {
        Value::Object(map) => {
            for key in [
                "retrievalLatencyMs",
                "meanLatencyMs",
                "p50LatencyMs",
                "p95LatencyMs",
                "totalMs",
                "meanPerBeliefMs",
                "startedAt",
            ] {
                if map.contains_key(key) {
                    map.insert(key.into(), Value::Null);
                }
            }
            map.values_mut().for_each(strip_measurements);
        }
        Value::Array(items) => items.iter_mut().for_each(strip_measurements),
        _ => {}
    }
}

/// What `tenure-eval KIND SUITE... --backend http --url URL --name NAME --out TMP EXTRA...`
/// left: its exit code, stderr, and the report it wrote (`None` when it wrote none).
pub struct HttpRun {
    pub code: i32,
    pub stderr: String,
    pub report: Option<Value>,
}

/// Run `kind` (`static` or `session`) of the suite `suite` names (`["--suite", "pmb"]` or
/// custom files) against the memory system at `url`; the report is read from `--out`'s
/// folder for `folder` (the suite's name, `custom` for files).
pub fn http_run(
    kind: &str,
    suite: &[&str],
    folder: &str,
    url: &str,
    name: &str,
    extra: &[&str],
) -> HttpRun {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().display().to_string();
    let mut args = vec![kind];
    args.extend_from_slice(suite);
    args.extend([
        "--backend",
        "http",
        "--url",
        url,
        "--name",
        name,
        "--out",
        &dir,
    ]);
    args.extend_from_slice(extra);
    let output = tenure_eval(&args);
    let stem = if kind == "static" { "" } else { "session-" };
    // The report is named by the run's label: the name, then the tokens of settings such as
    // `--compat pmb` (`retrieval-report-NAME-compat.json`); a run whose cases errored writes it
    // beside that name, in `failed/`. The folder is this run's own.
    let prefix = format!("{stem}retrieval-report-{name}");
    let written: Vec<PathBuf> = [
        out.path().join(folder),
        out.path().join(folder).join("failed"),
    ]
    .iter()
    .flat_map(|dir| {
        std::fs::read_dir(dir)
            .map(|entries| entries.map(|e| e.unwrap().path()).collect::<Vec<_>>())
            .unwrap_or_default()
    })
    .filter(|p| {
        let file = p.file_name().unwrap().to_string_lossy();
        file.starts_with(&prefix) && file.ends_with(".json") && !file.ends_with(".manifest.json")
    })
    .collect();
    let code = output.status.code().unwrap_or(-1);
    assert!(
        written.len() <= 1,
        "one report per run, good or failed: {written:?}"
    );
    HttpRun {
        code,
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        report: written
            .first()
            .map(|p| serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()),
    }
}

impl HttpRun {
    /// The report, which must have been written.
    pub fn written(self) -> Value {
        let stderr = self.stderr;
        self.report
            .unwrap_or_else(|| panic!("no report (exit {}): {stderr}", self.code))
    }
}

/// A port nothing listens on on 127.0.0.1 (bound, then released).
pub fn free_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Start `tenure-eval serve ARGS` from the repository root; the child and the URL it printed on
/// stdout.
pub fn spawn_serve(args: &[&str]) -> (std::process::Child, String) {
    try_spawn_serve(args).unwrap_or_else(|e| panic!("serve did not start: {e}"))
}

/// [`spawn_serve`], or how the serve ended and what it said on stderr when it printed no URL.
pub fn try_spawn_serve(args: &[&str]) -> Result<(std::process::Child, String), String> {
    use std::io::{BufRead, Read, Seek};
    // A file, not a pipe: a serve left running must not block on a stderr nobody reads.
    let mut stderr = tempfile::tempfile().unwrap();
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_tenure-eval"))
        .arg("serve")
        .args(args)
        .current_dir(repo(""))
        .stdout(std::process::Stdio::piped())
        .stderr(stderr.try_clone().unwrap())
        .spawn()
        .unwrap();
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    if line.starts_with("http://127.0.0.1:") {
        return Ok((child, line.trim().to_string()));
    }
    let status = child.wait().unwrap();
    let mut said = String::new();
    stderr.rewind().unwrap();
    stderr.read_to_string(&mut said).unwrap();
    Err(format!("{status}, printed {line:?}: {said}"))
}
