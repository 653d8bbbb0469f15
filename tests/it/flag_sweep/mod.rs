//! Every flag acts or is refused, on every command (issue 45 #3): the sweep is generated from
//! clap's command tree as `tenure-eval --help` prints it (every command, every subcommand,
//! every flag of each), so a new command or flag is held to the rule or this test names it.
//!
//! For each command a base invocation that succeeds (a small run on pmb, a report of one); for
//! each of its flags a value to try (an enum flag: a possible value other than its default;
//! else `probes.rs`'s table), in the circumstance it needs to act in (`probes::context`). The base with the flag (replacing the base's own value of it) must
//! either change what the command does, its exit code, its stdout or stderr, or a file it
//! writes, or be refused: exit 2 with the flag named on stderr. What varies from run to run of
//! the same command (the folder it runs in, a port, measured times) is masked first: each
//! invocation runs in a fresh folder, measured JSON fields and durations are masked, and what
//! differs between two runs of the base (a table row's measured cells, by their place in the
//! line) is masked in every run (`outcome.rs`). The command tree is read in `tree.rs`.

mod outcome;
mod probes;
mod tree;

use outcome::{differences, invoke, invoke_serve, settle, unstable, Noise, Outcome};
use probes::{base, context, in_context, value, Fixtures};
use std::collections::BTreeMap;
use tree::{commands, flags, with_flag};

/// The flags of `command` that neither act nor are refused, each with what happened.
fn silent_flags(command: &[String]) -> Vec<String> {
    let fx = Fixtures::get();
    let name = command.join(" ");
    let work = tempfile::tempdir().unwrap();
    let serving = (name == "doctor").then(|| crate::serve::Served::start("pmb"));
    let url = serving.as_ref().map_or(String::new(), |s| s.url.clone());
    let Some(base) = base(&name, &fx, &url) else {
        eprintln!("skipped: `{name}` reads LoCoMo's file, absent here");
        return Vec::new();
    };
    let run = |args: &[String]| match name.as_str() {
        "serve" => invoke_serve(args, work.path()),
        _ => invoke(args, work.path()),
    };
    // The reference of each context: the base run twice, what differs between the two masked.
    let mut references: BTreeMap<Vec<String>, (Outcome, Noise)> = BTreeMap::new();
    let mut reference = |args: Vec<String>| {
        references
            .entry(args.clone())
            .or_insert_with(|| {
                let (first, second) = (run(&args), run(&args));
                assert_eq!(
                    first.code,
                    Some(0),
                    "{args:?}: {:?}",
                    first.streams["<stderr>"]
                );
                let noise = unstable(&first, &second);
                let reference = settle(&first, &noise);
                let again = settle(&second, &noise);
                assert!(
                    reference == again,
                    "{args:?} twice: {}",
                    differences(&reference, &again)
                );
                (reference, noise)
            })
            .clone()
    };
    reference(base.clone());
    // A config file that `[COMMAND]` reads: a key no command has, which a command that reads
    // the file refuses (exit 2 naming the file).
    let config = work.path().join("probe.toml");
    std::fs::write(&config, format!("[{}]\nno-such-key = 1\n", command[0])).unwrap();
    let mut silent = Vec::new();
    for flag in flags(command) {
        if matches!(flag.name.as_str(), "--help" | "--version") {
            continue;
        }
        let value = if !flag.takes_value {
            None
        } else if flag.name == "--config" {
            Some(config.display().to_string())
        } else if let Some(v) = value(&name, &flag.name, &fx) {
            Some(v)
        } else if let Some(v) = flag
            .possible
            .iter()
            .find(|p| Some(*p) != flag.default.as_ref())
        {
            Some(v.clone())
        } else {
            silent.push(format!(
                "{name} {}: no value to try: add one to value()",
                flag.name
            ));
            continue;
        };
        let base = in_context(&base, &context(&name, &flag.name, &fx));
        let (reference, noise) = reference(base.clone());
        let args = with_flag(&base, &flag, value.as_deref());
        let outcome = run(&args);
        let stderr = outcome.streams["<stderr>"].join("\n");
        assert!(
            !stderr.contains("invalid value") && !stderr.contains("unexpected argument"),
            "the value this test tries for {name} {} is not one it takes: {stderr}",
            flag.name
        );
        let refused = outcome.code == Some(2) && stderr.contains(&flag.name);
        if !refused && settle(&outcome, &noise) == reference {
            silent.push(format!(
                "{name} {} {}: exit {:?}, nothing changed",
                flag.name,
                value.unwrap_or_default(),
                outcome.code
            ));
        }
    }
    silent
}

/// One test per command, so that they run side by side; the first test checks the list is
/// the command tree.
macro_rules! sweep {
    ($($test:ident => $command:expr),* $(,)?) => {
        const SWEPT: &[&str] = &[$($command),*];
        $(
            #[test]
            fn $test() {
                let command: Vec<String> = $command.split(' ').map(String::from).collect();
                let silent = silent_flags(&command);
                assert!(silent.is_empty(), "flags that neither act nor are refused:\n{}",
                    silent.join("\n"));
            }
        )*
    };
}

sweep! {
    run => "run", static_ => "static", session => "session", validate => "validate",
    verify => "verify", claims => "claims", compare => "compare", trec => "trec",
    plot => "plot", tables => "tables", html => "html", embed => "embed", models => "models",
    serve => "serve", doctor => "doctor", scale => "scale", flywheel => "flywheel",
    temporal_classify => "temporal classify", temporal_eval => "temporal eval",
    temporal_draw => "temporal draw", temporal_features => "temporal features",
    locomo => "locomo", beam => "beam", alias_learning => "alias-learning",
    longmemeval => "longmemeval", config => "config", cache_list => "cache list",
    cache_prune => "cache prune", history => "history", merge => "merge",
}

#[test]
fn the_sweep_covers_the_command_tree() {
    let tree: Vec<String> = commands().iter().map(|c| c.join(" ")).collect();
    let mut swept: Vec<String> = SWEPT.iter().map(|s| s.to_string()).collect();
    swept.sort();
    assert_eq!(
        swept, tree,
        "a command the sweep does not know, or one that is gone"
    );
}
