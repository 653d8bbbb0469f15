//! A remote backend's counters carried across the runs one report is made of: a continuation
//! of a finished journal (`--resume`, `--rerun-errored`) and a merge of shards. The counters
//! decide whether a compat pass is a good run (`job::health`): a continuation that sent
//! nothing, or a merge, measured them as none, and a run judged a failed one came back as a
//! good one with the same rows (an eighteenth audit).

use serde_json::{Map, Value};

/// `a` and `b` summed: numbers added, objects merged key by key, warnings (`{warning, count}`)
/// merged by their text, other lists joined; anything else is `b`'s, or `a`'s where `b` has
/// none.
pub(crate) fn sum(a: &Value, b: &Value) -> Value {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_u64(), y.as_u64()) {
            (Some(x), Some(y)) => Value::from(x + y),
            _ => Value::from(x.as_f64().unwrap_or(0.0) + y.as_f64().unwrap_or(0.0)),
        },
        (Value::Object(x), Value::Object(y)) => {
            let mut out = Map::new();
            for (k, v) in x {
                out.insert(k.clone(), y.get(k).map_or_else(|| v.clone(), |w| sum(v, w)));
            }
            for (k, w) in y {
                out.entry(k.clone()).or_insert_with(|| w.clone());
            }
            Value::Object(out)
        }
        (Value::Array(x), Value::Array(y)) => {
            let mut out = x.clone();
            for w in y {
                let same = (w.get("warning"))
                    .and_then(|text| out.iter().position(|v| v.get("warning") == Some(text)));
                match same {
                    Some(i) => out[i] = sum(&out[i], w),
                    None => out.push(w.clone()),
                }
            }
            Value::Array(out)
        }
        (a, Value::Null) => a.clone(),
        (_, b) => b.clone(),
    }
}

/// The counters of several runs, summed; `None` when none has any.
pub(crate) fn sum_all<'a>(all: impl IntoIterator<Item = Option<&'a Value>>) -> Option<Value> {
    all.into_iter().flatten().fold(None, |acc, v| {
        Some(acc.map_or_else(|| v.clone(), |a| sum(&a, v)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn counters_add_up_and_warnings_merge_by_their_text() {
        let a = json!({"requests": {"add": 35, "search": 72}, "failedRequests": {"search": 14},
            "idsFromMetadata": 0, "warnings": [{"warning": "w", "count": 14}]});
        let b = json!({"requests": {"add": 35, "reset": 1}, "failedRequests": {},
            "idsFromMetadata": 2, "warnings": [{"warning": "w", "count": 1}, {"warning": "v", "count": 3}]});
        assert_eq!(
            sum(&a, &b),
            json!({"requests": {"add": 70, "search": 72, "reset": 1}, "failedRequests": {"search": 14},
                "idsFromMetadata": 2,
                "warnings": [{"warning": "w", "count": 15}, {"warning": "v", "count": 3}]})
        );
        assert_eq!(sum_all([None, Some(&a), None]), Some(a.clone()));
        assert_eq!(sum_all([None, None]), None);
    }
}
