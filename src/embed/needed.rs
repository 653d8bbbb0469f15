//! Every text a cosine run of a suite embeds, known before the run starts: the seed beliefs,
//! each belief version a session creates or updates, and each static and session query. Knowing
//! them up front lets a run embed what is missing in one batch, or fail before any work with
//! the exact count of missing vectors.

use super::{EmbeddingStore, Role, TextPolicy};
use crate::error::Error;
use crate::store::BeliefStore;
use crate::suite::{Suite, BUILTIN_SUITES};
use std::path::PathBuf;

/// One text to embed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NeededText {
    /// Belief or query.
    pub role: Role,
    /// The exact text.
    pub text: String,
}

/// The texts a static and session run of `suite` needs under `policy`, without duplicates, in
/// first-use order. The query of a blank message is not one: every context builder skips the
/// search for it (pmb's `edge-whitespace-query` returns nothing), so no vector of it is ever
/// read, and a service asked to embed it may refuse the request.
pub fn needed_texts(suite: &Suite, policy: TextPolicy) -> Vec<NeededText> {
    let mut out: Vec<NeededText> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut push = |role: Role, text: String| {
        if seen.insert((role, text.clone())) {
            out.push(NeededText { role, text });
        }
    };
    for belief in &suite.corpus {
        push(Role::Belief, policy.belief.of(belief));
    }
    let blank = |message: &str| crate::js::trim(message).is_empty();
    for case in suite.cases.iter().filter(|c| !blank(&c.query)) {
        push(Role::Query, policy.query.of(&case.query, suite.profile));
    }
    // Replay the session mutations on a scratch store to learn each new version's text.
    let mut store = BeliefStore::new(&suite.corpus);
    for case in &suite.sessions {
        for turn in &case.turns {
            if !blank(&turn.user_message) {
                push(
                    Role::Query,
                    policy.query.of(&turn.user_message, suite.profile),
                );
            }
            if let Some(created) = &turn.create_belief_at_turn {
                store.insert(created.clone());
                push(Role::Belief, policy.belief.of(created));
            }
            if let Some(update) = &turn.update_belief_at_turn {
                if let Some(v) = store.set_fields(update) {
                    push(Role::Belief, policy.belief.of(v));
                }
                if let Some(v) = store.add_aliases(update) {
                    push(Role::Belief, policy.belief.of(v));
                }
            }
        }
    }
    out
}

/// What `embed --export-texts` lists: the texts `suites` need, each under its suite's policy
/// (`policy`), as `{"text", "role", "policy"}` (the import format without the vector), without
/// duplicates, in first-use order; with `lacking`, only those that store has no vector for.
pub(crate) fn export_lines(
    suites: &[Suite],
    policy: &dyn Fn(&Suite) -> TextPolicy,
    lacking: Option<&EmbeddingStore>,
) -> Vec<serde_json::Value> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for suite in suites {
        let policy = policy(suite);
        for t in needed_texts(suite, policy) {
            let name = policy.name(t.role);
            if lacking.is_some_and(|s| s.get(t.role, name, &t.text).is_some()) {
                continue;
            }
            if seen.insert((t.role, name, t.text.clone())) {
                out.push(
                    serde_json::json!({"text": t.text, "role": t.role.name(), "policy": name}),
                );
            }
        }
    }
    out
}

/// The command-line flags that load `suite` again: `--suite NAME` for a built-in suite, the
/// files it was read from for a custom one (`--suite custom` is no suite).
pub(crate) fn suite_flags(suite: &Suite) -> String {
    if BUILTIN_SUITES.iter().any(|b| b.name == suite.name) {
        return format!("--suite {}", suite.name);
    }
    // A benchmark's released file (`--suite locomo --data FILE [--unit sessions]`).
    if let Some(data) = suite.inputs.iter().find(|f| f.role == "data") {
        let unit = match suite.unit {
            Some(u) if u != crate::suite::Unit::Turns => format!(" --unit {}", u.name()),
            _ => String::new(),
        };
        return format!(
            "--suite {} --data {}{unit}",
            suite.name,
            shell_word(&data.path)
        );
    }
    let mut flags: Vec<String> = suite
        .inputs
        .iter()
        .map(|f| format!("--{} {}", f.role, shell_word(&f.path)))
        .collect();
    if suite.profile == crate::profile::Profile::Paper {
        flags.push("--profile paper".into());
    }
    flags.join(" ")
}

/// `word`, quoted for a POSIX shell when it needs to be.
fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// A run cannot start: `missing` of the `needed` texts have no vector in `store`. Says how to
/// compute them here, and how to list them for computing elsewhere.
pub(super) fn missing_error(
    store: &EmbeddingStore,
    suite: &Suite,
    policy: TextPolicy,
    needed: &[NeededText],
    missing: &[&NeededText],
) -> Error {
    let count = |role| missing.iter().filter(|t| t.role == role).count();
    let example = missing
        .iter()
        .take(3)
        .map(|t| format!("{} {:?}", t.role.name(), t.text))
        .collect::<Vec<_>>()
        .join("; ");
    let flags = suite_flags(suite);
    Error::Input {
        file: PathBuf::from(format!("{} (store {})", store.origin, store.model.name)),
        location: format!("policy {}", policy.label()),
        message: format!(
            "{} of the {} texts that suite {} needs have no vector ({} beliefs, {} queries), e.g. \
             {example}. To compute them, point --model at an ONNX export of {} (a folder with \
             model.onnx and tokenizer.json, {} dimensions, and an embedder.json whose name is \
             {:?}) or at a served model, or fill the store once with `tenure-eval embed --model \
             DIR {flags}`; to compute them elsewhere, `tenure-eval embed --export-texts {flags} \
             --model {} --out texts.jsonl` lists every text, then `embed --import-vectors`",
            missing.len(),
            needed.len(),
            suite.label(),
            count(Role::Belief),
            count(Role::Query),
            store.model.name,
            store.model.dimensions,
            store.model.name,
            store.model.name,
        ),
    }
}
