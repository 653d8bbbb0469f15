//! File I/O every layer shares: reading input files, parsing JSON with errors that name the
//! file and the JSON path (or line and column), atomic writes, sha256. A leaf: it imports
//! nothing of the crate but its error type.

mod atomic;
mod paths;
mod strict;
mod unique;

pub(crate) use paths::{is_stdin, same_file};

pub use atomic::{create_folder, remove_in_flight, write_atomic, write_atomic_with, FolderLock};

use crate::error::{Error, Result};
use serde::de::DeserializeOwned;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::path::Path;

/// A writer that passes bytes on and hashes them (sha256) as they go.
pub(crate) struct Hashing<'w> {
    inner: &'w mut dyn std::io::Write,
    hasher: Sha256,
}

impl<'w> Hashing<'w> {
    /// Hash what goes to `inner`.
    pub(crate) fn new(inner: &'w mut dyn std::io::Write) -> Hashing<'w> {
        Hashing {
            inner,
            hasher: Sha256::new(),
        }
    }

    /// Hex sha256 of everything written so far.
    pub(crate) fn hex(&self) -> String {
        format!("{:x}", self.hasher.clone().finalize())
    }
}

impl std::io::Write for Hashing<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.hasher.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// Hex sha256 of `bytes`.
pub fn sha256_hex(bytes: &[u8]) -> String {
    format!("{:x}", Sha256::digest(bytes))
}

/// Read a whole input file: a regular file, a pipe (`<(jq ...)`, read to its end as every Unix
/// tool does), or standard input (`-`, `/dev/stdin`), which can be read once per process. Only
/// what cannot be read is refused: a folder, a missing or unreadable file (input errors).
pub(crate) fn read_bytes(path: &Path) -> Result<Vec<u8>> {
    read_bytes_as(path, kind(path))
}

/// [`read_bytes`] of a file whose kind the caller knows (`TREC run file`), as messages name
/// it: a TREC run's name rarely says (`run.trec-covid.bm25`), and was called a JSON file.
pub(crate) fn read_bytes_as(path: &Path, what: &str) -> Result<Vec<u8>> {
    if is_stdin(path) {
        return read_stdin(path);
    }
    if std::fs::metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(Error::input(
            path,
            "file",
            format!("cannot read file: it is a folder; expected a readable {what}"),
        ));
    }
    std::fs::read(path).map_err(|e| read_error_as(path, &e, what))
}

/// Read a file a report recorded (`verify`): only a regular file, since a FIFO recorded then
/// may block forever now and a device never end.
pub(crate) fn read_regular_file(path: &Path) -> Result<Vec<u8>> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(Error::input(
            path,
            "file",
            "cannot read file: not a regular file (a folder, a FIFO or a device)",
        )),
        _ => std::fs::read(path).map_err(|e| read_error(path, &e)),
    }
}

fn read_error(path: &Path, e: &std::io::Error) -> Error {
    read_error_as(path, e, kind(path))
}

fn read_error_as(path: &Path, e: &std::io::Error, kind: &str) -> Error {
    let what = match e.kind() {
        std::io::ErrorKind::NotFound => "file not found".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => format!("cannot read file: {e}"),
    };
    Error::input(path, "file", format!("{what}; expected a readable {kind}"))
}

/// What a file of this name is expected to be, for messages: by its extension (the project's
/// inputs are JSON, JSON Lines and TSV; anything else is a JSON file).
fn kind(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()) {
        Some("tsv") => "TSV file",
        Some("jsonl") => "JSON Lines file",
        Some("toml") => "TOML file",
        // A test collection's files (`--qrels`, `--topics`) and TREC runs under their usual
        // names; a caller that knows a file's kind says it ([`read_bytes_as`]).
        Some("qrels") => "TREC qrels file",
        Some("run" | "trec") => "TREC run file",
        Some("txt") => "text file",
        _ => "JSON file",
    }
}

static STDIN_READ: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn read_stdin(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    if STDIN_READ.swap(true, std::sync::atomic::Ordering::SeqCst) {
        return Err(Error::input(
            path,
            "file",
            "standard input was read already for another input; give one input at a time \
             from stdin (others as files or <(...))",
        ));
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .read_to_end(&mut bytes)
        .map_err(|e| read_error(path, &e))?;
    Ok(bytes)
}

/// The JSON lines of `text` (read from `path`) as `T`s, blank lines skipped; a line that is not
/// one is an input error naming the file and the line, and saying it expected `what`.
pub(crate) fn json_lines<T: DeserializeOwned>(
    path: &Path,
    text: &str,
    what: &str,
) -> Result<Vec<T>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            // Through [`strict::Strict`], as a JSON file is read: a line written as an array
            // (`["q2", "dogs night"]`) was read by position (a seventeenth audit).
            let mut de = serde_json::Deserializer::from_str(l);
            T::deserialize(strict::Strict(&mut de))
                .and_then(|value| de.end().map(|()| value))
                .map_err(|e| {
                    Error::input(
                        path,
                        format!("line {}", n + 1),
                        format!("expected {what}: {e}"),
                    )
                })
        })
        .collect()
}

/// `bytes`, the contents of `path`, as a JSON tree in which every object held each key once
/// ([`unique`]): what a benchmark's loader reads before checking the file's shape.
pub(crate) fn parse_json_tree(path: &Path, bytes: &[u8]) -> Result<Value> {
    parse_json::<unique::Unique>(path, bytes).map(|u| u.0)
}

/// Decode and deserialize `bytes`, the contents of `path`.
pub(crate) fn parse_json<T: DeserializeOwned>(path: &Path, bytes: &[u8]) -> Result<T> {
    parse_json_seed(path, bytes, std::marker::PhantomData::<T>)
}

/// [`parse_json`] through a seed: for a reader that turns parts of the file into something
/// smaller as it goes (a report's entries into rows) instead of holding the whole tree.
pub(crate) fn parse_json_seed<'de, S: serde::de::DeserializeSeed<'de>>(
    path: &Path,
    bytes: &'de [u8],
    seed: S,
) -> Result<S::Value> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let (line, column) = line_column(&bytes[..at]);
        Error::input(
            path,
            format!("byte {at} (line {line}, column {column})"),
            "invalid UTF-8; expected a UTF-8 encoded JSON file",
        )
    })?;
    let mut de = serde_json::Deserializer::from_str(text);
    let mut track = serde_path_to_error::Track::new();
    let value = seed
        .deserialize(serde_path_to_error::Deserializer::new(
            strict::Strict(&mut de),
            &mut track,
        ))
        .map_err(|e| json_error(path, text, serde_path_to_error::Error::new(track.path(), e)))?;
    de.end().map_err(|e| json_error_plain(path, e))?;
    Ok(value)
}

/// Deserialize `value`, a part of `path` found at JSON path `at`, naming the JSON path of
/// what does not fit (and, as [`parse_json`], refusing arrays where structs belong).
pub(crate) fn parse_value<T: DeserializeOwned>(path: &Path, at: &str, value: Value) -> Result<T> {
    serde_path_to_error::deserialize(strict::Strict(value)).map_err(|e| {
        let inner = json_path(&e.path().to_string());
        let location = match inner.strip_prefix('$') {
            Some(rest) if at != "$" => format!("{at}{rest}"),
            _ => inner.clone(),
        };
        Error::input(path, location, e.into_inner().to_string())
    })
}

fn json_error(path: &Path, text: &str, e: serde_path_to_error::Error<serde_json::Error>) -> Error {
    let json_path = json_path(&e.path().to_string());
    let inner = e.into_inner();
    let well_formed = || serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok();
    // serde_json reports some type mismatches (a number where a string enum belongs) as
    // syntax errors; in a well-formed file they are wrong types, and the path says where.
    let message = if !(inner.is_syntax() || inner.is_eof()) {
        strip_position(&inner)
    } else if inner.to_string().starts_with("trailing characters") && well_formed() {
        // serde_json's word for an array longer than the tuple it fills.
        "too many elements; expected an array of fixed length (a pair is [first, second])".into()
    } else if well_formed() {
        format!(
            "a value of the wrong type ({}): the JSON is well-formed, but this is not what \
             belongs here",
            strip_position(&inner)
        )
    } else {
        return json_error_plain(path, inner);
    };
    Error::input(
        path,
        format!(
            "{json_path} (line {}, column {})",
            inner.line(),
            inner.column()
        ),
        message,
    )
}

fn json_error_plain(path: &Path, inner: serde_json::Error) -> Error {
    Error::input(
        path,
        format!("line {}, column {}", inner.line(), inner.column()),
        format!("malformed JSON: {}", strip_position(&inner)),
    )
}

/// serde_json appends " at line L column C"; the location is reported separately.
fn strip_position(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    text.strip_suffix(&suffix).unwrap_or(&text).to_string()
}

/// `serde_path_to_error` paths (`[3].expect`, `.`) as JSONPath (`$[3].expect`, `$`).
pub(crate) fn json_path(raw: &str) -> String {
    match raw {
        "" | "." => "$".to_string(),
        p if p.starts_with('[') => format!("${p}"),
        p => format!("$.{p}"),
    }
}

fn line_column(prefix: &[u8]) -> (usize, usize) {
    let line = prefix.iter().filter(|&&b| b == b'\n').count() + 1;
    let column = prefix.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
    (line, column)
}

/// The shape a float32 `.npy` file declares, checked against the file's length before anyone
/// allocates for it: a header claiming (2^40, 8) must be an input error, not an abort.
/// Written here because ndarray-npy allocates what the header says before reading the data.
pub(crate) fn npy_shape(path: &Path, bytes: &[u8]) -> Result<(usize, usize)> {
    let bad = |message: String| Error::input(path, "header", message);
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        return Err(bad("not a .npy file (no \\x93NUMPY magic)".into()));
    }
    let (header_len, start): (usize, usize) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => (
            u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize,
            12,
        ),
        v => return Err(bad(format!("unsupported .npy version {v}"))),
    };
    let header = bytes
        .get(start..start.saturating_add(header_len))
        .and_then(|h| std::str::from_utf8(h).ok())
        .ok_or_else(|| bad(format!("header of {header_len} bytes runs past the end")))?;
    if !header.contains("'<f4'") {
        return Err(bad(format!(
            "expected little-endian float32 ('<f4'): {}",
            header.trim()
        )));
    }
    let shape = header
        .split("'shape':")
        .nth(1)
        .and_then(|s| s.split(')').next())
        .map(|s| s.trim().trim_start_matches('('))
        .ok_or_else(|| bad(format!("no shape in the header: {}", header.trim())))?;
    let dims: Vec<usize> = shape
        .split(',')
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(|d| {
            d.parse()
                .map_err(|_| bad(format!("shape ({shape}) is not numbers")))
        })
        .collect::<Result<_>>()?;
    let [rows, cols] = dims[..] else {
        return Err(bad(format!("shape ({shape}), expected 2 dimensions")));
    };
    let data = bytes.len() - start - header_len;
    let needed = rows.checked_mul(cols).and_then(|n| n.checked_mul(4));
    if needed != Some(data) {
        return Err(bad(format!(
            "shape ({rows}, {cols}) needs {} bytes of float32 data; the file has {data}",
            needed.map_or_else(|| "more than 2^64".to_string(), |n| n.to_string())
        )));
    }
    Ok((rows, cols))
}

/// A name read from a file that will become part of a path (a store's model name, an
/// embedder's name): one plain path component, so it can never place a file elsewhere.
pub(crate) fn check_file_name(file: &Path, json_path: &str, name: &str) -> Result<()> {
    let bad = name.is_empty()
        || name == "."
        || name == ".."
        || name.contains(['/', '\\'])
        || name.chars().any(char::is_control);
    if bad {
        return Err(Error::input(
            file,
            json_path,
            format!(
                "{name:?} is not a usable name: it becomes a file or folder name, so it must be \
                 one plain path component (no '/', '\\\\', '..' or control characters)"
            ),
        ));
    }
    Ok(())
}

/// Can `name` be one field of a TREC file (the run tag, a query or document id)? TREC files
/// separate fields by whitespace, so an empty name or one holding whitespace cannot.
pub(crate) fn is_trec_field(name: &str) -> bool {
    !name.is_empty() && !name.contains(char::is_whitespace)
}

/// A system's name (`--name`), checked where it is given: it names report files and is the
/// TREC run tag, so it is one plain path component and one TREC field.
pub(crate) fn check_system_name(flag: &str, name: &str) -> Result<()> {
    check_file_name(Path::new(flag), "$", name)?;
    if !is_trec_field(name) {
        return Err(Error::Usage(format!(
            "{flag} {name:?} holds whitespace; it is the TREC run tag of the reports, and TREC \
             files separate fields by whitespace: use '-' or '_' instead (e.g. {:?})",
            name.split_whitespace().collect::<Vec<_>>().join("-")
        )));
    }
    Ok(())
}

/// Structural JSON equality where numbers compare by value (`1` equals `1.0`).
pub fn same_json(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(_), Value::Number(_)) => {
            (a.as_f64().unwrap_or(f64::NAN) - b.as_f64().unwrap_or(f64::NAN)).abs() < 1e-9
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_json(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}
