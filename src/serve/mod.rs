//! `tenure-eval serve`: a built-in backend behind PrecisionMemBench's provider contract
//! (`/reset`, `/add`, `/search`, `/update`, `/wait`, and `/health`), so that PrecisionMemBench's
//! own harness, or anyone's, can evaluate it.
//!
//! tiny_http rather than axum: the backends are synchronous, a request is microseconds of
//! work, and a blocking server with a few worker threads needs no async runtime. Searches
//! share a read lock; writes (reset, add, update) take the write lock, as does the first search
//! after writes, which indexes them.
//!
//! Ids: `/add` resolves `metadata.beliefId` against the suite (its corpus and the beliefs its
//! sessions create), so BM25 indexes the real canonical name and aliases; an update or a
//! second add of an id replaces it, applying the suite's own alias updates when they make the
//! text that was sent. An unknown id is indexed from the text it came with (canonical name =
//! text, aliases as sent).
//!
//! Writes are indexed at the next `/search` or `/wait`, all at once ([`Backend::apply`]): an
//! `/add` at a time cost bm25 one commit each, most of a served store's time, and left each
//! belief a segment of its own, which a store built from the corpus does not have. A write the
//! backend refuses then fails that search or wait (500), as a system that indexes
//! asynchronously reports it.

mod resolve;

use crate::backend::{Backend, BackendFactory, SearchFilter, SearchRequest, Write};
use crate::error::{Error, Result};
use crate::profile::Profile;
use crate::query;
use crate::suite::{Belief, Suite};
use resolve::Catalogue;
use serde_json::{json, Value};
use std::sync::{Arc, RwLock};

/// What the server holds: the catalogue of suite beliefs, the live index, and the writes
/// acknowledged but not yet indexed (each is a new version when `true`).
struct State {
    catalogue: Catalogue,
    backend: Box<dyn Backend>,
    pending: Vec<(Belief, bool)>,
}

/// A built-in backend, served.
pub struct Server {
    http: tiny_http::Server,
    state: Arc<RwLock<State>>,
    factory: Box<dyn BackendFactory + Send + Sync>,
    profile: Profile,
    latency: std::time::Duration,
    log: Option<std::sync::Mutex<std::io::BufWriter<std::fs::File>>>,
    exit_after_searches: Option<usize>,
    searches: std::sync::atomic::AtomicUsize,
    /// Told each id an `/add` names that is none of the suite's (indexed from its text alone).
    on_unknown: Option<Box<Tell>>,
    unknown: std::sync::atomic::AtomicUsize,
}

/// What `serve` is told of an id none of the suite's: the id, and how many such so far.
type Tell = dyn Fn(&str, usize) + Send + Sync;

/// An answer: status and JSON body.
type Answer = (u16, Value);

fn ok() -> Answer {
    (200, json!({"status": "ok"}))
}

fn detail(status: u16, message: impl std::fmt::Display) -> Answer {
    (status, json!({"detail": message.to_string()}))
}

impl Server {
    /// Bind `addr` (`127.0.0.1:0` picks a free port) and start with an empty store.
    pub fn bind(
        addr: &str,
        suite: &Suite,
        factory: Box<dyn BackendFactory + Send + Sync>,
    ) -> Result<Server> {
        let http = tiny_http::Server::from_listener(listen(addr)?, None)
            .map_err(|e| Error::Usage(format!("cannot listen on {addr}: {e}")))?;
        let backend = factory.build(&[])?;
        Ok(Server {
            http,
            state: Arc::new(RwLock::new(State {
                catalogue: Catalogue::new(suite),
                backend,
                pending: Vec::new(),
            })),
            factory,
            profile: suite.profile,
            latency: std::time::Duration::ZERO,
            log: None,
            exit_after_searches: None,
            searches: Default::default(),
            on_unknown: None,
            unknown: Default::default(),
        })
    }

    /// Call `tell(id, n)` when an `/add` names an id none of the suite's beliefs has (the `n`th
    /// such): it is indexed from the text sent, without the suite's aliases, so a served BM25
    /// scores it otherwise than the suite's belief. The library prints nothing; `serve` says it
    /// (a served system of another suite's ids was scored low in silence). `/health` counts them.
    pub(crate) fn on_unknown_id(
        mut self,
        tell: impl Fn(&str, usize) + Send + Sync + 'static,
    ) -> Server {
        self.on_unknown = Some(Box::new(tell));
        self
    }

    /// Add `latency` to every search, as a remote system would (to try `--concurrency` and
    /// `--timeout` against something real).
    pub fn with_latency(mut self, latency: std::time::Duration) -> Server {
        self.latency = latency;
        self
    }

    /// Write every request to `path` as it arrives, one JSON line each: `{"method", "path",
    /// "body"}` with the body as the exact text received (what `scripts/crosscheck-pmb.sh`
    /// compares between PrecisionMemBench's harness and `--compat pmb`). The file is started
    /// afresh; one there already is replaced only if it is empty or an earlier request log (an
    /// audit pointed it at a report, which it emptied).
    pub(crate) fn with_request_log(mut self, path: &std::path::Path) -> Result<Server> {
        if let Ok(old) = std::fs::read(path) {
            // Bytes, not text: a binary file failed to read as text and was emptied.
            let first = old.split(|b| *b == b'\n').next().unwrap_or(&[]);
            let a_log = serde_json::from_slice::<serde_json::Value>(first)
                .is_ok_and(|v| v.get("method").is_some() && v.get("path").is_some());
            if !old.is_empty() && !a_log {
                return Err(Error::Usage(format!(
                    "--request-log {}: the file is there and is not a request log; name a new \
                     file (the log is started afresh)",
                    path.display()
                )));
            }
        }
        let file = std::fs::File::create(path).map_err(|source| Error::Output {
            path: path.to_path_buf(),
            source,
        })?;
        self.log = Some(std::sync::Mutex::new(std::io::BufWriter::new(file)));
        Ok(self)
    }

    /// A fault for tests: the process exits, unanswered, when search `n + 1` arrives (a crash;
    /// whoever restarts it gets an empty store, as a real restart would).
    pub(crate) fn exit_after_searches(mut self, n: Option<usize>) -> Server {
        self.exit_after_searches = n;
        self
    }

    fn log_request(&self, method: &str, url: &str, body: &str) {
        use std::io::Write;
        if let Some(log) = &self.log {
            if let Ok(mut log) = log.lock() {
                let line = json!({"method": method, "path": url, "body": body});
                // Flushed per line: the server runs until killed.
                let _ = writeln!(log, "{line}").and_then(|()| log.flush());
            }
        }
    }

    /// The address it listens on (`http://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        match self.http.server_addr().to_ip() {
            Some(addr) => format!("http://{addr}"),
            None => "http://?".into(),
        }
    }

    /// Answer requests on `threads` threads until the process ends.
    pub fn run(&self, threads: usize) {
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    while let Ok(request) = self.http.recv() {
                        self.answer(request);
                    }
                });
            }
        });
    }

    fn answer(&self, mut request: tiny_http::Request) {
        let mut body = String::new();
        let (status, value) = match request.as_reader().read_to_string(&mut body) {
            Err(e) => detail(400, format!("unreadable body: {e}")),
            Ok(_) => {
                self.log_request(request.method().as_str(), request.url(), &body);
                if let (Some(n), "/search") = (self.exit_after_searches, request.url()) {
                    let seen = self
                        .searches
                        .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    if seen == n {
                        std::process::exit(70);
                    }
                }
                self.route(request.method().as_str(), request.url(), &body)
            }
        };
        let header = tiny_http::Header::from_bytes("Content-Type", "application/json")
            .expect("a static header is valid");
        let response = tiny_http::Response::from_string(value.to_string())
            .with_status_code(status)
            .with_header(header);
        // A client that hung up gets nothing; the server goes on.
        let _ = request.respond(response);
    }

    /// One request, answered.
    pub(crate) fn route(&self, method: &str, url: &str, body: &str) -> Answer {
        let path = url.split('?').next().unwrap_or(url);
        let parsed = || -> std::result::Result<Value, Answer> {
            serde_json::from_str(body).map_err(|e| detail(400, format!("body is not JSON: {e}")))
        };
        let result = match (method, path) {
            ("GET", "/health") => Ok(self.health()),
            ("DELETE", "/reset") => Ok(self.reset()),
            ("POST", "/wait") => Ok(self.settle().map_or_else(|e| e, |()| ok())),
            ("POST", "/add") => parsed().map(|b| self.add(&b, false)),
            ("PUT", "/update") => parsed().map(|b| self.add(&b, true)),
            ("POST", "/search") => parsed().map(|b| self.search(&b)),
            (_, "/health" | "/reset" | "/wait" | "/add" | "/update" | "/search") => {
                Err(detail(405, format!("{method} is not allowed on {path}")))
            }
            _ => Err(detail(404, format!("no endpoint {path}"))),
        };
        result.unwrap_or_else(|e| e)
    }

    fn health(&self) -> Answer {
        let Ok(state) = self.state.read() else {
            return detail(500, "state lock poisoned");
        };
        (
            200,
            json!({
                "status": "ok",
                "backend": state.backend.info(),
                "beliefs": state.catalogue.live(),
                "unknownIds": self.unknown.load(std::sync::atomic::Ordering::Relaxed),
            }),
        )
    }

    fn reset(&self) -> Answer {
        let Ok(mut state) = self.state.write() else {
            return detail(500, "state lock poisoned");
        };
        match self.factory.build(&[]) {
            Ok(backend) => {
                state.backend = backend;
                state.catalogue.clear();
                state.pending.clear();
                ok()
            }
            Err(e) => detail(500, e),
        }
    }

    /// `/add` (and `/update`, whose body names the id at the top level).
    fn add(&self, body: &Value, update: bool) -> Answer {
        let Ok(mut state) = self.state.write() else {
            return detail(500, "state lock poisoned");
        };
        let belief = match state.catalogue.resolve(body, update) {
            Ok(b) => b,
            Err(message) => return detail(422, message),
        };
        if !state.catalogue.knows(&belief.id) {
            let n = 1 + self
                .unknown
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if let Some(tell) = &self.on_unknown {
                tell(&belief.id, n);
            }
        }
        let replace = state.catalogue.is_live(&belief.id);
        state.catalogue.record(belief.clone());
        let answer = json!({"id": belief.id, "status": "ok"});
        state.pending.push((belief, replace));
        (200, answer)
    }

    /// Index the pending writes, in one batch.
    fn settle(&self) -> std::result::Result<(), Answer> {
        let pending = |state: &State| !state.pending.is_empty();
        if !self.state.read().is_ok_and(|s| pending(&s)) {
            return Ok(());
        }
        let Ok(mut state) = self.state.write() else {
            return Err(detail(500, "state lock poisoned"));
        };
        let State {
            backend, pending, ..
        } = &mut *state;
        let writes: Vec<Write<'_>> = pending
            .iter()
            .map(|(b, new_version)| {
                if *new_version {
                    Write::Replace(b)
                } else {
                    Write::Insert(b)
                }
            })
            .collect();
        let applied = backend.apply(&writes);
        pending.clear();
        applied.map_err(|e| detail(500, e))
    }

    fn search(&self, body: &Value) -> Answer {
        std::thread::sleep(self.latency);
        let Some(message) = body["query"].as_str() else {
            return detail(422, "expected {\"query\": string, ...}");
        };
        // A field of the wrong type is the client's error, said (422), as `/add` says it: a
        // search as the default user, or with the default limit or no scope filter, answered a
        // client's typing bug with a well-formed result (a sixteenth audit).
        let Some(user_id) = body["user_id"].as_str() else {
            return detail(422, "expected a string user_id");
        };
        let limit = match body.get("limit").map(|v| (v, v.as_u64())) {
            None => 20,
            Some((_, Some(n))) => n as usize,
            Some((v, None)) => {
                return detail(422, format!("limit {v}: expected a whole number ≥ 0"))
            }
        };
        let scope = match resolve::scopes(body) {
            Ok(scope) => scope,
            Err(message) => return detail(422, message),
        };
        if let Err(answer) = self.settle() {
            return answer;
        }
        let Ok(state) = self.state.read() else {
            return detail(500, "state lock poisoned");
        };
        let text = query::prepare(message, self.profile).query;
        if text.is_empty() || limit == 0 {
            return (200, json!({"results": []}));
        }
        let hits = state.backend.search(&SearchRequest {
            text: &text,
            message,
            filter: SearchFilter {
                user_id,
                scope: &scope,
                exclude_ids: &[],
            },
            limit,
        });
        match hits {
            Ok(hits) => {
                let results: Vec<Value> = hits
                    .iter()
                    .map(|h| {
                        json!({
                            "id": h.id,
                            "memory": state.catalogue.text(&h.id),
                            "score": h.score,
                            "metadata": {"beliefId": h.id},
                        })
                    })
                    .collect();
                (200, json!({"results": results}))
            }
            Err(e) => detail(500, e),
        }
    }
}

/// A listening socket with TCP_NODELAY, which the connections it accepts inherit (Linux, the
/// BSDs, macOS). tiny_http writes a response's head and body separately; with Nagle's
/// algorithm the body then waits for the client's delayed ACK, about 40 ms on some session
/// turns (issue 22).
fn listen(addr: &str) -> Result<std::net::TcpListener> {
    use socket2::{Domain, Socket, Type};
    use std::net::ToSocketAddrs;
    let fail = |e: std::io::Error| Error::Usage(format!("cannot listen on {addr}: {e}"));
    let at = addr
        .to_socket_addrs()
        .map_err(fail)?
        .next()
        .ok_or_else(|| Error::Usage(format!("cannot listen on {addr}: no address")))?;
    let socket = Socket::new(Domain::for_address(at), Type::STREAM, None).map_err(fail)?;
    socket.set_reuse_address(true).map_err(fail)?;
    socket.set_tcp_nodelay(true).map_err(fail)?;
    socket.bind(&at.into()).map_err(fail)?;
    socket.listen(128).map_err(fail)?;
    Ok(socket.into())
}
