//! What an invocation did, masked of what varies between two runs of one command (its folder,
//! a port, measured fields and durations), and what still varies between two runs of a base.

use crate::common::cli;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::sync::LazyLock;

/// What an invocation did: exit code, stdout, stderr, and every file it wrote (by relative
/// path), each masked.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Outcome {
    pub(super) code: Option<i32>,
    pub(super) streams: BTreeMap<String, Vec<String>>,
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
pub(super) fn shape(line: &str) -> String {
    let digits = DIGITS.replace_all(line, "#");
    PADDING
        .replace_all(&digits, |c: &regex::Captures| c[0][..1].to_string())
        .into_owned()
}

pub(super) fn mask(text: &str, dir: &Path) -> Vec<String> {
    let text = text.replace(&dir.display().to_string(), "<dir>");
    let text = MEASURED.replace_all(&text, "\"$1\": <measured>");
    let text = DURATION.replace_all(&text, "<duration>");
    let text = PORT.replace_all(&text, "$1:<port>");
    text.lines().map(String::from).collect()
}

pub(super) fn files(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<String>>) {
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
pub(super) fn invoke(args: &[String], work: &Path) -> Outcome {
    let dir = tempfile::tempdir_in(work).unwrap();
    invoke_in(args, dir.path())
}

pub(super) fn invoke_in(args: &[String], dir: &Path) -> Outcome {
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
pub(super) fn invoke_serve(args: &[String], work: &Path) -> Outcome {
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
pub(super) fn differences(a: &Outcome, b: &Outcome) -> String {
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
pub(super) struct Noise {
    pub(super) words: BTreeMap<String, BTreeSet<usize>>,
    pub(super) lines: BTreeSet<String>,
}

pub(super) fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

pub(super) fn unstable(a: &Outcome, b: &Outcome) -> Noise {
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

pub(super) fn settle(o: &Outcome, noise: &Noise) -> Outcome {
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
