//! Known answers: one statement per marker family of spec §5 matched as its class by the
//! rules, the hard negatives no rule fires on, which rules decide and which leave the
//! statement to the model, metadata overriding the text, and the optional valid-time fields
//! round-tripping.

use super::*;

/// The class the rules alone give (`None`: no marker).
fn class(text: &str) -> Option<TemporalClass> {
    markers::find_marker(text).map(|m| m.class)
}

/// The rules' `family:phrase` (empty: no marker).
fn marker(text: &str) -> String {
    markers::find_marker(text)
        .map(|m| format!("{}:{}", m.family, m.phrase))
        .unwrap_or_default()
}

#[test]
fn each_spec_marker_class_is_classified_as_that_class() {
    use TemporalClass::*;
    let cases = [
        // forward-open: future or decisional constructions
        (
            "From now on, every migration needs a down script.",
            ForwardOpen,
            "future:from now on",
        ),
        (
            "Going forward we pin all GitHub Actions to a SHA.",
            ForwardOpen,
            "future:going forward",
        ),
        (
            "We will ship the billing service on Kubernetes.",
            ForwardOpen,
            "future:we will",
        ),
        (
            "I've decided to keep the monolith for now.",
            ForwardOpen,
            "decision:i've decided",
        ),
        // forward-open: constraint language
        (
            "Always run the linter before pushing.",
            ForwardOpen,
            "constraint:always",
        ),
        (
            "We never force-push to main.",
            ForwardOpen,
            "constraint:we never",
        ),
        (
            "The rule is one approval per pull request.",
            ForwardOpen,
            "constraint:the rule is",
        ),
        (
            "The requirement is p99 under 200 ms.",
            ForwardOpen,
            "constraint:the requirement is",
        ),
        // forward-open: present commitment to a forward state
        (
            "We're using pnpm for the monorepo.",
            ForwardOpen,
            "commitment:we're using",
        ),
        (
            "The API will expect an idempotency key.",
            ForwardOpen,
            "future:will expect",
        ),
        // closed: superseded states
        (
            "We used to deploy with Capistrano.",
            Closed,
            "superseded:used to",
        ),
        (
            "Previously the cache lived in Memcached.",
            Closed,
            "superseded:previously",
        ),
        (
            "Before the refactor, auth was in the gateway.",
            Closed,
            "superseded:before the refactor",
        ),
        (
            "In the old version the endpoint returned XML.",
            Closed,
            "superseded:in the old version",
        ),
        // closed: explicit bounds and past existentials
        (
            "Staging ran on a single node until last week.",
            Closed,
            "bound:until last week",
        ),
        (
            "Before we changed the schema, ids were integers.",
            Closed,
            "bound:before we changed",
        ),
        (
            "There was a cron job that rotated the logs.",
            Closed,
            "past_existential:there was",
        ),
        (
            "It had a hard limit of 100 connections.",
            Closed,
            "past_existential:it had a",
        ),
        // backward mutation: correction, retroactive scope, clarification
        (
            "Actually, the service listens on 8443.",
            Correction,
            "correction:actually",
        ),
        (
            "I was wrong about the timeout: it's 30 seconds.",
            Correction,
            "correction:i was wrong",
        ),
        (
            "Correction: the bucket is in eu-west-1.",
            Correction,
            "correction:correction",
        ),
        (
            "This has always been a Postgres 15 cluster.",
            Correction,
            "retroactive:this has always been",
        ),
        (
            "That was never the case for the admin API.",
            Correction,
            "retroactive:that was never the case",
        ),
        (
            "To clarify, the flag is read at startup only.",
            Correction,
            "clarification:to clarify",
        ),
        (
            "The correct version is 2.4.1.",
            Correction,
            "clarification:the correct version is",
        ),
    ];
    for (text, want, want_marker) in cases {
        assert_eq!(class(text), Some(want), "{text:?}");
        assert_eq!(marker(text), want_marker, "{text:?}");
    }
    // no marker: the model decides
    assert_eq!(class("The build takes about twelve minutes."), None);
}

#[test]
fn the_first_three_tiers_decide_and_the_model_the_rest() {
    use TemporalClass::*;
    // Tier 1 (correction), 2 (strong forward), 3 (closed): the rule's class and marker.
    for (text, want) in [
        (
            "I was wrong about the timeout: it's 30 seconds.",
            Correction,
        ),
        (
            "From now on, every migration needs a down script.",
            ForwardOpen,
        ),
        ("We used to deploy with Capistrano.", Closed),
    ] {
        let got = classify_text(text);
        assert_eq!((got.class, got.source), (want, Source::Text), "{text:?}");
    }
    // A weak forward marker (tier 5), a leading "No," and no marker at all: the model, whose
    // marker names the feature that weighed most.
    for text in [
        "We will ship the billing service on Kubernetes.",
        "No, I haven't read them yet but I'll definitely check them out.",
        "The build takes about twelve minutes.",
    ] {
        let got = classify_text(text);
        assert_eq!(got.source, Source::Model, "{text:?}");
        assert!(
            got.marker
                .as_deref()
                .is_none_or(|m| m.starts_with("model:")),
            "{got:?}"
        );
    }
    assert_eq!(
        classify_text("We will ship the billing service on Kubernetes.").class,
        ForwardOpen
    );
}

#[test]
fn hard_negatives_do_not_fire_their_markers() {
    use TemporalClass::*;
    // "always" / "never" that constrain nothing
    assert_eq!(
        class("The integration tests always time out on Windows runners."),
        None
    );
    assert_eq!(class("It's always DNS."), None);
    // "actually" that corrects nothing
    assert_eq!(class("The new index actually made the query fast."), None);
    // past tense that is still current
    assert_eq!(class("We migrated the queue to SQS in March."), None);
    // "used to" as "accustomed to", and a measurement after "we're using"
    assert_eq!(class("The team is used to trunk-based development."), None);
    assert_eq!(class("We're using 80% of the disk on the primary."), None);
    // a future ending of a state is a commitment, not history
    assert_eq!(
        class("We will no longer support Node 16."),
        Some(ForwardOpen)
    );
    // a correction that also commits forward corrects first
    assert_eq!(
        class("Actually, from now on we deploy on Tuesdays."),
        Some(Correction)
    );
}

#[test]
fn markers_read_typographic_apostrophes_and_case() {
    assert_eq!(
        marker("WE\u{2019}RE USING Bun now"),
        "commitment:we're using"
    );
}

fn belief(extra: serde_json::Value) -> crate::suite::Belief {
    let mut value = serde_json::json!({
        "_id": "b1", "user_id": "u", "type": "entity", "canonical_name": "release_train",
        "content": "We used to release every Friday.",
    });
    for (k, v) in extra.as_object().unwrap() {
        value[k] = v.clone();
    }
    serde_json::from_value(value).unwrap()
}

#[test]
fn metadata_overrides_text() {
    use TemporalClass::*;
    let text_only = classify_belief(&belief(serde_json::json!({})));
    assert_eq!((text_only.class, text_only.source), (Closed, Source::Text));

    let decided = classify_belief(&belief(serde_json::json!({"type": "decision"})));
    assert_eq!(decided.class, ForwardOpen);
    assert_eq!(decided.marker.as_deref(), Some("metadata:type=decision"));
    assert_eq!(decided.source, Source::Metadata);

    let constraint = classify_belief(&belief(
        serde_json::json!({"subtype": "constraint", "content": "The build takes ten minutes."}),
    ));
    assert_eq!(constraint.class, ForwardOpen);

    let forward_text = serde_json::json!({"content": "From now on we release on Fridays."});
    let superseded = belief(serde_json::json!({"superseded_by": "b2", "type": "decision"}));
    assert_eq!(
        classify_belief(&superseded).marker.as_deref(),
        Some("metadata:superseded_by")
    );
    let mut bounded = belief(forward_text.clone());
    assert_eq!(classify_belief(&bounded).class, ForwardOpen);
    bounded.valid_to = Some(0);
    let got = classify_belief(&bounded);
    assert_eq!(
        (got.class, got.marker.as_deref()),
        (Closed, Some("metadata:valid_to"))
    );
    let mut resolved = belief(forward_text);
    resolved.resolved_at = Some(0);
    assert_eq!(
        classify_belief(&resolved).marker.as_deref(),
        Some("metadata:resolved_at")
    );
}

#[test]
fn valid_time_fields_are_optional_and_round_trip() {
    let none = belief(serde_json::json!({}));
    assert_eq!((none.valid_from, none.valid_to), (None, None));
    let json = serde_json::to_value(&none).unwrap();
    assert!(json.get("valid_from").is_none() && json.get("valid_to").is_none());

    let set = belief(serde_json::json!({
        "valid_from": "2026-10-01T00:00:00Z", "valid_to": "2026-10-08T12:00:00.000Z"
    }));
    assert_eq!(set.valid_from, Some(1_790_812_800_000));
    assert_eq!(
        set.valid_to,
        Some(1_790_812_800_000 + 7 * 86_400_000 + 43_200_000)
    );
    let back: crate::suite::Belief =
        serde_json::from_value(serde_json::to_value(&set).unwrap()).unwrap();
    assert_eq!(back, set);

    let bad = serde_json::from_value::<crate::suite::Belief>(serde_json::json!({
        "_id": "b", "user_id": "u", "type": "entity", "canonical_name": "x", "valid_to": "last week"
    }));
    assert!(bad.unwrap_err().to_string().contains("ISO 8601"));
}
