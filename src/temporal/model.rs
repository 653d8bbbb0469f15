//! The TemporalClassifier's learned part: a multinomial logistic regression over the features
//! of [`super::features`], deciding a statement the rules' first three tiers leave open.
//!
//! The weights are `model.json` beside this file, compiled in, written by
//! `scripts/train-temporal.py` from committed labels (docs/temporal.md, "The learned part"). A
//! class's score is its intercept plus the weights of the statement's features (each feature
//! is 0 or 1); the highest score wins, ties to the class listed first in the file.

use super::TemporalClass;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::OnceLock;

/// `model.json` as written by the training script.
#[derive(Debug, Deserialize)]
struct ModelFile {
    classes: Vec<TemporalClass>,
    intercept: Vec<f64>,
    weights: HashMap<String, Vec<f64>>,
}

/// The compiled-in model, parsed once.
fn model() -> &'static ModelFile {
    static MODEL: OnceLock<ModelFile> = OnceLock::new();
    MODEL.get_or_init(|| {
        // The file is a constant of the build, checked by the unit tests below.
        let model: ModelFile = serde_json::from_str(include_str!("model.json"))
            .expect("src/temporal/model.json is the training script's output");
        assert!(
            model.intercept.len() == model.classes.len()
                && model
                    .weights
                    .values()
                    .all(|w| w.len() == model.classes.len()),
            "src/temporal/model.json: one weight per class"
        );
        model
    })
}

/// The model's class for `features`, and the feature that pushed most towards it (the largest
/// weight of the winning class among the statement's features), for the marker.
pub(super) fn predict(features: &[String]) -> (TemporalClass, Option<&'static str>) {
    let m = model();
    let mut scores = m.intercept.clone();
    let mut known: Vec<(&'static str, &'static Vec<f64>)> = Vec::new();
    for f in features {
        if let Some((name, w)) = m.weights.get_key_value(f.as_str()) {
            scores.iter_mut().zip(w).for_each(|(s, w)| *s += w);
            known.push((name.as_str(), w));
        }
    }
    let mut best = 0;
    for (i, s) in scores.iter().enumerate() {
        if *s > scores[best] {
            best = i;
        }
    }
    let top = known
        .iter()
        .max_by(|a, b| a.1[best].total_cmp(&b.1[best]).then(b.0.cmp(a.0)))
        .filter(|(_, w)| w[best] > 0.0)
        .map(|(name, _)| *name);
    (m.classes[best], top)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::temporal::features::features;

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
        let (class, top) = predict(&features("Last Friday I went to the car show with my dad."));
        assert_eq!(class, TemporalClass::Closed, "{top:?}");
        let (class, _) = predict(&features("Let me know how it goes."));
        assert_eq!(class, TemporalClass::ForwardOpen);
        let (class, _) = predict(&features("Your support means a lot to me."));
        assert_eq!(class, TemporalClass::CurrentState);
    }
}
