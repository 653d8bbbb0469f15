//! A session turn's mutations (spec §I): the belief it creates and the update it makes,
//! applied to the harness's store and to the backend, as upstream applies them.

use super::{attempt, CaseError, Observer};
use crate::backend::{Backend, BackendError, ErrorKind, Reader};
use crate::error::{Error, Result};
use crate::store::BeliefStore;
use crate::suite::Belief;

/// Apply a turn's create and update to the store and the backend. A backend failure is the
/// turn's error (the run goes on); an update of a belief the suite never created is bad input.
pub(super) fn mutate(
    store: &mut BeliefStore,
    backend: &mut dyn Backend,
    turn: &crate::suite::Turn,
    label: &str,
    observer: &mut dyn Observer,
    retries: &mut u32,
) -> Result<std::result::Result<(), CaseError>> {
    let policy = backend.retry_policy();
    let mut outcome = Ok(());
    if let Some(created) = &turn.create_belief_at_turn {
        store.insert(created.clone());
        outcome = outcome.and(attempt(label, policy, retries, observer, || {
            backend.insert(created)
        }));
    }
    if let Some(update) = &turn.update_belief_at_turn {
        if store.get(&update.belief_id).is_none() {
            return Err(Error::backend(
                &backend.info().id,
                format!("update of unknown belief {:?}", update.belief_id),
            ));
        }
        if backend.info().reader == Reader::External {
            // PrecisionMemBench's session adapter uses only `addAliases`: merged locally
            // (trimmed, lower-cased, no repeats) and sent whether or not anything was added
            // (provider-http spec §6.2).
            store.add_aliases(update);
            if let Some(version) = store.get(&update.belief_id).cloned() {
                outcome = outcome.and(attempt(label, policy, retries, observer, || {
                    replace(backend, &version)
                }));
            }
            return Ok(outcome);
        }
        // Upstream issues the `$set` and the `$addToSet` as two MongoDB updates; each one that
        // writes re-indexes the document, leaving a replaced version behind.
        let versions = [
            store.set_fields(update).cloned(),
            store.add_aliases(update).cloned(),
        ];
        for version in versions.into_iter().flatten() {
            outcome = outcome.and(attempt(label, policy, retries, observer, || {
                replace(backend, &version)
            }));
        }
    }
    Ok(outcome)
}

/// Replace, or re-add where the backend has no updates (what PrecisionMemBench does with such
/// providers, spec provider-http §6.2: a second copy under the same id).
fn replace(backend: &mut dyn Backend, version: &Belief) -> std::result::Result<(), BackendError> {
    match backend.replace(version) {
        Err(e) if e.kind == ErrorKind::Unsupported => backend.insert(version),
        other => other,
    }
}
