//! LoCoMo's own "recall accuracy" of a retrieved context, as its evaluation code computes it
//! (snap-research/LoCoMo 3eb6f2c, task_eval/evaluation.py, `eval_question_answering`):
//!
//! ```python
//! if eval_key + '_context' in line and len(line['evidence']) > 0:
//!     if line[eval_key + '_context'][0].startswith('S'):      # sessions retrieved
//!         sessions = [e[1:] for e in line[eval_key + '_context']]
//!         recall_acc = float(sum([ev.split(':')[0][1:] in sessions for ev in line["evidence"]]))/len(line['evidence'])
//!     else:                                                    # dialog turns retrieved
//!         recall_acc = float(sum([ev in line[eval_key + '_context'] for ev in line["evidence"]]))/len(line['evidence'])
//! else:
//!     all_recall.append(1)
//! ```
//!
//! So it reads the evidence strings as written: `D8:6; D9:17` is one string that no turn id
//! equals (it counts as missed) and it is one of the denominator's items; `D30:05` misses
//! `D30:5`. A question without evidence counts 1 (recalled). An empty context, which the
//! Python would index out of range on, counts 0 here. The context is the first k retrieved
//! items (`top_k` of task_eval/gpt_utils.py's `get_rag_context`).

/// Recall accuracy of one question: `evidence` as the file writes it, `context` the retrieved
/// ids in LoCoMo's form (`D1:3`, or `S1` for sessions), already cut at k.
pub(crate) fn recall_accuracy(evidence: &[String], context: &[&str]) -> f64 {
    if evidence.is_empty() {
        return 1.0;
    }
    let Some(first) = context.first() else {
        return 0.0;
    };
    let found = if first.starts_with('S') {
        let sessions: Vec<&str> = context.iter().map(|c| &c[1..]).collect();
        evidence
            .iter()
            .filter(|ev| {
                let head = ev.split(':').next().unwrap_or("");
                sessions.contains(&head.get(1..).unwrap_or(""))
            })
            .count()
    } else {
        evidence
            .iter()
            .filter(|ev| context.contains(&ev.as_str()))
            .count()
    };
    found as f64 / evidence.len() as f64
}

/// An item id of ours (`conv-26/D1:3`, `conv-26/S1`) in LoCoMo's form (`D1:3`, `S1`).
pub(crate) fn locomo_id(id: &str) -> &str {
    id.split_once('/').map_or(id, |(_, rest)| rest)
}

/// The context LoCoMo's code scores for the retrieved items `top` (already cut at k): their ids
/// in its form, an observation's replaced by the dialog ids it cites (`covers`), flattened in
/// rank order without removing repeats (task_eval/gpt_utils.py, `get_rag_context`).
pub(crate) fn context<'a>(
    unit: crate::suite::Unit,
    top: &'a [String],
    covers: &'a std::collections::HashMap<String, Vec<String>>,
) -> Vec<&'a str> {
    match unit {
        crate::suite::Unit::Observations => top
            .iter()
            .flat_map(|id| covers.get(id).into_iter().flatten().map(String::as_str))
            .collect(),
        _ => top.iter().map(|id| locomo_id(id)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Values computed by hand from evaluation.py's two expressions.
    #[test]
    fn known_answers_of_locomos_expressions() {
        // Turns: one of two evidence turns in the context.
        assert_eq!(
            recall_accuracy(&ev(&["D1:3", "D2:8"]), &["D2:8", "D5:1"]),
            0.5
        );
        // A string holding two ids is one item that nothing equals.
        assert_eq!(
            recall_accuracy(&ev(&["D8:6; D9:17"]), &["D8:6", "D9:17"]),
            0.0
        );
        assert_eq!(recall_accuracy(&ev(&["D30:05"]), &["D30:5"]), 0.0);
        // Sessions: the session number of each evidence string, "D8:6; D9:17" read as session 8.
        assert_eq!(recall_accuracy(&ev(&["D8:6; D9:17"]), &["S8"]), 1.0);
        assert_eq!(
            recall_accuracy(&ev(&["D1:3", "D2:8", "D:11:26"]), &["S2", "S1", "S11"]),
            2.0 / 3.0
        );
        // No evidence: 1, as evaluation.py appends; nothing retrieved: 0.
        assert_eq!(recall_accuracy(&[], &["D1:1"]), 1.0);
        assert_eq!(recall_accuracy(&ev(&["D1:1"]), &[]), 0.0);
        assert_eq!(locomo_id("conv-26/D1:3"), "D1:3");
        assert_eq!(locomo_id("conv-26/S12"), "S12");
    }
}
