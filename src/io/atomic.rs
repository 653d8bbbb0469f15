//! Atomic writes that leave nothing behind: a temporary file in the target's folder, renamed
//! over the target. The temporary file's name carries the writer's process id
//! (`.tenure-eval-PID-XXXXXX.tmp`), is registered while it exists, and is removed on SIGINT,
//! SIGTERM or SIGHUP ([`remove_in_flight`], called by the CLI's signal handler). A kill -9
//! cannot be caught: the next write into the same folder sweeps temporary files whose process
//! is gone. Writers into one folder can take turns with [`FolderLock`].

use crate::error::{Error, Result};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files being written now.
static IN_FLIGHT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

const PREFIX: &str = ".tenure-eval-";
const SUFFIX: &str = ".tmp";

/// Remove every temporary file this process is writing (for a signal handler: the process is
/// about to exit). Returns how many were removed.
pub fn remove_in_flight() -> usize {
    let Ok(files) = IN_FLIGHT.lock() else {
        return 0;
    };
    files
        .iter()
        .filter(|f| std::fs::remove_file(f).is_ok())
        .count()
}

/// Write `bytes` to `path` through a temporary file in the same folder, then rename. A path
/// that is a device, a FIFO or a link (`/dev/null`, `/dev/stdout`) is written through instead:
/// renaming onto it would replace the device node (as root) or the link with a plain file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_atomic_with(path, |out| out.write_all(bytes))
}

/// [`write_atomic`] for output written piece by piece (a report streamed case by case, a large
/// export): `write` writes into a buffered writer; the target appears, whole, only when it has
/// returned `Ok`, and nothing is left behind when it fails.
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>,
) -> Result<()> {
    let fail = |source| Error::Output {
        path: path.to_path_buf(),
        source,
    };
    if let Ok(link) = std::fs::symlink_metadata(path) {
        if link.is_dir() {
            return Err(fail(std::io::Error::other(
                "it is a folder; expected a file path",
            )));
        }
        if !link.is_file() {
            let regular = std::fs::metadata(path).is_ok_and(|m| m.is_file());
            let file = std::fs::OpenOptions::new()
                .write(true)
                .truncate(regular)
                .open(path)
                .map_err(fail)?;
            let mut out = std::io::BufWriter::new(file);
            return write(&mut out).and_then(|()| out.flush()).map_err(fail);
        }
    }
    let dir = folder_of(path);
    create_folder(dir).map_err(fail)?;
    sweep(dir);
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!("{PREFIX}{}-", std::process::id()))
        .suffix(SUFFIX)
        .tempfile_in(dir)
        .map_err(fail)?;
    let registered = tmp.path().to_path_buf();
    register(&registered, true);
    let outcome = (|| {
        let mut out = std::io::BufWriter::new(&mut tmp);
        write(&mut out)?;
        out.flush()?;
        drop(out);
        // tempfile creates 0600; a report is an ordinary file.
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            tmp.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))?;
        }
        tmp.as_file().sync_all()?;
        fault_delay();
        tmp.persist(path).map(drop).map_err(|e| e.error)
    })();
    register(&registered, false);
    outcome.map_err(fail)
}

/// Fault injection for the tests of signals and kills: `TENURE_EVAL_FAULT_WRITE_DELAY_MS`
/// holds every write between its temporary file and the rename, so that a test can signal
/// the process at that point, deterministically. Unset, it costs one lookup per process.
fn fault_delay() {
    static DELAY: std::sync::OnceLock<Option<u64>> = std::sync::OnceLock::new();
    let delay = DELAY.get_or_init(|| {
        std::env::var("TENURE_EVAL_FAULT_WRITE_DELAY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
    });
    if let Some(ms) = delay {
        std::thread::sleep(std::time::Duration::from_millis(*ms));
    }
}

/// `create_dir_all`, saying which part of the path is a file where a folder belongs (the OS
/// says only "File exists" or "Not a directory").
pub fn create_folder(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| {
        let file = dir
            .ancestors()
            .find(|a| std::fs::metadata(a).is_ok_and(|m| !m.is_dir()));
        match file {
            Some(file) => std::io::Error::other(format!(
                "{} is a file; expected a folder there",
                file.display()
            )),
            None => e,
        }
    })
}

fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

fn register(file: &Path, add: bool) {
    if let Ok(mut files) = IN_FLIGHT.lock() {
        if add {
            files.push(file.to_path_buf());
        } else {
            files.retain(|f| f != file);
        }
    }
}

/// Remove temporary files in `dir` left by processes that no longer run (killed with -9, or
/// a power cut). Another live run's files are left alone. Where a process's liveness cannot be
/// told (no `/proc`), only files older than a day are removed.
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX)?.strip_suffix(SUFFIX))
            .and_then(|rest| rest.split('-').next()?.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !alive(pid, &entry) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

fn alive(pid: u32, entry: &std::fs::DirEntry) -> bool {
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        return proc.join(pid.to_string()).exists();
    }
    let day = std::time::Duration::from_secs(24 * 3600);
    entry
        .metadata()
        .and_then(|m| m.modified())
        .map(|t| t.elapsed().unwrap_or_default() < day)
        .unwrap_or(true)
}

/// A turn at writing into a folder, held until dropped: another run writing into the same
/// folder waits for it. On Unix the lock is on the folder itself (flock on its descriptor),
/// so nothing is left in it; elsewhere on a `.tenure-eval.lock` file in it.
pub struct FolderLock {
    _file: std::fs::File,
}

impl FolderLock {
    /// Wait for and take the lock of the folder `path` is written into.
    pub(crate) fn take(path: &Path) -> Result<FolderLock> {
        let dir = folder_of(path);
        let fail = |source| Error::Output {
            path: dir.to_path_buf(),
            source,
        };
        create_folder(dir).map_err(fail)?;
        #[cfg(unix)]
        let file = std::fs::File::open(dir).map_err(fail)?;
        #[cfg(not(unix))]
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(".tenure-eval.lock"))
            .map_err(fail)?;
        file.lock().map_err(fail)?;
        Ok(FolderLock { _file: file })
    }
}
