//! Small fixed cases for the two mechanisms a simulation exercises only now and then:
//! counter-signals (claim C6) and compaction (claim C5). Each runs the real store and backend
//! through the same `Replay` the simulation uses, with the mechanism on and off.

use super::metrics::SessionMetrics;
use super::simulate::Replay;
use super::user::Event;
use super::{Mechanisms, Params};
use crate::error::{Error, Result};
use crate::suite::Belief;

/// One query of a fixed case and what it retrieved with the mechanism on and off.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Probe {
    /// The message.
    pub query: String,
    /// The belief it should retrieve.
    pub expected: String,
    /// Ids retrieved with the mechanism on.
    pub on: Vec<String>,
    /// Ids retrieved with it off.
    pub off: Vec<String>,
}

impl Probe {
    /// Retrieved exactly the expected belief with the mechanism on.
    pub fn holds(&self) -> bool {
        self.on == [self.expected.clone()]
    }
}

pub use super::trace::belief;

/// The user whose beliefs fill the index around a fixed case.
pub const BACKGROUND_USER: &str = "flywheel-background";

/// Run `event` on `corpus` with `mechanisms`, then search each query. The case's beliefs sit in
/// an index beside 200 beliefs of the domain that belong to another user: searches never return
/// them, but they give the index the statistics (N, df, avgdl) of a real store. Alone, two or
/// three beliefs give a one-word alias an idf so low that its score stays under the minimum of 3.
fn after(
    corpus: &[Belief],
    event: &Event,
    mechanisms: Mechanisms,
    queries: &[String],
) -> Result<Vec<Vec<String>>> {
    let params = Params::default();
    let (mut all, _) =
        super::user::grown_store(&params, 200).map_err(|e| Error::backend("flywheel", e))?;
    for b in &mut all {
        b.user_id = BACKGROUND_USER.into();
    }
    all.extend_from_slice(corpus);
    let mut replay = Replay::new(&all, &params, mechanisms);
    replay.apply(event, &mut SessionMetrics::default())?;
    replay.reindex()?;
    queries.iter().map(|q| replay.search(q)).collect()
}

fn probes(
    corpus: &[Belief],
    event: &Event,
    off: Mechanisms,
    queries: &[(String, &str)],
) -> Result<Vec<Probe>> {
    let texts: Vec<String> = queries.iter().map(|(q, _)| q.clone()).collect();
    let on = after(corpus, event, Mechanisms::ALL, &texts)?;
    let without = after(corpus, event, off, &texts)?;
    Ok(queries
        .iter()
        .zip(on.into_iter().zip(without))
        .map(|((query, expected), (on, off))| Probe {
            query: query.clone(),
            expected: expected.to_string(),
            on,
            off,
        })
        .collect())
}

/// C6: the user moves from Valkey to Redis. Queries naming Valkey should retrieve the Redis
/// belief (never the superseded one, never nothing).
pub fn counter_signals() -> Result<Vec<Probe>> {
    let corpus = [
        belief(
            "valkey",
            "valkey_session_store",
            &["valkey", "valkey cluster", "session cache"],
        ),
        belief("postgres", "postgres_primary_db", &["postgres", "main db"]),
    ];
    let event = Event::Supersede {
        old: "valkey".into(),
        new: belief("redis", "redis_session_store", &["redis", "redis sessions"]),
    };
    let off = Mechanisms {
        counter_signals: false,
        ..Mechanisms::ALL
    };
    let queries: Vec<(String, &str)> = ["valkey", "valkey cluster", "session cache", "redis"]
        .iter()
        .map(|f| (format!("what did we decide about the {f}"), "redis"))
        .collect();
    probes(&corpus, &event, off, &queries)
}

/// Alias stems no two of which are within one edit of each other (fuzzy matching would
/// otherwise join them).
const NATO: [&str; 26] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu",
];

/// C5: `session_cache` merges into `cache_layer`, each holding `each` aliases (one word each,
/// or two with `two_words`): every term that retrieved either belief should retrieve the
/// survivor. With more than the ceiling between them, the union is cut at the ceiling and the
/// last terms are lost.
pub fn compaction(each: usize, two_words: bool) -> Result<Vec<Probe>> {
    let each = each.min(NATO.len());
    let sep = if two_words { " " } else { "" };
    let a: Vec<String> = NATO[..each]
        .iter()
        .map(|w| format!("cache{sep}{w}"))
        .collect();
    let b: Vec<String> = NATO[..each]
        .iter()
        .map(|w| format!("session{sep}{w}"))
        .collect();
    let a_refs: Vec<&str> = a.iter().map(String::as_str).collect();
    let b_refs: Vec<&str> = b.iter().map(String::as_str).collect();
    merge(&[
        belief("cache", "cache_layer", &a_refs),
        belief("sessions", "session_cache", &b_refs),
    ])
}

/// `corpus[1]` merges into `corpus[0]`; each alias of either, in a message, should retrieve
/// the survivor.
fn merge(corpus: &[Belief; 2]) -> Result<Vec<Probe>> {
    let event = Event::Merge {
        survivor: corpus[0].id.clone(),
        absorbed: corpus[1].id.clone(),
    };
    let off = Mechanisms {
        union: false,
        ..Mechanisms::ALL
    };
    let queries: Vec<(String, &str)> = corpus
        .iter()
        .flat_map(|b| b.aliases.iter())
        .map(|f| (format!("any news on the {f}"), corpus[0].id.as_str()))
        .collect();
    probes(corpus, &event, off, &queries)
}

/// C5 with readable names: a Redis cache and a Redis session store merge.
pub fn compaction_named() -> Result<Vec<Probe>> {
    merge(&[
        belief(
            "cache",
            "redis_cache_layer",
            &["redis cache", "cache layer", "hot cache"],
        ),
        belief(
            "sessions",
            "redis_session_store",
            &["session store", "sessions", "session backend"],
        ),
    ])
}
