//! A report file read in one pass: entries become rows as the parser meets them, so that what
//! stays in memory is the rows, not the file's JSON tree (a 100,000-case report is a 140 MB
//! file, and its tree several times that). The parts around the entries (summary, manifest,
//! ingestion) are small and kept as JSON. Errors name the file and the JSON path, as
//! [`crate::io::parse_json`]'s do.

use crate::backend::Workload;
use crate::error::{Error, Result};
use crate::report::read::row::{case_row, turn_row, Row};
use crate::report::schema::IngestionBlock;
use serde::de::{DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::Deserializer;
use serde_json::Value;
use std::cell::RefCell;
use std::path::Path;

/// What a report file holds.
#[derive(Debug, Default)]
pub(crate) struct Parsed {
    /// A bare array of entries (the paper layout), not an object.
    pub array: bool,
    /// Static or session, by the first entry.
    pub kind: Option<Workload>,
    /// The entries, as rows.
    pub rows: Vec<Row>,
    /// Whether the object has a `cases` list.
    pub has_cases: bool,
    /// `provider`.
    pub provider: Option<String>,
    /// `retrieval`.
    pub summary: Option<Value>,
    /// `ingestion`, checked against its schema.
    pub ingestion: Option<Value>,
    /// `manifest`.
    pub manifest: Option<Value>,
    /// `tool` (a sidecar manifest says `tenure-eval`).
    pub tool: Option<String>,
}

/// Read the report `bytes` of `path`.
pub(crate) fn parse(path: &Path, bytes: &[u8]) -> Result<Parsed> {
    let failed = RefCell::new(None);
    let parsed = crate::io::parse_json_seed(
        path,
        bytes,
        Top {
            path,
            failed: &failed,
        },
    );
    match failed.into_inner() {
        Some(e) => Err(e),
        None => parsed,
    }
}

/// The top level. An entry or block that does not fit its schema is kept in `failed` with its
/// own path, and the parse stopped.
struct Top<'a> {
    path: &'a Path,
    failed: &'a RefCell<Option<Error>>,
}

impl<'de> DeserializeSeed<'de> for Top<'_> {
    type Value = Parsed;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Parsed, D::Error> {
        d.deserialize_any(self)
    }
}

impl Top<'_> {
    fn keep<T, E: serde::de::Error>(&self, r: Result<T>) -> std::result::Result<T, E> {
        r.map_err(|e| {
            *self.failed.borrow_mut() = Some(e);
            E::custom("see the first error")
        })
    }

    fn entries<'de, A: SeqAccess<'de>>(
        &self,
        mut seq: A,
        base: &str,
        parsed: &mut Parsed,
    ) -> std::result::Result<(), A::Error> {
        while let Some(entry) = seq.next_element::<Value>()? {
            let at = format!("{base}[{}]", parsed.rows.len());
            let kind = *parsed
                .kind
                .get_or_insert(if entry.get("turnIndex").is_some() {
                    Workload::Session
                } else {
                    Workload::Static
                });
            let row = match kind {
                Workload::Static => crate::io::parse_value(self.path, &at, entry).map(case_row),
                Workload::Session => crate::io::parse_value(self.path, &at, entry).map(turn_row),
            };
            parsed.rows.push(self.keep(row)?);
        }
        Ok(())
    }
}

impl<'de> Visitor<'de> for Top<'_> {
    type Value = Parsed;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a report: an object with `cases` or an array of entries")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<Parsed, A::Error> {
        let mut parsed = Parsed {
            array: true,
            ..Parsed::default()
        };
        self.entries(seq, "$", &mut parsed)?;
        Ok(parsed)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Parsed, A::Error> {
        let mut parsed = Parsed::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "provider" => parsed.provider = map.next_value()?,
                "retrieval" => parsed.summary = map.next_value::<Option<Value>>()?,
                "manifest" => parsed.manifest = map.next_value::<Option<Value>>()?,
                "tool" => parsed.tool = map.next_value::<Value>()?.as_str().map(String::from),
                "ingestion" => {
                    let block = map.next_value::<Option<Value>>()?;
                    if let Some(v) = &block {
                        let checked = crate::io::parse_value::<IngestionBlock>(
                            self.path,
                            "$.ingestion",
                            v.clone(),
                        );
                        self.keep(checked)?;
                    }
                    parsed.ingestion = block;
                }
                "cases" => {
                    parsed.has_cases = true;
                    map.next_value_seed(Cases {
                        top: &self,
                        parsed: &mut parsed,
                    })?;
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(parsed)
    }
}

/// The `cases` list of the object layout.
struct Cases<'t, 'a> {
    top: &'t Top<'a>,
    parsed: &'t mut Parsed,
}

impl<'de> DeserializeSeed<'de> for Cases<'_, '_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Cases<'_, '_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an array of case or turn entries")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> std::result::Result<(), A::Error> {
        self.top.entries(seq, "$.cases", self.parsed)
    }
}

/// The error for a file that is neither layout.
pub(in crate::report) fn not_a_report(path: &Path) -> Error {
    Error::input(
        path,
        "$",
        "expected a report: an object with `cases` or an array of entries",
    )
}
