//! LoCoMo-Plus (Li et al., ACL 2026) as a suite: `--suite locomo-plus --data
//! locomo_plus.json --locomo locomo10.json`. Each of its items is a cue (two lines of A and B)
//! and, weeks or months later, a trigger line of A that needs the cue but shares few words
//! with it: lexical retrieval's hardest case by design.
//!
//! The splice follows upstream's `data/build_conv.py` (xjtuleeyf/Locomo-Plus 059f4e3) step
//! for step, except that its one random choice is seeded (docs/locomo-plus.md, "The splice",
//! says how to rebuild it elsewhere):
//! 1. item n (0-based, file order) goes into conversation `c` of `locomo10.json`, `c` the n-th
//!    draw of ChaCha8 seeded with `--splice-seed` (`next_u64() % conversations`); upstream
//!    draws with Python's unseeded `random.choice`;
//! 2. the trigger is asked 7 days after the conversation's last session; the cue is said
//!    `time_gap` before it, read as upstream's `parse_time_gap` reads it (a number or number
//!    word up to twelve, or a/an, then weeks (7 days), months (30) or years (365); anything
//!    else is 0 days, said as an anomaly);
//! 3. the cue's lines (`A:`/`B:`, A as `speaker_a`, B as `speaker_b`) go in after every
//!    session dated at or before the cue's time (after a session of the same time), as
//!    upstream's stable sort puts them; a literal `\n` that 44 items hold instead of a line
//!    break is read as one, an anomaly each.
//!
//! As items and cases: each item is its own user, `plus-N`, holding the whole conversation's
//! turns (`plus-N/D1:3`, text and dates as `--suite locomo`'s turns) and the cue's lines
//! (`plus-N/C1`, `plus-N/C2`, dated at the cue's time, `Speaker said, "text"`); its one case,
//! `plus-N/trigger`, asks the trigger's text, its gold the cue's lines, its category the
//! relation type (causal, state, goal, value).

use super::benchmark::{check_user, item, Asked};
use super::locomo;
use super::{Anomaly, Excluded, InputFile, Suite};
use crate::error::{Error, Result};
use crate::io::{parse_json, read_bytes, sha256_hex};
use crate::profile::Profile;
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::Deserialize;
use std::collections::HashSet;
use std::path::PathBuf;

/// The splice's seed unless `--splice-seed` says.
pub(crate) const SEED: u64 = 20_260_511;

/// The released `locomo_plus.json` (xjtuleeyf/Locomo-Plus 059f4e3, `data/`).
const RELEASED_SHA256: &str = "af2fc6e5e0e88735e28d8dd1ef474b718861a73beb21779809e3b9e1a4fe3d23";

/// The rank measures a LoCoMo-Plus run reports unless `--metrics` says otherwise.
pub(crate) const MEASURES: &str = "R@1,R@5,R@10,R@50,nDCG@10,RR";

/// Days between the last session and the trigger (build_conv.py's `compute_insertion`).
const TRIGGER_AFTER_DAYS: i64 = 7;

/// One item as the file has it.
#[derive(Debug, Deserialize)]
struct RawItem {
    relation_type: String,
    cue_dialogue: String,
    trigger_query: String,
    time_gap: String,
}

/// Where a LoCoMo-Plus suite comes from.
#[derive(Debug, Clone)]
pub struct LocomoPlusSource {
    /// `locomo_plus.json`.
    pub data: PathBuf,
    /// `locomo10.json`, the conversations the cues are spliced into.
    pub locomo: PathBuf,
    /// The seed of each item's conversation.
    pub seed: u64,
}

impl super::Source for LocomoPlusSource {
    fn load(&self) -> Result<Suite> {
        load(self)
    }
}

/// build_conv.py's `parse_time_gap`, with its regular expression (ECMAScript's, which reads
/// it as Python's does on these ASCII strings): the days a gap names, `None` where it names
/// none (0 days upstream).
pub(crate) fn gap_days(gap: &str) -> Option<i64> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    let pattern = regress::Regex::new(
        r"\b(\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|a|an)\b\s*(week|weeks|month|months|year|years)\b",
    )
    .expect("a valid expression");
    let text = gap.trim().to_lowercase();
    let found = pattern.find(&text)?;
    let group = |k: usize| found.group(k).map(|r| &text[r]);
    let (number, unit) = (group(1)?, group(2)?);
    let count = match number {
        "a" | "an" => 1,
        n if n.bytes().all(|b| b.is_ascii_digit()) => n.parse().ok()?,
        n => WORDS.iter().position(|w| *w == n)? as i64 + 1,
    };
    let per = match unit.as_bytes()[0] {
        b'w' => 7,
        b'm' => 30,
        _ => 365,
    };
    // A count past any date saturates, and is refused where the cue's date is made.
    Some(count.saturating_mul(per))
}

/// build_conv.py's `parse_ab_dialogue`: `A:`/`B:` lines as (is A, text); other lines dropped.
fn lines(text: &str) -> Vec<(bool, String)> {
    text.split('\n')
        .map(str::trim)
        .filter_map(|line| {
            let (a, rest) = match (line.strip_prefix("A:"), line.strip_prefix("B:")) {
                (Some(rest), _) => (true, rest),
                (_, Some(rest)) => (false, rest),
                _ => return None,
            };
            Some((a, rest.trim().to_string()))
        })
        .collect()
}

/// Load `source` as a suite.
pub(crate) fn load(source: &LocomoPlusSource) -> Result<Suite> {
    let data = source.data.as_path();
    let bytes = read_bytes(data)?;
    let sha256 = sha256_hex(&bytes);
    let items: Vec<RawItem> = parse_json(data, &bytes)?;
    let (conversations, locomo_input, locomo_released) = locomo::conversations(&source.locomo)?;
    if items.is_empty() {
        return Err(Error::input(
            data,
            "$",
            "no items; expected LoCoMo-Plus's list",
        ));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(source.seed);
    let (mut corpus, mut cases, mut anomalies, mut excluded) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut seen = HashSet::new();
    for (n, it) in items.iter().enumerate() {
        let user = format!("plus-{n}");
        check_user(data, &format!("$[{n}]"), &user, &mut seen)?;
        let conv = &conversations[(rng.next_u64() % conversations.len() as u64) as usize];
        let last = conv
            .sessions
            .iter()
            .map(|(t, _)| *t)
            .max()
            .expect("a session");
        let query_time = last + TRIGGER_AFTER_DAYS * 86_400_000;
        let days = gap_days(&it.time_gap).unwrap_or_else(|| {
            anomalies.push(Anomaly {
                case: format!("{user}/trigger"),
                raw: it.time_gap.clone(),
                outcome: "names no number of weeks, months or years: 0 days, the cue just \
                          before the trigger, as build_conv.py reads it"
                    .into(),
            });
            0
        });
        // A gap past any date wrapped around and dated the cue 843,000 years after the trigger
        // (a seventeenth audit); build_conv.py's datetime arithmetic raises on it.
        let cue_time = (days.checked_mul(86_400_000))
            .and_then(|ms| query_time.checked_sub(ms))
            .filter(|t| chrono::DateTime::from_timestamp_millis(*t).is_some())
            .ok_or_else(|| {
                Error::input(
                    data,
                    format!("$[{n}].time_gap"),
                    format!(
                        "{:?}: {days} days before the trigger, before any date; expected a gap \
                         a calendar can hold",
                        it.time_gap
                    ),
                )
            })?;
        let mut cue = it.cue_dialogue.clone();
        if cue.contains("\\n") {
            anomalies.push(Anomaly {
                case: format!("{user}/trigger"),
                raw: it.cue_dialogue.clone(),
                outcome: "a literal \\n between the cue's lines: read as a line break".into(),
            });
            cue = cue.replace("\\n", "\n");
        } else if !cue.contains('\n') && cue.trim_start().starts_with("A:") && cue.contains(" B: ")
        {
            anomalies.push(Anomaly {
                case: format!("{user}/trigger"),
                raw: it.cue_dialogue.clone(),
                outcome: "A and B on one line: split before ` B: `".into(),
            });
            cue = cue.replacen(" B: ", "\nB: ", 1);
        }
        let speaker = |a: bool| if a { &conv.speaker_a } else { &conv.speaker_b };
        let cue_items: Vec<_> = lines(&cue)
            .into_iter()
            .enumerate()
            .map(|(k, (a, text))| {
                let said = format!("{} said, \"{text}\"", speaker(a));
                item(format!("{user}/C{}", k + 1), &user, said, cue_time)
            })
            .collect();
        let trigger = lines(&it.trigger_query).into_iter().next();
        let case_id = format!("{user}/trigger");
        let reason = match (&trigger, cue_items.is_empty()) {
            (None, _) => Some("the trigger has no A: or B: line"),
            (_, true) => Some("the cue has no A: or B: line"),
            _ => None,
        };
        // The conversation's turns, the cue spliced in after every session dated at or before it.
        let mut spliced = false;
        let mut gold = Vec::new();
        for (time, turns) in &conv.sessions {
            if !spliced && *time > cue_time {
                gold.extend(cue_items.iter().map(|b| b.id.clone()));
                corpus.extend(cue_items.iter().cloned());
                spliced = true;
            }
            for turn in turns {
                let dia_id = turn.id.split_once('/').map_or("", |(_, d)| d);
                let mut turn = turn.clone();
                turn.id = format!("{user}/{dia_id}");
                turn.user_id = user.clone();
                corpus.push(turn);
            }
        }
        if !spliced {
            gold.extend(cue_items.iter().map(|b| b.id.clone()));
            corpus.extend(cue_items);
        }
        if let Some(reason) = reason {
            excluded.push(Excluded {
                case: case_id,
                reason: reason.into(),
            });
            continue;
        }
        let (_, query) = trigger.expect("checked above");
        let asked = Asked {
            case_id,
            user: &user,
            category: &it.relation_type,
            query: &query,
            gold,
            depth: 50,
            pass_depth: 10,
        };
        cases.push(asked.case());
    }
    let released = sha256 == RELEASED_SHA256 && locomo_released;
    let mut warnings = Vec::new();
    if !locomo_released {
        warnings.push(format!(
            "{}: not the released locomo10.json; it runs, and reports say so",
            source.locomo.display()
        ));
    }
    if sha256 != RELEASED_SHA256 {
        warnings.push(format!(
            "{}: sha256 {sha256} is not the released locomo_plus.json's ({RELEASED_SHA256}); \
             it runs, and reports say so",
            data.display()
        ));
    }
    let mut inputs = vec![InputFile {
        role: "data",
        path: data.display().to_string(),
        sha256,
        read_from: None,
    }];
    inputs.push(InputFile {
        role: "locomo",
        ..locomo_input
    });
    // The splice is part of the suite: another seed puts each cue in another haystack, with
    // the same files (an audit merged and compared runs on two splices as one suite).
    let name = match source.seed {
        SEED => "locomo-plus".to_string(),
        seed => format!("locomo-plus-seed{seed}"),
    };
    Ok(Suite {
        name,
        unit: None,
        view: None,
        profile: Profile::Head,
        corpus,
        cases,
        sessions: Vec::new(),
        inputs,
        warnings,
        copy: None,
        anomalies,
        excluded,
        released: Some(released),
        default_measures: Some(MEASURES),
        corrections: None,
        selection: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gaps_are_read_as_build_conv_reads_them() {
        assert_eq!(gap_days("two weeks later"), Some(14));
        assert_eq!(gap_days("Three months later"), Some(90));
        assert_eq!(gap_days("a year later"), Some(365));
        assert_eq!(gap_days("after 10 weeks"), Some(70));
        assert_eq!(gap_days("several months later"), None);
        assert_eq!(gap_days("a couple of months later"), None);
    }

    #[test]
    fn dialogue_lines_are_a_and_b_only() {
        assert_eq!(
            lines("A: hi\nB:  there \nC: no\nnoise"),
            vec![(true, "hi".to_string()), (false, "there".to_string())]
        );
    }
}
