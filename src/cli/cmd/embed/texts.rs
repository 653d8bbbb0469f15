//! `embed --export-texts` and `embed --import-vectors`: the round trip for vectors computed
//! elsewhere. The export lists every text a suite needs under the model's text policies, one
//! `{"text", "role", "policy"}` per line (the import format without the vector); the import
//! says afterwards how many needed texts still have no vector, and which command lists them.

use super::{note, EmbedArgs};
use crate::backend::cosine::IndexKind;
use crate::embed::needed::{export_lines, suite_flags};
use crate::embed::places::Places;
use crate::embed::source::missing;
use crate::embed::{needed_texts, EmbeddingStore};
use crate::suite::Suite;
use crate::{Error, Result};
use std::path::Path;
use std::process::ExitCode;

/// `embed --export-texts`: JSON Lines to `--out` (or stdout).
pub(crate) fn export(args: &EmbedArgs, suites: &[Suite]) -> Result<ExitCode> {
    let config = &args.cosine.configs(&args.remote, IndexKind::Exact)[0];
    let places = Places::new(args.cosine.store_dir.as_deref());
    let store = match (args.missing, args.cosine.model.as_slice()) {
        (false, _) => None,
        (true, [_]) => {
            let name = config.source().lookup_name()?;
            Some(places.find(&name)?.ok_or_else(|| {
                Error::Usage(format!(
                    "--missing: no store {name}; looked at {}",
                    places.looked_at(&name)
                ))
            })?)
        }
        (true, _) => {
            return Err(Error::Usage(
                "--missing needs one --model NAME (the store whose missing texts to list)".into(),
            ))
        }
    };
    let lines = export_lines(suites, &|s| config.policy(s.profile), store.as_ref());
    let mut body = String::new();
    for line in &lines {
        body.push_str(&line.to_string());
        body.push('\n');
    }
    match &args.out {
        Some(out) if out != Path::new("-") => {
            crate::io::write_atomic(out, body.as_bytes())?;
            let names: Vec<&str> = suites.iter().map(|s| s.name.as_str()).collect();
            note(
                args.quiet,
                format!(
                    "wrote {} texts ({}) to {}",
                    lines.len(),
                    names.join(", "),
                    out.display()
                ),
            );
        }
        _ => {
            use std::io::Write;
            std::io::stdout()
                .lock()
                .write_all(body.as_bytes())
                .map_err(|source| Error::Output {
                    path: "stdout".into(),
                    source,
                })?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// `embed --import-vectors FILE --model NAME`: add the vectors, write the store, say what was
/// added and, per suite, how many needed texts still have no vector.
pub(crate) fn import(args: &EmbedArgs, suites: &[Suite], file: &Path) -> Result<ExitCode> {
    use crate::embed::import::{import, read};
    let [name] = args.cosine.model.as_slice() else {
        return Err(Error::Usage(
            "--import-vectors needs one --model NAME (the store to fill)".into(),
        ));
    };
    let config = &args.cosine.configs(&args.remote, IndexKind::Exact)[0];
    let read = read(file, args.texts.as_deref())?;
    let policy = config.policy(suites[suites.len() - 1].profile);
    for n in &read.notes {
        note(args.quiet, format!("note: {n}"));
    }
    let places = Places::new(args.cosine.store_dir.as_deref());
    let existing = places.find(name)?;
    let before = existing.as_ref().map_or(0, EmbeddingStore::len);
    let source =
        (args.source.clone()).unwrap_or_else(|| format!("imported from {}", file.display()));
    let untagged = (read.records.iter())
        .find(|(r, _, _)| r.policy.is_none())
        .map(|(_, _, at)| at.clone());
    // Every record is checked (a bad vector names its line) before the policies are.
    let imported = import(read.records, name, &source, policy, existing, args.refresh)?;
    // A record without a policy takes its suite's; with several suites of different policies
    // it took the last one's, and a paper store was filed where the paper never looks (a ninth
    // audit).
    let mut policies: Vec<String> = suites
        .iter()
        .map(|s| config.policy(s.profile).label())
        .collect();
    policies.sort();
    policies.dedup();
    if let Some(at) = &untagged {
        if policies.len() > 1 {
            // `at` names the file too (the import's own messages are whole sentences).
            let line = at
                .strip_prefix(&format!("{} ", file.display()))
                .unwrap_or(at);
            return Err(Error::input(
                file,
                line,
                format!(
                    "no \"policy\", and the suites given embed under {} policies ({}): give \
                     --suite (the suite these texts are of) or a policy on each record",
                    policies.len(),
                    policies.join(", ")
                ),
            ));
        }
    }
    super::save_imported(&imported, file, &places.folder(name), before, args.quiet)?;
    let store = imported.0;
    for suite in suites {
        let policy = config.policy(suite.profile);
        let texts = needed_texts(suite, policy);
        let (needed, lacking) = (texts.len(), missing(&store, policy, &texts).len());
        let store_dir = match &args.cosine.store_dir {
            Some(d) => format!(" --store-dir {}", d.display()),
            None => String::new(),
        };
        // pmb has two copies (its own repository's and the harness's), whose lines read
        // "suite pmb" twice with different counts: the copy tells them apart.
        let copy = match suite.copy {
            Some(copy) if suites.iter().filter(|s| s.name == suite.name).count() > 1 => {
                format!(", {copy}")
            }
            _ => String::new(),
        };
        note(
            args.quiet,
            format!(
                "suite {} ({}{copy}): {lacking} of its {needed} needed texts still have no \
                 vector{}",
                suite.label(),
                policy.label(),
                if lacking == 0 {
                    String::new()
                } else {
                    format!(
                        "; `tenure-eval embed --export-texts --missing {} --model {name}{store_dir} \
                         --out missing.jsonl` lists them",
                        suite_flags(suite)
                    )
                }
            ),
        );
    }
    Ok(ExitCode::SUCCESS)
}
