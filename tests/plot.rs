//! Figure 2 renders: well-formed SVG with one 12-point line per session report, markers and a
//! legend naming each backend.

mod common;
use common::{repo, tenure_eval_into, tenure_eval_ok};
use quick_xml::events::Event;
use std::process::Command;

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

    // Well-formed XML from start to end.
    let mut reader = quick_xml::Reader::from_str(&svg);
    let (mut polylines, mut circles, mut texts) = (Vec::new(), Vec::new(), Vec::new());
    let mut in_text = false;
    loop {
        match reader.read_event().expect("well-formed SVG") {
            Event::Eof => break,
            Event::Start(e) | Event::Empty(e) => {
                let attr = |name: &str| {
                    e.try_get_attribute(name)
                        .unwrap()
                        .map(|a| a.unescape_value().unwrap().into_owned())
                };
                match e.name().as_ref() {
                    b"polyline" => polylines.push((
                        attr("stroke").unwrap_or_default(),
                        attr("points").unwrap_or_default(),
                    )),
                    b"circle" => circles.push(attr("fill").unwrap_or_default()),
                    b"text" => in_text = true,
                    _ => {}
                }
            }
            Event::Text(t) if in_text => {
                texts.push(t.decode().unwrap().trim().to_string());
                in_text = false;
            }
            _ => {}
        }
    }
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
    for label in ["tenure", "vector", "Drift score per session turn", "x0"] {
        assert!(
            texts.iter().any(|t| t == label),
            "no text {label:?} in {texts:?}"
        );
    }
}

#[test]
fn drift_figure_needs_a_session_report() {
    let out = Command::new(env!("CARGO_BIN_EXE_tenure-eval"))
        .arg("plot")
        .arg(repo(
            "tests/golden/pmb-baseline/retrieval-report-tenure.json",
        ))
        .args(["--out", "/tmp/never-written.svg"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}
