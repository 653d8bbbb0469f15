//! A probing question's `source_chat_ids` read as message ids with their grades, every anomaly
//! said. BEAM writes the evidence in several shapes: a list (`[28]`), a list of lists (event
//! ordering: `[[24, 26, 28], [146]]`), a dict of lists (`{"original_info": [86],
//! "updated_info": [114]}`), and, in copies that kept the Python literal of its Hugging Face
//! release, any of these as a string (`"{'original_info': [86], 'updated_info': [114]}"`).
//!
//! The rule: a string is read as the Python literal it holds (single quotes become JSON's
//! double quotes); lists are flattened in order; a dict's lists are taken in key order. An id
//! is graded 2 when it is knowledge_update's `updated_info` (the current fact) and 1
//! otherwise, so nDCG prefers the update; an id listed twice keeps its first place and its
//! higher grade. An id that names no message of the chat, or a part that is not an id, is
//! left out of the gold; each is an [`Anomaly`].

use crate::suite::Anomaly;
use serde_json::Value;
use std::collections::HashSet;

/// The ability whose dict keys say which evidence is current.
pub(crate) const KNOWLEDGE_UPDATE: &str = "knowledge_update";

/// The key of knowledge_update's current evidence (grade 2).
const UPDATED: &str = "updated_info";

/// The keys the released questions give each ability's evidence dict. A key of none of them
/// is read at grade 1 and said: a misspelt `update_info` took the update out of the
/// update-first share in silence (a tenth audit).
const KEYS: [(&str, [&str; 2]); 3] = [
    (KNOWLEDGE_UPDATE, ["original_info", UPDATED]),
    (
        "contradiction_resolution",
        ["first_statement", "second_statement"],
    ),
    ("temporal_reasoning", ["first_event", "second_event"]),
];

/// What a key of no ability's is said against: `ability`'s own keys, or every ability's.
fn expected_keys(ability: &str) -> String {
    match KEYS.iter().find(|(a, _)| *a == ability) {
        Some((_, keys)) => keys.join(" or "),
        None => KEYS
            .iter()
            .flat_map(|(_, k)| k)
            .copied()
            .collect::<Vec<_>>()
            .join(", "),
    }
}

/// A question's evidence resolved against its chat.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Resolved {
    /// Message ids with their grades, in the order written, without repeats.
    pub ids: Vec<(u64, u32)>,
}

/// Resolve `raw` (question `case`'s `source_chat_ids`, of `ability`) against `messages`, the
/// ids of its chat; anomalies go to `anomalies`.
pub(crate) fn resolve(
    case: &str,
    ability: &str,
    raw: &Value,
    messages: &HashSet<u64>,
    anomalies: &mut Vec<Anomaly>,
) -> Resolved {
    let mut note = |raw: String, outcome: String| {
        anomalies.push(Anomaly {
            case: case.to_string(),
            raw,
            outcome,
        })
    };
    let literal;
    let value = match raw {
        Value::String(s) => match python_literal(s) {
            Some(v) => {
                literal = v;
                &literal
            }
            None => {
                note(
                    s.clone(),
                    "dropped: not a list or dict of message ids".into(),
                );
                return Resolved::default();
            }
        },
        other => other,
    };
    let mut out = Resolved::default();
    let mut graded: Vec<(Option<&str>, Vec<u64>)> = Vec::new();
    match value {
        Value::Object(map) => {
            for (key, part) in map {
                if !KEYS.iter().any(|(_, keys)| keys.contains(&key.as_str())) {
                    note(
                        key.clone(),
                        format!(
                            "read as evidence of grade 1: a key of no ability's (expected {})",
                            expected_keys(ability)
                        ),
                    );
                }
                let mut ids = Vec::new();
                flatten(part, &mut ids, &mut |bad| {
                    note(bad, format!("dropped from {key}: not a message id"))
                });
                graded.push((Some(key.as_str()), ids));
            }
        }
        other => {
            let mut ids = Vec::new();
            flatten(other, &mut ids, &mut |bad| {
                note(bad, "dropped: not a message id".into())
            });
            graded.push((None, ids));
        }
    }
    for (key, ids) in graded {
        let grade = if ability == KNOWLEDGE_UPDATE && key == Some(UPDATED) {
            2
        } else {
            1
        };
        for id in ids {
            if !messages.contains(&id) {
                note(
                    id.to_string(),
                    "dropped: names no message of the chat".into(),
                );
                continue;
            }
            match out.ids.iter_mut().find(|(seen, _)| *seen == id) {
                Some((_, g)) => *g = (*g).max(grade),
                None => out.ids.push((id, grade)),
            }
        }
    }
    out
}

/// The ids of `value` in order: a number, a string of digits, or lists of them at any depth.
fn flatten(value: &Value, ids: &mut Vec<u64>, bad: &mut dyn FnMut(String)) {
    match value {
        Value::Array(items) => items.iter().for_each(|v| flatten(v, ids, bad)),
        Value::Number(n) => match n.as_u64() {
            Some(id) => ids.push(id),
            None => bad(n.to_string()),
        },
        Value::String(s) => match s.trim().parse::<u64>() {
            Ok(id) => ids.push(id),
            Err(_) => bad(s.clone()),
        },
        Value::Null => {}
        other => bad(other.to_string()),
    }
}

/// The value of a Python literal of lists, dicts, numbers and quoted strings, as BEAM's
/// Hugging Face copy writes them; `None` when it is not one.
fn python_literal(text: &str) -> Option<Value> {
    let json = if text.contains('"') {
        text.to_string()
    } else {
        text.replace('\'', "\"")
    };
    serde_json::from_str(&json).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn read(ability: &str, raw: Value) -> (Resolved, Vec<Anomaly>) {
        let messages: HashSet<u64> = (0..200).collect();
        let mut anomalies = Vec::new();
        let r = resolve("100K-1/x/0", ability, &raw, &messages, &mut anomalies);
        (r, anomalies)
    }

    #[test]
    fn every_shape_beam_writes_gives_the_same_ids() {
        let want = vec![(24, 1), (26, 1), (146, 1)];
        for raw in [
            json!([24, 26, 146]),
            json!([[24, 26], [146]]),
            json!([24, [26, [146]]]),
            json!("[24, 26, 146]"),
            json!("[[24, 26], [146]]"),
            json!({"first_event": [24, 26], "second_event": [146]}),
            json!("{'first_event': [24, 26], 'second_event': [146]}"),
        ] {
            let (r, anomalies) = read("event_ordering", raw.clone());
            assert_eq!(r.ids, want, "{raw}");
            assert!(anomalies.is_empty(), "{raw}: {anomalies:?}");
        }
    }

    #[test]
    fn a_knowledge_update_grades_the_update_above_the_original() {
        for raw in [
            json!({"original_info": [86], "updated_info": [114]}),
            json!("{'original_info': [86], 'updated_info': [114]}"),
        ] {
            let (r, _) = read(KNOWLEDGE_UPDATE, raw);
            assert_eq!(r.ids, vec![(86, 1), (114, 2)]);
        }
        // Elsewhere the same key grades nothing.
        let (r, _) = read("temporal_reasoning", json!({"updated_info": [114]}));
        assert_eq!(r.ids, vec![(114, 1)]);
    }

    #[test]
    fn an_id_twice_keeps_its_place_and_its_higher_grade() {
        let (r, _) = read(
            KNOWLEDGE_UPDATE,
            json!({"original_info": [5, 9], "updated_info": [9]}),
        );
        assert_eq!(r.ids, vec![(5, 1), (9, 2)]);
    }

    #[test]
    fn ids_of_no_message_and_parts_that_are_no_ids_are_anomalies() {
        let (r, anomalies) = read("information_extraction", json!([28, 999, "m3", -1, 2.5]));
        assert_eq!(r.ids, vec![(28, 1)]);
        let raws: Vec<&str> = anomalies.iter().map(|a| a.raw.as_str()).collect();
        assert_eq!(raws, ["m3", "-1", "2.5", "999"]);
        assert!(anomalies[3].outcome.contains("names no message"));
        let (r, anomalies) = read("summarization", json!("not a list"));
        assert!(r.ids.is_empty());
        assert_eq!(anomalies.len(), 1);
    }
}
