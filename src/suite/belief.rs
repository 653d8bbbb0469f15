//! A belief: one typed memory record of the seed corpus (spec §A).

use serde::{Deserialize, Deserializer, Serialize};

/// The belief types the upstream store knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BeliefType {
    /// A named thing (Kubernetes, Redis, a character).
    Entity,
    /// How the user likes things done.
    Preference,
    /// A choice that was made.
    Decision,
    /// A question still open; never a search hit, only reaches the questions tier.
    OpenQuestion,
    /// A link between beliefs (HEAD only); drives one-hop expansion.
    Relation,
}

/// One belief document. Fields that retrieval never reads (`provenance`, `change_log`, ...)
/// are accepted and ignored, as the upstream MongoDB collection does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Belief {
    /// Identity; reports list these.
    #[serde(rename = "_id")]
    pub id: String,
    /// Hard filter everywhere.
    pub user_id: String,
    /// Routes the belief to the search, pinned or questions tier.
    #[serde(rename = "type")]
    pub kind: BeliefType,
    /// HEAD only: `expertise` is excluded from search.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subtype: Option<String>,
    /// Searched (underscores become spaces at index time).
    pub canonical_name: String,
    /// Searched: the main retrieval surface.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// `domain:code`, `domain:writing`, `user:universal`, ...
    #[serde(default)]
    pub scope: Vec<String>,
    /// Drives the pinned-facts and open-questions tiers.
    #[serde(default)]
    pub pinned: bool,
    /// First sort key of pinned facts.
    #[serde(default)]
    pub user_edited: bool,
    /// Second sort key of pinned facts (descending), as Unix milliseconds.
    #[serde(default, deserialize_with = "date", serialize_with = "ser_date")]
    pub last_reinforced_at: Option<i64>,
    /// Non-null means resolved: not active.
    #[serde(default, deserialize_with = "date", serialize_with = "ser_date")]
    pub resolved_at: Option<i64>,
    /// Non-null means superseded: not active.
    #[serde(default)]
    pub superseded_by: Option<String>,
    /// When the belief entered the store (Unix ms): the context scorers' transaction time
    /// (context-scorer spec §6). Retrieval never reads it.
    #[serde(
        default,
        deserialize_with = "date",
        serialize_with = "ser_date",
        skip_serializing_if = "Option::is_none"
    )]
    pub created_at: Option<i64>,
    /// Last change (Unix ms); the context scorers' clock runs to the newest of these.
    #[serde(
        default,
        deserialize_with = "date",
        serialize_with = "ser_date",
        skip_serializing_if = "Option::is_none"
    )]
    pub updated_at: Option<i64>,
    /// `active`, `inferred`, `exploratory`, `superseded`: the context scorers' confidence
    /// when `confidence` is absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub epistemic_status: Option<String>,
    /// Tenure's confidence in [0, 1]: the context scorers' confidence signal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confidence: Option<f64>,
    /// HEAD relations: the beliefs this one links.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub participants: Vec<String>,
    /// HEAD relations: the kind of link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relation_type: Option<String>,
    /// Not searched by BM25; embedded by PrecisionMemBench's vector baseline.
    #[serde(default)]
    pub content: String,
    /// Not searched by BM25; embedded by PrecisionMemBench's vector baseline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub why_it_matters: Option<String>,
    /// Start of the belief's valid time (ISO 8601, as `created_at`), Unix milliseconds; our
    /// extension for the bitemporal scorer (spec context-scorer §5), unknown upstream.
    #[serde(default, with = "iso_date", skip_serializing_if = "Option::is_none")]
    pub valid_from: Option<i64>,
    /// End of the belief's valid time: set means the content no longer holds (closed).
    #[serde(default, with = "iso_date", skip_serializing_if = "Option::is_none")]
    pub valid_to: Option<i64>,
}

impl Belief {
    /// A belief of `user_id` named `canonical_name`, with nothing else set (no aliases, scopes,
    /// content, dates or flags): what a belief made in code starts from, the rest given by
    /// struct update (`Belief { aliases, ..Belief::new(...) }`).
    pub(crate) fn new(
        id: String,
        user_id: String,
        kind: BeliefType,
        canonical_name: String,
    ) -> Belief {
        Belief {
            id,
            user_id,
            kind,
            subtype: None,
            canonical_name,
            aliases: Vec::new(),
            scope: Vec::new(),
            pinned: false,
            user_edited: false,
            last_reinforced_at: None,
            resolved_at: None,
            superseded_by: None,
            created_at: None,
            updated_at: None,
            epistemic_status: None,
            confidence: None,
            participants: Vec::new(),
            relation_type: None,
            content: String::new(),
            why_it_matters: None,
            valid_from: None,
            valid_to: None,
        }
    }

    /// Neither resolved nor superseded.
    pub(crate) fn is_active(&self) -> bool {
        self.resolved_at.is_none() && self.superseded_by.is_none()
    }

    /// MongoDB `scope: {$in: scopes}` on an array field.
    pub(crate) fn in_scope(&self, scopes: &[String]) -> bool {
        self.scope.iter().any(|s| scopes.contains(s))
    }
}

/// ISO 8601 date-time or null, as the harness's `new Date(string)` accepts them.
fn date<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let raw: Option<String> = Option::deserialize(d)?;
    raw.map(|s| {
        chrono::DateTime::parse_from_rfc3339(&s)
            .map(|t| t.timestamp_millis())
            .map_err(|_| {
                serde::de::Error::custom(format!(
                    "expected an ISO 8601 date-time such as \"2026-10-01T00:00:00Z\" or null, found {s:?}"
                ))
            })
    })
    .transpose()
}

/// `date` and `ser_date` as one serde `with` module, for the optional valid-time fields.
mod iso_date {
    use serde::{Deserializer, Serializer};

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
        super::date(d)
    }

    pub(crate) fn serialize<S: Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
        super::ser_date(v, s)
    }
}

fn ser_date<S: serde::Serializer>(v: &Option<i64>, s: S) -> Result<S::Ok, S::Error> {
    match v.and_then(chrono::DateTime::from_timestamp_millis) {
        Some(t) => s.serialize_str(&t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
        None => s.serialize_none(),
    }
}
