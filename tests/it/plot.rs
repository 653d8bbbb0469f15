//! Figure 2 renders: well-formed SVG with one 12-point line per session report, markers and a
//! legend naming each backend.

use crate::common::{repo, tenure_eval_into, tenure_eval_ok};
use quick_xml::events::Event;

/// One SVG element: its name and attributes.
struct Element {
    name: String,
    attrs: Vec<(String, String)>,
}

impl Element {
    /// The attribute's value, or "" when absent.
    fn attr(&self, name: &str) -> String {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }
}

/// Every element and every (trimmed) text of `svg`, which must be well-formed XML throughout.
fn read_svg(svg: &str) -> (Vec<Element>, Vec<String>) {
    let mut reader = quick_xml::Reader::from_str(svg);
    let (mut elements, mut texts) = (Vec::new(), Vec::new());
    let mut in_text = false;
    loop {
        match reader.read_event().expect("well-formed SVG") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let name = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                in_text = name == "text";
                let attrs = e
                    .attributes()
                    .map(|a| {
                        let a = a.unwrap();
                        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
                        (key, a.unescape_value().unwrap().into_owned())
                    })
                    .collect();
                elements.push(Element { name, attrs });
            }
            Event::Text(t) if in_text => {
                texts.push(t.decode().unwrap().trim().to_string());
                in_text = false;
            }
            _ => {}
        }
    }
    (elements, texts)
}

#[test]
fn drift_figure_is_well_formed_and_holds_one_series_per_report() {
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_into(&["session", "--suite", "pmb"], dir.path());
    let svg_path = dir.path().join("figure2.svg");
    let svg_out = svg_path.to_str().unwrap();
    let tenure = dir.path().join("pmb/session-retrieval-report-tenure.json");
    let vector = repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    tenure_eval_ok(&["plot", "--out", svg_out], &[&tenure, &vector]);
    let svg = std::fs::read_to_string(&svg_path).unwrap();

    let (elements, texts) = read_svg(&svg);
    let polylines: Vec<(String, String)> = elements
        .iter()
        .filter(|e| e.name == "polyline")
        .map(|e| (e.attr("stroke"), e.attr("points")))
        .collect();
    let circles: Vec<String> = elements
        .iter()
        .filter(|e| e.name == "circle")
        .map(|e| e.attr("fill"))
        .collect();
    // One series per report: a 12-point line and 12 markers in its colour.
    for colour in ["#1F77B4", "#D62728"] {
        let series = polylines
            .iter()
            .filter(|(stroke, _)| stroke == colour)
            .map(|(_, p)| p.split_whitespace().count())
            .max();
        assert_eq!(series, Some(12), "{colour}");
        assert_eq!(
            circles.iter().filter(|fill| *fill == colour).count(),
            12,
            "{colour}"
        );
    }
    // BM25 is flat at 0: all its points sit on one y; the cosine line does not.
    let ys = |colour: &str| -> Vec<String> {
        let points = &polylines
            .iter()
            .filter(|(s, _)| s == colour)
            .max_by_key(|(_, p)| p.len())
            .unwrap()
            .1;
        points
            .split_whitespace()
            .map(|p| p.split(',').nth(1).unwrap().to_string())
            .collect()
    };
    assert!(ys("#1F77B4").windows(2).all(|w| w[0] == w[1]));
    assert!(ys("#D62728").windows(2).any(|w| w[0] != w[1]));
    // One definition on the axis, whatever each report's `driftScore` means (the published
    // vector report's is 1 − precision): the paper's, recomputed from the turns' lists.
    let vector_turn_9: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&vector).unwrap()).unwrap();
    let t9 = &vector_turn_9["cases"][9];
    assert_eq!(t9["driftScore"], 1);
    assert_eq!(
        (
            t9["noiseBeliefIds"].as_array().unwrap().len(),
            t9["retrievedBeliefIds"].as_array().unwrap().len()
                + t9["pinnedBeliefIds"].as_array().unwrap().len()
        ),
        (6, 18)
    );
    // So the cosine line peaks at 6 / 18 = 0.33 ... 0.39, well below the middle of the 0..1.05
    // axis, where 1 − precision (up to 1.0) would reach its top. BM25's flat line is y = 0.
    let pixel = |s: &String| s.parse::<f64>().unwrap();
    let zero = pixel(&ys("#1F77B4")[0]);
    let top = ys("#D62728")
        .iter()
        .map(pixel)
        .fold(f64::INFINITY, f64::min);
    assert!(top < zero, "the cosine line rises above 0");
    assert!(
        zero - top < 0.5 * zero,
        "peak {top} against zero {zero}: not the noise share"
    );
    for label in [
        "bm25",
        "vector",
        "Drift score per session turn · suite pmb",
        "x0",
        "drift = noise / (relevant + pinned)",
    ] {
        assert!(
            texts.iter().any(|t| t == label),
            "no text {label:?} in {texts:?}"
        );
    }
}

#[test]
fn drift_figure_needs_a_session_report() {
    let out = crate::common::cli(&[])
        .arg("plot")
        .arg(repo(
            "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        ))
        .args(["--out", "/tmp/never-written.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn score_figure_shows_the_bm25_spike_above_the_cosine_band() {
    let dir = tempfile::tempdir().unwrap();
    tenure_eval_into(
        &["static", "--suite", "paper", "--backend", "bm25,cosine"],
        dir.path(),
    );
    let svg_path = dir.path().join("figure1.svg");
    let bm25 = dir.path().join("paper/retrieval-report.json");
    let cosine = dir
        .path()
        .join("paper/all-minilm-l6-v2-retrieval-report-vector.json");
    let case = "conflict-scope-disambiguation-redis-code";
    tenure_eval_ok(
        &["plot", "--case", case, "--out", svg_path.to_str().unwrap()],
        &[&bm25, &cosine],
    );
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let (elements, texts) = read_svg(&svg);
    let bars: Vec<(String, f64)> = elements
        .iter()
        .filter(|e| e.name == "rect")
        .map(|e| {
            (
                e.attr("fill"),
                e.attr("width").parse::<f64>().unwrap_or(0.0),
            )
        })
        .collect();
    // The cosine run scored 12 beliefs (every in-scope candidate: no threshold); BM25 one.
    let width = |fill: &str| -> Vec<f64> {
        bars.iter()
            .filter(|(f, _)| f == fill)
            .map(|(_, w)| *w)
            .collect()
    };
    let (blue, red) = (width("#1F77B4"), width("#D62728"));
    assert_eq!(red.len(), 12, "{bars:?}");
    assert_eq!(
        blue.iter().filter(|w| **w > 0.0).count(),
        1,
        "one BM25 spike: {blue:?}"
    );
    // The band is flat: the lowest cosine bar is more than half the highest.
    let (lo, hi) = red
        .iter()
        .fold((f64::MAX, 0f64), |(lo, hi), w| (lo.min(*w), hi.max(*w)));
    assert!(lo > 0.5 * hi, "{red:?}");
    assert!(texts.iter().any(|t| t == "b-redis-code"), "{texts:?}");
    assert!(
        texts.iter().any(|t| t.contains("Lucene BM25"))
            && texts.iter().any(|t| t.contains("all-minilm-l6-v2"))
    );
}

/// Twelve series: ten colours, then the colours again with crosses instead of dots, so no two
/// series look alike; the legend names all twelve.
#[test]
fn more_series_than_colours_stay_distinct() {
    let dir = tempfile::tempdir().unwrap();
    let source = repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    let mut paths = Vec::new();
    for k in 0..12 {
        let mut report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&source).unwrap()).unwrap();
        report["provider"] = format!("system-{k:02}").into();
        let path = dir
            .path()
            .join(format!("session-retrieval-report-{k}.json"));
        std::fs::write(&path, report.to_string()).unwrap();
        paths.push(path);
    }
    let svg_path = dir.path().join("many.svg");
    let refs: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    tenure_eval_ok(&["plot", "--out", svg_path.to_str().unwrap()], &refs);
    let (elements, texts) = read_svg(&std::fs::read_to_string(&svg_path).unwrap());
    let dots: std::collections::BTreeSet<String> = elements
        .iter()
        .filter(|e| e.name == "circle")
        .map(|e| e.attr("fill"))
        .collect();
    assert_eq!(dots.len(), 10, "ten colours of dots");
    // The 11th and 12th series draw crosses (two strokes per point) in the first two colours.
    let crossed = elements
        .iter()
        .filter(|e| e.name == "line")
        .filter(|e| ["#1F77B4", "#D62728"].contains(&e.attr("stroke").as_str()))
        .count();
    assert_eq!(crossed, 2 * 2 * 12, "two crosses of two strokes per turn");
    for k in 0..12 {
        assert!(
            texts.iter().any(|t| *t == format!("system-{k:02}")),
            "legend names system-{k:02}"
        );
    }
}

/// The legend sits right of the plot, off the data: its labels start beyond the plot area.
#[test]
fn the_legend_is_outside_the_data() {
    let dir = tempfile::tempdir().unwrap();
    let svg = dir.path().join("f.svg");
    let report = repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    tenure_eval_ok(&["plot", "--out", svg.to_str().unwrap()], &[&report]);
    let text = std::fs::read_to_string(&svg).unwrap();
    // The plot's right edge: the largest x of any data point.
    let (elements, _) = read_svg(&text);
    let data_right = elements
        .iter()
        .filter(|e| e.name == "circle")
        .map(|e| e.attr("cx").parse::<f64>().unwrap())
        .fold(0.0, f64::max);
    let label_at = text.find(">\nvector\n<").expect("legend label");
    let tag = &text[text[..label_at].rfind("<text").unwrap()..label_at];
    let x: f64 = tag
        .split("x=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        x > data_right + 20.0,
        "legend at x {x}, data up to {data_right}"
    );
}

/// Figure 1 for a query BM25 keeps nothing for: the panel says so instead of drawing an
/// empty chart with all-"0.0" ticks.
#[test]
fn an_empty_bm25_panel_says_bm25_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().to_str().unwrap();
    crate::common::tenure_eval_ok(
        &[
            "static",
            "--suite",
            "pmb",
            "--quiet",
            "--backend",
            "bm25,cosine",
            "--out",
            out,
        ],
        &[],
    );
    let pmb = dir.path().join("pmb");
    let svg = dir.path().join("f1.svg");
    crate::common::tenure_eval_ok(
        &[
            "plot",
            "--case",
            "happy-stack-repository-layer",
            "--out",
            svg.to_str().unwrap(),
        ],
        &[
            &pmb.join("retrieval-report-tenure.json"),
            &pmb.join("all-minilm-l6-v2-retrieval-report-vector.json"),
        ],
    );
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains("keeps nothing above its floor for this query"),
        "{text}"
    );
}

/// `plot --out -` writes the figure to stdout (SVG, or the format --format names) and no file
/// named `-`.
#[test]
fn out_dash_writes_the_figure_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let report =
        crate::common::repo("tests/golden/pmb-baseline/session-retrieval-report-vector.json");
    let mut cases = vec![(None, &b"<svg"[..])];
    if cfg!(feature = "figures") {
        cases.push((Some("png"), &b"\x89PNG"[..]));
    }
    for (format, head) in cases {
        let mut cmd = crate::common::cli(&["plot", report.to_str().unwrap(), "--out", "-"]);
        cmd.current_dir(dir.path());
        if let Some(f) = format {
            cmd.args(["--format", f]);
        }
        let out = cmd.output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(out.stdout.starts_with(head), "{format:?}");
    }
    assert!(!dir.path().join("-").exists());
}
