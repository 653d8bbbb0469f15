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

use super::client::{Client, Endpoint};
use super::wire;
use crate::backend::{BackendError, ErrorKind};
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
pub struct StoreWatch {
    /// The probe's request body and the seeded ids its first answer held (none: no check).
    probe: Option<(Vec<u8>, HashSet<String>)>,
    /// A transport failure happened since the last probe.
    suspect: AtomicBool,
}

impl StoreWatch {
    /// Right after seeding: search for the first seeded belief's name as its user, and keep
    /// the seeded ids found. A store that finds none of them cannot be watched this way (the
    /// watch stays off).
    pub fn after_seeding(
        client: &Client,
        corpus: &[Belief],
        known: &dyn Fn(&str) -> bool,
    ) -> StoreWatch {
        let probe = corpus
            .iter()
            .find(|b| !b.canonical_name.is_empty())
            .map(|b| wire::search_body(&b.canonical_name, &b.user_id, 20, &b.scope, true));
        let probe = probe.and_then(|body| {
            let found = found(client, &body, known).ok()?;
            (!found.is_empty()).then_some((body, found))
        });
        StoreWatch {
            probe,
            suspect: AtomicBool::new(false),
        }
    }

    /// Is the watch on (did the first probe find seeded beliefs)?
    pub fn on(&self) -> bool {
        self.probe.is_some()
    }

    /// A search failed in transport: the next answer is checked.
    pub fn transport_failed(&self) {
        self.suspect.store(true, Ordering::Relaxed);
    }

    /// After an answer that found `hits` seeded ids: when it found none, or a transport failure
    /// came before it, probe again; a probe that finds none of the ids it found after seeding
    /// means the store was lost.
    pub fn check(
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
