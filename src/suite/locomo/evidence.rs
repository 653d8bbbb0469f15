//! A question's `evidence` strings read as dialog ids, with every anomaly said. The released
//! file has strings holding several ids (`D8:6; D9:17`, `D9:1 D4:4 D4:6`), mistyped ids
//! (`D:11:26`, `D30:05`) and ids of turns that do not exist (`D10:19` in a conversation whose
//! session 10 is shorter, a bare `D`).
//!
//! The rule: split each string on `;`, `,` and whitespace; keep an id that names a turn of the
//! conversation; fix only what has one reading (a colon after the `D`, leading zeros) and only
//! when the fixed id names a turn; anything else is unresolved and left out of the gold. Every
//! split, fix and drop is an [`Anomaly`]: nothing is dropped silently.

use crate::suite::Anomaly;
use std::collections::HashSet;

/// The dialog ids a question's evidence resolves to, in order and without repeats.
pub(crate) struct Resolved {
    /// Dialog ids (`D1:3`) that name turns of the conversation.
    pub ids: Vec<String>,
}

/// Parse `D<session>:<turn>` into its numbers.
pub fn dialog_numbers(id: &str) -> Option<(u32, u32)> {
    let (s, t) = id.strip_prefix('D')?.split_once(':')?;
    let all_digits = |x: &str| !x.is_empty() && x.bytes().all(|b| b.is_ascii_digit());
    (all_digits(s) && all_digits(t)).then(|| Some((s.parse().ok()?, t.parse().ok()?)))?
}

/// The one reading of a mistyped id, if it has one: `D:11:26` → `D11:26`, `D30:05` → `D30:5`.
fn fixed(token: &str) -> Option<String> {
    let token = token
        .strip_prefix("D:")
        .map_or(token.to_string(), |rest| format!("D{rest}"));
    let (s, t) = dialog_numbers(&token)?;
    Some(format!("D{s}:{t}"))
}

/// Resolve `raw` (the question `case`'s evidence strings) against `turns`, the dialog ids of
/// its conversation; anomalies go to `anomalies`.
pub(crate) fn resolve(
    case: &str,
    raw: &[String],
    turns: &HashSet<String>,
    anomalies: &mut Vec<Anomaly>,
) -> Resolved {
    let mut ids: Vec<String> = Vec::new();
    let mut note = |raw: &str, outcome: String| {
        anomalies.push(Anomaly {
            case: case.to_string(),
            raw: raw.to_string(),
            outcome,
        })
    };
    for string in raw {
        let tokens: Vec<&str> = string
            .split(|c: char| c == ';' || c == ',' || c.is_whitespace())
            .filter(|t| !t.is_empty())
            .collect();
        if tokens.len() > 1 {
            note(string, format!("split into {}", tokens.join(", ")));
        }
        if tokens.is_empty() {
            note(string, "dropped: empty".into());
        }
        for token in tokens {
            let id = if turns.contains(token) {
                Some(token.to_string())
            } else {
                match fixed(token).filter(|f| turns.contains(f)) {
                    Some(f) => {
                        note(token, format!("fixed to {f}"));
                        Some(f)
                    }
                    None => {
                        let why = if dialog_numbers(token).is_some() {
                            "no such turn in the conversation"
                        } else {
                            "not a dialog id"
                        };
                        note(token, format!("dropped: {why}"));
                        None
                    }
                }
            };
            if let Some(id) = id.filter(|id| !ids.contains(id)) {
                ids.push(id);
            }
        }
    }
    Resolved { ids }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turns() -> HashSet<String> {
        ["D1:3", "D8:6", "D9:17", "D11:26", "D30:5"]
            .iter()
            .map(|s| s.to_string())
            .collect()
    }

    fn run(raw: &[&str]) -> (Vec<String>, Vec<String>) {
        let raw: Vec<String> = raw.iter().map(|s| s.to_string()).collect();
        let mut anomalies = Vec::new();
        let r = resolve("conv-1/q0", &raw, &turns(), &mut anomalies);
        (
            r.ids,
            anomalies
                .iter()
                .map(|a| format!("{} → {}", a.raw, a.outcome))
                .collect(),
        )
    }

    #[test]
    fn each_kind_of_anomaly_is_resolved_or_said() {
        assert_eq!(run(&["D1:3"]), (vec!["D1:3".to_string()], vec![]));
        let (ids, said) = run(&["D8:6; D9:17"]);
        assert_eq!(ids, ["D8:6", "D9:17"]);
        assert_eq!(said, ["D8:6; D9:17 → split into D8:6, D9:17"]);
        let (ids, said) = run(&["D:11:26", "D30:05"]);
        assert_eq!(ids, ["D11:26", "D30:5"]);
        assert_eq!(
            said,
            ["D:11:26 → fixed to D11:26", "D30:05 → fixed to D30:5"]
        );
        let (ids, said) = run(&["D10:19", "D", "D1:3", "D1:3"]);
        assert_eq!(ids, ["D1:3"]);
        assert_eq!(
            said,
            [
                "D10:19 → dropped: no such turn in the conversation",
                "D → dropped: not a dialog id"
            ]
        );
        // A fix is made only when the fixed id names a turn.
        let (ids, said) = run(&["D:12:1"]);
        assert!(ids.is_empty());
        assert_eq!(said, ["D:12:1 → dropped: not a dialog id"]);
    }
}
