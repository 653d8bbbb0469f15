//! A LoCoMo conversation as items, one of its four databases (`--unit`), each item with the
//! dialog ids it stands for: LoCoMo's retrieval code scores every database by those ids
//! (task_eval/evaluation.py), so the gold of a question is the items that stand for one of its
//! evidence turns.
//!
//! - `turns`: one item per turn, `conv-26/D1:3`, standing for itself; its text is what
//!   LoCoMo's dialog retriever embeds (gpt_utils.py, `rag_mode == 'dialog'`):
//!   `Speaker said, "text"`, and ` and shared CAPTION` when the turn shares an image;
//! - `sessions`: one item per session, `conv-26/S1`, its turns' texts joined by newlines,
//!   standing for every turn of the session;
//! - `observations`: one item per observation (`rag_mode == 'observation'`), `conv-26/O0`, k
//!   0-based over the conversation's observations in file order (sessions ascending, speakers
//!   and facts as listed); its text is the fact as the store keeps it (LoCoMo embeds it with
//!   the session date before it, and prompts with it after); it stands for the ids it cites,
//!   a comma-joined string split as gpt_utils.py splits it;
//! - `summaries`: one item per session summary (`rag_mode == 'summary'`), `conv-26/S1`,
//!   standing for every turn of its session, as evaluation.py matches summaries by session.
//!
//! Every item is dated by its session.

use super::file::{self, RawSample, Session};
use crate::error::Result;
use crate::suite::benchmark::item;
use crate::suite::{Anomaly, Belief, Unit};
use std::collections::HashSet;
use std::path::Path;

/// An item and the dialog ids it stands for.
pub(crate) struct Item {
    /// The belief.
    pub belief: Belief,
    /// Dialog ids (`D1:3`) of turns of the conversation, in order.
    pub covers: Vec<String>,
}

/// The items of sample `i` (user `user`, its `sessions` dated as `times`) in `unit`; observations
/// citing ids of no turn go to `anomalies`.
pub(crate) fn items(
    data: &Path,
    (i, sample): (usize, &RawSample),
    sessions: &[(Session, i64)],
    unit: Unit,
    anomalies: &mut Vec<Anomaly>,
) -> Result<Vec<Item>> {
    let user = sample.sample_id.as_str();
    let turns: HashSet<&str> = (sessions.iter())
        .flat_map(|(s, _)| s.turns.iter().map(|t| t.dia_id.as_str()))
        .collect();
    let mut out = Vec::new();
    for (session, time) in sessions {
        let ids = || session.turns.iter().map(|t| t.dia_id.clone()).collect();
        let said = session.turns.iter().map(|turn| {
            let mut text = format!("{} said, \"{}\"", turn.speaker, turn.text);
            if let Some(caption) = &turn.blip_caption {
                text.push_str(&format!(" and shared {caption}"));
            }
            (turn.dia_id.clone(), text)
        });
        match unit {
            Unit::Turns => out.extend(said.map(|(id, text)| Item {
                belief: item(format!("{user}/{id}"), user, text, *time),
                covers: vec![id],
            })),
            Unit::Sessions => {
                let text: Vec<String> = said.map(|(_, text)| text).collect();
                out.push(Item {
                    belief: item(
                        format!("{user}/S{}", session.number),
                        user,
                        text.join("\n"),
                        *time,
                    ),
                    covers: ids(),
                });
            }
            Unit::Summaries => out.push(Item {
                belief: item(
                    format!("{user}/S{}", session.number),
                    user,
                    file::summary(data, i, sample, session.number)?,
                    *time,
                ),
                covers: ids(),
            }),
            Unit::Observations => {
                let Some(facts) = file::observations(data, i, sample, session.number)? else {
                    anomalies.push(Anomaly {
                        case: format!("{user}/S{}", session.number),
                        raw: format!("session_{}_observation", session.number),
                        outcome: "absent: the session has no observations".into(),
                    });
                    continue;
                };
                for file::RawObservation(fact, cited) in facts {
                    let id = format!("{user}/O{}", out.len());
                    let mut covers = Vec::new();
                    for cited in cited.ids() {
                        if turns.contains(cited.as_str()) {
                            covers.push(cited);
                        } else {
                            anomalies.push(Anomaly {
                                case: id.clone(),
                                raw: cited,
                                outcome: "cited by the observation, names no turn: left out of \
                                          what it stands for"
                                    .into(),
                            });
                        }
                    }
                    out.push(Item {
                        belief: item(id, user, fact, *time),
                        covers,
                    });
                }
            }
        }
    }
    Ok(out)
}
