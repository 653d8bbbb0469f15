//! The TemporalClassifier's learned part: a multinomial logistic regression over the features
//! of [`super::features`], deciding a statement the rules' first three tiers leave open.
//!
//! The weights are `model.json` beside this file, compiled in, written by
//! `scripts/train-temporal.py` from committed labels (docs/temporal.md, "The learned part").
//! Features are hashed into buckets ([`super::features::buckets`]), and the file maps bucket
//! numbers to weights: it holds numbers, not the words and word pairs of the text it was
//! trained on. A class's score is its intercept plus the weights of the statement's buckets
//! (each 0 or 1); the highest score wins, ties to the class listed first in the file.
//!
//! The embedded model, `model-minilm.json` (the same script with `--embedder`), adds to each
//! score the dot product of the statement's sentence embedding with the class's `dense`
//! weights (the scale α already in them): trained with all-MiniLM-L6-v2's vectors, it is used
//! only where the caller has them (`temporal classify|eval --embedder DIR`; docs/temporal.md,
//! "The fourth attempt").

use super::TemporalClass;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::OnceLock;

/// `model.json`, compiled in.
const WEIGHTS: &str = include_str!("model.json");
/// `model-minilm.json`, compiled in.
const EMBEDDED_WEIGHTS: &str = include_str!("model-minilm.json");

/// An embedding model folder by what decides its vectors: the graph, the tokenizer and the
/// harness's settings for it (pooling, normalisation, prefixes, truncation, all in
/// `embedder.json`). The embedded weights record the one they were trained with, and a caller
/// must embed with a folder whose three files are those, byte for byte.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedModel {
    /// The model's name (`all-minilm-l6-v2`); not part of the identity.
    pub name: String,
    /// sha256 of its `model.onnx`.
    pub sha256: String,
    /// sha256 of its `tokenizer.json`.
    pub tokenizer_sha256: String,
    /// sha256 of its `embedder.json`; `null` when the folder has none (the defaults apply).
    pub config_sha256: Option<String>,
    /// Vector length.
    pub dimensions: usize,
}

impl EmbeddedModel {
    /// The same vectors: the same three files and width (the name may differ).
    pub fn same_vectors(&self, other: &EmbeddedModel) -> bool {
        (
            &self.sha256,
            &self.tokenizer_sha256,
            &self.config_sha256,
            self.dimensions,
        ) == (
            &other.sha256,
            &other.tokenizer_sha256,
            &other.config_sha256,
            other.dimensions,
        )
    }
}

/// A weights file as written by the training script.
#[derive(Debug, Deserialize)]
struct ModelFile {
    classes: Vec<TemporalClass>,
    intercept: Vec<f64>,
    /// Bucket number (as a JSON key) to one weight per class.
    weights: HashMap<String, Vec<f64>>,
    /// The bucket count the features were hashed into.
    buckets: u64,
    /// The embedded model's: which embedder, and one weight per class and dimension.
    #[serde(default)]
    embedder: Option<EmbeddedModel>,
    #[serde(default)]
    dense: Option<Vec<Vec<f64>>>,
}

/// A model, its weights by bucket (and by dimension, when embedded).
struct Model {
    classes: Vec<TemporalClass>,
    intercept: Vec<f64>,
    weights: HashMap<u32, Vec<f64>>,
    embedded: Option<(EmbeddedModel, Vec<Vec<f64>>)>,
}

/// Parse a compiled-in weights file, embedded (`dense` and `embedder` present) or not as
/// `embedded` says; its checks hold for the build (the unit tests below parse both files).
fn parse(name: &str, text: &str, embedded: bool) -> Model {
    let file: ModelFile = serde_json::from_str(text)
        .unwrap_or_else(|e| panic!("src/temporal/{name} is the training script's output: {e}"));
    assert_eq!(
        file.buckets,
        super::features::BUCKETS,
        "src/temporal/{name}: buckets"
    );
    let weights: HashMap<u32, Vec<f64>> = file
        .weights
        .into_iter()
        .map(|(k, w)| {
            let bucket = k
                .parse()
                .unwrap_or_else(|_| panic!("src/temporal/{name}: bucket numbers"));
            (bucket, w)
        })
        .collect();
    let classes = file.classes.len();
    assert!(
        file.intercept.len() == classes && weights.values().all(|w| w.len() == classes),
        "src/temporal/{name}: one weight per class"
    );
    let dense = match (file.embedder, file.dense) {
        (Some(e), Some(d)) => {
            assert!(
                d.len() == classes && d.iter().all(|w| w.len() == e.dimensions),
                "src/temporal/{name}: one dense weight per class and dimension"
            );
            Some((e, d))
        }
        (None, None) => None,
        _ => panic!("src/temporal/{name}: embedder and dense go together"),
    };
    assert_eq!(
        dense.is_some(),
        embedded,
        "src/temporal/{name}: dense weights where, and only where, the embedded model is read"
    );
    Model {
        classes: file.classes,
        intercept: file.intercept,
        weights,
        embedded: dense,
    }
}

/// The compiled-in lexical model, parsed once.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| parse("model.json", WEIGHTS, false))
}

/// The compiled-in embedded model, parsed once.
fn embedded() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| parse("model-minilm.json", EMBEDDED_WEIGHTS, true))
}

/// The embedder the compiled-in embedded weights were trained with.
pub fn embedded_model() -> &'static EmbeddedModel {
    &embedded()
        .embedded
        .as_ref()
        .expect("src/temporal/model-minilm.json has an embedder")
        .0
}

/// The sha256 of the compiled-in `model-minilm.json`.
pub(crate) fn embedded_weights_sha256() -> String {
    crate::io::sha256_hex(EMBEDDED_WEIGHTS.as_bytes())
}

/// The sha256 of the compiled-in `model.json`: which weights classified, so an evaluation can
/// be checked against the commit whose file it names (docs/temporal.md, "A slip in the
/// scoring").
pub(crate) fn weights_sha256() -> String {
    crate::io::sha256_hex(WEIGHTS.as_bytes())
}

/// The lexical model's class for `features`, and the feature that pushed most towards it (the
/// largest weight of the winning class among the statement's features, ties to the first by
/// name), for the marker.
pub(super) fn predict(features: &[String]) -> (TemporalClass, Option<&str>) {
    scored(model(), features, None)
}

/// The embedded model's class for `features` and the statement's `embedding` (of
/// [`embedded_model`]'s width; the caller checked), and the marker's feature as [`predict`]'s.
pub(super) fn predict_embedded<'a>(
    features: &'a [String],
    embedding: &[f32],
) -> (TemporalClass, Option<&'a str>) {
    scored(embedded(), features, Some(embedding))
}

fn scored<'a>(
    m: &Model,
    features: &'a [String],
    embedding: Option<&[f32]>,
) -> (TemporalClass, Option<&'a str>) {
    // Each feature hashed once: its bucket's weights, for the marker; each bucket counted once
    // in the scores (`features::buckets`).
    let mut known: Vec<(&str, u32, &Vec<f64>)> = features
        .iter()
        .filter_map(|f| {
            let b = super::features::bucket(f);
            Some((f.as_str(), b, m.weights.get(&b)?))
        })
        .collect();
    let mut scores = m.intercept.clone();
    let mut counted: Vec<u32> = known.iter().map(|k| k.1).collect();
    counted.sort_unstable();
    counted.dedup();
    for b in counted {
        scores
            .iter_mut()
            .zip(&m.weights[&b])
            .for_each(|(s, w)| *s += w);
    }
    // The dense term per class (the caller embedded with the model's width: `same_vectors`).
    let dense: Vec<f64> = match (&m.embedded, embedding) {
        (Some((model, dense)), Some(e)) => {
            assert_eq!(e.len(), model.dimensions, "the embedded model's width");
            let terms: Vec<f64> = dense
                .iter()
                .map(|w| w.iter().zip(e).map(|(w, x)| w * f64::from(*x)).sum())
                .collect();
            scores.iter_mut().zip(&terms).for_each(|(s, t)| *s += t);
            terms
        }
        _ => Vec::new(),
    };
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = i;
        }
    }
    known.retain(|(_, _, w)| w[best] > 0.0);
    let top = known
        .iter()
        .max_by(|a, b| a.2[best].total_cmp(&b.2[best]).then(b.0.cmp(a.0)));
    // Under the embedded model the embedding is the marker when its term for the winning class
    // outweighs every single feature's weight.
    if let Some(term) = dense.get(best) {
        if *term > top.map_or(0.0, |t| t.2[best]) {
            return (m.classes[best], Some("embedding"));
        }
    }
    (m.classes[best], top.map(|(name, _, _)| *name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::temporal::features::features;

    #[test]
    fn the_weights_files_hold_bucket_numbers_not_text() {
        for raw in [WEIGHTS, EMBEDDED_WEIGHTS] {
            let file: serde_json::Value = serde_json::from_str(raw).unwrap();
            let weights = file["weights"].as_object().unwrap();
            assert!(weights.len() > 1000, "{} buckets", weights.len());
            for key in weights.keys() {
                let bucket: u64 = key
                    .parse()
                    .unwrap_or_else(|_| panic!("{key:?} is not a bucket"));
                assert!(bucket < crate::temporal::features::BUCKETS, "{key}");
            }
            // The features' words are nowhere in the file.
            for text in ["w=", "b=", "head=", "caroline", "\"tense=past\""] {
                assert!(!raw.contains(text), "{text}");
            }
        }
    }

    #[test]
    fn the_embedded_model_reads_minilm_vectors_and_its_term_decides() {
        let m = embedded();
        assert_eq!(m.classes, model().classes);
        let (e, dense) = m.embedded.as_ref().unwrap();
        assert_eq!((e.name.as_str(), e.dimensions), ("all-minilm-l6-v2", 384));
        assert!(e.config_sha256.is_some());
        assert_eq!(dense.len(), 3);
        // A vector along the `closed` row's dense weights, long enough to outweigh any bucket,
        // makes a plain present statement `closed`, and the embedding its marker.
        let words = features("Your support means a lot to me.");
        let norm = dense[2].iter().map(|w| w * w).sum::<f64>().sqrt();
        let toward_closed: Vec<f32> = dense[2].iter().map(|w| (50.0 * w / norm) as f32).collect();
        assert_eq!(
            predict_embedded(&words, &toward_closed),
            (TemporalClass::Closed, Some("embedding"))
        );
        // With no embedding term the lexical model's own reading is not forced.
        let zero = vec![0.0f32; 384];
        assert_ne!(predict_embedded(&words, &zero).1, Some("embedding"));
    }

    #[test]
    fn the_compiled_model_has_three_classes_and_reads_tense() {
        assert_eq!(
            model().classes,
            [
                TemporalClass::ForwardOpen,
                TemporalClass::CurrentState,
                TemporalClass::Closed
            ]
        );
        // Known answers of the committed model on plain statements with no rule marker.
        let episode = features("Last Friday I went to the car show with my dad.");
        let (class, top) = predict(&episode);
        assert_eq!(class, TemporalClass::Closed, "{top:?}");
        let (class, _) = predict(&features("Let me know how it goes."));
        assert_eq!(class, TemporalClass::ForwardOpen);
        let (class, _) = predict(&features("Your support means a lot to me."));
        assert_eq!(class, TemporalClass::CurrentState);
    }
}
