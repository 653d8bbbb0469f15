//! Every section of a specification that the code, scripts or docs cite ("spec §C.3",
//! "provider-http spec §5.2", "D8") exists under `docs/spec/`, and no citation points outside
//! the repository.

use crate::common::repo;
use crate::readme::{prose_lines, read};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The specifications under `docs/spec/`, and the words a citation names each by.
const SPECS: [(&str, &[&str]); 4] = [
    (
        "retrieval-semantics",
        &["retrieval-semantics", "retrieval semantics"],
    ),
    ("provider-http", &["provider-http"]),
    ("context-scorer", &["context-scorer"]),
    ("alias-flywheel", &["alias-flywheel"]),
];

/// Section numbers of a spec: the first word of each heading, `## C.3 Scoring` → `C.3`.
fn sections(spec: &str) -> BTreeSet<String> {
    let text = read(&format!("docs/spec/{spec}.md"));
    prose_lines(&text)
        .filter(|l| l.starts_with('#'))
        .filter_map(|l| l.trim_start_matches('#').split_whitespace().next())
        .map(|w| w.trim_end_matches('.').to_string())
        .collect()
}

/// Every section citation (a `§` and a section number) in a file, with the spec it cites. A
/// citation names its spec ("provider-http spec §5.2") or continues the one before it on its
/// line ("§5.6, §6.5"). Otherwise a lettered section is the retrieval semantics' (the only
/// lettered spec), and a numbered one belongs to the numbered spec the file last named, else to
/// the file itself (in `docs/spec/`), else to the provider contract.
fn citations(text: &str, own: Option<&'static str>) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    let mut last_numbered = own.filter(|s| *s != "retrieval-semantics");
    for line in text.lines() {
        let mut previous: Option<&'static str> = None;
        let mut gap_start = 0;
        for (at, _) in line.match_indices('§') {
            let id: String = line[at + '§'.len_utf8()..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
                .collect();
            let id = id.trim_end_matches('.').to_string();
            // A `§` not followed by a section number (prose about citations) cites nothing.
            if !id.starts_with(|c: char| c.is_ascii_uppercase() || c.is_ascii_digit()) {
                continue;
            }
            let gap = line[gap_start..at].to_lowercase();
            let named = SPECS
                .iter()
                .find(|(_, words)| words.iter().any(|w| gap.contains(w)))
                .map(|(spec, _)| *spec);
            let continues = gap
                .split(|c: char| c == ',' || c.is_whitespace())
                .all(|w| w.is_empty() || w == "and" || w == "or");
            let spec = named.or(previous.filter(|_| continues)).unwrap_or(
                if id.starts_with(|c: char| c.is_ascii_uppercase()) {
                    "retrieval-semantics"
                } else {
                    last_numbered.unwrap_or("provider-http")
                },
            );
            if spec != "retrieval-semantics" {
                last_numbered = Some(spec);
            }
            out.push((spec, id));
            previous = Some(spec);
            gap_start = at + '§'.len_utf8();
        }
    }
    out
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            // Goldens are upstream data, not citations.
            if !path.ends_with("tests/golden") {
                walk(&path, out);
            }
        } else {
            out.push(path);
        }
    }
}

#[test]
fn every_spec_citation_names_a_section_that_exists() {
    let known: Vec<(&str, BTreeSet<String>)> =
        SPECS.iter().map(|(s, _)| (*s, sections(s))).collect();
    let mut files = Vec::new();
    for dir in ["src", "tests", "scripts", "benches", "examples", "docs"] {
        walk(&repo(dir), &mut files);
    }
    files.extend(
        [
            "README.md",
            "PROVENANCE.md",
            "ARCHITECTURE.md",
            "CONTRIBUTING.md",
        ]
        .map(repo),
    );
    let mut checked = 0;
    let mut unresolved = Vec::new();
    // The specs used to live outside the repository; a path there is a citation nobody can follow.
    let outside = concat!("shared", "/spec/");
    for file in files {
        // Binary files (figures, vectors) hold no citations.
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        if text.contains(outside) {
            unresolved.push(format!(
                "{}: cites a spec outside the repository",
                file.display()
            ));
        }
        let own = SPECS
            .iter()
            .map(|(s, _)| *s)
            .find(|s| file.ends_with(format!("docs/spec/{s}.md")));
        for (spec, id) in citations(&text, own) {
            let sections = &known.iter().find(|(s, _)| *s == spec).unwrap().1;
            if !sections.contains(&id) {
                unresolved.push(format!("{}: {spec} §{id}", file.display()));
            }
            checked += 1;
        }
    }
    assert!(unresolved.is_empty(), "unresolved: {unresolved:#?}");
    assert!(checked >= 100, "only {checked} citations found");
}

#[test]
fn citations_resolve_by_name_continuation_and_kind() {
    let found = citations(
        "a (provider-http spec §5.6, §6.5) b spec §C.5; (spec §F.2, §I) §9.\n\
         context-scorer spec §1-2 and spec §4;\nspec §G, retrieval semantics §E, spec §5",
        None,
    );
    let want = [
        ("provider-http", "5.6"),
        ("provider-http", "6.5"),
        ("retrieval-semantics", "C.5"),
        ("retrieval-semantics", "F.2"),
        ("retrieval-semantics", "I"),
        ("provider-http", "9"),
        ("context-scorer", "1"),
        ("context-scorer", "4"),
        ("retrieval-semantics", "G"),
        ("retrieval-semantics", "E"),
        ("context-scorer", "5"),
    ];
    let found: Vec<(&str, &str)> = found.iter().map(|(s, i)| (*s, i.as_str())).collect();
    assert_eq!(found, want);
}

/// PrecisionMemBench's defects are cited by name ("(D8)", "D13:"); each one cited is a row of
/// a row of provider-http spec §9.
#[test]
fn every_cited_defect_is_in_the_provider_contract() {
    let spec = read("docs/spec/provider-http.md");
    let defects = spec
        .split("## 9.")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    let mut files = Vec::new();
    for dir in ["src", "tests/it", "scripts", "benches", "examples"] {
        walk(&repo(dir), &mut files);
    }
    let mut cited = BTreeSet::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        let bytes = text.as_bytes();
        for (at, _) in text.match_indices('D') {
            let digits: String = text[at + 1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let before = at.checked_sub(1).map(|i| bytes[i]);
            let after = bytes.get(at + 1 + digits.len());
            // `D30:5` is a LoCoMo dialog id (session 30, turn 5), not defect D30.
            let dialog_id = after == Some(&b':')
                && bytes
                    .get(at + 2 + digits.len())
                    .is_some_and(u8::is_ascii_digit);
            if (1..=2).contains(&digits.len())
                && !dialog_id
                && matches!(before, Some(b'(' | b' '))
                && matches!(after, Some(b')' | b':' | b','))
            {
                cited.insert(format!("D{digits}"));
            }
        }
    }
    assert!(cited.len() >= 5, "{cited:?}");
    for d in &cited {
        assert!(
            defects.contains(&format!("| {d} |")),
            "{d} is cited but not a defect of docs/spec/provider-http.md §9"
        );
    }
}
