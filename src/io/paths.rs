//! What a path names: standard input, or the same file as another path (for the checks that
//! an output never replaces an input: a file not written yet compared by its folder,
//! resolved, and its name).

use std::path::Path;

/// Whether two paths name one file: both resolved where they exist (links followed), else
/// made absolute against the current folder.
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    // A file not written yet: its folder resolved (`..` and links), its name joined.
    let key = |p: &Path| {
        std::fs::canonicalize(p)
            .or_else(|_| {
                let name = p.file_name().ok_or(std::io::ErrorKind::InvalidInput)?;
                let parent = p.parent().filter(|d| !d.as_os_str().is_empty());
                std::fs::canonicalize(parent.unwrap_or(Path::new("."))).map(|d| d.join(name))
            })
            .or_else(|_| std::path::absolute(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    key(a) == key(b)
}

/// `-`, `/dev/stdin` or `/dev/fd/0`: standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    ["-", "/dev/stdin", "/dev/fd/0"]
        .iter()
        .any(|s| path == Path::new(s))
}
