//! Analyzers of the Atlas Search index `beliefs_search` (spec §C.1).
//!
//! Index side: every searched field uses `whole_name`, so one alias value is one term
//! (`redis_cache` → `redis cache`). It is a tantivy [`Tokenizer`] because tantivy indexes with it.
//! Query side: four word-level analyzers. They are plain functions: tantivy has no shingle
//! filter with Lucene's filler semantics, and the query never goes through a tantivy parser.

use tantivy::tokenizer::{Token, TokenStream, Tokenizer};
use unicode_segmentation::UnicodeSegmentation;

/// Name under which [`WholeName`] is registered in the tantivy index.
pub(crate) const WHOLE_NAME: &str = "whole_name";

/// The filler token Lucene's ShingleFilter puts where a stopword left a position gap.
pub(crate) const FILLER: &str = "_";

/// Stopwords of `canonical_query_search` (matched after lowercasing).
const STOPWORDS: &[&str] = &[
    "a", "an", "the", "and", "or", "in", "of", "to", "for", "with", "our", "my", "we", "i", "on",
    "at", "by", "up", "their", "its", "is", "are", "was", "be", "that", "this", "how", "what",
    "does",
];

/// Lucene `LowerCaseFilter`: Java's simple per-code-point mapping (`İ` → `i`, one char out).
pub(crate) fn lowercase(s: &str) -> String {
    s.chars()
        .map(|c| c.to_lowercase().next().unwrap_or(c))
        .collect()
}

/// Lucene `EnglishPossessiveFilter`: drop a final `'s`, `’s` or `＇s`.
pub(crate) fn strip_possessive(s: &str) -> &str {
    let mut rev = s.char_indices().rev();
    match (rev.next(), rev.next()) {
        (Some((_, 's' | 'S')), Some((i, '\'' | '\u{2019}' | '\u{FF07}'))) => &s[..i],
        _ => s,
    }
}

/// The pieces of one field value under `whole_name`: a Lucene PatternTokenizer emitting each
/// `[^,;|]+` match, surrounding spaces kept.
fn whole_name_pieces(value: &str) -> impl Iterator<Item = &str> + '_ {
    value
        .split([',', ';', '|'])
        .filter(|piece| !piece.is_empty())
}

/// One piece's term: `_` → space, lowercase, possessive. ASCII text (nearly every name) takes
/// one allocation and no per-char Unicode lookup; a build of 1M beliefs tokenises millions.
fn whole_name_term(piece: &str) -> String {
    if piece.is_ascii() {
        let mut bytes = piece.as_bytes().to_vec();
        for b in &mut bytes {
            *b = if *b == b'_' {
                b' '
            } else {
                b.to_ascii_lowercase()
            };
        }
        if bytes.ends_with(b"'s") {
            bytes.truncate(bytes.len() - 2);
        }
        // ASCII bytes mapped to ASCII bytes are UTF-8.
        return String::from_utf8(bytes).unwrap_or_default();
    }
    strip_possessive(&lowercase(&piece.replace('_', " "))).to_string()
}

/// Terms of one field value under `whole_name`: `_` → space, split on `,;|` (a Lucene
/// PatternTokenizer emitting each `[^,;|]+` match, surrounding spaces kept), lowercase,
/// possessive.
pub fn whole_name_terms(value: &str) -> impl Iterator<Item = String> + '_ {
    whole_name_pieces(value).map(whole_name_term)
}

/// How many terms `whole_name` makes of one field value (one per piece), without making them.
pub(crate) fn whole_name_count(value: &str) -> u32 {
    whole_name_pieces(value).count() as u32
}

/// `whole_name` as a tantivy tokenizer.
#[derive(Clone, Default)]
pub(crate) struct WholeName;

/// Token stream of [`WholeName`].
pub(crate) struct WholeNameStream {
    tokens: Vec<Token>,
    next: usize,
}

impl Tokenizer for WholeName {
    type TokenStream<'a> = WholeNameStream;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> WholeNameStream {
        let mut tokens = Vec::new();
        let mut offset = 0;
        for piece in text.split([',', ';', '|']) {
            if !piece.is_empty() {
                tokens.push(Token {
                    offset_from: offset,
                    offset_to: offset + piece.len(),
                    position: tokens.len(),
                    text: whole_name_term(piece),
                    position_length: 1,
                });
            }
            offset += piece.len() + 1;
        }
        WholeNameStream { tokens, next: 0 }
    }
}

impl TokenStream for WholeNameStream {
    fn advance(&mut self) -> bool {
        self.next += 1;
        self.next <= self.tokens.len()
    }
    fn token(&self) -> &Token {
        &self.tokens[self.next - 1]
    }
    fn token_mut(&mut self) -> &mut Token {
        &mut self.tokens[self.next - 1]
    }
}

/// `java.lang.Character.isWhitespace`, the split rule of Lucene's WhitespaceTokenizer
/// (no-break spaces are not whitespace there).
fn is_java_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | '\u{1C}'..='\u{1F}' | ' ' | '\u{1680}'
            | '\u{2000}'..='\u{2006}' | '\u{2008}'..='\u{200A}' | '\u{2028}' | '\u{2029}'
            | '\u{205F}' | '\u{3000}'
    )
}

/// `lucene.standard` (no stopwords): UAX#29 words, lowercased. Used by the canonical fuzzy
/// clause. Lucene also emits emoji as tokens; `unicode_words` drops them (no belief name is one).
pub(crate) fn standard(query: &str) -> Vec<String> {
    query.unicode_words().map(lowercase).collect()
}

/// `aliases_light`: whitespace split, lowercase, possessive.
pub(crate) fn aliases_light(query: &str) -> Vec<String> {
    query
        .split(is_java_whitespace)
        .filter(|t| !t.is_empty())
        .map(|t| strip_possessive(&lowercase(t)).to_string())
        .collect()
}

/// `alias_search`: `aliases_light` then bigram-only shingles.
#[cfg(test)]
pub(crate) fn alias_shingles(query: &str) -> Vec<String> {
    alias_shingles_of(&aliases_light(query))
}

/// `alias_search` from already computed `aliases_light` tokens.
pub(crate) fn alias_shingles_of(light: &[String]) -> Vec<String> {
    shingles(light.iter().map(|t| (t.as_str(), false)), false)
}

/// `canonical_query_search`: `aliases_light`, stopwords removed (leaving position gaps), then
/// bigram-only shingles with `_` fillers at the gaps.
#[cfg(test)]
pub(crate) fn canonical_shingles(query: &str) -> Vec<String> {
    canonical_shingles_of(&aliases_light(query))
}

/// `canonical_query_search` from already computed `aliases_light` tokens.
pub(crate) fn canonical_shingles_of(tokens: &[String]) -> Vec<String> {
    let mut gap_before = false;
    let mut kept = Vec::new();
    for token in tokens {
        if STOPWORDS.contains(&token.as_str()) {
            gap_before = true;
        } else {
            kept.push((token.as_str(), gap_before));
            gap_before = false;
        }
    }
    shingles(kept.into_iter(), gap_before)
}

/// Lucene ShingleFilter(2, 2) with `outputUnigrams=false` as mongot configures it: a position
/// gap inserts one filler (however long the gap), leading and trailing gaps included; bigrams
/// made only of fillers are dropped; fewer than two items give nothing.
fn shingles<'a>(tokens: impl Iterator<Item = (&'a str, bool)>, trailing_gap: bool) -> Vec<String> {
    let mut items: Vec<&str> = Vec::new();
    for (token, gap_before) in tokens {
        if gap_before {
            items.push(FILLER);
        }
        items.push(token);
    }
    if trailing_gap {
        items.push(FILLER);
    }
    items
        .windows(2)
        .filter(|pair| !(pair[0] == FILLER && pair[1] == FILLER))
        .map(|pair| format!("{} {}", pair[0], pair[1]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_name_is_one_term_per_value() {
        let terms: Vec<_> = whole_name_terms("redis_cache").collect();
        assert_eq!(terms, ["redis cache"]);
        let terms: Vec<_> = whole_name_terms("CI pipeline").collect();
        assert_eq!(terms, ["ci pipeline"]);
        let terms: Vec<_> = whole_name_terms("a, b|TypeScript's").collect();
        assert_eq!(terms, ["a", " b", "typescript"]);
    }

    #[test]
    fn the_ascii_path_equals_the_general_one() {
        for piece in [
            "Redis_Cache",
            "what's",
            "WHAT'S",
            "it's'S",
            "'s",
            "x'",
            "a-b.C/d",
        ] {
            let general = strip_possessive(&lowercase(&piece.replace('_', " "))).to_string();
            assert_eq!(whole_name_term(piece), general, "{piece}");
        }
        assert_eq!(whole_name_term("İstanbul’s"), "istanbul");
        assert_eq!(whole_name_count(",a,,b;|c "), 3);
    }

    #[test]
    fn tantivy_tokenizer_agrees_with_whole_name_terms() {
        let mut tokenizer = WholeName;
        let mut stream = tokenizer.token_stream("Fly.io, Try/Catch; x_y|what's");
        let mut seen = Vec::new();
        while stream.advance() {
            seen.push(stream.token().text.clone());
        }
        let expected: Vec<_> = whole_name_terms("Fly.io, Try/Catch; x_y|what's").collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn standard_keeps_apostrophes_and_dots_splits_hyphens() {
        assert_eq!(
            standard("What's react.js try-catch k8s?"),
            ["what's", "react.js", "try", "catch", "k8s"]
        );
    }

    #[test]
    fn light_keeps_punctuation_and_drops_possessives() {
        assert_eq!(
            aliases_light("TypeScript's try/catch (compliance it's"),
            ["typescript", "try/catch", "(compliance", "it"]
        );
        // A no-break space is not whitespace for Java.
        assert_eq!(aliases_light("a\u{A0}b c"), ["a\u{A0}b", "c"]);
    }

    #[test]
    fn shingles_are_bigrams_only_with_fillers_at_gaps() {
        assert_eq!(alias_shingles("our CI pipeline"), ["our ci", "ci pipeline"]);
        assert!(alias_shingles("redis").is_empty());
        assert_eq!(
            canonical_shingles("how does kube schedule pods"),
            ["_ kube", "kube schedule", "schedule pods"]
        );
        assert_eq!(
            canonical_shingles("redis for the cache"),
            ["redis _", "_ cache"]
        );
        assert_eq!(
            canonical_shingles("response length of"),
            ["response length", "length _"]
        );
        assert!(canonical_shingles("what is the").is_empty());
    }
}
