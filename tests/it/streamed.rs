//! Static reports streamed case by case (`report::stream`) are the very bytes of a report built
//! in memory: the same run written both ways, each suite's layout (PrecisionMemBench's object
//! with an inline manifest, the paper tag's bare array with a sidecar), with and without rank
//! metrics; the rows and summary the stream hands back equal a reading of the in-memory report.

use crate::common::static_run;
use tenure_eval::eval::qrels::Qrels;
use tenure_eval::eval::rank::{parse_measures, DEFAULT_MEASURES};
use tenure_eval::report::rank_block::annotate;
use tenure_eval::report::read::LoadedReport;
use tenure_eval::report::write::stream::StaticStream;
use tenure_eval::report::{json, write_report, Manifest, Shape};
use tenure_eval::run::StaticRun;

fn both_ways(suite_name: &str, measures: &str) {
    let (suite, run) = static_run(suite_name);
    let measures = match measures {
        "" => Vec::new(),
        list => parse_measures(list).unwrap(),
    };
    let shape = Shape::of(suite.profile);
    let qrels = Qrels::of(&suite);
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let name = "retrieval-report.json";

    let mut report = json::static_report(&run, &Manifest::for_static(&suite, &run), shape);
    annotate(&mut report.body, &qrels, &measures);
    let in_memory = write_report(&a.join(name), &report).unwrap();
    let read =
        LoadedReport::from_parts(&a.join(name), &report.body, report.sidecar.clone()).unwrap();

    let mut stream = StaticStream::new(&b, shape, &qrels, &measures).unwrap();
    for r in &run.results {
        stream.push(&run.backend, r).unwrap();
    }
    let head = StaticRun {
        results: Vec::new(),
        ..run.clone()
    };
    let (streamed, loaded, summary) = stream.finish(&b.join(name), &head, &suite).unwrap();

    assert_eq!(in_memory.len(), streamed.len());
    for (x, y) in in_memory.iter().zip(&streamed) {
        assert_eq!(x.file_name(), y.file_name());
        let (x, y) = (std::fs::read(x).unwrap(), std::fs::read(y).unwrap());
        assert!(x == y, "{suite_name} {}: streamed bytes differ", y.len());
    }
    // Nothing else is left in the folder (the spill file has no name).
    assert_eq!(std::fs::read_dir(&b).unwrap().count(), streamed.len());
    assert_eq!(loaded.rows, read.rows);
    assert_eq!(loaded.published_summary, read.published_summary);
    assert_eq!(loaded.manifest, read.manifest);
    assert_eq!(summary, run.summary());
    assert_eq!(loaded.rows.len(), suite.cases.len());
}

#[test]
fn a_streamed_pmb_report_is_the_in_memory_one() {
    both_ways("pmb", DEFAULT_MEASURES);
    both_ways("pmb", "");
}

#[test]
fn a_streamed_paper_report_and_its_sidecar_are_the_in_memory_ones() {
    both_ways("paper", "nDCG@10,RR");
}

/// Cases finish out of order when several run at once; the streamed report still lists them in
/// file order, and is the report of a one-at-a-time run but for measured fields and the
/// manifest's `casesInFlight`.
#[test]
fn a_concurrent_run_streams_its_cases_in_file_order() {
    let dir = tempfile::tempdir().unwrap();
    let mut reports = Vec::new();
    for concurrency in ["1", "4"] {
        let out = dir.path().join(concurrency);
        crate::common::tenure_eval_into(
            &[
                "static",
                "--suite",
                "pmb",
                "--backend",
                "bm25",
                "--concurrency",
                concurrency,
            ],
            &out,
        );
        let bytes = std::fs::read(out.join("pmb/retrieval-report-tenure.json")).unwrap();
        let mut report: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        crate::common::strip_measurements(&mut report);
        reports.push(report);
    }
    let ids = |r: &serde_json::Value| -> Vec<String> {
        r["cases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["caseId"].as_str().unwrap().to_string())
            .collect()
    };
    let suite = crate::common::builtin("pmb");
    let file_order: Vec<String> = suite.cases.iter().map(|c| c.case_id.clone()).collect();
    assert_eq!(ids(&reports[1]), file_order);
    // The latencies were measured with 4 cases in flight, and the manifest says so.
    assert_eq!(reports[0]["manifest"].get("casesInFlight"), None);
    let in_flight = reports[1]["manifest"].as_object_mut().unwrap();
    assert_eq!(in_flight.remove("casesInFlight"), Some(4.into()));
    assert_eq!(reports[0], reports[1]);
}
