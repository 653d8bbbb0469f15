//! `benches/all.rs` holds every criterion bench of Cargo.toml as a module: it is the one bench
//! target the test gate builds and runs (scripts/test.sh), so a bench left out of it would never
//! be built by CI.

use crate::common::repo;

/// What `all_rs` lacks or has beyond the `[[bench]]` targets of `manifest` (besides `all`
/// itself): a `mod NAME;` and a `NAME::benches` in its `criterion_main!` for each.
fn differences(manifest: &str, all_rs: &str) -> Vec<String> {
    let manifest: toml::Value = toml::from_str(manifest).unwrap();
    let targets: Vec<&str> = manifest["bench"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .filter(|name| *name != "all")
        .collect();
    let modules: Vec<&str> = all_rs
        .lines()
        .filter_map(|l| l.strip_prefix("mod ")?.strip_suffix(';'))
        .collect();
    let mut out = Vec::new();
    for name in &targets {
        if !modules.contains(name) {
            out.push(format!("{name}: no `mod {name};`"));
        }
        if !all_rs.contains(&format!("{name}::benches,")) {
            out.push(format!("{name}: not in criterion_main!"));
        }
    }
    for name in modules.iter().filter(|m| !targets.contains(m)) {
        out.push(format!("{name}: a module but no [[bench]]"));
    }
    out
}

fn read(path: &str) -> String {
    std::fs::read_to_string(repo(path)).unwrap()
}

#[test]
fn benches_all_holds_every_bench_target() {
    let found = differences(&read("Cargo.toml"), &read("benches/all.rs"));
    assert!(found.is_empty(), "benches/all.rs: {found:?}");
}

#[test]
fn a_bench_left_out_of_all_is_caught() {
    let manifest = format!(
        "{}\n[[bench]]\nname = \"new_one\"\nharness = false\n",
        read("Cargo.toml")
    );
    assert_eq!(
        differences(&manifest, &read("benches/all.rs")),
        [
            "new_one: no `mod new_one;`",
            "new_one: not in criterion_main!"
        ]
    );
}
