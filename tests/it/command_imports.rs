//! No command imports another (issue 46): each command of `src/cli/cmd/` (a file, or a folder
//! with its own files) maps its flags to the library and prints; what two commands share lives
//! in the library or in `src/cli` beside `cmd/`, never in one of them. Like the house's rules
//! in `architecture.rs`, the rule is a function over a source tree, shown failing on one made
//! to break it.

use super::architecture::{code, rust_files};
use crate::common::repo;
use std::path::Path;

/// Every `file: cmd NAME` where a command's file names another command: `cmd::NAME` anywhere,
/// or `super::NAME` in a file directly under `cmd/`.
fn commands_importing_commands(src: &Path) -> Vec<String> {
    let cmd = src.join("cli/cmd");
    let files = rust_files(&cmd);
    // A file's command: its own name, or its folder's.
    let command_of = |file: &Path| {
        let first = file.components().next().unwrap().as_os_str();
        first.to_str().unwrap().trim_end_matches(".rs").to_string()
    };
    let mut commands: Vec<String> = files
        .iter()
        .map(|f| command_of(f))
        .filter(|c| c != "mod")
        .collect();
    commands.sort();
    commands.dedup();
    let mut out = Vec::new();
    for file in files
        .iter()
        .filter(|f| !f.ends_with("mod.rs") || f.components().count() > 1)
    {
        let own = command_of(file);
        let text = code(&std::fs::read_to_string(cmd.join(file)).unwrap());
        let direct = file.components().count() == 1;
        for other in commands.iter().filter(|c| **c != own) {
            let named = text.contains(&format!("cmd::{other}::"))
                || (direct && text.contains(&format!("super::{other}::")));
            if named {
                out.push(format!("cli/cmd/{}: cmd {other}", file.display()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_command_imports_another() {
    let found = commands_importing_commands(&repo("src"));
    assert!(found.is_empty(), "commands importing commands: {found:?}");
}

#[test]
fn a_command_importing_another_is_caught() {
    let dir = tempfile::tempdir().unwrap();
    let cmd = dir.path().join("cli/cmd");
    std::fs::create_dir_all(cmd.join("embed")).unwrap();
    std::fs::write(
        cmd.join("mod.rs"),
        "pub mod run; pub mod html; pub mod embed;",
    )
    .unwrap();
    std::fs::write(cmd.join("run.rs"), "use super::html::write_page;").unwrap();
    std::fs::write(
        cmd.join("html.rs"),
        "// super::run::x in a comment is no import",
    )
    .unwrap();
    std::fs::write(cmd.join("embed/mod.rs"), "mod texts;").unwrap();
    std::fs::write(
        cmd.join("embed/texts.rs"),
        "use super::EmbedArgs; use crate::cli::cmd::run::RunArgs;",
    )
    .unwrap();
    assert_eq!(
        commands_importing_commands(dir.path()),
        [
            "cli/cmd/embed/texts.rs: cmd run",
            "cli/cmd/run.rs: cmd html"
        ]
    );
}
