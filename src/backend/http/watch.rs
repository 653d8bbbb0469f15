//! Knowing early that a run against a memory system went wrong (issue 22): is anything there
//! before seeding, and is the store still the one that was seeded.
//!
//! - `reachable`: one TCP connection to the URL's host and port before seeding. It sends no
//!   HTTP request, so compat mode's requests stay upstream's byte for byte.
//! - [`StoreWatch`] (careful mode only, since it sends searches of its own): after seeding, one
//!   search for a seeded belief's name; whatever seeded ids it finds are the store's signature.
//!   After a transport failure, and whenever a search finds nothing, the same search is sent
//!   again: if it now finds none of them, the store lost what was seeded (a restart with an
//!   empty store, a reset by someone else) and the run stops ([`ErrorKind::Lost`]) rather than
//!   score the rest of the cases against an empty store.

use super::client::{Client, Endpoint, Reply};
use super::wire;
use crate::backend::{BackendError, ErrorKind, RetryPolicy};
use crate::suite::Belief;
use std::collections::HashSet;
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How long the reachability probe waits for a connection.
pub(crate) const PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Can a TCP connection be opened to `url`'s host and port? The error is one line naming the
/// URL and the cause (`connection refused`, `timed out`, a name that does not resolve).
pub(crate) fn reachable(url: &str) -> Result<(), String> {
    let fail = |cause: String| format!("nothing answers at {url}: {cause}");
    let uri: ureq::http::Uri = url.parse().map_err(|e| fail(format!("not a URL ({e})")))?;
    let host = uri
        .host()
        .ok_or_else(|| fail("the URL has no host".into()))?;
    let port = uri
        .port_u16()
        .unwrap_or(if uri.scheme_str() == Some("https") {
            443
        } else {
            80
        });
    let addrs = (host.trim_matches(['[', ']']), port)
        .to_socket_addrs()
        .map_err(|e| fail(format!("cannot resolve {host}: {e}")))?;
    let mut last = None;
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, PROBE_TIMEOUT) {
            Ok(_) => return Ok(()),
            Err(e) => last = Some(e),
        }
    }
    Err(fail(match last {
        Some(e) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            "connection refused (is the memory system running, on this port?)".into()
        }
        Some(e) if e.kind() == std::io::ErrorKind::TimedOut => {
            format!("no connection within {} s ({e})", PROBE_TIMEOUT.as_secs())
        }
        Some(e) => e.to_string(),
        None => format!("{host} resolves to no address"),
    }))
}

/// The careful client's check that the store still holds what was seeded.
#[derive(Debug, Default)]
pub(crate) struct StoreWatch {
    /// The probe's request body and the seeded ids its first answer held (none: no check).
    probe: Option<(Vec<u8>, HashSet<String>)>,
    /// A transport failure happened since the last probe.
    suspect: AtomicBool,
}

impl StoreWatch {
    /// Right after seeding: search for the first seeded belief's name as its user, and keep
    /// the seeded ids found. A store that answers and finds none of them cannot be watched this
    /// way (the watch stays off). A probe that fails in transport is sent again under `policy`
    /// (issue 45): the system may have died on it and been restarted empty by its supervisor,
    /// so an answer that then finds nothing is a lost store, not an unwatchable one, and so is a
    /// system that never answers the probe at all.
    pub(crate) fn after_seeding(
        client: &Client,
        corpus: &[Belief],
        known: &dyn Fn(&str) -> bool,
        policy: &RetryPolicy,
    ) -> Result<StoreWatch, BackendError> {
        let Some(body) = corpus
            .iter()
            .find(|b| !b.canonical_name.is_empty())
            .map(|b| wire::search_body(&b.canonical_name, &b.user_id, 20, &b.scope, true))
        else {
            return Ok(StoreWatch::default());
        };
        // Only the transport is retried here: any answer, a refused status too, says the
        // system is there.
        let mut attempt = 1;
        let mut failed = None;
        let reply = loop {
            match client.call(Endpoint::Search, Some(&body)) {
                Ok(reply) => break reply,
                Err(e) if attempt < policy.attempts => {
                    failed.get_or_insert(e.message);
                    std::thread::sleep(policy.delay(attempt));
                    attempt += 1;
                }
                Err(e) => {
                    return Err(BackendError::new(
                        ErrorKind::Lost,
                        format!(
                            "the store check's probe search right after seeding failed {attempt} \
                             times ({}): the memory system went away once seeded",
                            e.message
                        ),
                    ))
                }
            }
        };
        // An answer the careful client refuses (a status, a shape) leaves the watch off: the
        // cases' own searches meet the same answer and record it.
        let found = found_in(client, reply, known).unwrap_or_default();
        match (found.is_empty(), failed) {
            (true, Some(cause)) => Err(BackendError::new(
                ErrorKind::Lost,
                format!(
                    "the store lost its seeded beliefs: the store check's probe search right after \
                     seeding failed in transport ({cause}), and once answered it finds none of \
                     them (did the memory system restart with an empty store?)"
                ),
            )),
            (true, None) => Ok(StoreWatch::default()),
            (false, _) => Ok(StoreWatch {
                probe: Some((body, found)),
                suspect: AtomicBool::new(false),
            }),
        }
    }

    /// A search failed in transport: the next answer is checked.
    pub(crate) fn transport_failed(&self) {
        self.suspect.store(true, Ordering::Relaxed);
    }

    /// After an answer that found `hits` seeded ids: when it found none, or a transport failure
    /// came before it, probe again; a probe that finds none of the ids it found after seeding
    /// means the store was lost.
    pub(crate) fn check(
        &self,
        client: &Client,
        hits: usize,
        known: &dyn Fn(&str) -> bool,
    ) -> Result<(), BackendError> {
        let Some((body, first)) = &self.probe else {
            return Ok(());
        };
        if hits > 0 && !self.suspect.load(Ordering::Relaxed) {
            return Ok(());
        }
        let now = found(client, body, known)?;
        if now.is_disjoint(first) {
            let mut ids: Vec<_> = first.iter().map(String::as_str).collect();
            ids.sort_unstable();
            return Err(BackendError::new(
                ErrorKind::Lost,
                format!(
                    "the store lost its seeded beliefs: the probe search that found {} after \
                     seeding finds none of them now (did the memory system restart with an \
                     empty store, or did something reset it?)",
                    ids.join(", ")
                ),
            ));
        }
        self.suspect.store(false, Ordering::Relaxed);
        Ok(())
    }
}

/// The seeded ids a probe search finds.
fn found(
    client: &Client,
    body: &[u8],
    known: &dyn Fn(&str) -> bool,
) -> Result<HashSet<String>, BackendError> {
    let reply = client.call(Endpoint::Search, Some(body))?;
    found_in(client, reply, known)
}

/// The seeded ids in a probe search's answer.
fn found_in(
    client: &Client,
    reply: Reply,
    known: &dyn Fn(&str) -> bool,
) -> Result<HashSet<String>, BackendError> {
    let answer = client.checked(Endpoint::Search, reply)?;
    let results = wire::search_results(&answer, true, known).map_err(
        |wire::AnswerError::NullElement(i)| {
            BackendError::permanent(format!("POST /search: results[{i}] is null"))
        },
    )?;
    Ok(results
        .into_iter()
        .filter(|r| known(&r.id))
        .map(|r| r.id)
        .collect())
}
