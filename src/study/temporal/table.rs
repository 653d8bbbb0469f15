//! The evaluation's tables, through the one `render::Table` (markdown, CSV, LaTeX, JSON): per
//! class with the macro averages, bootstrap intervals of the F1s, the accuracy and Cohen's κ ("–" where a
//! figure is undefined: a class never labelled has no recall), the confusion matrix (rows gold, columns
//! predicted), and the misclassified statements; the first table's title names the classifier
//! (its weights' sha256, and the embedder under `--embedder`) or says the predictions were given.

use super::Evaluation;
use crate::render::table::Table;
use crate::temporal::TemporalClass;

/// The three tables of `e`.
pub(crate) fn tables(e: &Evaluation) -> Vec<Table> {
    let f3 = |x: f64| format!("{x:.3}");
    let ci = |i: Option<&crate::eval::stats::Bounds>| {
        i.map_or("–".to_string(), |i| format!("{:.3}–{:.3}", i.low, i.high))
    };
    let mut rows: Vec<Vec<String>> = e
        .per_class
        .iter()
        .map(|(class, s)| {
            // A figure of nothing is "–": precision of a class never predicted, recall of one
            // never labelled, F1 of one neither.
            let cell = |x: Option<f64>| x.map_or("–".to_string(), f3);
            let [precision, recall, f1] = s.defined();
            vec![
                class.to_string(),
                cell(precision),
                cell(recall),
                cell(f1),
                ci(e.intervals.f1.get(class)),
                s.support.to_string(),
            ]
        })
        .collect();
    rows.push(vec![
        "macro".into(),
        f3(e.macro_precision),
        f3(e.macro_recall),
        f3(e.macro_f1),
        ci(Some(&e.intervals.macro_f1)),
        e.total.to_string(),
    ]);
    let kappa = match (e.kappa, &e.intervals.kappa) {
        (Some(k), Some(i)) => format!("; Cohen's κ {k:.3}, {:.3}–{:.3}", i.low, i.high),
        (Some(k), None) => format!("; Cohen's κ {k:.3}"),
        (None, _) => String::new(),
    };
    // Which classifier: the weights' sha256 (as the JSON's `model`), so two evaluations of one
    // file by the lexical and the embedded model never read alike.
    let mut by = match (&e.model, &e.embedder) {
        (None, _) => "predictions given".to_string(),
        (Some(m), None) => format!("lexical model {}", &m[..12]),
        (Some(m), Some(used)) => format!("embedded model {} over {}", &m[..12], used.name),
    };
    if e.model.is_some() && e.given > 0 {
        by.push_str(&format!(", {} predictions given", e.given));
    }
    let per_class = Table::new(
        &format!(
            "Per class (accuracy {:.3}, {} of {}{kappa}; {by})",
            e.accuracy, e.correct, e.total
        ),
        &["class", "precision", "recall", "F1", "F1 95% CI", "support"],
        rows,
    );
    let mut header = vec!["gold \\ predicted".to_string()];
    header.extend(TemporalClass::ALL.iter().map(|c| c.to_string()));
    let header: Vec<&str> = header.iter().map(String::as_str).collect();
    let confusion = Table::new(
        "Confusion",
        &header,
        e.confusion
            .iter()
            .map(|(gold, row)| {
                let mut cells = vec![gold.to_string()];
                cells.extend(row.values().map(usize::to_string));
                cells
            })
            .collect(),
    );
    let misses = Table::new(
        &format!("Misclassified ({})", e.misclassified.len()),
        &["id", "gold", "predicted", "marker"],
        e.misclassified
            .iter()
            .map(|m| {
                let marker = m.marker.clone().unwrap_or_else(|| "default".into());
                vec![
                    m.id.clone(),
                    m.gold.to_string(),
                    m.predicted.to_string(),
                    marker,
                ]
            })
            .collect(),
    );
    vec![per_class, confusion, misses]
}
