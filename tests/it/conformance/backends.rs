//! Every backend through the contract: bm25, cosine exact and HNSW, fusion (in process and
//! through the binary), `models`' fused reports, and the context scorers.

use super::*;

#[test]
fn bm25_conforms() {
    let suite = builtin("pmb");
    conformance("bm25", &suite, &|corpus| {
        Box::new(Bm25Backend::build(corpus).unwrap())
    });
}

#[test]
fn cosine_exact_conforms() {
    let suite = builtin("pmb");
    let config = minilm(&suite, IndexKind::Exact);
    conformance("cosine exact", &suite, &|corpus| {
        Box::new(CosineBackend::build(corpus, &config).unwrap())
    });
}

#[test]
fn cosine_hnsw_conforms() {
    let suite = builtin("pmb");
    let config = minilm(&suite, IndexKind::Hnsw(HnswParams::default()));
    conformance("cosine hnsw", &suite, &|corpus| {
        Box::new(CosineBackend::build(corpus, &config).unwrap())
    });
}

/// Each fusion of BM25 and cosine keeps the contract: its ties go to corpus order like every
/// backend's, replacements reach both children.
#[test]
fn fusion_backends_conform() {
    use tenure_eval::backend::fusion::{FusionBackend, FusionConfig, Method};
    use tenure_eval::backend::BackendConfig;
    let suite = builtin("pmb");
    let cosine = minilm(&suite, IndexKind::Exact);
    for method in [
        Method::Rrf { k: 60.0 },
        Method::CombSum {
            weights: vec![1.0, 1.0],
        },
        Method::Fallback,
    ] {
        let config = FusionConfig {
            method: method.clone(),
            children: vec![BackendConfig::bm25(), BackendConfig::cosine(cosine.clone())],
            depth: 50,
            child_depths: Vec::new(),
            floors: Vec::new(),
        };
        conformance(method.id(), &suite, &|corpus| {
            Box::new(FusionBackend::build(corpus, &config).unwrap())
        });
    }
}

/// `run --backend rrf,combsum,fallback` through the binary: the fused runs are ordinary runs
/// (reports named after the method, one table); on pmb, RRF and CombSUM keep cosine's flood
/// (11/77, as cosine alone) while fallback keeps BM25's passes where BM25 finds something
/// (54/77). `--fuse` must name two backends.
#[test]
fn fusion_runs_through_the_binary() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::tenure_eval(&[
        "static",
        "--suite",
        "pmb",
        "--backend",
        "rrf,combsum,fallback",
        "--format",
        "json",
        "--quiet",
        "--out",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let passed: Vec<(String, u64)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["backend"].as_str().unwrap().to_string(),
                r["retrieval"]["totalPassed"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        passed,
        [
            ("rrf(bm25+cosine/all-minilm-l6-v2)".to_string(), 11),
            ("combsum(bm25+cosine/all-minilm-l6-v2)".to_string(), 11),
            ("fallback(bm25+cosine/all-minilm-l6-v2)".to_string(), 54),
        ]
    );
    assert!(dir
        .path()
        .join("pmb/all-minilm-l6-v2-retrieval-report-rrf.json")
        .is_file());
    let report: serde_json::Value = serde_json::from_slice(
        &std::fs::read(
            dir.path()
                .join("pmb/all-minilm-l6-v2-retrieval-report-rrf.json"),
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        report["manifest"]["backendSettings"]["method"],
        serde_json::json!({"method": "rrf", "k": 60.0})
    );
    let bad = crate::common::tenure_eval(&[
        "static",
        "--suite",
        "pmb",
        "--backend",
        "rrf",
        "--fuse",
        "bm25",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn models_fuses_each_model_with_bm25_into_its_own_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = crate::common::tenure_eval_ok(
        &[
            "models",
            "--suite",
            "pmb",
            "--model",
            "all-minilm-l6-v2",
            "--model",
            "all-minilm-l6-v2-int8",
            "--fusion",
            "rrf,fallback",
            "--format",
            "json",
            "--quiet",
            "--out",
        ],
        &[dir.path()],
    );
    let rows: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rows: Vec<(String, String, u64)> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["backend"].as_str().unwrap().to_string(),
                r["model"].as_str().unwrap_or("–").to_string(),
                r["staticSummary"]["totalPassed"].as_u64().unwrap(),
            )
        })
        .collect();
    let row = |b: &str, m: &str, p: u64| (b.to_string(), m.to_string(), p);
    assert_eq!(
        rows,
        [
            row("bm25", "–", 77),
            row("cosine", "all-minilm-l6-v2", 11),
            row("rrf", "all-minilm-l6-v2", 11),
            row("fallback", "all-minilm-l6-v2", 54),
            row("cosine", "all-minilm-l6-v2-int8", 11),
            row("rrf", "all-minilm-l6-v2-int8", 11),
            row("fallback", "all-minilm-l6-v2-int8", 54),
            // The chance row (a random vector per text) that every model is tested against.
            row("cosine", "random-384", 11),
        ]
    );
    // One report per fusion and model: none overwrites another.
    for model in ["all-minilm-l6-v2", "all-minilm-l6-v2-int8"] {
        for method in ["rrf", "fallback"] {
            let path = dir
                .path()
                .join(format!("pmb/{model}-retrieval-report-{method}.json"));
            let report: serde_json::Value =
                serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            let label = report["manifest"]["backendInfo"]["label"].as_str().unwrap();
            assert_eq!(label, format!("{method}(bm25+cosine/{model})"));
        }
    }
}

/// The context scorers keep the contract: composite and spreading return only their
/// Verbatim and Compressed beliefs, recent the newest; ties go to corpus order. The
/// composite's default Compressed threshold (0.40) lets one or two pmb beliefs through per
/// query, too few for the excluded-ids variant to return anything, so the contract is checked
/// at 0.25 (the code paths are the same at any threshold; the tiers have their own tests).
#[test]
fn context_scorers_conform() {
    use tenure_eval::backend::composite::{CompositeBackend, CompositeConfig};
    use tenure_eval::backend::recent::{RecentBackend, RecentConfig};
    use tenure_eval::backend::spreading::{SpreadingBackend, SpreadingConfig};
    use tenure_eval::backend::Workload;
    let suite = builtin("pmb");
    let mut composite = CompositeConfig::new(minilm(&suite, IndexKind::Exact));
    composite.params.thresholds.compressed = 0.25;
    conformance("composite", &suite, &|corpus| {
        Box::new(CompositeBackend::build(corpus, &composite, Workload::Static).unwrap())
    });
    let mut bitemporal = composite.clone();
    bitemporal.params.bitemporal = true;
    conformance("composite --bitemporal", &suite, &|corpus| {
        Box::new(CompositeBackend::build(corpus, &bitemporal, Workload::Static).unwrap())
    });
    let spreading = SpreadingConfig::new(minilm(&suite, IndexKind::Exact));
    conformance("spreading", &suite, &|corpus| {
        Box::new(SpreadingBackend::build(corpus, &spreading, Workload::Static).unwrap())
    });
    conformance("recent", &suite, &|corpus| {
        Box::new(RecentBackend::build(
            corpus,
            RecentConfig::default(),
            Workload::Static,
        ))
    });
}

/// Plain BM25 (`bm25-text`), as it is and with its recency prior over every result and over a
/// window: the prior changes an order, never what the contract asks of a backend.
#[test]
fn bm25_text_conforms() {
    use tenure_eval::backend::text::TextBm25Config;
    use tenure_eval::backend::{BackendConfig, BackendFactory};
    let suite = builtin("pmb");
    for (name, recency, recency_window) in [
        ("bm25-text", 0.0, 0),
        ("bm25-text --recency 2", 2.0, 0),
        ("bm25-text --recency 2 --recency-window 5", 2.0, 5),
    ] {
        let config = BackendConfig::Bm25Text(TextBm25Config {
            recency,
            recency_window,
        });
        conformance(name, &suite, &|corpus| config.build(corpus).unwrap());
    }
}
