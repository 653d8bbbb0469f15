//! The backends a journal needs around the real one: [`Taping`] passes one case's searches to
//! the backend and keeps each call and its answer; [`Playback`] answers a case's searches from
//! its journal entry; [`ReplayBackend`] is who a replay says answered (the recorded identity,
//! settings and seeding), with no system behind it.

use super::{Built, Call};
use crate::backend::{
    Backend, BackendError, BackendFactory, BackendInfo, Hit, RetryPolicy, SearchRequest, Seeding,
    Workload,
};
use crate::error::Result;
use crate::suite::Belief;
use std::sync::Mutex;

/// One case's searches, passed through and, when a journal is written, kept.
pub(crate) struct Taping<'a> {
    inner: &'a dyn Backend,
    keep: bool,
    calls: Mutex<Vec<Call>>,
}

impl<'a> Taping<'a> {
    /// Around `inner`, for one case; `keep`: copy each answer for the journal (without one,
    /// the searches only pass through, at no cost to a run that keeps none).
    pub(crate) fn new(inner: &'a dyn Backend, keep: bool) -> Taping<'a> {
        Taping {
            inner,
            keep,
            calls: Mutex::new(Vec::new()),
        }
    }

    /// The calls that succeeded, in order.
    pub(crate) fn calls(self) -> Vec<Call> {
        self.calls.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Backend for Taping<'_> {
    fn info(&self) -> &BackendInfo {
        self.inner.info()
    }
    fn settings(&self) -> serde_json::Value {
        self.inner.settings()
    }
    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        let hits = self.inner.search(request)?;
        if !self.keep {
            return Ok(hits);
        }
        self.calls
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Call {
                text: request.text.to_string(),
                hits: hits.clone(),
            });
        Ok(hits)
    }
    fn insert(&mut self, _: &Belief) -> std::result::Result<(), BackendError> {
        Err(BackendError::unsupported("insert while taping a search"))
    }
    fn retry_policy(&self) -> RetryPolicy {
        self.inner.retry_policy()
    }
    fn seeding(&self) -> Option<&Seeding> {
        self.inner.seeding()
    }
}

/// One case's searches answered from its journal entry, in order; a search the entry does not
/// hold (another text, or one call too many) is a permanent error naming both.
pub(crate) struct Playback<'a> {
    info: &'a BackendInfo,
    calls: Mutex<std::collections::VecDeque<Call>>,
}

impl<'a> Playback<'a> {
    /// Answering as `info` from `calls`.
    pub(crate) fn new(info: &'a BackendInfo, calls: &[Call]) -> Playback<'a> {
        Playback {
            info,
            calls: Mutex::new(calls.iter().cloned().collect()),
        }
    }
}

impl Backend for Playback<'_> {
    fn info(&self) -> &BackendInfo {
        self.info
    }
    fn settings(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        let mut calls = self.calls.lock().unwrap_or_else(|e| e.into_inner());
        match calls.pop_front() {
            Some(call) if call.text == request.text => Ok(call.hits),
            Some(call) => Err(BackendError::permanent(format!(
                "the journal's search was {:?}, this run's is {:?} (a journal of another \
                 suite or version)",
                call.text, request.text
            ))),
            None => Err(BackendError::permanent(format!(
                "the journal holds no search {:?} for this case",
                request.text
            ))),
        }
    }
    fn insert(&mut self, _: &Belief) -> std::result::Result<(), BackendError> {
        Ok(())
    }
    fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy {
            attempts: 1,
            backoff_ms: 0,
        }
    }
}

/// The backend of a replay: the recorded identity, settings and seeding; mutations are
/// accepted (the session store they change is the harness's), and no search reaches it,
/// since every case is answered by its [`Playback`].
#[derive(Debug, Clone)]
pub(crate) struct ReplayBackend {
    built: Built,
    stats: Option<serde_json::Value>,
}

impl ReplayBackend {
    /// As `built` recorded it, with the counters the run ended with.
    pub(crate) fn new(built: Built, stats: Option<serde_json::Value>) -> ReplayBackend {
        ReplayBackend { built, stats }
    }
}

impl Backend for ReplayBackend {
    fn info(&self) -> &BackendInfo {
        &self.built.backend
    }
    fn settings(&self) -> serde_json::Value {
        self.built.settings.clone()
    }
    fn search(&self, request: &SearchRequest<'_>) -> std::result::Result<Vec<Hit>, BackendError> {
        Err(BackendError::permanent(format!(
            "a replay sends nothing, and the recording has no answer to {:?}",
            request.text
        )))
    }
    fn insert(&mut self, _: &Belief) -> std::result::Result<(), BackendError> {
        Ok(())
    }
    fn replace(&mut self, _: &Belief) -> std::result::Result<(), BackendError> {
        Ok(())
    }
    fn seeding(&self) -> Option<&Seeding> {
        self.built.seeding.as_ref()
    }
    fn stats(&self) -> Option<serde_json::Value> {
        self.stats.clone()
    }
}

impl BackendFactory for ReplayBackend {
    fn build(&self, _: &[Belief]) -> Result<Box<dyn Backend>> {
        Ok(Box::new(self.clone()))
    }
    fn build_for(
        &self,
        _: &[Belief],
        _: Workload,
        _: crate::backend::SeedProgress<'_>,
    ) -> Result<Box<dyn Backend>> {
        Ok(Box::new(self.clone()))
    }
}
