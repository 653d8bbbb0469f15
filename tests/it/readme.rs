//! The docs stay true for a newcomer, wherever each fact now lives: the README's first block is
//! the two commands (and the test command exists), the reference lists every subcommand of the
//! binary, the guide says what a custom suite's author must know, the README's headline figures
//! are the measured ones of `docs/results.md`, and every relative link and anchor resolves.
//! (`spec_refs` checks the specs' citations.)

use crate::common::repo;
use std::collections::BTreeSet;
use std::path::PathBuf;

pub(crate) fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[test]
fn the_first_block_is_the_two_commands() {
    let text = read("README.md");
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
    assert!(
        text.starts_with("# tenure-eval\n\n```sh\n"),
        "the commands come first"
    );
    assert!(repo("scripts/test.sh").is_file());
    assert!(text.contains("`cargo install --path .`"));
    assert!(text.contains("an **active retrieval** pass"));
    let lines = text.lines().count();
    assert!(lines < 300, "README.md has {lines} lines; the limit is 300");
}

#[test]
fn every_subcommand_is_in_the_reference() {
    let commands = crate::common::commands();
    assert!(commands.len() >= 14, "{commands:?}");
    let list = read("docs/reference.md");
    let list = list.split("## Commands").nth(1).unwrap();
    for c in commands {
        assert!(
            list.contains(&format!("\ntenure-eval {c} ")),
            "docs/reference.md's command list has no `tenure-eval {c}`"
        );
    }
}

#[test]
fn a_custom_suite_user_is_told_what_they_need() {
    let text = read("docs/guide.md");
    for needle in [
        "searches as\n  `test-user`",
        "`superseded_by` is non-null",
        "`open_question` beliefs never come from search",
        "--explain CASE",
    ] {
        assert!(text.contains(needle), "docs/guide.md lacks {needle:?}");
    }
}

/// Each number in the README's results table (`77/77`, `0.27x`, `39.3`) is one that
/// `docs/results.md` measured, so the headline cannot drift from the tables it summarises; and
/// each number in the tables of the results' subsections is one of the page the subsection
/// summarises (the scorer's in docs/scorer.md, the flywheel's in docs/flywheel.md).
#[test]
fn the_readme_headline_figures_are_measured_ones() {
    let readme = read("README.md");
    let results = readme.split("## Results").nth(1).unwrap();
    let results = results.split("\n## ").next().unwrap();
    let mut parts = results.split("\n### ");
    let headline = parts.next().unwrap();
    let checked = figures_found_in(headline, 2..3, "docs/results.md");
    assert!(checked >= 30, "only {checked} headline figures checked");
    let mut pages = Vec::new();
    for part in parts {
        let title = part.lines().next().unwrap();
        let page = match title {
            "The dissertation's scorer, measured" => "docs/scorer.md",
            "The flywheel essay, measured" => "docs/flywheel.md",
            other => panic!("README results subsection {other:?} names no page to check against"),
        };
        let checked = figures_found_in(part, 2..usize::MAX, page);
        assert!(checked >= 20, "only {checked} figures of {title:?} checked");
        pages.push(page);
    }
    assert_eq!(pages, ["docs/scorer.md", "docs/flywheel.md"]);
}

/// Checks that every number in `columns` of `text`'s table rows is in `page`; how many.
fn figures_found_in(text: &str, columns: std::ops::Range<usize>, page: &str) -> usize {
    let measured_page = read(page);
    let mut checked = 0;
    for row in text
        .lines()
        .filter(|l| l.starts_with("| ") && !l.contains("---"))
    {
        let cells: Vec<&str> = row.split('|').collect();
        // The last piece is the empty text after the row's closing bar.
        let end = columns.end.min(cells.len().saturating_sub(1));
        for cell in &cells[columns.start.min(end)..end] {
            for number in numbers(cell) {
                assert!(
                    measured_page.contains(&number),
                    "README's {number:?} ({cell:?}) is not in {page}"
                );
                checked += 1;
            }
        }
    }
    checked
}

/// Runs of digits with their `,` `.` `/` joints: `2,522`, `13.96`, `11/77`; a trailing `x` kept.
fn numbers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let joint = matches!(c, ',' | '.' | '/')
            && !current.is_empty()
            && chars.get(i + 1).is_some_and(|n| n.is_ascii_digit());
        if c.is_ascii_digit() || joint || (c == 'x' && !current.is_empty()) {
            current.push(c);
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    out.extend((!current.is_empty()).then_some(current));
    // A bare single digit ("0/6" is kept, "turn 9" is prose) says nothing on its own.
    out.retain(|n| n.len() > 1);
    out
}

/// The docs a reader moves between; their relative links and `#anchors` must resolve.
fn doc_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["README.md", "ARCHITECTURE.md", "CONTRIBUTING.md"]
        .iter()
        .map(|f| repo(f))
        .collect();
    for dir in ["docs", "docs/spec"] {
        for entry in std::fs::read_dir(repo(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "md") {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let mut checked = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for target in link_targets(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            let (path, anchor) = target.split_once('#').unwrap_or((&target, ""));
            let dest = if path.is_empty() {
                file.clone()
            } else {
                file.parent().unwrap().join(path)
            };
            assert!(
                dest.exists(),
                "{}: link to missing {target}",
                file.display()
            );
            if !anchor.is_empty() {
                let slugs = heading_slugs(&std::fs::read_to_string(&dest).unwrap());
                assert!(
                    slugs.contains(anchor),
                    "{}: {target}: no heading #{anchor} in {}",
                    file.display(),
                    dest.display()
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 50, "only {checked} links checked");
}

/// `[text](target)` targets outside code blocks and code spans.
fn link_targets(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose_lines(text) {
        let mut rest = line;
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let Some(end) = after.find(')') else { break };
            let before = &rest[..i];
            if before.matches('`').count() % 2 == 0 {
                out.push(after[..end].to_string());
            }
            rest = &after[end..];
        }
    }
    out
}

pub(crate) fn prose_lines(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |l| {
        if l.trim_start().starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// GitHub's anchors: lowercase, punctuation dropped (letters, digits, `-`, `_` kept), spaces `-`.
fn heading_slugs(text: &str) -> BTreeSet<String> {
    prose_lines(text)
        .filter(|l| l.starts_with('#'))
        .map(|l| {
            l.trim_start_matches('#')
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect()
        })
        .collect()
}
