//! A run's label: the one name of a run in its report file names, the run table, `tables`,
//! `compare` and significance rows, figure legends, gate messages, JUnit, the html page and
//! TREC run tags.
//!
//! The rule. `--label NAME` names the run (checked as `--name` is: one plain path component
//! and one TREC field). Otherwise the label is derived: the backend's own name, then its tag,
//! the tokens of the result-changing settings that differ from their defaults, joined by `-`
//! (`rrf(bm25+cosine/all-minilm-l6-v2)-k30-floor0,0.7`; the tokens and their order are
//! `backend::label`'s). A run at defaults has no tag, so it keeps the names it always had.
//!
//! File names: a given label replaces the provider part (`retrieval-report-NAME.json`,
//! `session-retrieval-report-NAME.json`); a tag is added before `.json` to the usual name
//! (`all-minilm-l6-v2-retrieval-report-rrf-k30.json`). Two runs that differ in a
//! result-changing setting never share a file; a rerun with the same settings replaces its own.
//!
//! The manifest records `runLabel` (always) and `runLabelGiven` (when `--label` named it); readers
//! name a report by its given label, else as they always did (the model for cosine, the
//! backend id for the rest of ours, the provider for upstream's) plus the tag from its
//! `backendInfo`. A report without a manifest (upstream's, the published goldens) is named as
//! before.

use crate::backend::BackendInfo;

/// The derived label of a run of `backend`: its label, then `-` and its tag, if any.
pub(crate) fn derived(backend: &BackendInfo) -> String {
    with_tag(&backend.label, backend)
}

/// `base`, then `-` and `backend`'s tag, if it has one.
pub(crate) fn with_tag(base: &str, backend: &BackendInfo) -> String {
    match &backend.tag {
        Some(tag) => format!("{base}-{tag}"),
        None => base.to_string(),
    }
}

/// The name of a run of a backend (not cosine) that scores with `model`: its label with the
/// model after a `-` instead of a `/` (`composite/all-minilm-l6-v2` →
/// `composite-all-minilm-l6-v2`), one plain word for tables, legends and `compare`.
pub(crate) fn with_model(label: &str, model: &str) -> String {
    match label.strip_suffix(model).and_then(|l| l.strip_suffix('/')) {
        Some(backend) => format!("{backend}-{model}"),
        None => format!("{label}-{model}"),
    }
}

/// The run's label: `given` (`--label`) when there is one, else [`derived`].
pub(crate) fn run_label(backend: &BackendInfo, given: Option<&str>) -> String {
    given.map_or_else(|| derived(backend), str::to_string)
}

/// The names `reports` are shown by side by side, one each: each report's run name
/// ([`super::LoadedReport::provider`]), and where two of the same kind would read the same,
/// `·` and the file name after it, or the path as given when the file names are the same too.
/// PrecisionMemBench publishes its mxbai and nomic vector reports both as provider `vector`;
/// `tables` keeps its names (its model table tells them apart by file), the page and
/// `compare`'s runs table use these.
pub(crate) fn shown_names(reports: &[super::LoadedReport]) -> Vec<String> {
    shown_names_of(&reports.iter().collect::<Vec<_>>())
}

/// [`shown_names`] of the reports one table holds (a clash outside it is none).
pub(crate) fn shown_names_of(reports: &[&super::LoadedReport]) -> Vec<String> {
    let clash = |i: usize, same_file: bool| {
        let r = &reports[i];
        reports.iter().enumerate().any(|(j, o)| {
            j != i
                && o.provider == r.provider
                && o.kind == r.kind
                && (!same_file || o.file_name() == r.file_name())
        })
    };
    (0..reports.len())
        .map(|i| {
            let r = &reports[i];
            match (clash(i, false), clash(i, true)) {
                (false, _) => r.provider.clone(),
                (true, false) => format!("{} · {}", r.provider, r.file_name()),
                (true, true) => format!("{} · {}", r.provider, r.path.display()),
            }
        })
        .collect()
}

/// Check a `--label` where it is given: it names report files and is the TREC run tag.
pub(crate) fn check(label: &str) -> crate::Result<()> {
    crate::io::check_system_name("--label", label)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::read::origin::upstream_info;

    #[test]
    fn a_tag_follows_the_backends_label_and_a_given_label_wins() {
        let mut info = upstream_info("tenure");
        assert_eq!(run_label(&info, None), "bm25");
        info.tag = Some("min2".into());
        assert_eq!(run_label(&info, None), "bm25-min2");
        assert_eq!(run_label(&info, Some("mine")), "mine");
        let read = |v| super::super::RecordedManifest::read(std::path::Path::new("m"), "$", v);
        let given = read(serde_json::json!({"runLabel": "mine", "runLabelGiven": true})).unwrap();
        assert_eq!(given.given_label(), Some("mine"));
        let derived = read(serde_json::json!({"runLabel": "bm25"})).unwrap();
        assert_eq!(derived.given_label(), None);
    }

    #[test]
    fn a_scorer_over_a_model_is_named_by_both() {
        let model = "all-minilm-l6-v2";
        assert_eq!(
            with_model("composite/all-minilm-l6-v2", model),
            "composite-all-minilm-l6-v2"
        );
        assert_eq!(
            with_model("composite+bitemporal/all-minilm-l6-v2", model),
            "composite+bitemporal-all-minilm-l6-v2"
        );
        assert_eq!(with_model("spreading", model), "spreading-all-minilm-l6-v2");
    }
}
