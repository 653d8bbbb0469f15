//! The README stays true for a newcomer: its first block is the two commands (and the test
//! command exists), every subcommand of the binary is in its command list, and what a new user
//! of a custom suite must know is written down.

use crate::common::{repo, tenure_eval};

fn readme() -> String {
    std::fs::read_to_string(repo("README.md")).unwrap()
}

#[test]
fn the_first_block_is_the_two_commands() {
    let text = readme();
    let block = text
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let commands: Vec<&str> = block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim())
        .collect();
    assert_eq!(
        commands,
        [
            "cargo run --release -- run --suite pmb --backend bm25,cosine",
            "scripts/test.sh"
        ]
    );
    assert!(repo("scripts/test.sh").is_file());
    assert!(text.contains("`cargo install --path .`"));
}

#[test]
fn every_subcommand_is_in_the_command_list() {
    let help = String::from_utf8(tenure_eval(&["--help"]).stdout).unwrap();
    let commands: Vec<&str> = help
        .split("Commands:")
        .nth(1)
        .unwrap()
        .lines()
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() >= 14, "{commands:?}");
    let text = readme();
    for c in commands {
        assert!(
            text.contains(&format!("tenure-eval {c} ")),
            "README lists no `tenure-eval {c}`"
        );
    }
}

#[test]
fn a_custom_suite_user_is_told_what_they_need() {
    let text = readme();
    for needle in [
        "searches as\n  `test-user`",
        "`superseded_by` is non-null",
        "`open_question` beliefs never come from search",
        "--explain CASE",
        "an **active retrieval** pass",
        "\"spec §X\" refers to",
    ] {
        assert!(text.contains(needle), "README lacks {needle:?}");
    }
}
