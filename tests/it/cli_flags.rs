//! The command line's shape: `run -h` groups its flags by what they configure, and a flag that
//! does not apply to the chosen backends is one rule everywhere: exit 2 naming the flag and
//! what it applies to, before anything runs or is written.

use crate::common::tenure_eval;

#[test]
fn run_help_is_grouped_by_what_each_flag_configures() {
    let out = tenure_eval(&["run", "-h"]);
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    let headings: Vec<&str> = help
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with(' ') && l.ends_with(':'))
        .collect();
    assert_eq!(
        headings,
        [
            "Options:",
            "Suite:",
            "Cases:",
            "Backends:",
            "BM25 (--backend bm25):",
            "BM25 over words (--backend bm25-text):",
            "Cosine (--backend cosine): models, stores, search:",
            "Fusion (--backend rrf|combsum|fallback):",
            "Context scorers (--backend composite|spreading|recent):",
            "Explain one case:",
            "Remote calls (served models, memory systems):",
            "Memory system over HTTP (--backend http):",
            "Output:",
            "CI gates:",
            "Journal:",
            "Repeat:",
            "History:",
            "Shard:",
        ]
    );
    // Each flag under its own heading: --hnsw-m with the cosine flags, --url with HTTP's.
    let under = |flag: &str| {
        let at = help.find(flag).unwrap();
        headings
            .iter()
            .rfind(|h| help.find(*h).unwrap() < at)
            .unwrap()
            .to_string()
    };
    assert!(under("--hnsw-m").starts_with("Cosine"));
    assert!(under("--url").starts_with("Memory system"));
    assert!(under("--edge-threshold").starts_with("Context scorers"));
    assert_eq!(under("--junit"), "CI gates:");
}

#[test]
fn a_flag_for_a_backend_not_chosen_is_exit_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for (flags, expect) in [
        (
            &["--backend", "bm25", "--model", "all-minilm-l6-v2"][..],
            "--model applies to --backend cosine (or a fusion of it), composite or spreading; the \
             backends chosen are bm25",
        ),
        (
            &["--backend", "bm25", "--bitemporal"][..],
            "--bitemporal applies to --backend composite; the backends chosen are bm25",
        ),
        (
            &["--backend", "bm25", "--edge-threshold", "0.9"][..],
            "--edge-threshold applies to --backend spreading",
        ),
        (
            &["--backend", "composite", "--established-after", "3"][..],
            "--established-after applies to --backend composite with --bitemporal",
        ),
        (
            &["--backend", "spreading", "--lambda", "0.3"][..],
            "--lambda applies to --backend composite or recent",
        ),
        (
            &["--backend", "cosine", "--min-score", "1"][..],
            "--min-score applies to --backend bm25",
        ),
        (
            &["--backend", "cosine", "--hnsw-m", "8"][..],
            "--hnsw-m applies to --backend cosine with --index hnsw; the backends chosen are \
             cosine, with --index exact",
        ),
        (
            &["--backend", "bm25", "--name", "mine"][..],
            "--name applies to --backend http",
        ),
        (
            &["--backend", "rrf", "--combsum-weights", "1,2"][..],
            "--combsum-weights applies to --backend combsum",
        ),
        (
            &["--backend", "bm25", "--fusion-depth", "10"][..],
            "--fusion-depth applies to --backend rrf, combsum or fallback",
        ),
    ] {
        let args = [&["run", "--suite", "pmb", "--quiet", "--out", out], flags].concat();
        let run = tenure_eval(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{flags:?}: {stderr}");
        assert!(stderr.contains(expect), "{flags:?}: {stderr}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // What a fusion fuses takes its backends' flags.
    let fused = tenure_eval(&[
        "run",
        "--suite",
        "pmb",
        "--quiet",
        "--backend",
        "rrf",
        "--min-score",
        "2",
        "--out",
        out,
    ]);
    assert!(
        fused.status.success(),
        "{}",
        String::from_utf8_lossy(&fused.stderr)
    );
    // The context scorers score with a model: composite takes --model (issue 31).
    let composite = tenure_eval(&[
        "run",
        "--suite",
        "paper",
        "--quiet",
        "--backend",
        "composite",
        "--model",
        "all-minilm-l6-v2",
        "--out",
        out,
    ]);
    assert!(
        composite.status.success(),
        "{}",
        String::from_utf8_lossy(&composite.stderr)
    );
}

/// `serve` and `models` flatten the same flag group and refuse the same way, before anything
/// is bound or run.
#[test]
fn serve_and_models_refuse_a_flag_for_a_backend_not_chosen() {
    let serve = tenure_eval(&["serve", "--backend", "bm25", "--hnsw-m", "8", "--port", "0"]);
    assert_eq!(serve.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&serve.stderr)
        .contains("--hnsw-m applies to --backend cosine with --index hnsw"));
    assert!(serve.stdout.is_empty(), "nothing served");
    let models = tenure_eval(&["models", "--suite", "pmb", "--bitemporal", "--quiet"]);
    assert_eq!(models.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&models.stderr).contains(
        "--bitemporal applies to --backend composite; the backends chosen are bm25, \
                   cosine"
    ));
}

/// The README's CI command passes `--summary-md "$GITHUB_STEP_SUMMARY"`; outside GitHub
/// Actions that is empty, and the command still runs (without a summary, saying so).
#[test]
fn an_empty_summary_path_is_no_summary_not_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let run = tenure_eval(&[
        "run",
        "--suite",
        "pmb",
        "--quiet",
        "--out",
        dir.path().to_str().unwrap(),
        "--junit",
        dir.path().join("junit.xml").to_str().unwrap(),
        "--summary-md",
        "",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.contains("is $GITHUB_STEP_SUMMARY unset?"),
        "{stderr}"
    );
    assert!(dir.path().join("junit.xml").is_file());
}

/// Zero calls in flight or a zero timeout would run nothing or fail every call: both are usage
/// errors (exit 2) before anything runs or is written.
#[test]
fn zero_concurrency_or_timeout_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    for flag in ["--concurrency", "--timeout"] {
        let run = tenure_eval(&["run", "--suite", "pmb", "--quiet", "--out", out, flag, "0"]);
        assert_eq!(run.status.code(), Some(2), "{flag} 0");
        assert!(String::from_utf8_lossy(&run.stderr).contains(&format!("'0' for '{flag}")));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A significance level outside (0, 1) and a negative tolerance are usage errors (exit 2) of
/// every command that takes one, named before any input is read (the files given do not exist).
#[test]
fn a_level_outside_0_1_or_a_negative_tolerance_is_refused() {
    let (none, other) = ("no-such-report.json", "no-such-other.json");
    for (args, value) in [
        (&["compare", none, other, "--alpha"][..], "1"),
        (&["history", none, "--alpha"][..], "0"),
        (&["html", none, "--out", "p.html", "--alpha"][..], "NaN"),
        (&["models", "--model", "hashed", "--alpha"][..], "1.5"),
        (&["claims", none][..], "--tolerance=-0.1"),
    ] {
        let (flag, given) = match value.split_once('=') {
            Some((flag, v)) => (flag, v),
            None => ("--alpha", value),
        };
        let args = [args, &[value][..]].concat();
        let out = tenure_eval(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("'{given}' for '{flag}")),
            "{args:?}: {stderr}"
        );
    }
}

/// `--progress lines` writes plain progress lines for a log (each step's end at least); without
/// a terminal the default writes none, and `--quiet` silences it.
#[test]
fn progress_lines_show_each_step_in_a_log() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    let stderr = |extra: &[&str]| {
        let args = [&["run", "--suite", "pmb", "--out", out][..], extra].concat();
        String::from_utf8(tenure_eval(&args).stderr).unwrap()
    };
    let lines = stderr(&["--progress", "lines"]);
    assert!(lines.contains("pmb static: 77/77 "), "{lines}");
    assert!(lines.contains("pmb session: 12/12 "), "{lines}");
    assert!(
        !stderr(&[]).contains("pmb static: 77/77"),
        "a pipe gets no progress by default"
    );
    assert!(!stderr(&["--progress", "lines", "--quiet"]).contains("77/77"));
}
