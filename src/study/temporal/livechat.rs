//! Statements drawn from developer chat on Gitter: the manually disentangled dialogs of
//! LiveChat (Shi et al., "A First Look at Developers' Live Chat on Gitter", ESEC/FSE 2021; the
//! LiveChat2021/LiveChat repository, MIT), eight open-source projects' rooms. The temporal
//! classifier's set of a domain it was never trained or developed on, where people report
//! fixes under way, announce plans and correct themselves (docs/temporal.md, "Developer chat:
//! a domain never seen").
//!
//! The rule, in full, so the set can be drawn again from the released files:
//! 1. the eight files of the repository's `data/manual/` ([`ROOMS`], in that order), each read
//!    as UTF-8 lines split at `\n` (a `\r` before it dropped);
//! 2. a message is a line `[DATE TIME] <user> text`, with the dialog's message number before
//!    it when the file gives one; every other line (the dialogs' dashed separators, the
//!    annotators' `// Part` notes, lines of pasted logs) is no message. The text is as
//!    released, its placeholders (`[<-LINK->]`, `[<-CODE->]`, `[<-ISSUE->]`) included;
//! 3. sentences and candidates as in LoCoMo's rule ([`super::draw`]: UAX #29 sentences ending
//!    in `.` or `!`, 5 to 40 words);
//! 4. the whole is held out (there is no development part): every candidate, rooms in the
//!    order of rule 1 and lines in file order, in the seeded order of LoCoMo's rule 4 (one
//!    ChaCha8 `u64` each), the first `n` drawn. A larger `n` extends a draw.
//!
//! A statement's id is `docker/L123/s2`: the room (the file's name without `.txt`), the
//! message's 1-based line in its file, and the sentence's 1-based place in the message.

use super::draw::{first_n, release_text, sentences};
use super::Statement;
use crate::error::Result;
use crate::suite::locomo::Turn;
use std::path::Path;

/// The files of `data/manual/` the draw reads, in its order (rule 1).
pub(crate) const ROOMS: [&str; 8] = [
    "Appium",
    "Gitter",
    "Typescript",
    "angular",
    "dl4j",
    "docker",
    "ethereum",
    "nodejs",
];

/// The sha256 of each room's file as released (LiveChat2021/LiveChat 062c40f, `data/manual/`),
/// in [`ROOMS`]' order: other bytes are drawn and classified, and said ([`turns`]).
const RELEASED_SHA256: [&str; 8] = [
    "dad9d6c4db76e095cf1db199409ffad363b40ade04c3f3a3151d83b42715f480",
    "376a87a4bbe30d8082d77a123dab1d365ceaf91f26ee90adcc00aa4bbd4afbfe",
    "960c3c2b3cc0567bbe193d198907ef4a7e9a315e6f0c0858807fada2af00e3ab",
    "38b63404bb739a81df4d1e7e85497b3878fd520256652f3f6f5a8b964096be94",
    "0fadde7b6e6ec6609f3369a9012b6c3ee49dbacdb4c37acce989d4c4a45f2727",
    "091dfed408086d2e51607fed8ec01b4c235bcf8c7fa0a92af42ea6bfbebe4c9d",
    "ac26614aab15f062b2c99ea464454147c9534e25e2048011862d05245031ddc4",
    "6bd13ba7cb4417ebcafe8c37f19d8ed8b015e36eebaa797a5c165fefdd7e698e",
];

/// A message's time stamp, byte by byte: `d` a digit, `_` the date's `T` or a space, the rest
/// itself (rule 2).
const STAMP: &str = "dddd-dd-dd_dd:dd:dd";

/// The message of one line (rule 2): its user and text, or `None` when the line is none.
fn message(line: &str) -> Option<(&str, &str)> {
    let rest = line
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    let (stamp, rest) = rest.strip_prefix('[')?.split_once("] <")?;
    let (user, text) = rest.split_once('>')?;
    let stamped = stamp.len() == STAMP.len()
        && stamp
            .bytes()
            .zip(STAMP.bytes())
            .all(|(c, want)| match want {
                b'd' => c.is_ascii_digit(),
                b'_' => c == b'T' || c == b' ',
                _ => c == want,
            });
    (stamped && !user.is_empty()).then(|| (user, text.strip_prefix(' ').unwrap_or(text)))
}

/// The messages of one room's file (rules 1 and 2) as turns: sample the room, dialog `L123`.
pub(crate) fn room_turns(room: &str, text: &str) -> Vec<Turn> {
    text.split('\n')
        .enumerate()
        .filter_map(|(i, line)| {
            let (user, text) = message(line.strip_suffix('\r').unwrap_or(line))?;
            Some(Turn {
                sample_id: room.to_string(),
                dia_id: format!("L{}", i + 1),
                speaker: user.to_string(),
                text: text.to_string(),
            })
        })
        .collect()
}

/// Every message of the eight rooms in `dir` (LiveChat's `data/manual/`), in the rule's order,
/// and whether every file holds its released bytes (hashed as read). A missing or unreadable
/// file is an input error naming it.
pub(crate) fn turns(dir: &Path) -> Result<(Vec<Turn>, bool)> {
    let mut out = Vec::new();
    let mut released = true;
    for (room, sha) in ROOMS.iter().zip(RELEASED_SHA256) {
        let path = dir.join(format!("{room}.txt"));
        let expected = || {
            format!(
                "LiveChat's data/manual/ folder, with its {} rooms' files ({}.txt)",
                ROOMS.len(),
                ROOMS.join(".txt, ")
            )
        };
        let text = release_text(&path, expected, "LiveChat's data/manual/ files")?;
        released &= crate::io::sha256_hex(text.as_bytes()) == sha;
        out.extend(room_turns(room, &text));
    }
    Ok((out, released))
}

/// The first `n` statements by the rule (rules 3 and 4).
pub(crate) fn draw(turns: &[Turn], n: usize, seed: u64) -> Result<Vec<Statement>> {
    first_n(sentences(turns.iter()), n, seed, "LiveChat's rooms hold")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_stamped_lines_and_nothing_else() {
        let file = "1 [2016-11-21T19:38:17] <maintainer> At the moment there's no difference between the two. I will fix it tomorrow.\r\n\
                    ----------------------------------\r\n\
                    // Part 2: content-desc\r\n\
                    15[2017-01-18T10:40:21] <someone> what works for iOS?\r\n\
                    [2016-11-21 12:06:05] <dev> Fix underway [<-ISSUE->]\r\n\
                    [Appium] Creating new XCUITestDriver session\r\n\
                    [2016-11-21 12:06:05] <> no user here\r\n\
                    [2016-13-21 12:06:05 <dev> no closing bracket\r\n\
                    [2016-11-21\u{e9}12:06:05] <dev> not a stamp\n";
        let turns = room_turns("Gitter", file);
        let got: Vec<(&str, &str, &str)> = turns
            .iter()
            .map(|t| (t.dia_id.as_str(), t.speaker.as_str(), t.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "L1",
                    "maintainer",
                    "At the moment there's no difference between the two. I will fix it tomorrow."
                ),
                ("L4", "someone", "what works for iOS?"),
                ("L5", "dev", "Fix underway [<-ISSUE->]"),
            ]
        );
        // Candidates as LoCoMo's rule 2: the question and the four-word line are none.
        let drawn = draw(&turns, 2, 34).unwrap();
        let mut ids: Vec<&str> = drawn.iter().map(|s| s.id.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["Gitter/L1/s1", "Gitter/L1/s2"]);
        assert!(draw(&turns, 3, 34).is_err());
    }
}
