//! `embed`'s plan through the library (`job::embed::FillPlan`): the store it writes is the
//! command line's, byte for byte, and what it says each suite did adds up.

use crate::common::tenure_eval_ok;
use tenure_eval::backend::cosine::CosineConfig;
use tenure_eval::job::embed::{FillEvent, FillPlan};
use tenure_eval::suite::{Suite, SuiteSource};

/// Every file under `dir`, by its path relative to `dir`, with its bytes.
fn files(dir: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    let mut out = std::collections::BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let name = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(name, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

#[test]
fn the_library_plan_writes_the_store_the_command_line_writes() {
    let work = tempfile::tempdir().unwrap();
    let (cli, lib) = (work.path().join("cli"), work.path().join("lib"));
    tenure_eval_ok(
        &[
            "embed",
            "--suite",
            "paper",
            "--model",
            "hashed",
            "--quiet",
            "--store-dir",
        ],
        &[&cli],
    );
    // The built-in hashed embedder into `lib`, for `paper`.
    let plan = || {
        let mut config = CosineConfig::new("hashed");
        config.store_dir = Some(lib.clone());
        FillPlan {
            models: vec![config],
            suites: vec![Suite::load(&SuiteSource::Builtin("paper".into())).unwrap()],
            refresh: false,
        }
    };
    let mut events = Vec::new();
    let filled = plan()
        .run(&mut |event| {
            events.push(match event {
                FillEvent::Start { .. } => "start",
                FillEvent::Progress { .. } => "progress",
                FillEvent::Filled(_) => "filled",
                FillEvent::Saved { .. } => "saved",
            })
        })
        .unwrap();
    assert_eq!(filled.len(), 1);
    let f = &filled[0];
    // A fresh store: every needed text embedded now, none stored before.
    assert!(f.needed > 0 && f.embedded == f.needed, "{f:?}");
    assert_eq!(events.first(), Some(&"start"));
    assert_eq!(events[events.len() - 2..], ["filled", "saved"]);
    assert_eq!(files(&cli), files(&lib));
    assert!(!files(&lib).is_empty());

    // Again: everything is stored already, nothing embedded.
    let again = plan().run(&mut |_| {}).unwrap();
    assert_eq!((again[0].needed, again[0].embedded), (f.needed, 0));

    // A store's name embeds nothing: refused before any work.
    let err = FillPlan {
        models: vec![CosineConfig::new("some-store")],
        suites: Vec::new(),
        refresh: false,
    }
    .run(&mut |_| {})
    .unwrap_err();
    assert!(err.to_string().contains("some-store"), "{err}");
}
