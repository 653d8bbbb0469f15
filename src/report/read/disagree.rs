//! A report's own summary block against its rows: every figure of the block the per-case rows
//! contradict (`verify`, `tables` and the page warn on them; the rows win).

use crate::io::same_json;
use crate::report::LoadedReport;
use serde_json::Value;

impl LoadedReport {
    /// Every field of the report's own summary block that its rows contradict.
    pub fn disagreements(&self) -> Vec<String> {
        let Some(published) = &self.published_summary else {
            return Vec::new();
        };
        let recomputed = serde_json::to_value(self.summary()).unwrap_or(Value::Null);
        let mut out = Vec::new();
        let keys = [
            "caseCount",
            "totalPassed",
            "totalCases",
            "passRate",
            "meanPrecision",
            "meanRecall",
            "activeRetrievalPasses",
            "turnCount",
        ];
        for key in keys {
            compare(
                &mut out,
                &format!("retrieval.{key}"),
                published.get(key),
                recomputed.get(key),
            );
        }
        for key in ["activeRetrieval", "structural", "triviallyEmpty"] {
            compare(
                &mut out,
                &format!("retrieval.passTypes.{key}"),
                published.get("passTypes").and_then(|p| p.get(key)),
                recomputed["passTypes"].get(key),
            );
        }
        if let (Some(p), Some(r)) = (published.get("categories"), recomputed.get("categories")) {
            if !same_json(p, r) {
                out.push(format!(
                    "retrieval.categories differ from the per-case rows, which give {r}"
                ));
            }
        }
        // Errored rows: tenure-eval writes the count when it is not 0, so its report without
        // one says none (an audit verified `errored: 3` over rows with none, and the reverse).
        let ours =
            (self.manifest.as_ref()).is_some_and(|m| m.tool.as_deref() == Some("tenure-eval"));
        let errored = published
            .get("errored")
            .cloned()
            .or(ours.then(|| Value::from(0)));
        let rows_errored = Value::from(self.rows.iter().filter(|r| r.errored).count());
        compare(
            &mut out,
            "retrieval.errored",
            errored.as_ref(),
            Some(&rows_errored),
        );
        // The rank block's queries: the rows with gold, which carry a value.
        let queries = published.get("rankMetrics").and_then(|b| b.get("queries"));
        let with_gold = (self.rows.iter())
            .filter(|r| r.rank_metrics.0.iter().any(|(_, v)| v.is_some()))
            .count();
        compare(
            &mut out,
            "retrieval.rankMetrics.queries",
            queries,
            Some(&Value::from(with_gold)),
        );
        // The rank measures' means: over the rows that carry each (an audit found an edited
        // mean verified).
        let means = published.get("rankMetrics").and_then(|b| b.get("means"));
        for (measure, stated) in means.and_then(Value::as_object).into_iter().flatten() {
            let values = (self.rows.iter()).filter_map(|r| r.rank_metrics.get(measure).flatten());
            let rows = crate::eval::stats::mean(values);
            let agree = match (stated.as_f64(), rows) {
                (Some(s), Some(r)) => (s - r).abs() <= 1e-12 * r.abs().max(1.0),
                (None, None) => stated.is_null(),
                _ => false,
            };
            if !agree {
                out.push(format!(
                    "retrieval.rankMetrics.means.{measure} is {stated} but the per-case rows give {}",
                    rows.map_or(Value::Null, Value::from)
                ));
            }
        }
        if self.has_latency() {
            for key in ["meanLatencyMs", "p50LatencyMs", "p95LatencyMs"] {
                compare(
                    &mut out,
                    &format!("retrieval.{key}"),
                    published.get(key),
                    recomputed.get(key),
                );
            }
        }
        out.into_iter()
            .map(|m| format!("{}: {m}", self.path.display()))
            .collect()
    }
}

fn compare(out: &mut Vec<String>, what: &str, published: Option<&Value>, rows: Option<&Value>) {
    let (Some(p), Some(r)) = (published, rows) else {
        return;
    };
    if !same_json(p, r) {
        out.push(format!("{what} is {p} but the per-case rows give {r}"));
    }
}
