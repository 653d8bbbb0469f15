//! Events of a case run on a worker thread, kept until the runner's own thread can hand them
//! to the observer (observers are not shared between threads).

use super::{CaseError, Observer};
use crate::backend::BackendError;

enum Event {
    Retrying(String, u32, BackendError),
    Errored(String, CaseError),
}

/// An observer that records.
#[derive(Default)]
pub(super) struct Recorder {
    events: Vec<Event>,
    /// Extra attempts made.
    pub retries: u32,
}

impl Observer for Recorder {
    fn retrying(&mut self, label: &str, attempt: u32, error: &BackendError) {
        let copy = BackendError::new(error.kind, &error.message);
        self.events
            .push(Event::Retrying(label.to_string(), attempt, copy));
    }

    fn errored(&mut self, label: &str, error: &CaseError) {
        self.events
            .push(Event::Errored(label.to_string(), error.clone()));
    }
}

impl Recorder {
    /// Hand the events to `observer`; returns the extra attempts made.
    pub(crate) fn replay(self, observer: &mut dyn Observer) -> u32 {
        for event in self.events {
            match event {
                Event::Retrying(label, attempt, error) => {
                    observer.retrying(&label, attempt, &error)
                }
                Event::Errored(label, error) => observer.errored(&label, &error),
            }
        }
        self.retries
    }
}
