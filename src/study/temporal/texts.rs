//! A statements file's lines read, and the texts of lines drawn by id (`temporal draw`) found
//! in the benchmark they were drawn from: LoCoMo's file, BEAM's tier, LiveChat's rooms or the Slack channels. A benchmark given
//! when every line has its text would be read for nothing, and a line with neither a text nor
//! a benchmark cannot be classified: both are refused. Or a statements file with a second
//! labelling's classes as its predictions ([`with_predictions`]), where no text is read.

use super::{beam, draw, livechat, parse_statements, slack, Statement};
use crate::error::{Error, Result};
use crate::suite::Suite;
use std::path::{Path, PathBuf};

/// Where lines without a text find it.
pub(crate) enum TextsFrom<'a> {
    /// Nowhere: every line must carry its text.
    Nowhere,
    /// LoCoMo's `locomo10.json` (`--locomo`).
    Locomo(PathBuf),
    /// BEAM's tier the statements were drawn from (`--beam`), loaded only when a line needs it.
    Beam(&'a dyn Fn() -> Result<Suite>),
    /// LiveChat's `data/manual/` folder (`--livechat`).
    LiveChat(PathBuf),
    /// The Slack chats' `data/` folder (`--slack`).
    Slack(PathBuf),
}

impl TextsFrom<'_> {
    fn flag(&self) -> Option<&'static str> {
        match self {
            TextsFrom::Nowhere => None,
            TextsFrom::Locomo(_) => Some("--locomo"),
            TextsFrom::Beam(_) => Some("--beam"),
            TextsFrom::LiveChat(_) => Some("--livechat"),
            TextsFrom::Slack(_) => Some("--slack"),
        }
    }
}

/// The statements of `bytes` (read from `path`), each line without a text given the sentence
/// its id names in `from`, and the label of that source when its files were read and are not
/// the released ones by sha256 (`locomo`, `livechat`, `slack`; BEAM's loader says its own): the
/// texts, and so every figure, are then of other statements than the committed labels name.
pub(crate) fn read_statements(
    path: &Path,
    bytes: &[u8],
    from: TextsFrom,
) -> Result<(Vec<Statement>, Option<&'static str>)> {
    let mut statements = parse_statements(path, bytes)?;
    let untexted = statements
        .iter()
        // A text of spaces is none: it was classified (current_state) and scored (a ninth audit).
        .find(|s| s.text.trim().is_empty() && s.predicted.is_none());
    match (untexted, from.flag()) {
        (None, Some(flag)) => {
            return Err(Error::Usage(format!(
                "{flag}: every line of {} has its text; no id is read from the benchmark's files",
                path.display()
            )))
        }
        (Some(s), None) => {
            return Err(Error::input(
                path,
                format!("id {:?}", s.id),
                "no \"text\"; expected a text, or --locomo FILE (--beam DIR, --livechat DIR, \
                 --slack DIR) for ids drawn from LoCoMo (BEAM, LiveChat, Slack)",
            ))
        }
        _ => {}
    }
    let (turns, unreleased) = match &from {
        TextsFrom::Nowhere => return Ok((statements, None)),
        TextsFrom::Locomo(file) => {
            let (turns, released) = crate::suite::locomo::turns(file)?;
            (turns, (!released).then_some("locomo"))
        }
        TextsFrom::Beam(load) => (beam::turns(&load()?), None),
        TextsFrom::LiveChat(dir) => {
            let (turns, released) = livechat::turns(dir)?;
            (turns, (!released).then_some("livechat"))
        }
        TextsFrom::Slack(dir) => {
            let (turns, released) = slack::turns(dir)?;
            (turns, (!released).then_some("slack"))
        }
    };
    draw::fill_texts(path, &mut statements, &turns)?;
    Ok((statements, unreleased))
}

/// The labelled statements of `first` (read from `first_path`) with `second`'s classes as
/// their predictions (`temporal eval FILE --predicted SECOND`): two annotators' labels compared
/// as a classifier's are, or another classifier's output scored. No text is read. Both files
/// must hold the same ids, each with a class; an id in one only, or a line without a class, is
/// an input error naming the file and the id.
pub(crate) fn with_predictions(
    first_path: &Path,
    first: &[u8],
    second_path: &Path,
    second: &[u8],
) -> Result<Vec<Statement>> {
    let mut statements = parse_statements(first_path, first)?;
    let mut given: std::collections::HashMap<String, crate::temporal::TemporalClass> =
        std::collections::HashMap::new();
    for s in parse_statements(second_path, second)? {
        // SECOND's classes are the predictions; a line that carries a "predicted" class of its
        // own (the training script's files) would be scored by its gold class instead.
        if s.predicted.is_some() {
            return Err(Error::input(
                second_path,
                format!("id {:?}", s.id),
                "has a \"predicted\" class; --predicted reads each line's \"class\" as the \
                 prediction: expected a labels file (a file of given predictions is scored as \
                 the first file, `temporal eval FILE`)",
            ));
        }
        let class = s.class.ok_or_else(|| {
            Error::input(
                second_path,
                format!("id {:?}", s.id),
                "no \"class\"; expected one",
            )
        })?;
        given.insert(s.id, class);
    }
    for s in &mut statements {
        if s.predicted.is_some() {
            return Err(Error::input(
                first_path,
                format!("id {:?}", s.id),
                format!(
                    "has a \"predicted\" class of its own; expected none where {} gives them",
                    second_path.display()
                ),
            ));
        }
        let class = given.remove(&s.id).ok_or_else(|| {
            Error::input(
                second_path,
                format!("id {:?}", s.id),
                format!("missing; expected every id of {}", first_path.display()),
            )
        })?;
        s.predicted = Some(class);
    }
    if let Some(id) = given.keys().min() {
        return Err(Error::input(
            second_path,
            format!("id {id:?}"),
            format!("not in {}; expected the same ids", first_path.display()),
        ));
    }
    Ok(statements)
}

/// Refuse a statement with a given `predicted` class where `command` classifies every
/// statement's text (`temporal classify`, `temporal features`): the class would be ignored,
/// and a line without a text would be classified as the empty string.
pub(crate) fn none_given(path: &Path, statements: &[Statement], command: &str) -> Result<()> {
    match statements.iter().find(|s| s.predicted.is_some()) {
        Some(s) => Err(Error::input(
            path,
            format!("id {:?}", s.id),
            format!(
                "has a \"predicted\" class, which {command} would ignore; expected statements \
                 to classify (a file of given predictions is scored by `temporal eval`)"
            ),
        )),
        None => Ok(()),
    }
}
