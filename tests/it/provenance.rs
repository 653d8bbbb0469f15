//! The built-in suites are the upstream files: their sha256 agree with PROVENANCE.md and the
//! files on disk, and a loaded suite records them in its inputs.

use crate::common::*;
use tenure_eval::io::sha256_hex;
use tenure_eval::suite::BuiltinSuite;

#[test]
fn builtin_hashes_agree_with_provenance_and_disk() {
    let provenance = std::fs::read_to_string(repo("PROVENANCE.md")).unwrap();
    for suite in BuiltinSuite::all_copies() {
        for file in suite.files() {
            assert!(
                provenance.contains(&format!("{}  {}", file.sha256, file.path)),
                "{} not in PROVENANCE.md",
                file.path
            );
            let on_disk = std::fs::read(repo(file.path)).unwrap();
            assert_eq!(sha256_hex(&on_disk), file.sha256, "{}", file.path);
            file.verify().unwrap();
        }
    }
    // The golden reports and vectors are listed with their real hashes too.
    let hash_lines = provenance.lines().filter(|l| {
        let b = l.as_bytes();
        b.len() > 66 && b[..64].iter().all(u8::is_ascii_hexdigit) && &b[64..66] == b"  "
    });
    let mut listed = 0;
    for line in hash_lines {
        listed += 1;
        let (hash, path) = (&line[..64], line[66..].trim());
        assert_eq!(
            sha256_hex(&std::fs::read(repo(path)).unwrap()),
            hash,
            "{path}"
        );
    }
    // 36 upstream files, PrecisionMemBench's own copy of pmb and the cosine harness goldens (6),
    // 3 of the bitemporal suite and the temporal corpus (written here), and the figures' font.
    assert_eq!(listed, 47);
}

#[test]
fn loaded_suites_record_their_inputs_and_warnings() {
    let suite = builtin("pmb");
    let roles: Vec<_> = suite.inputs.iter().map(|i| i.role).collect();
    assert_eq!(roles, ["corpus", "cases", "sessions"]);
    assert_eq!(
        (suite.corpus.len(), suite.cases.len(), suite.sessions.len()),
        (35, 77, 2)
    );
    let turns: usize = suite.sessions.iter().map(|s| s.turns.len()).sum();
    assert_eq!(turns, 12);
    // turn 0's `topicRetrieval` and turn 10's nested `pinnedFacts` are not evaluated, and
    // recency-tiebreak-reinforcement asserts nothing; turn 10's `_note` is a note and says
    // nothing.
    assert_eq!(suite.warnings.len(), 3, "{:#?}", suite.warnings);
    assert!(suite
        .warnings
        .iter()
        .any(|w| w.contains("$[0].turns[10].expect.relevantBeliefs.pinnedFacts")));
    let paper = builtin("paper");
    assert_eq!((paper.corpus.len(), paper.cases.len()), (29, 60));
}
