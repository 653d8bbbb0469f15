//! The features the learned part of the TemporalClassifier reads from a statement: words, word
//! pairs, whether a chat addressee opens it, the head clause (its first words, an imperative,
//! a future word, advice to "you"), a routine word, the head's tense and the rules' verdict. One
//! definition, used both by `temporal features` (which the training script reads, so the
//! weights are trained on exactly what inference computes) and by the model at inference.
//!
//! Every feature is a string; a statement's features are sorted and unique.

use super::lexicon::{
    ADVICE_MODALS, DISCOURSE, FUTURE, HABIT, IMPERATIVE, IRREGULAR_PAST, NOT_PAST_ED, PRESENT_AUX,
};
use super::markers;

/// Lower-case words (letters, digits and inner apostrophes; typographic apostrophes made plain).
pub(crate) fn words(text: &str) -> Vec<String> {
    let lower = text
        .to_lowercase()
        .replace(['\u{2019}', '\u{2018}', '`'], "'");
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .map(|w| w.trim_matches('\''))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// `text` without the chat addressee it opens with, and whether it had one: a Slack mention
/// (`<@Name>`), an `@name`, or one word and a colon (`alice: ...`, Gitter's and IRC's way of
/// addressing someone), up to three of them. Found on the LiveChat dev statements
/// (docs/temporal.md, "Developer chat in training"): an instruction behind a name had the name
/// as its head. Known over-reach, kept because the model was trained and scored with it: a
/// label such as `Note:` or `Edit:` counts as an addressee, and a bare `@` before a space too.
fn strip_addressee(text: &str) -> (&str, bool) {
    let mut rest = text.trim_start();
    let mut addressed = false;
    for _ in 0..3 {
        let next = if let Some(after) = rest.strip_prefix("<@") {
            after.split_once('>').map(|(_, r)| r)
        } else if let Some(after) = rest.strip_prefix('@') {
            Some(after.trim_start_matches(|c: char| !c.is_whitespace()))
        } else {
            rest.split_once(": ")
                .filter(|(name, _)| {
                    !name.is_empty()
                        && name
                            .chars()
                            .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
                })
                .map(|(_, r)| r)
        };
        match next {
            Some(r) => {
                rest = r.trim_start();
                addressed = true;
            }
            None => break,
        }
    }
    (rest, addressed)
}

/// The words of the first clause that carries content (of a text whose chat addressee is
/// already stripped): leading discourse words and a short vocative or interjection before a comma ("Wow, Caroline, ...") are
/// skipped; the clause ends at `,`, `;`, ` - `, `—` or " but ".
fn head_clause(text: &str) -> Vec<String> {
    let mut rest = text.trim();
    for _ in 0..2 {
        match rest.split_once(',') {
            Some((before, after)) if words(before).len() <= 2 && !after.trim().is_empty() => {
                rest = after.trim();
            }
            _ => break,
        }
    }
    let end = rest
        .find([',', ';', '\u{2014}', '\u{2013}'])
        .into_iter()
        .chain(rest.find(" - "))
        // ASCII lower case keeps byte offsets, so the index slices `rest` (a full lower case
        // changes some characters' lengths: the ohm sign, the kelvin sign).
        .chain(rest.to_ascii_lowercase().find(" but "))
        .min()
        .unwrap_or(rest.len());
    let mut clause = words(&rest[..end]);
    let skip = clause
        .iter()
        .take_while(|w| DISCOURSE.contains(&w.as_str()))
        .count();
    clause.drain(..skip);
    clause
}

fn is_past(word: &str) -> bool {
    IRREGULAR_PAST.contains(&word)
        || (word.len() >= 4 && word.ends_with("ed") && !NOT_PAST_ED.contains(&word))
}

/// Buckets features are hashed into: 2^22, so that two of the model's ~11,000 features share
/// one in about 15 pairs (n²/2m) and the weights file can be a map of bucket to weights.
pub(crate) const BUCKETS: u64 = 1 << 22;

/// A feature's bucket: FNV-1a 64 of its text, modulo [`BUCKETS`].
pub(crate) fn bucket(feature: &str) -> u32 {
    (crate::hash::fnv1a(feature) % BUCKETS) as u32
}

/// The buckets of `features`, sorted and unique: what the model weighs (a bucket counts once
/// however many of the statement's features fall in it, in training and at inference alike).
pub(crate) fn buckets(features: &[String]) -> Vec<u32> {
    let mut out: Vec<u32> = features.iter().map(|f| bucket(f)).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The features of `text`, sorted and unique.
pub(crate) fn features(text: &str) -> Vec<String> {
    let all = words(text);
    let mut out: Vec<String> = all.iter().map(|w| format!("w={w}")).collect();
    let mut padded = vec!["<s>".to_string()];
    padded.extend(all.iter().cloned());
    out.extend(padded.windows(2).map(|p| format!("b={} {}", p[0], p[1])));
    let (unaddressed, addressed) = strip_addressee(text);
    let head = head_clause(unaddressed);
    if let Some(first) = head.first() {
        out.push(format!("h={first}"));
        if let Some(second) = head.get(1) {
            out.push(format!("h2={first} {second}"));
        }
    }
    out.extend(head.iter().map(|w| format!("hw={w}")));
    if head
        .first()
        .is_some_and(|w| IMPERATIVE.contains(&w.as_str()))
    {
        out.push("mood=imperative".into());
    }
    if head.iter().any(|w| FUTURE.contains(&w.as_str())) {
        out.push("head=future".into());
    }
    if all.iter().any(|w| HABIT.contains(&w.as_str())) {
        out.push("habit".into());
    }
    if addressed {
        out.push("addressed".into());
    }
    if head
        .windows(2)
        .any(|p| p[0] == "you" && ADVICE_MODALS.contains(&p[1].as_str()))
    {
        out.push("head=advice".into());
    }
    // Tense of the head clause: a past form with no present auxiliary before it.
    let past_at = head.iter().position(|w| is_past(w));
    let aux_at = head.iter().position(|w| PRESENT_AUX.contains(&w.as_str()));
    match (past_at, aux_at) {
        (Some(p), Some(a)) if a < p => out.push("tense=present".into()),
        (Some(_), _) => out.push("tense=past".into()),
        (None, Some(_)) => out.push("tense=present".into()),
        (None, None) => out.push("tense=none".into()),
    }
    match markers::find_marker(text) {
        Some(m) => {
            out.push(format!("rule={}", m.class));
            out.push(format!("rule={}/{}", m.class, m.family));
            out.push(format!("tier={}", m.tier + 1));
        }
        None => out.push("rule=none".into()),
    }
    if text.trim_end().ends_with('!') {
        out.push("end=!".into());
    }
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_statement_has_its_words_pairs_head_tense_and_rule() {
        let f = features("Wow, Caroline, last Friday I went to the car show!");
        for want in [
            "w=went",
            "b=i went",
            "b=<s> wow",
            "h=last",
            "h2=last friday",
            "tense=past",
            "rule=none",
            "end=!",
        ] {
            assert!(f.contains(&want.to_string()), "{want} in {f:?}");
        }
        assert!(features("I'm so excited about it.").contains(&"tense=present".to_string()));
        let f = features("From now on, we deploy on Tuesdays.");
        assert!(f.contains(&"rule=forward_open/future".to_string()), "{f:?}");
        assert!(f.windows(2).all(|p| p[0] < p[1]), "sorted and unique");
    }

    #[test]
    fn a_chat_addressee_is_not_the_head() {
        let has = |text: &str, want: &[&str]| {
            let f = features(text);
            for w in want {
                assert!(f.contains(&w.to_string()), "{w} in {f:?}");
            }
        };
        has(
            "goldylucks: try adding appActivity capabilities.",
            &["addressed", "h=try", "mood=imperative"],
        );
        has(
            "<@Mai> you could use a protocol, then.",
            &["addressed", "h=you", "head=advice"],
        );
        has(
            "@alice @bob: please do not cross-post.",
            &["addressed", "h=please"],
        );
        // A link is no addressee; neither is a sentence with no colon.
        assert_eq!(
            strip_addressee("https://x.org: the docs"),
            ("https://x.org: the docs", false)
        );
        assert_eq!(strip_addressee("Try it again."), ("Try it again.", false));
    }

    #[test]
    fn the_head_ends_at_but_whatever_lower_case_does_to_byte_lengths() {
        // The ohm sign is 3 bytes, its lower case (omega) 2: an index found in the fully
        // lower-cased text sliced this one inside a character (a panic).
        let f = features("10 \u{2126} but the meter reads 12 volts.");
        assert!(f.contains(&"hw=10".to_string()), "{f:?}");
        assert!(!f.contains(&"hw=meter".to_string()), "{f:?}");
    }

    #[test]
    fn words_are_lower_case_with_plain_apostrophes() {
        assert_eq!(
            words("I\u{2019}ll see `em, OK?"),
            ["i'll", "see", "em", "ok"]
        );
    }
}
