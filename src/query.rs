//! Query preparation (`buildSearchQuery`, spec §B): the raw user message becomes the
//! `expandedQuery` that every backend searches with.
//!
//! The upstream code is JavaScript and its regexes are ECMAScript regexes: ASCII `\w`/`\b`/`\d`,
//! Unicode `\s`, lookahead, and multiline `^`/`$` that also break at `\r`, U+2028 and U+2029.
//! The `regress` crate implements ECMAScript regex semantics, so the patterns are used verbatim
//! instead of being translated (and subtly changed) for the `regex` crate.

use crate::js;
use crate::profile::Profile;
use regress::Regex;
use std::sync::LazyLock;

const MAX_QUERY_CHARS: usize = 1000;
const MIN_RAW_CHARS: usize = 16;

/// The prepared query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreparedQuery {
    /// What is searched (reported as `expandedQuery`); empty means no search.
    pub query: String,
    /// Most of the message was noise (not reported upstream).
    pub was_noisy: bool,
}

fn re(pattern: &str, flags: &str) -> Regex {
    Regex::with_flags(pattern, flags).expect("built-in pattern compiles")
}

/// Noise patterns, applied in order; each match becomes one space.
static STRIP_PATTERNS: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    vec![
        re(r"^```[\s\S]*?```", "m"),
        re(r"^~~~[\s\S]*?~~~", "m"),
        re(r"^(?: {4}|\t).+$", "m"),
        re(
            r"\[.+?\.(ts|js|py|json|toml|yaml|yml|md|txt|csv|pdf|png|jpg|jpeg|svg)\]",
            "i",
        ),
        re(
            r"<.+?\.(ts|js|py|json|toml|yaml|yml|md|txt|csv|pdf|png|jpg|jpeg|svg)>",
            "i",
        ),
        re(
            r"(?:^|\s)(?:\.{0,2}\/[\w/-]+\.(?:ts|js|py|json|toml|yaml|yml|md|txt|csv)|[\w-]+\/[\w/-]+\.(?:ts|js|py|json|toml|yaml|yml|md|txt|csv))\b",
            "i",
        ),
        re(r"^\s+at\s+.+$", "m"),
        re(r"https?:\/\/[^\s]+", ""),
        re(r"`[^`]+`", ""),
        re(r"^#{1,6}\s+", "m"),
        re(r"\*{1,2}([^*]+)\*{1,2}", ""),
        re(r"_{1,2}([^_]+)_{1,2}", ""),
        re(r"<[^>]+>", ""),
        re(r"\b[0-9a-f]{8,}\b", "i"),
        re(r"\b\d+\b", ""),
        re(r"[?!.,;:]+(?=\s|$)", ""),
    ]
});
static WHITESPACE_RUN: LazyLock<Regex> = LazyLock::new(|| re(r"\s{2,}", ""));
static FENCED: LazyLock<Regex> = LazyLock::new(|| re(r"```[\s\S]*?```|~~~[\s\S]*?~~~", ""));
static CODE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(const|let|var|function|class|import|export|default|return|async|await|if|else|for|while|switch|try|catch|def |class |from \w+ import|fn |impl |use std::|package |func |:=|\/\/|#!?[^\s]|\/\*|\*\/?\s)",
        "",
    )
});
static FENCE_LANGUAGE: LazyLock<Regex> = LazyLock::new(|| re(r"^```(\w+)", "m"));
static LANGUAGE_HEURISTICS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    vec![
        (re(r"\b(fn |impl |use std::|let mut )", ""), "rust"),
        (re(r"\b(func |package main|:= )", ""), "go"),
        (re(r"^\s*(def |from \w+ import|if __name__)", "m"), "python"),
        (
            re(r":\s*(string|number|boolean|void)\b|interface \w+", ""),
            "typescript",
        ),
        (
            re(r"\b(const|let|var|=>|async function)\b", ""),
            "javascript",
        ),
        (re(r"\b(public class|void main|System\.out)\b", ""), "java"),
        (re(r"\b(func |var |let )\b.*\{", ""), "swift"),
    ]
});

/// `text.replace(/pattern/g, " ")`. None of the patterns can match the empty string.
fn replace_all(pattern: &Regex, text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for m in pattern.find_iter(text) {
        out.push_str(&text[last..m.range.start]);
        out.push(' ');
        last = m.range.end;
    }
    out.push_str(&text[last..]);
    out
}

/// Remove code, paths, URLs, markup, numbers and trailing punctuation (spec §B.3).
pub(crate) fn strip_noise(text: &str) -> String {
    let mut out = text.to_string();
    for pattern in STRIP_PATTERNS.iter() {
        out = replace_all(pattern, &out);
    }
    js::trim(&replace_all(&WHITESPACE_RUN, &out)).to_string()
}

fn clamp(text: &str) -> String {
    js::slice_prefix(text, MAX_QUERY_CHARS).to_string()
}

/// Build the search query for `message` as the given upstream version does.
pub fn prepare(message: &str, profile: Profile) -> PreparedQuery {
    let raw = js::trim(message);
    if js::len(raw) < MIN_RAW_CHARS {
        return PreparedQuery {
            query: raw.to_string(),
            was_noisy: false,
        };
    }
    match profile {
        Profile::Paper => {
            let cleaned = strip_noise(raw);
            if cleaned.is_empty() {
                return PreparedQuery {
                    query: String::new(),
                    was_noisy: true,
                };
            }
            let was_noisy = (js::len(&cleaned) as f64) < js::len(raw) as f64 * 0.5;
            PreparedQuery {
                query: clamp(&cleaned),
                was_noisy,
            }
        }
        Profile::Head => prepare_head(raw),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Segment {
    Text,
    Code,
}

fn prepare_head(raw: &str) -> PreparedQuery {
    let mut segments = segment_fenced(raw);
    if !segments.iter().any(|(kind, _)| *kind == Segment::Code) {
        segments = segment_lines(raw);
    }
    let text_only: Vec<&str> = segments
        .iter()
        .filter(|(kind, _)| *kind == Segment::Text)
        .map(|(_, s)| s.as_str())
        .collect();
    let text_only = js::trim(&text_only.join(" ")).to_string();
    let cleaned = strip_noise(if text_only.is_empty() {
        raw
    } else {
        &text_only
    });
    if cleaned.is_empty() || js::len(&cleaned) < MIN_RAW_CHARS {
        let code = segments
            .iter()
            .find(|(kind, _)| *kind == Segment::Code)
            .map(|(_, s)| s.as_str())
            .unwrap_or(raw);
        let query = detect_language(code).unwrap_or_default();
        return PreparedQuery {
            query: query.to_string(),
            was_noisy: true,
        };
    }
    let was_noisy = (js::len(&cleaned) as f64) < js::len(raw) as f64 * 0.5;
    PreparedQuery {
        query: clamp(&cleaned),
        was_noisy,
    }
}

/// Alternate text and fenced-code segments.
fn segment_fenced(raw: &str) -> Vec<(Segment, String)> {
    let mut segments = Vec::new();
    let mut last = 0;
    for m in FENCED.find_iter(raw) {
        if m.range.start > last {
            segments.push((Segment::Text, raw[last..m.range.start].to_string()));
        }
        segments.push((Segment::Code, raw[m.range.clone()].to_string()));
        last = m.range.end;
    }
    if last < raw.len() {
        segments.push((Segment::Text, raw[last..].to_string()));
    }
    segments
}

/// Group consecutive lines by a code-line heuristic.
fn segment_lines(raw: &str) -> Vec<(Segment, String)> {
    let mut segments = Vec::new();
    let mut buffer: Vec<&str> = Vec::new();
    let mut kind = Segment::Text;
    for line in raw.split('\n') {
        let line_kind = if CODE_LINE.find(line).is_some() {
            Segment::Code
        } else {
            Segment::Text
        };
        if line_kind != kind && !buffer.is_empty() {
            segments.push((kind, buffer.join("\n")));
            buffer.clear();
        }
        kind = line_kind;
        buffer.push(line);
    }
    if !buffer.is_empty() {
        segments.push((kind, buffer.join("\n")));
    }
    segments
}

fn detect_language(code: &str) -> Option<&'static str> {
    let language = FENCE_LANGUAGE
        .find(code)
        .and_then(|m| m.group(1).map(|r| code[r].to_lowercase()))
        .or_else(|| {
            LANGUAGE_HEURISTICS
                .iter()
                .find(|(pattern, _)| pattern.find(code).is_some())
                .map(|(_, name)| name.to_string())
        })?;
    Some(match language.as_str() {
        "typescript" => "TypeScript",
        "javascript" => "JavaScript",
        "python" => "Python",
        "rust" => "Rust",
        "go" => "Go",
        "java" => "Java",
        "ruby" => "Ruby",
        "swift" => "Swift",
        "kotlin" => "Kotlin",
        "cpp" => "C++",
        "csharp" => "C#",
        "php" => "PHP",
        "shell" => "shell",
        "bash" => "bash",
        "sql" => "SQL",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn head(s: &str) -> String {
        prepare(s, Profile::Head).query
    }

    #[test]
    fn short_messages_pass_through() {
        assert_eq!(head("  fastify?  "), "fastify?");
        assert_eq!(head("k8s?"), "k8s?");
        assert_eq!(head("   "), "");
    }

    #[test]
    fn spec_examples() {
        assert_eq!(strip_noise("Is 1909-S worth it"), "Is -S worth it");
        assert_eq!(
            strip_noise("rewrite chapter 7 please"),
            "rewrite chapter please"
        );
        assert_eq!(strip_noise("we are at 94% now"), "we are at % now");
        assert_eq!(
            strip_noise("deploy on Fly.io? maybe"),
            "deploy on Fly.io maybe"
        );
        assert_eq!(strip_noise("keep pipe() here"), "keep pipe() here");
        assert_eq!(strip_noise("a_b_c"), "a c");
        assert_eq!(strip_noise("use **bold** text"), "use text");
        assert_eq!(strip_noise("see ./src/app.ts now"), "see now");
        assert_eq!(strip_noise("open https://x.io/a?b=1 now"), "open now");
        assert_eq!(strip_noise("run `npm test` first"), "run first");
    }

    #[test]
    fn head_language_fallback_on_code_only_messages() {
        let q = prepare("```typescript\nconst x: number = 1;\n```", Profile::Head);
        assert_eq!(
            q,
            PreparedQuery {
                query: "TypeScript".into(),
                was_noisy: true
            }
        );
        // Thin text beside an unfenced code line: the language is inferred from the code.
        let q = prepare("see this\n    let mut total_count = 12345;", Profile::Head);
        assert_eq!(q.query, "Rust");
        // Upstream quirk: when every line is code, `textOnly || raw` strips the raw message.
        let q = prepare("fn main() { let mut x = 1; }", Profile::Head);
        assert_eq!(q.query, "fn main() { let mut x = }");
    }

    #[test]
    fn paper_strips_without_segmenting() {
        let msg = "```typescript\nconst x: number = 1;\n```";
        assert_eq!(
            prepare(msg, Profile::Paper),
            PreparedQuery {
                query: String::new(),
                was_noisy: true
            }
        );
    }
}
