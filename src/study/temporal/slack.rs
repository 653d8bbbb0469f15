//! Statements drawn from software communities' Slack channels: the Q&A chat of Chatterjee,
//! Damevski, Kraft and Pollock ("Software-related Slack Chats with Disentangled
//! Conversations", MSR 2020; the preethac/Software-related-Slack-Chats-with-Disentangled-Conversations
//! repository, `data/`, no licence stated). The temporal classifier's second set of developer
//! chat, from a source no rule or model was developed on (docs/temporal.md, "Slack: a source
//! never seen").
//!
//! The rule, in full, so the set can be drawn again from the released files:
//! 1. the three 2019 files of [`CHANNELS`], in that order, each an XML document; a message is
//!    a `<message>` element that is a child of the root, its text that of its `<text>` child
//!    (XML's entities decoded by the parser), and a file without one is an input error;
//! 2. a message's prose is its text without Slack's fenced code: the text is cut at every
//!    three backticks and every second piece (the code) dropped, the rest joined by line
//!    breaks; mentions (`<@Name>`) and links (`<https://...>`) are kept as released;
//! 3. sentences and candidates as in LoCoMo's rule ([`super::draw`]: UAX #29 sentences ending
//!    in `.` or `!`, 5 to 40 words);
//! 4. the whole is held out (there is no development part): every candidate, channels in the
//!    order of rule 1 and messages in file order, in the seeded order of LoCoMo's rule 4 (one
//!    ChaCha8 `u64` each), the first `n` drawn. A larger `n` extends a draw.
//!
//! A statement's id is `racket-general/m123/s2`: the channel, the message's 1-based place among
//! its file's `<message>` elements, and the sentence's 1-based place in the message's prose.

use super::draw::{first_n, release_text, sentences};
use super::Statement;
use crate::error::{Error, Result};
use crate::suite::locomo::Turn;
use std::path::Path;

/// The channels the draw reads and their files under the repository's `data/` (rule 1).
pub(crate) const CHANNELS: [(&str, &str); 3] = [
    (
        "clojurians-clojure",
        "clojurians/2019/merged-clojurians-clojure.xml",
    ),
    ("elmlang-general", "elmlang/2019/merged-elmlang-general.xml"),
    ("racket-general", "racket/2019/merged-racket-general.xml"),
];

/// The sha256 of each channel's file as released (the repository at 8804415, `data/`), in
/// [`CHANNELS`]' order: other bytes are drawn and classified, and said ([`turns`] tells).
const RELEASED_SHA256: [&str; 3] = [
    "77111c16ce7aa070d0d405a5330477690be5e2a965ea22bfea82d2ce012552cb",
    "ae9d38d3088f06b958adeba3404670f0db34860812ee9a09991f62230cefdd59",
    "73620f815f9b5ebdae5b05a9904a257c58b9e6ac4077df1bc175a5e01d25c5d4",
];

/// A message's prose: its text without fenced code (rule 2).
fn prose(text: &str) -> String {
    text.split("```").step_by(2).collect::<Vec<_>>().join("\n")
}

/// The messages of one channel's file (rules 1 and 2) as turns: sample the channel, dialog
/// `m123`. `path` names the file in errors.
pub(crate) fn channel_turns(channel: &str, path: &Path, xml: &str) -> Result<Vec<Turn>> {
    let doc = roxmltree::Document::parse(xml).map_err(|e| {
        let pos = e.pos();
        Error::input(
            path,
            format!("line {}, column {}", pos.row, pos.col),
            format!("{e}; expected the Slack chats' XML as released"),
        )
    })?;
    let turns: Vec<Turn> = doc
        .root_element()
        .children()
        .filter(|n| n.has_tag_name("message"))
        .enumerate()
        .map(|(i, message)| {
            let child = |tag: &str| {
                message
                    .children()
                    .find(|n| n.has_tag_name(tag))
                    .and_then(|n| n.text())
                    .unwrap_or("")
            };
            Turn {
                sample_id: channel.to_string(),
                dia_id: format!("m{}", i + 1),
                speaker: child("user").to_string(),
                text: prose(child("text")),
            }
        })
        .collect();
    if turns.is_empty() {
        return Err(Error::input(
            path,
            "/",
            "no <message> element under the root; expected the Slack chats' XML as released",
        ));
    }
    Ok(turns)
}

/// Every message of the three channels under `dir` (the repository's `data/`), in the rule's
/// order, and whether every file holds its released bytes (hashed as read). A missing or
/// unreadable file is an input error naming it.
pub(crate) fn turns(dir: &Path) -> Result<(Vec<Turn>, bool)> {
    let mut out = Vec::new();
    let mut released = true;
    for ((channel, file), sha) in CHANNELS.iter().zip(RELEASED_SHA256) {
        let path = dir.join(file);
        let expected = || {
            format!(
                "the Slack chats' data/ folder, with {}",
                CHANNELS.map(|c| c.1).join(", ")
            )
        };
        let xml = release_text(&path, expected, "the Slack chats' XML")?;
        released &= crate::io::sha256_hex(xml.as_bytes()) == sha;
        out.extend(channel_turns(channel, &path, &xml)?);
    }
    Ok((out, released))
}

/// The first `n` statements by the rule (rules 3 and 4).
pub(crate) fn draw(turns: &[Turn], n: usize, seed: u64) -> Result<Vec<Statement>> {
    first_n(sentences(turns.iter()), n, seed, "the Slack channels hold")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_the_message_elements_and_code_is_not_prose() {
        let xml = "<slack><team_domain>racket</team_domain>\n\
                   <message conversation_id=\"1\"><ts>2019-01-01T05:06:57</ts><user>Priscila</user>\
                   <text>&lt;@Mai&gt; Try this instead: ```(define x 1) (displayln x).``` It prints one every time.</text></message>\n\
                   <message conversation_id=\"1\"><ts>2019-01-01T05:07:13</ts><user>Mai</user><text/></message>\n\
                   <message conversation_id=\"2\"><ts>2019-01-01T05:08:00</ts><user>Mai</user>\
                   <text>Thanks, that fixed the whole build for me.</text></message></slack>";
        let turns = channel_turns("racket-general", Path::new("r.xml"), xml).unwrap();
        let got: Vec<(&str, &str, &str)> = turns
            .iter()
            .map(|t| (t.dia_id.as_str(), t.speaker.as_str(), t.text.as_str()))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "m1",
                    "Priscila",
                    "<@Mai> Try this instead: \n It prints one every time."
                ),
                ("m2", "Mai", ""),
                ("m3", "Mai", "Thanks, that fixed the whole build for me."),
            ]
        );
        // The code's sentence is no candidate; the others are.
        let mut ids: Vec<String> = draw(&turns, 2, 34)
            .unwrap()
            .into_iter()
            .map(|s| s.id)
            .collect();
        ids.sort_unstable();
        assert_eq!(ids, ["racket-general/m1/s2", "racket-general/m3/s1"]);
        assert!(draw(&turns, 3, 34).is_err());
    }

    #[test]
    fn a_file_that_is_not_the_chats_xml_is_an_input_error_naming_it_and_where() {
        for (xml, want) in [
            ("<slack><user/></slack>", "<message>"),
            (
                "<slack>\n<message><text>a & b</text></message></slack>",
                "line 2",
            ),
        ] {
            let err = channel_turns("racket-general", Path::new("r.xml"), xml)
                .unwrap_err()
                .to_string();
            assert!(err.contains("r.xml") && err.contains(want), "{err}");
        }
    }
}
