//! Every flag acts or is refused, on every command (issue 45 #3): the sweep is generated from
//! clap's command tree as `tenure-eval --help` prints it (every command, every subcommand,
//! every flag of each), so a new command or flag is held to the rule or this test names it.
//!
//! For each command a base invocation that succeeds (a small run on pmb, a report of one); for
//! each of its flags a value to try (an enum flag: a possible value other than its default;
//! else the table below). The base with the flag (replacing the base's own value of it) must
//! either change what the command does, its exit code, its stdout or stderr, or a file it
//! writes, or be refused: exit 2 with the flag named on stderr. What varies from run to run of
//! the same command (the folder it runs in, a port, measured times) is masked first: each
//! invocation runs in a fresh folder, measured JSON fields and durations are masked, and a
//! line that differs between two runs of the base has its digits masked in every run.

use crate::common::{cli, needs};
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::LazyLock;

/// A flag as `-h` prints it: its name, whether it takes a value, its possible values and
/// default.
#[derive(Debug, Clone)]
struct Flag {
    name: String,
    takes_value: bool,
    possible: Vec<String>,
    default: Option<String>,
}

fn help(path: &[&str]) -> String {
    let out = cli(&[path, &["-h"]].concat()).output().unwrap();
    assert!(out.status.success(), "{path:?} -h");
    String::from_utf8(out.stdout).unwrap()
}

/// Every command path of the tree: `run`, ..., `cache list`, `temporal eval`.
fn commands() -> Vec<Vec<String>> {
    fn children(path: &[String]) -> Vec<String> {
        crate::common::subcommands(&path.iter().map(String::as_str).collect::<Vec<_>>())
    }
    let mut out = Vec::new();
    let mut todo: Vec<Vec<String>> = children(&[]).into_iter().map(|c| vec![c]).collect();
    while let Some(path) = todo.pop() {
        let kids = children(&path);
        if kids.is_empty() {
            out.push(path);
        } else {
            todo.extend(kids.into_iter().map(|k| [path.clone(), vec![k]].concat()));
        }
    }
    out.sort();
    out
}

static FLAG_LINE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^\s+(?:-\w, )?(--[a-z0-9-]+)( <[^>]+>)?").unwrap());
static POSSIBLE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\[possible values: ([^\]]+)\]").unwrap());
static DEFAULT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\[default: ([^\]]+)\]").unwrap());

/// The flags of a command, from its `-h` (an entry's wrapped lines joined).
fn flags(path: &[String]) -> Vec<Flag> {
    let path: Vec<&str> = path.iter().map(String::as_str).collect();
    let text = help(&path);
    let mut entries: Vec<String> = Vec::new();
    for line in text.lines() {
        if FLAG_LINE.is_match(line) {
            entries.push(line.to_string());
        } else if line.starts_with("  ") && !line.trim().is_empty() {
            if let Some(last) = entries.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else {
            entries.push(String::new());
        }
    }
    let mut seen = BTreeSet::new();
    entries
        .iter()
        .filter_map(|e| {
            let c = FLAG_LINE.captures(e)?;
            let name = c[1].to_string();
            seen.insert(name.clone()).then(|| Flag {
                name,
                takes_value: c.get(2).is_some(),
                possible: POSSIBLE
                    .captures(e)
                    .map(|p| p[1].split(", ").map(String::from).collect())
                    .unwrap_or_default(),
                default: DEFAULT.captures(e).map(|d| d[1].to_string()),
            })
        })
        .collect()
}

/// What the bases read, made once for every test of this file: reports of bm25 and cosine on
/// pmb and paper, two shards, a history, a TREC run, BEAM's layout with a run on it,
/// LongMemEval's sample with a run on it.
struct Fixtures {
    dir: PathBuf,
}

fn ok(args: &[&str]) {
    let out = cli(args).output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Fixtures {
    fn get() -> Fixtures {
        let dir = crate::common::shared_run("flag-sweep", "1", |d| {
            let p = |name: &str| d.join(name).display().to_string();
            let run = |suite: &str, backends: &str, extra: &[&str]| {
                ok(&[
                    &["run", "--suite", suite, "--backend", backends, "--quiet"][..],
                    extra,
                ]
                .concat());
            };
            run("pmb", "bm25,cosine", &["--out", &p("r")]);
            run("paper", "bm25,cosine", &["--out", &p("p")]);
            run("pmb", "bm25", &["--shard", "1/2", "--out", &p("s1")]);
            run("pmb", "bm25", &["--shard", "2/2", "--out", &p("s2")]);
            // A history with a regression: one label, bm25 then cosine.
            for (commit, backend) in [("a1", "bm25"), ("b2", "cosine")] {
                run(
                    "pmb",
                    backend,
                    &[
                        "--out",
                        &p("hr"),
                        "--history",
                        &p("h"),
                        "--commit",
                        commit,
                        "--label",
                        "mine",
                    ],
                );
            }
            ok(&[
                "trec",
                &p("r/pmb/retrieval-report-tenure.json"),
                "--out",
                &p("t"),
            ]);
            crate::beam::sample(d);
            // BEAM's layout with one chat of the two; LongMemEval's sample less a question.
            let one = d.join("chats-one");
            crate::beam::sample(&one);
            std::fs::rename(one.join("chats"), d.join("chats-one-tmp")).unwrap();
            std::fs::remove_dir_all(&one).unwrap();
            std::fs::rename(d.join("chats-one-tmp"), &one).unwrap();
            std::fs::remove_dir_all(one.join("100K/2")).unwrap();
            ok(&[
                "run",
                "--suite",
                "beam",
                "--data",
                &p("chats"),
                "--backend",
                "bm25-text",
                "--quiet",
                "--out",
                &p("br"),
            ]);
            let lme = crate::common::repo("tests/data/longmemeval-sample.json");
            let mut less: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&lme).unwrap()).unwrap();
            less.as_array_mut().unwrap().pop();
            std::fs::write(d.join("lme-less.json"), less.to_string()).unwrap();
            ok(&[
                "run",
                "--suite",
                "longmemeval",
                "--data",
                lme.to_str().unwrap(),
                "--backend",
                "bm25-text",
                "--quiet",
                "--out",
                &p("lr"),
            ]);
        });
        Fixtures { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).display().to_string()
    }
}

/// The base invocation of a command: one that succeeds, small; output paths are relative to
/// the fresh folder it runs in. `None`: this machine lacks what it reads (LoCoMo's file).
fn base(command: &str, fx: &Fixtures, url: &str) -> Option<Vec<String>> {
    let r = |name: &str| fx.path(&format!("r/pmb/{name}"));
    let (bm25, cosine) = (
        r("retrieval-report-tenure.json"),
        r("all-minilm-l6-v2-retrieval-report-vector.json"),
    );
    let statements = crate::common::repo("cases/temporal/statements.jsonl")
        .display()
        .to_string();
    let locomo =
        || needs::needs(&[needs::Need::Locomo]).then(|| needs::locomo_file().display().to_string());
    let args: Vec<String> = match command {
        "run" | "static" | "session" => vec![command, "--suite", "pmb", "--backend", "bm25"]
            .into_iter()
            .map(String::from)
            .chain(["--out".into(), "out".into()])
            .collect(),
        "validate" => vec!["validate".into(), "--suite".into(), "pmb".into()],
        "verify" => vec!["verify".into(), bm25],
        "claims" => {
            let mut files: Vec<String> = std::fs::read_dir(fx.dir.join("p/paper"))
                .unwrap()
                .map(|e| e.unwrap().path().display().to_string())
                .filter(|p| p.ends_with(".json") && !p.ends_with(".manifest.json"))
                .collect();
            files.sort();
            [vec!["claims".to_string()], files].concat()
        }
        "compare" => vec!["compare".into(), bm25, cosine],
        "tables" => vec!["tables".into(), bm25, cosine],
        "trec" => vec!["trec".into(), bm25, "--out".into(), "out".into()],
        "plot" => vec![
            "plot".into(),
            r("session-retrieval-report-tenure.json"),
            r("all-minilm-l6-v2-session-retrieval-report-vector.json"),
            "--out".into(),
            "fig.svg".into(),
        ],
        "html" => vec![
            "html".into(),
            bm25,
            cosine,
            "--out".into(),
            "page.html".into(),
        ],
        "embed" => [
            "embed",
            "--suite",
            "pmb",
            "--export-texts",
            "--out",
            "texts.jsonl",
        ]
        .map(String::from)
        .to_vec(),
        "models" => [
            "models",
            "--suite",
            "pmb",
            "--model",
            "hashed",
            "--no-chance",
            "--out",
            "out",
        ]
        .map(String::from)
        .to_vec(),
        "serve" => ["serve", "--suite", "pmb", "--backend", "bm25"]
            .map(String::from)
            .to_vec(),
        "doctor" => vec!["doctor".into(), "--url".into(), url.into()],
        "scale" => ["scale", "--sizes", "1k", "--out", "out"]
            .map(String::from)
            .to_vec(),
        "flywheel" => ["flywheel", "--sessions", "3", "--seed", "7", "--out", "out"]
            .map(String::from)
            .to_vec(),
        "temporal classify" | "temporal eval" | "temporal features" => {
            let sub = command.split(' ').nth(1).unwrap();
            vec!["temporal".into(), sub.into(), statements]
        }
        "temporal draw" => [
            "temporal",
            "draw",
            "--locomo",
            &locomo()?,
            "--part",
            "dev",
            "--n",
            "5",
        ]
        .map(String::from)
        .to_vec(),
        "locomo" => {
            let file = locomo()?;
            let dir = crate::common::shared_run("flag-sweep-locomo", "1", |d| {
                let out = d.display().to_string();
                ok(&[
                    "run",
                    "--suite",
                    "locomo",
                    "--data",
                    &file,
                    "--backend",
                    "bm25-text",
                ]
                .into_iter()
                .chain(["--quiet", "--out", &out])
                .collect::<Vec<_>>());
            });
            let report = dir.join("locomo/retrieval-report-bm25-text.json");
            vec![
                "locomo".into(),
                report.display().to_string(),
                "--data".into(),
                file,
            ]
        }
        "beam" => vec![
            "beam".into(),
            fx.path("br/beam/retrieval-report-bm25-text.json"),
            "--data".into(),
            fx.path("chats"),
        ],
        "alias-learning" => vec![
            "alias-learning".into(),
            "--suite".into(),
            "beam".into(),
            "--data".into(),
            fx.path("chats"),
        ],
        "longmemeval" => vec![
            "longmemeval".into(),
            fx.path("lr/longmemeval/retrieval-report-bm25-text.json"),
            "--data".into(),
            crate::common::repo("tests/data/longmemeval-sample.json")
                .display()
                .to_string(),
        ],
        "config" => vec!["config".into(), "run".into()],
        "cache list" => vec!["cache".into(), "list".into()],
        "cache prune" => vec!["cache".into(), "prune".into(), "--all".into()],
        "history" => vec!["history".into(), fx.path("h")],
        "merge" => vec![
            "merge".into(),
            fx.path("s1"),
            fx.path("s2"),
            "--out".into(),
            "out".into(),
        ],
        other => panic!("no base invocation for `{other}`: add one to this test"),
    };
    Some(args)
}

/// The value to try for `flag` of `command` (an enum flag without an entry here takes a
/// possible value other than its default). `None`: no entry, which fails the test naming it.
fn value(command: &str, flag: &str, fx: &Fixtures) -> Option<String> {
    let report = fx.path("r/pmb/retrieval-report-tenure.json");
    let v = match (command, flag) {
        (_, "--progress") => "lines".into(),
        ("flywheel", "--sessions") => "4".into(),
        ("flywheel", "--initial-beliefs" | "--growth" | "--references" | "--forms") => "5".into(),
        ("flywheel", "--seed-min" | "--seed-max" | "--ceiling" | "--vector-queries") => "2".into(),
        ("flywheel", "--off") => "seeding".into(),
        ("flywheel", "--variants") => "all,seed-only".into(),
        ("flywheel", "--sweep") => "collision=0,0.3".into(),
        ("flywheel", "--sizes") => "100".into(),
        ("flywheel", "--floors") => "0.6".into(),
        (
            "flywheel",
            "--tool-reuse" | "--zipf" | "--topic-skew" | "--collision" | "--clarify" | "--drift"
            | "--supersede" | "--old-form" | "--merge" | "--second-form",
        ) => "0.45".into(),
        ("beam" | "alias-learning", "--data") => fx.path("chats-one"),
        ("longmemeval", "--data") => fx.path("lme-less.json"),
        ("plot", "--format") => "png".into(),
        (_, "--trec-run") => fx.path("t/retrieval-report-tenure.run"),
        (_, "--table") => "1".into(),
        (_, "--split") => "dev".into(),
        ("temporal draw", "--part") => "test".into(),
        // Paths: a file or folder that exists where one is read, a new name where one is written.
        (_, "--corpus" | "--cases" | "--sessions" | "--topics" | "--qrels" | "--locomo") => {
            fx.path("t/retrieval-report-tenure.qrels")
        }
        (_, "--data" | "--corrections" | "--beam") => fx.path("chats"),
        (_, "--providers-config" | "--import-upstream" | "--import-vectors" | "--texts") => report,
        (_, "--baseline") => fx.path("r/pmb/all-minilm-l6-v2-retrieval-report-vector.json"),
        (_, "--replay" | "--store-dir" | "--index-cache") => fx.path("r"),
        (_, "--ort-lib") => "/no/such/libonnxruntime.so".into(),
        (_, "--out") if command == "html" => "other.html".into(),
        (_, "--out") if command == "plot" => "other.svg".into(),
        (_, "--out") if command == "embed" => "other.jsonl".into(),
        (_, "--out" | "--record" | "--history" | "--export") => "elsewhere".into(),
        (_, "--junit") => "junit.xml".into(),
        (_, "--summary-md") => "summary.md".into(),
        (_, "--html") => "page.html".into(),
        (_, "--plot") => "figure.svg".into(),
        (_, "--request-log") => "requests.log".into(),
        // Names and ids.
        ("temporal draw", "--seed") => "35".into(),
        (_, "--suite") if command == "alias-learning" => "locomo".into(),
        (_, "--suite") => "paper".into(),
        (_, "--case" | "--explain") if command == "plot" => "pmb-001".into(),
        (_, "--case" | "--explain") => "pmb-001".into(),
        (_, "--category") => "Adversarial".into(),
        (_, "--label" | "--name" | "--store-name" | "--title" | "--commit") => "other".into(),
        (_, "--provider") => "mem0".into(),
        (_, "--url") => "http://127.0.0.1:9".into(),
        (_, "--bind") => "127.0.0.2".into(),
        (_, "--api-key-env") => "NO_SUCH_KEY".into(),
        (_, "--query-prefix") => "query: ".into(),
        (_, "--document-prefix") => "passage: ".into(),
        (_, "--model") if command == "models" => "random".into(),
        (_, "--model") => "hashed".into(),
        (_, "--backend") if command == "doctor" => "cosine".into(),
        (_, "--backend") => "cosine".into(),
        (_, "--reference") => "bm25-text".into(),
        (_, "--fuse") => "bm25,cosine".into(),
        (_, "--metrics") => "RR".into(),
        (_, "--metric") => "recall".into(),
        (_, "--primacy-keywords") => "always".into(),
        (_, "--tier") => "500K".into(),
        (_, "--known-difference") => "C1".into(),
        (_, "--sizes") => "2k".into(),
        (_, "--shard") => "1/2".into(),
        (_, "--source") => "elsewhere".into(),
        // Lists of numbers.
        (_, "--combsum-weights") => "0.3,0.7".into(),
        (_, "--volatility-rates") => "0,0.01,0.1".into(),
        (_, "--tier-thresholds") => "0.8,0.5,0.2".into(),
        // Numbers.
        (_, "--seed" | "--splice-seed") => "8".into(),
        (_, "--limit" | "--top" | "--queries" | "--case-count") => "3".into(),
        (_, "--repeat") => "2".into(),
        (_, "--max-errors") => "5".into(),
        (_, "--port") => "0".into(),
        (_, "--alpha" | "--tolerance") => "0.2".into(),
        (_, "--resamples") => "999".into(),
        (_, "--timeout" | "--retries" | "--concurrency" | "--threads" | "--workers") => "2".into(),
        (_, "--patience-ms" | "--seed-delay-ms" | "--settle-ms" | "--latency-ms") => "7".into(),
        (_, "--batch-size" | "--batch-tokens") => "512".into(),
        (_, "--min-active-passes") => "100".into(),
        (_, "--max-precision-drop") => "0.001".into(),
        (_, "--min-score") => "5".into(),
        (_, "--recency") => "0.5".into(),
        (_, "--recency-window") => "10".into(),
        (_, "--cosine-floor" | "--fusion-floor" | "--edge-threshold") => "0.9".into(),
        (_, "--spread-fraction" | "--revisit-rate" | "--revisit-cap") => "0.3".into(),
        (_, "--revisit-threshold") => "0.9".into(),
        (_, "--hnsw-m" | "--hnsw-ef-construction" | "--hnsw-ef-search" | "--ef-search") => {
            "8".into()
        }
        (_, "--hnsw-dims" | "--hnsw-rerank" | "--fusion-depth") => "4".into(),
        (_, "--rrf-k") => "30".into(),
        (_, "--established-after") => "3".into(),
        (_, "--lambda") => "2".into(),
        (_, "--n") => "6".into(),
        _ => return None,
    };
    Some(v)
}

/// Where a flag acts only in some circumstances, the circumstance: flags set on the base for
/// this flag's probe (and for its reference runs). `--quiet` silences notes, so the base gets
/// one (a paper sidecar among the reports, which is skipped with a note); serve's progress is
/// its corpus being embedded.
fn context(command: &str, flag: &str, fx: &Fixtures) -> Vec<(&'static str, Option<String>)> {
    let sidecar = fx.path("p/paper/retrieval-report.manifest.json");
    match (command, flag) {
        ("beam" | "longmemeval" | "tables" | "locomo", "--quiet") => vec![("", Some(sidecar))],
        ("flywheel", "--quiet") => vec![("--progress", Some("lines".into()))],
        ("serve", "--progress") => vec![
            ("--backend", Some("cosine".into())),
            ("--model", Some("hashed".into())),
        ],
        _ => Vec::new(),
    }
}

/// `base` with each of `context`'s flags set (a positional argument where the flag is empty).
fn in_context(base: &[String], context: &[(&str, Option<String>)]) -> Vec<String> {
    let mut args = base.to_vec();
    for (flag, value) in context {
        if flag.is_empty() {
            args.extend(value.clone());
            continue;
        }
        let flag = Flag {
            name: flag.to_string(),
            takes_value: value.is_some(),
            possible: Vec::new(),
            default: None,
        };
        args = with_flag(&args, &flag, value.as_deref());
    }
    args
}

/// What an invocation did: exit code, stdout, stderr, and every file it wrote (by relative
/// path), each masked.
#[derive(Debug, Clone, PartialEq)]
struct Outcome {
    code: Option<i32>,
    streams: BTreeMap<String, Vec<String>>,
}

static MEASURED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r#""(startedAt|latencyMs|retrievalLatencyMs|meanLatencyMs|p50LatencyMs|p95LatencyMs|totalMs|meanPerBeliefMs|ms|buildMs|elapsedMs|[a-zA-Z]*(Ms|Us|Seconds|Mib|Bytes|At))": ?("[^"]*"|[-0-9.eE+]+|null)"#,
    )
    .unwrap()
});
static DURATION: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"\b\d+(\.\d+)?\s?(ms|µs|s|MiB|MB|GB)\b").unwrap());
static PORT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"(127\.0\.0\.\d+):\d+").unwrap());
static DIGITS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\d+").unwrap());
static PADDING: LazyLock<Regex> = LazyLock::new(|| Regex::new(r" +|-+").unwrap());

/// A line with its numbers masked, and the padding a table gives them (a column is as wide as
/// its widest measured value).
fn shape(line: &str) -> String {
    let digits = DIGITS.replace_all(line, "#");
    PADDING
        .replace_all(&digits, |c: &regex::Captures| c[0][..1].to_string())
        .into_owned()
}

fn mask(text: &str, dir: &Path) -> Vec<String> {
    let text = text.replace(&dir.display().to_string(), "<dir>");
    let text = MEASURED.replace_all(&text, "\"$1\": <measured>");
    let text = DURATION.replace_all(&text, "<duration>");
    let text = PORT.replace_all(&text, "$1:<port>");
    text.lines().map(String::from).collect()
}

fn files(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<String>>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(root, &path, out);
        } else {
            let name = path.strip_prefix(root).unwrap().display().to_string();
            let bytes = std::fs::read(&path).unwrap();
            out.insert(name, mask(&String::from_utf8_lossy(&bytes), root));
        }
    }
}

/// Run `args` in a fresh folder under `work`.
fn invoke(args: &[String], work: &Path) -> Outcome {
    let dir = tempfile::tempdir_in(work).unwrap();
    invoke_in(args, dir.path())
}

fn invoke_in(args: &[String], dir: &Path) -> Outcome {
    let out = cli(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .current_dir(dir)
        .output()
        .unwrap();
    let mut streams = BTreeMap::new();
    streams.insert(
        "<stdout>".into(),
        mask(&String::from_utf8_lossy(&out.stdout), dir),
    );
    streams.insert(
        "<stderr>".into(),
        mask(&String::from_utf8_lossy(&out.stderr), dir),
    );
    files(dir, dir, &mut streams);
    Outcome {
        code: out.status.code(),
        streams,
    }
}

/// `serve ARGS`: started on a free port, then a `run --backend http` against it, which is what
/// serving does; its outcome, with what serve said and wrote. A serve that exits at once is
/// its outcome.
fn invoke_serve(args: &[String], work: &Path) -> Outcome {
    let dir = tempfile::tempdir_in(work).unwrap();
    let mut child = cli(&args.iter().map(String::as_str).collect::<Vec<_>>())
        .args(["--port", "0"])
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut url)
        .unwrap();
    let mut outcome = if url.trim().is_empty() {
        Outcome {
            code: child.wait().unwrap().code(),
            streams: BTreeMap::new(),
        }
    } else {
        let run: Vec<String> = [
            "run",
            "--suite",
            "pmb",
            "--backend",
            "http",
            "--quiet",
            "--url",
        ]
        .map(String::from)
        .into_iter()
        .chain([url.trim().to_string(), "--out".into(), "out".into()])
        .collect();
        let client = dir.path().join("client");
        std::fs::create_dir(&client).unwrap();
        let outcome = invoke_in(&run, &client);
        let _ = child.kill();
        let _ = child.wait();
        outcome
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    outcome
        .streams
        .insert("<serve stderr>".into(), mask(&said, dir.path()));
    let mut written = BTreeMap::new();
    files(dir.path(), dir.path(), &mut written);
    for (name, lines) in written
        .into_iter()
        .filter(|(n, _)| !n.starts_with("client"))
    {
        outcome.streams.insert(name, lines);
    }
    if !outcome.streams.contains_key("<stderr>") {
        let serve_said = outcome.streams["<serve stderr>"].clone();
        outcome.streams.insert("<stderr>".into(), serve_said);
    }
    outcome
}

/// What differs between two outcomes, for a message: the exit codes, the streams one has and
/// the other not, and each stream's first differing line.
fn differences(a: &Outcome, b: &Outcome) -> String {
    let mut out = Vec::new();
    if a.code != b.code {
        out.push(format!("exit {:?} against {:?}", a.code, b.code));
    }
    let names: BTreeSet<&String> = a.streams.keys().chain(b.streams.keys()).collect();
    for name in names {
        match (a.streams.get(name), b.streams.get(name)) {
            (Some(x), Some(y)) if x != y => {
                let at = x
                    .iter()
                    .zip(y)
                    .position(|(l, m)| l != m)
                    .unwrap_or(x.len().min(y.len()));
                out.push(format!(
                    "{name} line {}: {:?} against {:?}",
                    at + 1,
                    x.get(at),
                    y.get(at)
                ));
            }
            (Some(_), None) => out.push(format!("{name} only in the first")),
            (None, Some(_)) => out.push(format!("{name} only in the second")),
            _ => {}
        }
    }
    out.join("; ")
}

/// What varies between two runs of the same base, which this test has no mask for: the words
/// (by place) of a line that the two runs wrote in one shape (a table row's measured cells),
/// and the shapes of lines only one run wrote.
#[derive(Debug, Clone, Default)]
struct Noise {
    words: BTreeMap<String, BTreeSet<usize>>,
    lines: BTreeSet<String>,
}

fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

fn unstable(a: &Outcome, b: &Outcome) -> Noise {
    let mut noise = Noise::default();
    for (name, lines) in &a.streams {
        let other = b.streams.get(name).cloned().unwrap_or_default();
        let only_a: Vec<&String> = lines.iter().filter(|l| !other.contains(l)).collect();
        let mut only_b: Vec<&String> = other.iter().filter(|l| !lines.contains(l)).collect();
        for line in only_a {
            let at = only_b.iter().position(|m| shape(m) == shape(line));
            match at.map(|i| only_b.remove(i)) {
                Some(m) if words(m).len() == words(line).len() => {
                    let places = noise.words.entry(shape(line)).or_default();
                    let differ = words(line).into_iter().zip(words(m)).map(|(x, y)| x != y);
                    places.extend(differ.enumerate().filter(|(_, d)| *d).map(|(i, _)| i));
                }
                _ => {
                    noise.lines.insert(shape(line));
                }
            }
        }
        noise.lines.extend(only_b.into_iter().map(|l| shape(l)));
    }
    noise
}

fn settle(o: &Outcome, noise: &Noise) -> Outcome {
    let settle_line = |l: &String| -> String {
        let key = shape(l);
        if let Some(places) = noise.words.get(&key) {
            let kept = words(l).into_iter().enumerate();
            let kept = kept.map(|(i, w)| if places.contains(&i) { "#" } else { w });
            kept.collect::<Vec<_>>().join(" ")
        } else if noise.lines.contains(&key) {
            key
        } else {
            l.clone()
        }
    };
    let streams = o
        .streams
        .iter()
        .map(|(name, lines)| (name.clone(), lines.iter().map(settle_line).collect()))
        .collect();
    Outcome {
        code: o.code,
        streams,
    }
}

/// The args of `base` with `flag` (and its value) in place of the base's own; a switch the
/// base gives is taken away instead.
fn with_flag(base: &[String], flag: &Flag, value: Option<&str>) -> Vec<String> {
    if !flag.takes_value && base.contains(&flag.name) {
        return base.iter().filter(|a| **a != flag.name).cloned().collect();
    }
    let mut args = Vec::new();
    let mut skip = false;
    for a in base {
        if skip {
            skip = false;
        } else if *a == flag.name {
            skip = flag.takes_value;
        } else {
            args.push(a.clone());
        }
    }
    args.push(flag.name.clone());
    args.extend(value.map(String::from));
    args
}

/// The flags of `command` that neither act nor are refused, each with what happened.
fn silent_flags(command: &[String]) -> Vec<String> {
    let fx = Fixtures::get();
    let name = command.join(" ");
    let work = tempfile::tempdir().unwrap();
    let serving = (name == "doctor").then(|| crate::serve::Served::start("pmb"));
    let url = serving.as_ref().map_or(String::new(), |s| s.url.clone());
    let Some(base) = base(&name, &fx, &url) else {
        eprintln!("skipped: `{name}` reads LoCoMo's file, absent here");
        return Vec::new();
    };
    let run = |args: &[String]| match name.as_str() {
        "serve" => invoke_serve(args, work.path()),
        _ => invoke(args, work.path()),
    };
    // The reference of each context: the base run twice, what differs between the two masked.
    let mut references: BTreeMap<Vec<String>, (Outcome, Noise)> = BTreeMap::new();
    let mut reference = |args: Vec<String>| {
        references
            .entry(args.clone())
            .or_insert_with(|| {
                let (first, second) = (run(&args), run(&args));
                assert_eq!(
                    first.code,
                    Some(0),
                    "{args:?}: {:?}",
                    first.streams["<stderr>"]
                );
                let noise = unstable(&first, &second);
                let reference = settle(&first, &noise);
                let again = settle(&second, &noise);
                assert!(
                    reference == again,
                    "{args:?} twice: {}",
                    differences(&reference, &again)
                );
                (reference, noise)
            })
            .clone()
    };
    reference(base.clone());
    // A config file that `[COMMAND]` reads: a key no command has, which a command that reads
    // the file refuses (exit 2 naming the file).
    let config = work.path().join("probe.toml");
    std::fs::write(&config, format!("[{}]\nno-such-key = 1\n", command[0])).unwrap();
    let mut silent = Vec::new();
    for flag in flags(command) {
        if matches!(flag.name.as_str(), "--help" | "--version") {
            continue;
        }
        let value = if !flag.takes_value {
            None
        } else if flag.name == "--config" {
            Some(config.display().to_string())
        } else if let Some(v) = value(&name, &flag.name, &fx) {
            Some(v)
        } else if let Some(v) = flag
            .possible
            .iter()
            .find(|p| Some(*p) != flag.default.as_ref())
        {
            Some(v.clone())
        } else {
            silent.push(format!(
                "{name} {}: no value to try: add one to value()",
                flag.name
            ));
            continue;
        };
        let base = in_context(&base, &context(&name, &flag.name, &fx));
        let (reference, noise) = reference(base.clone());
        let args = with_flag(&base, &flag, value.as_deref());
        let outcome = run(&args);
        let stderr = outcome.streams["<stderr>"].join("\n");
        assert!(
            !stderr.contains("invalid value") && !stderr.contains("unexpected argument"),
            "the value this test tries for {name} {} is not one it takes: {stderr}",
            flag.name
        );
        let refused = outcome.code == Some(2) && stderr.contains(&flag.name);
        if !refused && settle(&outcome, &noise) == reference {
            silent.push(format!(
                "{name} {} {}: exit {:?}, nothing changed",
                flag.name,
                value.unwrap_or_default(),
                outcome.code
            ));
        }
    }
    silent
}

/// One test per command, so that they run side by side; the first test checks the list is
/// the command tree.
macro_rules! sweep {
    ($($test:ident => $command:expr),* $(,)?) => {
        const SWEPT: &[&str] = &[$($command),*];
        $(
            #[test]
            fn $test() {
                let command: Vec<String> = $command.split(' ').map(String::from).collect();
                let silent = silent_flags(&command);
                assert!(silent.is_empty(), "flags that neither act nor are refused:\n{}",
                    silent.join("\n"));
            }
        )*
    };
}

sweep! {
    run => "run", static_ => "static", session => "session", validate => "validate",
    verify => "verify", claims => "claims", compare => "compare", trec => "trec",
    plot => "plot", tables => "tables", html => "html", embed => "embed", models => "models",
    serve => "serve", doctor => "doctor", scale => "scale", flywheel => "flywheel",
    temporal_classify => "temporal classify", temporal_eval => "temporal eval",
    temporal_draw => "temporal draw", temporal_features => "temporal features",
    locomo => "locomo", beam => "beam", alias_learning => "alias-learning",
    longmemeval => "longmemeval", config => "config", cache_list => "cache list",
    cache_prune => "cache prune", history => "history", merge => "merge",
}

#[test]
fn the_sweep_covers_the_command_tree() {
    let tree: Vec<String> = commands().iter().map(|c| c.join(" ")).collect();
    let mut swept: Vec<String> = SWEPT.iter().map(|s| s.to_string()).collect();
    swept.sort();
    assert_eq!(
        swept, tree,
        "a command the sweep does not know, or one that is gone"
    );
}
