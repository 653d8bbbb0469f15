//! Evaluation: assertions turn a context into failures, metrics into numbers (spec §F, §G).

pub mod assertions;
pub mod metrics;
pub mod qrels;
pub mod rank;
pub(crate) mod stats;
pub(crate) mod summary;
