//! tenure-eval: measure how precisely LLM memory systems retrieve what a user told them.
//!
//! Data flows one way: [`suite`] → [`backend`] → [`context`] → [`eval`] → [`report`], driven
//! by [`run`].
#![deny(missing_docs)]

pub mod backend;
pub mod context;
pub mod error;
pub mod eval;
pub mod js;
pub mod profile;
pub mod query;
pub mod report;
pub mod run;
pub mod store;
pub mod suite;

pub use error::{Error, Result};
pub use profile::Profile;
