//! The house's rules, kept by tests instead of memory (issue 31): ARCHITECTURE.md names every
//! folder and loose file of `src/`; every `crate::` path points to a lower layer of its list
//! "Which layer may import which?"; no two files of one folder import each other; no module is
//! over 400 lines. Each rule is a function over a source tree, so a test can also show it
//! failing on a tree made to break it.

use crate::common::repo;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Every `.rs` file under `root`, sorted, as paths relative to it.
pub(super) fn rust_files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path.strip_prefix(root).unwrap().to_path_buf());
            }
        }
    }
    out.sort();
    out
}

/// Every folder under `root`, relative to it, with `/` separators.
fn folders(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                out.push(
                    path.strip_prefix(root)
                        .unwrap()
                        .to_string_lossy()
                        .replace('\\', "/"),
                );
                stack.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The folders and loose `src/*.rs` files that `architecture` does not name. A folder counts
/// as named by its path with a slash (`backend/http/doctor/`) or by its last part in backquotes
/// with a slash (`` `doctor/` ``); a loose file by its name or path in backquotes (`` `js.rs` ``,
/// `` `src/js.rs` ``).
fn unnamed(src: &Path, architecture: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for folder in folders(src) {
        let last = folder.rsplit('/').next().unwrap();
        if !architecture.contains(&format!("{folder}/"))
            && !architecture.contains(&format!("`{last}/"))
        {
            missing.push(format!("{folder}/"));
        }
    }
    for file in rust_files(src) {
        if file.components().count() == 1 {
            let name = file.to_string_lossy();
            if !architecture.contains(&format!("`{name}`"))
                && !architecture.contains(&format!("/{name}`"))
            {
                missing.push(name.into_owned());
            }
        }
    }
    missing
}

/// The layers of ARCHITECTURE.md's numbered list under "Which layer may import which?": each
/// top-level module of the library with its layer's number.
fn layers(architecture: &str) -> BTreeMap<String, usize> {
    let start = architecture
        .find("## Which layer may import which?")
        .expect("ARCHITECTURE.md has the section \"Which layer may import which?\"");
    let section = &architecture[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut out = BTreeMap::new();
    for line in section.lines() {
        let Some((number, rest)) = line.split_once(". ") else {
            continue;
        };
        let Ok(layer) = number.parse::<usize>() else {
            continue;
        };
        // The modules are the backquoted names before the colon.
        let names = rest.split(':').next().unwrap();
        for name in names.split('`').skip(1).step_by(2) {
            assert!(
                out.insert(name.to_string(), layer).is_none(),
                "ARCHITECTURE.md puts `{name}` in two layers"
            );
        }
    }
    out
}

/// The top-level module a file under `src/` belongs to (`backend/bm25/index.rs` → `backend`,
/// `query.rs` → `query`); `None` for the crate roots.
fn top_module(file: &Path) -> Option<String> {
    let first = file
        .components()
        .next()?
        .as_os_str()
        .to_string_lossy()
        .into_owned();
    match first.strip_suffix(".rs") {
        Some("lib" | "main") => None,
        Some(stem) => Some(stem.to_string()),
        None => Some(first),
    }
}

/// Source text without line comments (doc links are not imports).
pub(super) fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Imports of the library that point to the same or a higher layer: `file: crate::x (layer n
/// imports layer m)`. The command line (`cli/`) and `main.rs` sit above every layer. Re-exports of the
/// crate root (`crate::Error`, `crate::Result`, `crate::Profile`) belong to their modules.
fn upward_imports(src: &Path, layers: &BTreeMap<String, usize>) -> Vec<String> {
    let mut out = Vec::new();
    for file in rust_files(src) {
        let Some(module) = top_module(&file) else {
            continue;
        };
        if module == "cli" {
            continue;
        }
        let Some(&own) = layers.get(&module) else {
            out.push(format!(
                "src/{}: module `{module}` is in no layer",
                file.display()
            ));
            continue;
        };
        let text = code(&std::fs::read_to_string(src.join(&file)).unwrap());
        let mut seen = BTreeSet::new();
        for (i, _) in text.match_indices("crate::") {
            let before = text[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let name: String = text[i + 7..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let name = match name.as_str() {
                "Error" | "Result" => "error".to_string(),
                "Profile" => "profile".to_string(),
                _ => name,
            };
            if name == module || !seen.insert(name.clone()) {
                continue;
            }
            match layers.get(&name) {
                Some(&target) if target < own => {}
                Some(&target) => out.push(format!(
                    "src/{}: crate::{name} (layer {own} imports layer {target})",
                    file.display()
                )),
                None => out.push(format!(
                    "src/{}: crate::{name} is in no layer",
                    file.display()
                )),
            }
        }
    }
    out
}

/// The module path of a file (`backend/bm25/index.rs` → [backend, bm25, index];
/// `backend/mod.rs` → [backend]).
fn module_path(file: &Path) -> Vec<String> {
    let mut parts: Vec<String> = file
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_string());
    }
    parts
}

/// Pairs of sibling files (one folder, neither a `mod.rs`) that import each other through
/// `crate::`, `super::` or `self::` paths, outside their `#[cfg(test)]` tails.
fn sibling_circles(src: &Path) -> Vec<String> {
    let files = rust_files(src);
    let modules: BTreeMap<Vec<String>, &PathBuf> =
        files.iter().map(|f| (module_path(f), f)).collect();
    let resolve = |parts: &[String]| -> Option<Vec<String>> {
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].to_vec())
            .find(|p| modules.contains_key(p))
    };
    let mut edges = BTreeSet::new();
    for (module, file) in &modules {
        let mut text = code(&std::fs::read_to_string(src.join(file)).unwrap());
        if let Some(i) = text.find("#[cfg(test)]") {
            text.truncate(i);
        }
        for head in ["crate::", "super::", "self::"] {
            for (i, _) in text.match_indices(head) {
                if text[..i]
                    .chars()
                    .next_back()
                    .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
                {
                    continue;
                }
                let rest: Vec<String> = text[i..]
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap()
                    .split("::")
                    .map(str::to_string)
                    .collect();
                let (mut base, mut tail): (Vec<String>, &[String]) = match rest[0].as_str() {
                    "crate" => (Vec::new(), &rest[1..]),
                    "self" => (module.clone(), &rest[1..]),
                    _ => (
                        module[..module.len().saturating_sub(1)].to_vec(),
                        &rest[1..],
                    ),
                };
                while tail.first().is_some_and(|t| t == "super") {
                    base.pop();
                    tail = &tail[1..];
                }
                base.extend(tail.iter().cloned());
                if let Some(target) = resolve(&base) {
                    if &target != module {
                        edges.insert((module.clone(), target));
                    }
                }
            }
        }
    }
    let is_leaf = |m: &Vec<String>| !modules[m].ends_with("mod.rs");
    let mut out = Vec::new();
    for (a, b) in &edges {
        if a < b
            && edges.contains(&(b.clone(), a.clone()))
            && a[..a.len() - 1] == b[..b.len() - 1]
            && is_leaf(a)
            && is_leaf(b)
        {
            out.push(format!("{} <-> {}", a.join("/"), b.join("/")));
        }
    }
    out
}

fn architecture() -> String {
    std::fs::read_to_string(repo("ARCHITECTURE.md")).unwrap()
}

#[test]
fn architecture_md_names_every_folder_and_loose_file_of_src() {
    let missing = unnamed(&repo("src"), &architecture());
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not name: {missing:?}"
    );
}

#[test]
fn a_folder_added_without_a_line_in_architecture_md_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("backend/newthing")).unwrap();
    std::fs::write(src.join("query.rs"), "").unwrap();
    std::fs::write(src.join("backend/newthing/mod.rs"), "").unwrap();
    let text = architecture();
    assert_eq!(unnamed(&src, &text), vec!["backend/newthing/".to_string()]);
    let named = format!("{text}\n- **`newthing/`**: a new backend.\n");
    assert!(unnamed(&src, &named).is_empty());
}

#[test]
fn every_import_points_to_a_lower_layer() {
    let layers = layers(&architecture());
    // Every top-level module of the library is in one layer.
    for file in rust_files(&repo("src")) {
        if let Some(m) = top_module(&file) {
            assert!(
                m == "cli" || layers.contains_key(&m),
                "`{m}` is in no layer"
            );
        }
    }
    let up = upward_imports(&repo("src"), &layers);
    assert!(
        up.is_empty(),
        "imports that do not point down:\n{}",
        up.join("\n")
    );
}

#[test]
fn an_upward_import_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("suite")).unwrap();
    std::fs::write(
        src.join("suite/mod.rs"),
        "//! uses crate::report in a comment only\nuse crate::io::read;\nuse crate::report::Row;\n",
    )
    .unwrap();
    let up = upward_imports(&src, &layers(&architecture()));
    assert_eq!(
        up,
        vec!["src/suite/mod.rs: crate::report (layer 3 imports layer 10)"]
    );
}

#[test]
fn no_two_files_of_one_folder_import_each_other() {
    let circles = sibling_circles(&repo("src"));
    assert!(
        circles.is_empty(),
        "sibling files importing each other: {circles:?}"
    );
}

#[test]
fn a_sibling_circle_is_caught() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    std::fs::create_dir_all(src.join("a")).unwrap();
    std::fs::write(src.join("a/mod.rs"), "mod x;\nmod y;\n").unwrap();
    std::fs::write(src.join("a/x.rs"), "use super::y::Y;\n").unwrap();
    std::fs::write(
        src.join("a/y.rs"),
        "use crate::a::x::X;\n#[cfg(test)]\nmod t {}\n",
    )
    .unwrap();
    assert_eq!(sibling_circles(&src), vec!["a/x <-> a/y".to_string()]);
    std::fs::write(
        src.join("a/y.rs"),
        "#[cfg(test)]\nmod t { use crate::a::x::X; }\n",
    )
    .unwrap();
    assert!(
        sibling_circles(&src).is_empty(),
        "an import in tests only is no circle"
    );
}

#[test]
fn no_module_is_over_400_lines() {
    let src = repo("src");
    let long: Vec<String> = rust_files(&src)
        .into_iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(src.join(&f))
                .unwrap()
                .lines()
                .count();
            (n > 400).then(|| format!("{} ({n})", f.display()))
        })
        .collect();
    assert!(long.is_empty(), "modules over 400 lines: {long:?}");
}

/// Items declared `pub` (issue 46's count: `grep -rhE "^\s*pub (async )?(fn|struct|enum|trait|
/// type|const|static|mod|use) " src`); `pub(crate)` and fields are not counted.
fn public_items(src: &Path) -> Vec<String> {
    let mut out = Vec::new();
    for file in rust_files(src) {
        let text = std::fs::read_to_string(src.join(&file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let rest = line.trim_start();
            let Some(rest) = rest.strip_prefix("pub ") else {
                continue;
            };
            let rest = rest.strip_prefix("async ").unwrap_or(rest);
            let kind = rest.split(' ').next().unwrap_or("");
            let counted = [
                "fn", "struct", "enum", "trait", "type", "const", "static", "mod", "use",
            ];
            if counted.contains(&kind) && rest.len() > kind.len() {
                out.push(format!("{}:{}", file.display(), i + 1));
            }
        }
    }
    out
}

/// The public surface is what lib.rs lists by task and what tests, benches and examples use
/// (ARCHITECTURE.md); the rest is crate-private, the command line included. 526 at the change
/// that made it so; the aim was under 600.
#[test]
fn the_public_surface_stays_under_600_items() {
    let items = public_items(&repo("src"));
    assert!(
        items.len() < 600,
        "{} pub items (make what only the crate uses pub(crate))",
        items.len()
    );
    // The counter counts what the grep counts: one line of each kind, and not the rest.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("x.rs"),
        "pub fn a() {}\n  pub async fn b() {}\npub(crate) fn c() {}\npub x: u8,\npub use y::Z;\n",
    )
    .unwrap();
    assert_eq!(public_items(dir.path()).len(), 3);
}
