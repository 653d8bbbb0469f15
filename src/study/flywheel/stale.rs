//! A study written into a folder an earlier study wrote: the earlier study's files this one
//! does not write are removed, so no stale output sits beside the new manifest.

use crate::error::{Error, Result};

/// Remove the study's files an earlier study left in `dir` and this one did not write
/// (`files`): an audit found seed 7's `vector.json` beside seed 9's manifest.
pub(super) fn remove_stale(dir: &std::path::Path, files: &[String]) -> Result<()> {
    let ours = |name: &str| {
        (name.starts_with("sessions-") && name.ends_with(".json"))
            || ["vector.json", "sensitivity.json"].contains(&name)
    };
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Output {
        path: dir.to_path_buf(),
        source,
    })?;
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if ours(&name) && !files.contains(&name) {
            std::fs::remove_file(entry.path()).map_err(|source| Error::Output {
                path: entry.path(),
                source,
            })?;
        }
    }
    Ok(())
}
