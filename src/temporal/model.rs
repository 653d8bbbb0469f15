//! The TemporalClassifier's learned part: a multinomial logistic regression over the features
//! of [`super::features`], deciding a statement the rules' first three tiers leave open.
//!
//! The weights are `model.json` beside this file, compiled in, written by
//! `scripts/train-temporal.py` from committed labels (docs/temporal.md, "The learned part").
//! Features are hashed into buckets ([`super::features::buckets`]), and the file maps bucket
//! numbers to weights: it holds numbers, not the words and word pairs of the text it was
//! trained on. A class's score is its intercept plus the weights of the statement's buckets
//! (each 0 or 1); the highest score wins, ties to the class listed first in the file.

use super::TemporalClass;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `model.json`, compiled in.
const WEIGHTS: &str = include_str!("model.json");

/// `model.json` as written by the training script.
#[derive(Debug, Deserialize)]
struct ModelFile {
    classes: Vec<TemporalClass>,
    intercept: Vec<f64>,
    /// Bucket number (as a JSON key) to one weight per class.
    weights: HashMap<String, Vec<f64>>,
    /// The bucket count the features were hashed into.
    buckets: u64,
}

/// The model, its weights by bucket.
struct Model {
    classes: Vec<TemporalClass>,
    intercept: Vec<f64>,
    weights: HashMap<u32, Vec<f64>>,
}

/// The compiled-in model, parsed once.
fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        // The file is a constant of the build, checked by the unit tests below.
        let file: ModelFile = serde_json::from_str(WEIGHTS)
            .expect("src/temporal/model.json is the training script's output");
        assert_eq!(
            file.buckets,
            super::features::BUCKETS,
            "src/temporal/model.json: buckets"
        );
        let weights: HashMap<u32, Vec<f64>> = file
            .weights
            .into_iter()
            .map(|(k, w)| {
                (
                    k.parse().expect("src/temporal/model.json: bucket numbers"),
                    w,
                )
            })
            .collect();
        assert!(
            file.intercept.len() == file.classes.len()
                && weights.values().all(|w| w.len() == file.classes.len()),
            "src/temporal/model.json: one weight per class"
        );
        Model {
            classes: file.classes,
            intercept: file.intercept,
            weights,
        }
    })
}

/// The sha256 of the compiled-in `model.json`: which weights classified, so an evaluation can
/// be checked against the commit whose file it names (docs/temporal.md, "A slip in the
/// scoring").
pub(crate) fn weights_sha256() -> String {
    crate::io::sha256_hex(WEIGHTS.as_bytes())
}

/// The model's class for `features`, and the feature that pushed most towards it (the largest
/// weight of the winning class among the statement's features, ties to the first by name), for
/// the marker.
pub(super) fn predict(features: &[String]) -> (TemporalClass, Option<&str>) {
    let m = model();
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
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = i;
        }
    }
    known.retain(|(_, _, w)| w[best] > 0.0);
    let top = known
        .iter()
        .max_by(|a, b| a.2[best].total_cmp(&b.2[best]).then(b.0.cmp(a.0)))
        .map(|(name, _, _)| *name);
    (m.classes[best], top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::temporal::features::features;

    #[test]
    fn the_weights_file_holds_bucket_numbers_not_text() {
        let file: serde_json::Value = serde_json::from_str(include_str!("model.json")).unwrap();
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
            assert!(!include_str!("model.json").contains(text), "{text}");
        }
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
