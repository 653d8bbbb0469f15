//! Statements drawn from BEAM's user messages by a documented random rule: the temporal
//! classifier's second real-utterance set, a user talking to an assistant about their projects
//! (docs/temporal.md, "Real utterances from BEAM").
//!
//! The rule, in full, so a set can be drawn again from BEAM's released files:
//! 1. the 100K tier's 20 chats; of each, the user messages, as prose: BEAM's generator marker
//!    (` ->-> 1,2`) left out as the suite leaves it out, and every fenced code block
//!    (from a line opening with three backticks to the next) removed;
//! 2. the prose is split into sentences and a sentence is a candidate as in LoCoMo's rule
//!    ([`super::draw`]: UAX #29 sentences ending in `.` or `!`, 5 to 40 words);
//! 3. the `dev` part is chats 1 to 10, the `test` part chats 11 to 20: no chat, and no user, in
//!    both;
//! 4. the part's candidates are in two strata: those of a message that a `knowledge_update` or
//!    `contradiction_resolution` question names as evidence (where BEAM puts its updates and
//!    contradictions), and the rest; each stratum is put in the seeded order of LoCoMo's rule 4
//!    (one ChaCha8 `u64` per candidate of the part, in chat order); every fourth statement
//!    drawn (the 1st, 5th, 9th, ...) is the next of the evidence stratum, the others the next
//!    of the rest. A larger `n` extends a draw without changing its first statements.
//!
//! A statement's id is `100K-3/m58/s2`: the chat, the message id, and the sentence's 1-based
//! place among the prose's sentences.

use super::draw::{seeded_order, sentences, Part};
use super::Statement;
use crate::error::{Error, Result};
use crate::suite::locomo::Turn;
use crate::suite::Suite;
use std::collections::HashSet;

/// The tier the draw reads (rule 1).
pub(crate) const TIER: &str = "100K";
/// Chats in the `dev` part: 1 to this; the `test` part, the rest (rule 3).
const DEV_CHATS: u32 = 10;
/// The abilities whose evidence messages make the first stratum (rule 4).
const STRATUM_ABILITIES: [&str; 2] = ["knowledge_update", "contradiction_resolution"];
/// Every this many statements drawn, one is of the first stratum (rule 4).
const STRATUM_EVERY: usize = 4;

/// `text` without its fenced code blocks (rule 1).
pub(crate) fn prose(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if !fenced {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The chat number of a BEAM user id `100K-3`.
fn chat_number(user: &str) -> Option<u32> {
    user.strip_prefix(TIER)?.strip_prefix('-')?.parse().ok()
}

/// The 100K tier's user messages as prose turns (rule 1), in the suite's order: sample
/// `100K-3`, dialog `m58`.
pub(crate) fn turns(suite: &Suite) -> Vec<Turn> {
    suite
        .corpus
        .iter()
        .filter(|b| b.subtype.as_deref() == Some("user") && chat_number(&b.user_id).is_some())
        .map(|b| Turn {
            sample_id: b.user_id.clone(),
            dia_id: b.id.rsplit_once('/').map_or(&*b.id, |(_, m)| m).to_string(),
            speaker: "user".into(),
            text: prose(&b.canonical_name),
        })
        .collect()
}

/// The message a statement id `100K-3/m58/s2` is of: `100K-3/m58`, an item id of the suite.
fn message(id: &str) -> &str {
    id.rsplit_once("/s").map_or(id, |(m, _)| m)
}

/// The first `n` statements of `part` by the rule.
pub(crate) fn draw(suite: &Suite, part: Part, n: usize, seed: u64) -> Result<Vec<Statement>> {
    let turns = turns(suite);
    let chats: HashSet<u32> = turns
        .iter()
        .filter_map(|t| chat_number(&t.sample_id))
        .collect();
    if chats.len() != 20 {
        return Err(Error::Usage(format!(
            "the BEAM files hold {} chats of the {TIER} tier; the draw reads its 20 (--data: \
             BEAM's chats/ folder with {TIER}/)",
            chats.len()
        )));
    }
    let in_part = |t: &&Turn| {
        let k = chat_number(&t.sample_id).unwrap_or(0);
        (k <= DEV_CHATS) == (part == Part::Dev)
    };
    let evidence: HashSet<&str> = suite
        .cases
        .iter()
        .filter(|c| STRATUM_ABILITIES.contains(&c.category.as_deref().unwrap_or("")))
        .filter_map(|c| c.expect.relevant_beliefs.as_ref())
        .flat_map(|rb| rb.must_include.iter().map(String::as_str))
        .collect();
    let ordered = seeded_order(sentences(turns.iter().filter(in_part)), seed);
    let (first, rest): (Vec<Statement>, Vec<Statement>) = ordered
        .into_iter()
        .partition(|s| evidence.contains(message(&s.id)));
    let (mut first, mut rest) = (first.into_iter(), rest.into_iter());
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let next = if i % STRATUM_EVERY == 0 {
            first.next()
        } else {
            rest.next()
        };
        out.push(next.ok_or_else(|| {
            Error::Usage(format!(
                "--n {n}: the {part:?} part runs out of candidates at statement {}",
                i + 1
            ))
        })?);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_leaves_out_fenced_code_and_keeps_the_rest() {
        let text = "I use Flask.\n```python\nprint('hi')\n```\nIt works now!\n";
        assert_eq!(prose(text), "I use Flask.\nIt works now!\n");
        assert_eq!(chat_number("100K-12"), Some(12));
        assert_eq!(chat_number("500K-1"), None);
    }
}
