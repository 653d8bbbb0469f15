//! Statements drawn from LoCoMo's dialog turns by a documented random rule: the temporal
//! classifier's real-utterance sets (docs/temporal.md, "Real utterances").
//!
//! The rule, in full, so a set can be drawn again from the released file:
//! 1. every turn's text (no image caption) is split into sentences by Unicode's sentence
//!    boundaries (UAX #29, `unicode-segmentation`);
//! 2. a sentence is a candidate when, trimmed, it ends in `.` or `!` (a statement, not a
//!    question) and has 5 to 40 words (UAX #29 words);
//! 3. the `dev` part is the first five samples of the file, the `test` part the last five, so
//!    no conversation, and no speaker, is in both;
//! 4. the part's candidates, in file order, each take one `u64` from ChaCha8 seeded with the
//!    seed; they are ordered by that number (file order breaks a tie) and the first `n` are
//!    drawn, in that order. A larger `n` extends a draw without changing its first statements.
//!
//! The other sources' rules (BEAM, LiveChat, Slack) reuse rules 1, 2 and 4 ([`sentences`],
//! [`first_n`]), the chat readers read their files through [`release_text`], and
//! [`fill_texts`] finds a drawn id's sentence again in any source's turns.

use super::Statement;
use crate::error::{Error, Result};
use crate::suite::locomo::Turn;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashMap;
use std::path::Path;
use unicode_segmentation::UnicodeSegmentation;

/// Which samples a draw reads (rule 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    /// The first five samples: for development and training.
    Dev,
    /// The last five samples: the held-out test set.
    Test,
}

/// Fewest words a candidate sentence has (rule 2).
pub(crate) const MIN_WORDS: usize = 5;
/// Most words a candidate sentence has (rule 2).
pub(crate) const MAX_WORDS: usize = 40;
/// Samples in each part (rule 3).
const PART_SAMPLES: usize = 5;

/// The candidate statements of `part` (rules 1-3), in file order, id `conv-26/D1:3/s2` (the
/// sentence's 1-based place among its turn's sentences). Unlabelled.
pub(crate) fn candidates(turns: &[Turn], part: Part) -> Result<Vec<Statement>> {
    let mut samples: Vec<&str> = Vec::new();
    for t in turns {
        if samples.last() != Some(&t.sample_id.as_str()) {
            samples.push(&t.sample_id);
        }
    }
    if samples.len() < 2 * PART_SAMPLES {
        return Err(Error::Usage(format!(
            "the file holds {} samples; drawing needs LoCoMo's ten (two parts of five)",
            samples.len()
        )));
    }
    let chosen = match part {
        Part::Dev => &samples[..PART_SAMPLES],
        Part::Test => &samples[samples.len() - PART_SAMPLES..],
    };
    Ok(sentences(
        turns
            .iter()
            .filter(|t| chosen.contains(&t.sample_id.as_str())),
    ))
}

/// The candidate sentences of `turns` (rules 1 and 2), in order, id `SAMPLE/DIALOG/sK`.
pub(crate) fn sentences<'t>(turns: impl Iterator<Item = &'t Turn>) -> Vec<Statement> {
    let mut out = Vec::new();
    for t in turns {
        for (k, sentence) in t.text.unicode_sentences().enumerate() {
            let sentence = sentence.trim();
            let words = sentence.unicode_words().count();
            let statement = sentence.ends_with('.') || sentence.ends_with('!');
            if statement && (MIN_WORDS..=MAX_WORDS).contains(&words) {
                out.push(Statement {
                    id: format!("{}/{}/s{}", t.sample_id, t.dia_id, k + 1),
                    text: sentence.to_string(),
                    class: None,
                    predicted: None,
                    note: None,
                });
            }
        }
    }
    out
}

/// `all` in the seeded order of rule 4: each takes one `u64` from ChaCha8 seeded with `seed`,
/// in order; ordered by it, order breaking a tie.
pub(crate) fn seeded_order(all: Vec<Statement>, seed: u64) -> Vec<Statement> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut keyed: Vec<(u64, usize, Statement)> = all
        .into_iter()
        .enumerate()
        .map(|(i, s)| (rng.next_u64(), i, s))
        .collect();
    keyed.sort_by_key(|(key, i, _)| (*key, *i));
    keyed.into_iter().map(|(_, _, s)| s).collect()
}

/// The first `n` of `part`'s candidates in the seeded order (rule 4).
pub(crate) fn draw(turns: &[Turn], part: Part, n: usize, seed: u64) -> Result<Vec<Statement>> {
    first_n(
        candidates(turns, part)?,
        n,
        seed,
        &format!("the {part:?} part has"),
    )
}

/// The first `n` of `all` in the seeded order (rule 4); more than there are is a usage error
/// saying how many there are (`holding`: "the Test part has").
pub(crate) fn first_n(
    all: Vec<Statement>,
    n: usize,
    seed: u64,
    holding: &str,
) -> Result<Vec<Statement>> {
    if n > all.len() {
        return Err(Error::Usage(format!(
            "--n {n}: {holding} {} candidate statements",
            all.len()
        )));
    }
    Ok(seeded_order(all, seed).into_iter().take(n).collect())
}

/// One file of a released chat corpus, as text, for a draw's reader (LiveChat's rooms, the Slack
/// channels): a missing file is an input error naming it and what was `expected` there, bytes
/// that are not UTF-8 one naming the byte and the `release` expected.
pub(crate) fn release_text(
    path: &Path,
    expected: impl FnOnce() -> String,
    release: &str,
) -> Result<String> {
    if !path.is_file() {
        return Err(Error::input(
            path,
            "file",
            format!("not found; expected {}", expected()),
        ));
    }
    String::from_utf8(crate::io::read_bytes(path)?).map_err(|e| {
        Error::input(
            path,
            format!("byte {}", e.utf8_error().valid_up_to()),
            format!("invalid UTF-8; expected {release} as released"),
        )
    })
}

/// Give every statement without a text (and without a given prediction) the sentence its id (`conv-44/D3:7/s2`) names in
/// `turns` (LoCoMo's file at `locomo`). An id that names no sentence is an input error naming
/// `labels` and the id.
pub(crate) fn fill_texts(
    labels: &Path,
    statements: &mut [Statement],
    turns: &[Turn],
) -> Result<()> {
    let by_turn: HashMap<(&str, &str), &str> = turns
        .iter()
        .map(|t| ((t.sample_id.as_str(), t.dia_id.as_str()), t.text.as_str()))
        .collect();
    for statement in statements
        .iter_mut()
        .filter(|s| s.text.trim().is_empty() && s.predicted.is_none())
    {
        let sentence = statement.id.rsplit_once("/s").and_then(|(turn, k)| {
            let (sample, dia) = turn.split_once('/')?;
            let k: usize = k.parse().ok()?;
            let text = by_turn.get(&(sample, dia))?;
            let sentence = text.unicode_sentences().nth(k.checked_sub(1)?)?.trim();
            (!sentence.is_empty()).then_some(sentence)
        });
        statement.text = sentence
            .ok_or_else(|| {
                Error::input(
                    labels,
                    format!("id {:?}", statement.id),
                    "names no sentence of the benchmark's files; expected SAMPLE/DIALOG/sK as drawn",
                )
            })?
            .to_string();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(sample: &str, dia: &str, text: &str) -> Turn {
        Turn {
            sample_id: sample.into(),
            dia_id: dia.into(),
            speaker: "A".into(),
            text: text.into(),
        }
    }

    fn ten_samples() -> Vec<Turn> {
        (0..10)
            .map(|i| {
                turn(
                    &format!("conv-{i}"),
                    "D1:1",
                    "Hi! How are you doing today? I started a pottery class last week. Great!",
                )
            })
            .collect()
    }

    #[test]
    fn candidates_are_statements_of_five_to_forty_words_by_part() {
        let turns = ten_samples();
        let dev = candidates(&turns, Part::Dev).unwrap();
        // "Hi!" and "Great!" are too short, the question is not a statement.
        assert_eq!(dev.len(), 5);
        assert_eq!(dev[0].id, "conv-0/D1:1/s3");
        assert_eq!(dev[0].text, "I started a pottery class last week.");
        let test = candidates(&turns, Part::Test).unwrap();
        assert_eq!(test[0].id, "conv-5/D1:1/s3");
    }

    #[test]
    fn a_larger_draw_extends_a_smaller_one() {
        let turns = ten_samples();
        let three = draw(&turns, Part::Test, 3, 34).unwrap();
        let five = draw(&turns, Part::Test, 5, 34).unwrap();
        assert_eq!(three[..], five[..3]);
        assert_ne!(draw(&turns, Part::Test, 5, 35).unwrap(), five);
        assert!(draw(&turns, Part::Test, 6, 34).is_err());
    }

    #[test]
    fn texts_are_filled_from_ids() {
        let turns = ten_samples();
        let mut drawn = draw(&turns, Part::Dev, 5, 34).unwrap();
        let texts: Vec<String> = drawn.iter().map(|s| s.text.clone()).collect();
        drawn.iter_mut().for_each(|s| s.text.clear());
        fill_texts(Path::new("l.jsonl"), &mut drawn, &turns).unwrap();
        assert_eq!(
            drawn.iter().map(|s| &s.text).collect::<Vec<_>>(),
            texts.iter().collect::<Vec<_>>()
        );
        let mut bad = vec![Statement {
            id: "conv-0/D1:1/s9".into(),
            text: String::new(),
            class: None,
            predicted: None,
            note: None,
        }];
        let err = fill_texts(Path::new("l.jsonl"), &mut bad, &turns)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("l.jsonl") && err.contains("conv-0/D1:1/s9"),
            "{err}"
        );
    }
}
