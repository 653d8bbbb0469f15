//! `alias-learning` (docs/alias-learning.md): the split keeps each user's questions apart in two
//! halves, no held-out question's text reaches an alias (learned or control), the `none`
//! condition scores the held-out questions exactly as a plain `bm25-text` run of the whole
//! suite does, and learning on LoCoMo helps the questions whose evidence was asked about.

use crate::common::needs::{locomo_file, needs, Need};
use crate::common::{builtin, tenure_eval, tenure_eval_ok};
use std::collections::HashSet;
use tenure_eval::backend::text::TextBm25Config;
use tenure_eval::backend::BackendConfig;
use tenure_eval::eval::qrels::{case_scores, Qrels};
use tenure_eval::eval::rank::parse_measures;
use tenure_eval::run::{run_static, Silent};
use tenure_eval::study::alias_learning::{control, learn, measure, split, MEASURES};
use tenure_eval::suite::locomo::LocomoSource;
use tenure_eval::suite::{Suite, SuiteSource};

/// Words as the text backend cuts them (runs of letters and digits, lowercased).
fn words(text: &str) -> HashSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

/// Every alias a capture added comes from a learning question, and no word that only held-out
/// questions use is in any of them.
fn assert_no_held_out_text(suite: &Suite, seed: u64) {
    let qrels = Qrels::of(suite);
    let halves = split(suite, seed);
    let all: HashSet<usize> = halves
        .learning
        .iter()
        .chain(&halves.held_out)
        .chain(&halves.twins)
        .copied()
        .collect();
    assert_eq!(
        all.len(),
        suite.cases.len(),
        "every case in exactly one half, or left out as a twin"
    );
    assert_eq!(
        halves.learning.len() + halves.held_out.len() + halves.twins.len(),
        suite.cases.len()
    );
    // No held-out question asks what a learning question of its user asks, in other case or
    // spacing (its text would be an alias); each left out does.
    let text = |i: usize| {
        let c = &suite.cases[i];
        let words: Vec<String> = c.query.split_whitespace().map(str::to_lowercase).collect();
        (c.user_id.clone(), words.join(" "))
    };
    let learned: HashSet<_> = halves.learning.iter().map(|&i| text(i)).collect();
    assert!(halves.held_out.iter().all(|&i| !learned.contains(&text(i))));
    assert!(halves.twins.iter().all(|&i| learned.contains(&text(i))));
    let learning_queries: HashSet<&str> = halves
        .learning
        .iter()
        .map(|&i| suite.cases[i].query.as_str())
        .collect();
    let learning_words: HashSet<String> = learning_queries.iter().flat_map(|q| words(q)).collect();
    let held_out_only: HashSet<String> = halves
        .held_out
        .iter()
        .flat_map(|&i| words(&suite.cases[i].query))
        .filter(|w| !learning_words.contains(w))
        .collect();
    assert!(
        !held_out_only.is_empty(),
        "{}: the check needs held-out-only words",
        suite.label()
    );
    for (what, (corpus, captures)) in [
        ("learned", learn(suite, &qrels, &halves.learning)),
        ("random", control(suite, &qrels, &halves.learning, seed)),
    ] {
        assert!(captures.added > 0, "{what}: nothing captured");
        let mut added = 0;
        for (before, after) in suite.corpus.iter().zip(&corpus) {
            assert_eq!(&after.aliases[..before.aliases.len()], &before.aliases[..]);
            for alias in &after.aliases[before.aliases.len()..] {
                added += 1;
                assert!(
                    learning_queries.contains(alias.as_str()),
                    "{what}: {alias:?}"
                );
                let leaked: Vec<_> = words(alias).intersection(&held_out_only).cloned().collect();
                assert!(
                    leaked.is_empty(),
                    "{what}: held-out words {leaked:?} in {alias:?}"
                );
            }
        }
        assert_eq!(added, captures.added, "{what}");
    }
}

#[test]
fn the_split_and_the_captures_never_read_a_held_out_question_on_pmb() {
    let suite = builtin("pmb");
    assert_no_held_out_text(&suite, 1);
    // Another seed, another split.
    assert_ne!(split(&suite, 1), split(&suite, 2));
    assert_eq!(split(&suite, 7), split(&suite, 7));
}

#[test]
fn on_locomo_learning_helps_seen_evidence_and_none_equals_a_plain_run() {
    if !needs(&[Need::Locomo]) {
        return;
    }
    let suite = Suite::load(&SuiteSource::Locomo(LocomoSource::turns(&locomo_file()))).unwrap();
    assert_no_held_out_text(&suite, 1);
    // Each user's questions split in halves (rounded down for the learning half).
    let halves = split(&suite, 1);
    for user in suite
        .cases
        .iter()
        .filter_map(|c| c.user_id.clone())
        .collect::<HashSet<_>>()
    {
        let n = |part: &[usize]| {
            part.iter()
                .filter(|&&i| suite.cases[i].user_id.as_deref() == Some(user.as_str()))
                .count()
        };
        let (l, h) = (n(&halves.learning), n(&halves.held_out) + n(&halves.twins));
        assert!(h == l || h == l + 1, "{user}: {l} learning, {h} held out");
    }

    let outcome = measure(&suite, 1, &mut Silent).unwrap();
    // `none` is a plain bm25-text run of the whole suite, read on the held-out questions.
    let qrels = Qrels::of(&suite);
    let measures = parse_measures(MEASURES).unwrap();
    let run = run_static(
        &suite,
        &BackendConfig::Bm25Text(TextBm25Config::default()),
        &mut Silent,
    )
    .unwrap();
    let held: HashSet<&str> = halves
        .held_out
        .iter()
        .map(|&i| suite.cases[i].case_id.as_str())
        .collect();
    let values: Vec<Vec<f64>> = run
        .results
        .iter()
        .filter(|r| held.contains(r.case_id.as_str()))
        .filter_map(|r| {
            case_scores(&measures, &r.context.relevant, qrels.get(&r.case_id, None)?)
                .into_iter()
                .collect()
        })
        .collect();
    let none = &outcome.rows[0];
    assert_eq!(
        (none.group.as_str(), none.condition.as_str()),
        ("all", "none")
    );
    assert_eq!(none.questions, values.len());
    for (m, want) in none.means.iter().enumerate() {
        let want = want.expect("the group has questions");
        let got = values.iter().map(|v| v[m]).sum::<f64>() / values.len() as f64;
        assert!((got - want).abs() < 1e-12, "{}: {got} vs {want}", MEASURES);
    }
    // What the study found (docs/results.md): learned aliases lift the questions whose evidence
    // a learning question named, significantly; the random control does not.
    let row = |group: &str, condition: &str| {
        outcome
            .rows
            .iter()
            .find(|r| r.group == group && r.condition == condition)
            .unwrap()
    };
    let (gain, p) = row("evidence seen", "learned").versus_none[1].unwrap();
    assert!(gain > 0.1 && p < 0.001, "nDCG@10 gain {gain}, p {p}");
    let (change, _) = row("evidence seen", "random").versus_none[1].unwrap();
    assert!(
        change < 0.0,
        "random aliases changed seen nDCG@10 by {change}"
    );
}

#[test]
fn the_command_prints_the_table_and_its_seed_changes_the_split() {
    let one = tenure_eval_ok(&["alias-learning", "--suite", "pmb", "--seed", "1"], &[]);
    let text = String::from_utf8(one.stdout).unwrap();
    assert!(
        // pmb asks five of its held-out questions in a learning case too: left out, said.
        text.contains(
            "seed 1: 38 learning and 34 held-out questions (5 left out: the text of a learning \
             question)"
        ),
        "{text}"
    );
    for condition in ["none", "learned", "random"] {
        assert!(text.contains(&format!("| {condition} ")), "{text}");
    }
    let two = tenure_eval_ok(
        &[
            "alias-learning",
            "--suite",
            "pmb",
            "--seed",
            "2",
            "--format",
            "json",
        ],
        &[],
    );
    let json: serde_json::Value = serde_json::from_slice(&two.stdout).unwrap();
    assert_eq!(json["seed"], 2);
    let out = tenure_eval(&["alias-learning", "--suite", "pmb", "--backend", "cosine"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a backend flag is not the study's"
    );
    // Suite flags it would read and ignore: a profile, a session file.
    for (flag, value) in [
        ("--profile", "paper"),
        ("--sessions", "cases/pmb/session-retrieval.cases.json"),
    ] {
        let out = tenure_eval(&[
            "alias-learning",
            "--corpus",
            "seeds/pmb/beliefs.seed.json",
            "--cases",
            "cases/pmb/retrieval.cases.json",
            flag,
            value,
        ]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(&format!("{flag}: alias-learning")),
            "{flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
