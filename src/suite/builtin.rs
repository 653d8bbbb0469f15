//! The built-in suites, compiled into the binary so `tenure-eval` runs from anywhere, and
//! checked against the sha256 recorded in `PROVENANCE.md` every time they are loaded.
//!
//! `pmb` exists in two copies. Tenure's (tenurehq/tenure dc348a8) made the published tenure
//! reports, so BM25 and every in-process backend run it and the goldens compare with it.
//! PrecisionMemBench's own (precisionMemBench 18c7955, `fixtures/`) is what its harness sends
//! to an external memory system: one belief's prose (`b-comm-response-length`'s
//! why_it_matters), one case's category and the cases' notes differ. Wherever tenure-eval stands
//! in for that harness (the `http` backend, `serve`), it runs PrecisionMemBench's copy
//! ([`BuiltinSuite::harness`]), so an embedding-based provider gets the same bytes from both.

use crate::error::{Error, Result};
use crate::profile::Profile;
use std::path::Path;

/// A built-in suite by name, as a suite source: its files checked against PROVENANCE.md.
pub struct BuiltinName<'a>(pub &'a str);

impl super::Source for BuiltinName<'_> {
    fn load(&self) -> Result<super::Suite> {
        let name = self.0;
        let builtin = BUILTIN_SUITES
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| {
                let names: Vec<_> = BUILTIN_SUITES.iter().map(|s| s.name).collect();
                Error::Usage(format!(
                    "unknown suite {name:?}; expected one of {}",
                    names.join(", ")
                ))
            })?;
        super::Suite::from_builtin(builtin)
    }
}

/// One embedded upstream file.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinFile {
    /// Repository path (also used in messages and manifests).
    pub path: &'static str,
    /// The bytes compiled in.
    pub bytes: &'static [u8],
    /// Expected sha256 (from PROVENANCE.md).
    pub sha256: &'static str,
}

impl BuiltinFile {
    /// Fail when the compiled-in bytes are not the upstream file.
    pub fn verify(&self) -> Result<()> {
        let actual = crate::io::sha256_hex(self.bytes);
        if actual == self.sha256 {
            Ok(())
        } else {
            Err(Error::input(
                Path::new(self.path),
                "file",
                format!(
                    "built-in suite file has sha256 {actual}, expected {} (PROVENANCE.md); \
                     restore the upstream copy or run it as a custom suite",
                    self.sha256
                ),
            ))
        }
    }
}

/// A named suite with its pipeline profile.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinSuite {
    /// `paper`, `pmb` or `bitemporal`.
    pub name: &'static str,
    /// Whose copy of the files this is (`tenurehq/tenure dc348a8`): manifests record it.
    pub copy: &'static str,
    /// `paper` runs the paper-tag pipeline, `pmb` the HEAD pipeline.
    pub profile: Profile,
    /// Seed beliefs.
    pub corpus: BuiltinFile,
    /// Static cases.
    pub cases: BuiltinFile,
    /// Session cases.
    pub sessions: BuiltinFile,
    /// PrecisionMemBench's own copy of the same suite, when it differs: what an external
    /// system is sent (see the module doc).
    pub harness: Option<&'static BuiltinSuite>,
}

impl BuiltinSuite {
    /// The three files.
    pub fn files(&self) -> [BuiltinFile; 3] {
        [self.corpus, self.cases, self.sessions]
    }

    /// Every copy of every built-in suite (for lookups by path).
    pub fn all_copies() -> impl Iterator<Item = &'static BuiltinSuite> {
        BUILTIN_SUITES
            .iter()
            .flat_map(|s| std::iter::once(s).chain(s.harness))
    }
}

macro_rules! builtin_file {
    ($path:literal, $sha:literal) => {
        BuiltinFile {
            path: $path,
            bytes: include_bytes!(concat!(env!("CARGO_MANIFEST_DIR"), "/", $path)),
            sha256: $sha,
        }
    };
}

/// Every built-in suite.
pub const BUILTIN_SUITES: &[BuiltinSuite] = &[
    BuiltinSuite {
        name: "paper",
        copy: "tenurehq/tenure v1.0.0-paper (b419c24)",
        profile: Profile::Paper,
        corpus: builtin_file!(
            "seeds/paper/beliefs.seed.json",
            "9241711af65c32e79b7ff1d2e504eaafe49586b7267703607d056f28ecfd6495"
        ),
        cases: builtin_file!(
            "cases/paper/retrieval.cases.json",
            "ae6e1d79e3a8b34cb21e1a885895a90d8bb11783bc0aff48120c0cc320549061"
        ),
        sessions: builtin_file!(
            "cases/paper/session-retrieval.cases.json",
            "dad5e45842e4d9e85ef051a91582d6fbd3a764b8994b1a7c54edabeab74c062d"
        ),
        harness: None,
    },
    BuiltinSuite {
        name: "pmb",
        copy: "tenurehq/tenure dc348a8",
        profile: Profile::Head,
        corpus: builtin_file!(
            "seeds/pmb/beliefs.seed.json",
            "d6ca4c8205da7f0877089aae39cb80b6e00d7f88b338fda26ad2463ea1675054"
        ),
        cases: builtin_file!(
            "cases/pmb/retrieval.cases.json",
            "1e19066f056280872054c46846ca9c25dac008fed9a236bbec950e6245d62922"
        ),
        sessions: builtin_file!(
            "cases/pmb/session-retrieval.cases.json",
            "b9832477bc313cac9a93c67408b7cac8026b3ad6c9db180e43caac08c55e2b38"
        ),
        harness: Some(&PMB_HARNESS),
    },
    // Written for this project (docs/temporal.md): the bitemporal claims of the dissertation's
    // chapter 8. HEAD profile: its files use the HEAD shape (categories, budget overrides)
    // and HEAD is the pipeline upstream runs today; the paper tag is kept for reproduction.
    BuiltinSuite {
        name: "bitemporal",
        copy: "written for this project",
        profile: Profile::Head,
        corpus: builtin_file!(
            "seeds/bitemporal/beliefs.seed.json",
            "dce89262767b36a9aa54a94709b95d290d4ea4f50d2252f639b9f9814b0308ab"
        ),
        cases: builtin_file!(
            "cases/bitemporal/retrieval.cases.json",
            "135a0af6cc7968d46dc2097766b39581aeba4657e0d635e2f22a202234ea0607"
        ),
        sessions: builtin_file!(
            "cases/bitemporal/session-retrieval.cases.json",
            "3bf120e454f68f2371a63ee1caaedff4f6ff7c1a16a525a6d0e49d6d78e9fcab"
        ),
        harness: None,
    },
];

/// PrecisionMemBench's copy of `pmb` (precisionMemBench 18c7955, `fixtures/`).
pub(crate) const PMB_HARNESS: BuiltinSuite = BuiltinSuite {
    name: "pmb",
    copy: "tenurehq/precisionMemBench 18c7955",
    profile: Profile::Head,
    corpus: builtin_file!(
        "seeds/pmb-harness/beliefs.seed.json",
        "35659b3b9a581b644fc6746e1b4e902c3e7b56c0973b546bf7b0816a69e3de98"
    ),
    cases: builtin_file!(
        "cases/pmb-harness/retrieval.cases.json",
        "09e99f0852280538abe34b03570f65583fdb10df3c554b7150f0f665d5db709c"
    ),
    sessions: builtin_file!(
        "cases/pmb-harness/session-retrieval.cases.json",
        "f24a359cdb2bf50237e1ab463af938cd54a81917f64c8d97304de318aed4cc1c"
    ),
    harness: None,
};
