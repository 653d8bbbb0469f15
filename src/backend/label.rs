//! The settings that change a backend's results, as each backend states them, and the one rule
//! that turns them into the settings part of a run's label (the "tag").
//!
//! Every backend lists its result-changing settings ([`Setting`]: key, value, default) in a
//! fixed order, and says the tag in its [`super::BackendInfo`] (`tag`). A setting at its default
//! adds nothing, so a run at defaults has no tag and keeps the label and file names it always
//! had. A setting that differs adds one token, `<key><value>` (`k30`, `floor0,0.7`, `min2.5`);
//! a switch or a named choice adds its word alone (`hnsw`, `compat`, `rescale`). Tokens are
//! joined by `-` in the backend's order; a fusion adds its children's tags after its own.
//!
//! Values are written in their shortest round-trip form (Rust's `Display` of the f32 or f64
//! the backend uses: `0.7`, `60` for 60.0; a value beyond 24 digits in its exponent form,
//! `1e308`, so a label stays one file name), lists joined by `,`, and free text (a prompt
//! prefix, a keyword list) as the first 8 hex digits of its sha256, so a tag is always one
//! plain path component and one TREC field.
//!
//! Why two settings never render the same: every token starts with its key, a lower-case word;
//! a keyed value is a number, a list of numbers or hex digits, while word tokens hold no digit.
//! Where one key is the start of another (`m` and `min`, `k` and `kw`), the shorter key is
//! followed by a digit and the longer by a letter. `tests` below checks the keys for that.
//! A `-` inside a token is a number's sign: every token starts with a letter.
//!
//! What counts: a setting counts when a different value can change what the backend returns or
//! the scores the report writes. Measured-only settings (timeouts, retries, concurrency, batch
//! sizes, threads, progress) add nothing; neither does the model (cosine's file names and
//! labels carry it already), the text policy (in cosine's file prefix) nor `--bitemporal`
//! (in the composite's label and file prefix).

/// One result-changing setting: its key in the tag, its value and its default, both as the
/// tag writes them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Setting {
    key: &'static str,
    value: String,
    default: String,
}

impl Setting {
    /// A keyed setting (`k`, 30, 60 → `k30`); `key` is a lower-case word.
    pub(crate) fn new(key: &'static str, value: impl ToString, default: impl ToString) -> Setting {
        Setting {
            key,
            value: compact(value.to_string()),
            default: compact(default.to_string()),
        }
    }

    /// A list of numbers (`floor`, [0, 0.7] → `floor0,0.7`).
    pub(crate) fn list<T: ToString>(key: &'static str, values: &[T], default: &[T]) -> Setting {
        let join = |v: &[T]| {
            v.iter()
                .map(|x| compact(x.to_string()))
                .collect::<Vec<_>>()
                .join(",")
        };
        Setting::new(key, join(values), join(default))
    }

    /// A named choice, written as its word alone when it is not the default (`hnsw`).
    pub(crate) fn choice(value: &'static str, default: &'static str) -> Setting {
        Setting::new("", value, default)
    }

    /// A switch, written as its word when on (`compat`, `clamp`).
    pub(crate) fn switch(word: &'static str, on: bool) -> Setting {
        Setting {
            key: word,
            value: String::new(),
            default: if on { "off" } else { "" }.into(),
        }
    }

    /// Free text (a prefix, a word list), written as the first 8 hex digits of its sha256;
    /// the default text adds nothing.
    pub(crate) fn text(key: &'static str, text: &str, default: &str) -> Setting {
        let short = |t: &str| crate::io::sha256_hex(t.as_bytes())[..8].to_string();
        Setting {
            key,
            value: short(text),
            default: short(default),
        }
    }

    /// The token, when the setting is not at its default.
    pub(crate) fn token(&self) -> Option<String> {
        (self.value != self.default).then(|| format!("{}{}", self.key, self.value))
    }
}

/// A number as the tag writes it: its `Display`, unless that is longer than [`LONGEST`] and
/// the number's exponent form (`1e308`, `1e-300`) is shorter. `Display` never uses an exponent,
/// so `--lambda 1e308` wrote 309 digits and no file could carry the label.
fn compact(value: String) -> String {
    if value.len() <= LONGEST {
        return value;
    }
    match value.parse::<f64>() {
        Ok(x) if x.is_finite() && format!("{x:e}").len() < value.len() => format!("{x:e}"),
        _ => value,
    }
}

/// The longest number written as `Display` writes it (a shortest round-trip f64 has at most 17
/// significant digits, so no value a user types by hand reaches the exponent form).
const LONGEST: usize = 24;

/// The tag of `settings`: the tokens of those not at their default, in order, joined by `-`,
/// then the `children`'s tags (a fusion's); `None` when everything is at its default.
pub(crate) fn tag<'a>(
    settings: &[Setting],
    children: impl IntoIterator<Item = Option<&'a str>>,
) -> Option<String> {
    let mut parts: Vec<String> = settings.iter().filter_map(Setting::token).collect();
    parts.extend(children.into_iter().flatten().map(str::to_string));
    (!parts.is_empty()).then(|| parts.join("-"))
}

/// Every key a built-in backend uses, for the collision check.
#[cfg(test)]
pub(crate) const KEYS: &[&str] = &[
    "min", "m", "efc", "efs", "qp", "dp", "k", "w", "depth", "floor", "fuse", "settle", "l",
    "rates", "tiers", "kw", "rr", "rc", "rt", "est", "edge", "frac", "dims", "rerank", "rec",
    "reach",
];

/// Every word a built-in backend writes alone (switches and named choices).
#[cfg(test)]
pub(crate) const WORDS: &[&str] = &[
    "hnsw", "legacy", "compat", "noreseed", "clamp", "rescale", "status",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_add_nothing_and_changes_add_one_token_each() {
        let at_default = [
            Setting::new("k", 60.0f64, 60.0f64),
            Setting::switch("compat", false),
        ];
        assert_eq!(tag(&at_default, []), None);
        let changed = [
            Setting::new("k", 30.0f64, 60.0f64),
            Setting::list("floor", &[0.0f32, 0.7], &[]),
            Setting::switch("compat", true),
            Setting::choice("hnsw", "exact"),
        ];
        assert_eq!(
            tag(&changed, [Some("min2.5"), None]).as_deref(),
            Some("k30-floor0,0.7-compat-hnsw-min2.5")
        );
        assert_eq!(Setting::text("qp", "", "").token(), None);
        assert_eq!(
            Setting::text("qp", "query: ", "").token().unwrap().len(),
            10
        );
    }

    #[test]
    fn extreme_numbers_are_written_in_exponent_form_and_others_as_before() {
        assert_eq!(
            Setting::new("l", 1e308f64, 1.0f64).token().unwrap(),
            "l1e308"
        );
        assert_eq!(
            Setting::new("l", 1e-300f64, 1.0f64).token().unwrap(),
            "l1e-300"
        );
        assert_eq!(
            Setting::new("l", 0.30000000000000004f64, 1.0f64)
                .token()
                .unwrap(),
            "l0.30000000000000004"
        );
        assert_eq!(
            Setting::list("rates", &[1e30f32, 0.5], &[])
                .token()
                .unwrap(),
            "rates1e30,0.5"
        );
    }

    #[test]
    fn a_key_that_starts_another_is_followed_by_a_digit_and_the_other_by_a_letter() {
        let all: Vec<&str> = KEYS.iter().chain(WORDS).copied().collect();
        for a in KEYS {
            for b in all.iter().filter(|b| *b != a && b.starts_with(a)) {
                let next = b[a.len()..].chars().next().unwrap();
                assert!(next.is_ascii_alphabetic(), "{a} / {b}");
            }
        }
        for w in WORDS {
            assert!(!w.contains(|c: char| c.is_ascii_digit()));
            assert!(!KEYS.contains(w), "{w}");
        }
    }
}
