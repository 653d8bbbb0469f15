//! The LaTeX escaper and layout, on known answers.

use super::{column_groups, escape, header_words, key_columns};

#[test]
fn specials_and_the_projects_symbols_become_latex() {
    for (text, tex) in [
        ("a_b & 50% #1 $x {y}", "a\\_b \\& 50\\% \\#1 \\$x \\{y\\}"),
        (
            "~^\\",
            "\\textasciitilde{}\\textasciicircum{}\\textbackslash{}",
        ),
        (
            "p < 0.05, n > 3",
            "p \\textless{} 0.05, n \\textgreater{} 3",
        ),
        ("A — B", "A --- B"),
        ("0.43–0.50", "0.43--0.50"),
        ("−0.5", "$-$0.5"),
        ("≥ 3 ≤ 4", "$\\geq$ 3 $\\leq$ 4"),
        ("±0.1", "$\\pm$0.1"),
        ("1.67×", "1.67$\\times$"),
        ("a → b · c…", "a $\\rightarrow$ b $\\cdot$ c\\ldots{}"),
        ("12 µs", "12 $\\mu$s"),
        ("spec §C.3", "spec \\S{}C.3"),
        ("café", "café"),
        (
            "turn 8 `base class` shingle",
            "turn 8 \\texttt{base class} shingle",
        ),
        ("\"TS\" case", "``TS'' case"),
        ("😀", "[U+1F600]"),
    ] {
        assert_eq!(escape(text), tex, "{text}");
    }
}

#[test]
fn every_character_left_as_is_is_printable_ascii_or_a_latin_1_letter() {
    let all: String = (0u32..0x3000).filter_map(char::from_u32).collect();
    for c in escape(&all).chars() {
        assert!(
            c.is_ascii() || ('À'..='ÿ').contains(&c),
            "{c:?} left in LaTeX output"
        );
    }
}

#[test]
fn headers_stack_at_capitalised_words_and_keep_measure_names_whole() {
    assert_eq!(header_words("meanPrecision"), ["mean", "Precision"]);
    assert_eq!(header_words("nDCG@10"), ["nDCG@10"]);
    assert_eq!(header_words("Drift (noise)"), ["Drift", "(noise)"]);
    assert_eq!(header_words("R@10"), ["R@10"]);
}

#[test]
fn continued_column_groups_repeat_the_rows_key() {
    let row = |run: &str, group: &str| -> Vec<String> {
        let mut r = vec![run.to_string(), group.to_string()];
        r.extend((0..12).map(|i| format!("0.{i}234567")));
        r
    };
    let mut header = vec!["Run".to_string(), "Category".to_string()];
    header.extend((0..12).map(|i| format!("M{i}")));
    // A key of one column when it tells rows apart, two when not.
    assert_eq!(
        key_columns(&header, &[row("bm25", "all"), row("cosine", "all")]),
        1
    );
    let by_group = vec![row("bm25", "single-hop"), row("bm25", "multi-hop")];
    assert_eq!(key_columns(&header, &by_group), 2);
    let groups = column_groups(&header, &by_group);
    assert!(groups.len() > 1, "{groups:?}");
    for g in &groups {
        assert_eq!(&g[..2], &[0, 1], "{groups:?}");
    }
    // Every other column is in exactly one group.
    let mut seen: Vec<usize> = groups.iter().flat_map(|g| g[2..].to_vec()).collect();
    seen.sort_unstable();
    assert_eq!(seen, (2..header.len()).collect::<Vec<_>>());
}
