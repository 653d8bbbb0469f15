//! `verify`: a report is what its rows and inputs say it is. Every aggregate is recomputed from
//! the per-case rows (`LoadedReport::disagreements`: summary and categories), every row's
//! `passed` must match its failures, a turn's `precisionDriftScore` its precision and its
//! `driftScore` its lists or precision (by its writer's rule), and every
//! input file named by the manifest must still have the recorded sha256.

use crate::error::Result;
use crate::io::sha256_hex;
use crate::report::LoadedReport;
use crate::suite::BuiltinSuite;
use serde_json::Value;
use std::path::Path;

/// Every mismatch found in the report at `path` (empty: verified). With `inputs` false, only
/// the report itself is checked (its aggregates and rows), not the input files its manifest
/// names: what a published report without a manifest can be checked for.
pub fn verify(path: &Path, inputs: bool, data: Option<&Path>) -> Result<Vec<String>> {
    let bytes = crate::io::read_bytes(path)?;
    let parsed = crate::report::read::parse::parse(path, &bytes)?;
    // Only a sidecar manifest records its report's sha256: a report with its manifest inline
    // is not hashed (a streamed report can be 100 MB).
    let actual = parsed.manifest.is_none().then(|| sha256_hex(&bytes));
    drop(bytes);
    let ingestion = parsed.ingestion.clone();
    let report = LoadedReport::from_parsed(path, parsed)?;
    report.whole_run()?;
    let pairing = actual.and_then(|a| sidecar_pairing(&report, &a));
    let mut problems = report.disagreements();
    problems.extend(row_problems(&report));
    if let Some(ingestion) = ingestion {
        let total = ingestion.get("totalMs").and_then(Value::as_f64);
        let count = ingestion.get("beliefCount").and_then(Value::as_f64);
        let mean = ingestion.get("meanPerBeliefMs").and_then(Value::as_f64);
        if let (Some(t), Some(c), Some(m)) = (total, count, mean) {
            let expected = crate::js::round2(t / c.max(1.0));
            if (expected - m).abs() > 1e-9 {
                problems.push(format!("{}: ingestion.meanPerBeliefMs is {m} but totalMs / beliefCount gives {expected}", path.display()));
            }
        }
    }
    problems.extend(pairing);
    if !inputs {
        return Ok(problems);
    }
    let manifest = &report.manifest;
    if let Some(settings) = manifest.as_ref().and_then(|m| m.backend_settings.as_ref()) {
        problems.extend(stores(path, settings, data)?);
    }
    match manifest.as_ref().and_then(|m| m.inputs.as_ref()) {
        None => problems.push(format!(
            "{}: no manifest with input hashes to check",
            path.display()
        )),
        // Every run reads a file (a built-in suite's, compiled in, included): an empty list is
        // a manifest whose inputs were taken out, and nothing would be checked.
        Some(inputs) if inputs.is_empty() => problems.push(format!(
            "{}: manifest.inputs is empty; every run records the files it read",
            path.display()
        )),
        Some(inputs) => {
            for (i, input) in inputs.iter().enumerate() {
                let (Some(file), Some(recorded)) = (input.path.as_deref(), input.sha256.as_deref())
                else {
                    problems.push(format!(
                        "{}: manifest input without path or sha256: {}",
                        path.display(),
                        serde_json::json!({"path": input.path, "sha256": input.sha256})
                    ));
                    continue;
                };
                // A file not found is no mismatch: BEAM's and the Temporal Memory Dataset's
                // inputs are recorded relative to their --data folder, a path typed relative
                // to where the run was made, and `verify` from elsewhere called every fresh
                // report a mismatch (exit 1, a tenth audit). The user says where they are
                // (`--inputs-from DIR`: there only).
                let at =
                    data.map_or_else(|| file.to_string(), |d| d.join(file).display().to_string());
                match input_bytes(&at) {
                    None => {
                        let whence = if data.is_some() {
                            ""
                        } else {
                            " (from this folder)"
                        };
                        return Err(crate::error::Error::input(
                            path,
                            format!("$.manifest.inputs[{i}].path"),
                            format!(
                                "{at}{whence} cannot be read to check its sha256: give \
                                 --inputs-from DIR, the folder the recorded paths are relative \
                                 to (the run's --data folder for BEAM and the Temporal Memory \
                                 Dataset, the folder the run was made in otherwise), or \
                                 --no-inputs"
                            ),
                        ));
                    }
                    Some(bytes) if sha256_hex(&bytes) != recorded => problems.push(format!(
                        "{}: input {file} has sha256 {}, the manifest records {recorded}",
                        path.display(),
                        sha256_hex(&bytes)
                    )),
                    Some(_) => {}
                }
            }
        }
    }
    Ok(problems)
}

/// The rows' own contradictions: a row's `passed` against its failures, a turn's drift against
/// its precision or lists. What `verify` checks of every row, and every reader of reports says
/// (`cli::load_reports`: a row edited to pass, or a drift set to 0, was shown as measured).
pub(crate) fn row_problems(report: &LoadedReport) -> Vec<String> {
    let (path, parsed_array) = (report.path.as_path(), report.bare_array);
    let list = if parsed_array { "$" } else { "$.cases" };
    let mut problems = Vec::new();
    for (i, row) in report.rows.iter().enumerate() {
        // A case the backend failed on has no failures and did not pass.
        let n = row.failures.len();
        if row.passed != (n == 0 && !row.errored) {
            problems.push(format!(
                "{}: {list}[{i}].passed is {} but it lists {n} failures",
                path.display(),
                row.passed
            ));
        }
        // PrecisionMemBench's drift is 1 − precision, 0 where precision is null
        // (`eval::metrics::TurnMetrics`): one beside a null precision was not checked before.
        // The paper's layout writes no turn precision to check it against (a review found
        // every turn of such a report called a mismatch).
        if let Some(stated) = row.precision_drift.filter(|_| !parsed_array) {
            let rows = row.precision.map_or(0.0, |p| 1.0 - p);
            if (stated - rows).abs() > 1e-12 {
                let precision = row.precision.map_or("null".to_string(), |p| p.to_string());
                problems.push(format!(
                    "{}: {list}[{i}].precisionDriftScore is {stated} but its \
                     retrievalPrecision {precision} gives {rows} (1 − precision; 0 when null)",
                    path.display()
                ));
            }
        }
    }
    problems.extend(drift_disagreements(report, path, list, parsed_array));
    problems
}

/// Every turn whose `driftScore` is not what its own row gives. The field means what its writer
/// meant: the paper's noise share (noise over relevant + pinned) in the paper's layout and in
/// every report of ours, which writes PrecisionMemBench's 1 − precision beside it as
/// `precisionDriftScore`; PrecisionMemBench's 1 − precision, 0 where precision is null, in its
/// own reports, which have no `precisionDriftScore` (`LoadedReport::mean_precision_drift` reads
/// it so). Figure 2 and the tables read it: a hand-edited drift passed `verify` before.
fn drift_disagreements(report: &LoadedReport, path: &Path, list: &str, array: bool) -> Vec<String> {
    let mut problems = Vec::new();
    for (i, row) in report.rows.iter().enumerate() {
        let Some(stated) = row.drift else { continue };
        let (expected, rule) = if array || row.precision_drift.is_some() {
            (
                row.noise_drift,
                "the noise share of its lists (noise over relevant + pinned)",
            )
        } else {
            let gives = row.precision.map_or(0.0, |p| 1.0 - p);
            (Some(gives), "1 − its retrievalPrecision (0 when null)")
        };
        if let Some(expected) = expected.filter(|e| (stated - e).abs() > 1e-9) {
            problems.push(format!(
                "{}: {list}[{i}].driftScore is {stated} but {rule} gives {expected}",
                path.display()
            ));
        }
    }
    problems
}

/// Every embedding store the backend's settings name (a fusion's children's too) whose vectors
/// all came from it (a `store` that is a folder, not "computed in memory …"): its vectors'
/// sha256 must still be the recorded `storeSha256` (a fourteenth audit: a report verified after
/// its store was deleted or its vectors edited, and the store decides every cosine number). A
/// store that cannot be read is exit 2, as an input is.
fn stores(path: &Path, settings: &Value, data: Option<&Path>) -> Result<Vec<String>> {
    let mut problems = Vec::new();
    let mut stack = vec![settings];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(map) => {
                if let (Some(Value::String(origin)), Some(Value::String(recorded))) =
                    (map.get("store"), map.get("storeSha256"))
                {
                    if let Some(store) = crate::embed::vectors::stored_folder(origin) {
                        let folder = data.map_or_else(|| store.into(), |d| d.join(store));
                        let loaded = crate::embed::EmbeddingStore::load(&folder).map_err(|e| {
                            crate::error::Error::input(
                                path,
                                "$.manifest.backendSettings.store",
                                format!(
                                    "the embedding store {} cannot be read to check its \
                                     vectors' sha256 ({e}): give --inputs-from DIR, or \
                                     --no-inputs",
                                    folder.display()
                                ),
                            )
                        })?;
                        let now = loaded.fingerprint();
                        if &now != recorded {
                            problems.push(format!(
                                "{}: the embedding store {} has vectors of sha256 {now}, the \
                                 manifest records {recorded}",
                                path.display(),
                                folder.display()
                            ));
                        }
                    }
                }
                stack.extend(map.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    Ok(problems)
}

/// An input file's bytes: on disk, or compiled in for a built-in suite path.
fn input_bytes(file: &str) -> Option<Vec<u8>> {
    crate::io::read_regular_file(std::path::Path::new(file))
        .ok()
        .or_else(|| {
            BuiltinSuite::all_copies()
                .flat_map(|s| s.files())
                .find(|f| f.path == file)
                .map(|f| f.bytes.to_vec())
        })
}

/// A sidecar manifest that records its report's sha256 must record this report's: otherwise
/// the pair was torn (a kill between the two renames) or mixed by another run.
/// `actual`: the sha256 of the report's bytes.
fn sidecar_pairing(report: &LoadedReport, actual: &str) -> Option<String> {
    let recorded = report
        .manifest
        .as_ref()?
        .report
        .as_ref()?
        .sha256
        .as_deref()?;
    (recorded != actual).then(|| {
        format!(
            "{}: the report has sha256 {actual}, its manifest {} records {recorded}: the pair \
             comes from two different writes (an interrupted run, or two runs into one folder)",
            report.path.display(),
            report.path.with_extension("manifest.json").display()
        )
    })
}
