//! One file per command: its arguments and `run(args) -> Result<ExitCode>`.

pub(crate) mod alias_learning;
pub(crate) mod beam;
pub(crate) mod cache;
pub(crate) mod claims;
pub(crate) mod compare;
pub(crate) mod config;
pub(crate) mod doctor;
pub(crate) mod embed;
pub(crate) mod flywheel;
pub(crate) mod history;
pub(crate) mod html;
pub(crate) mod locomo;
pub(crate) mod longmemeval;
pub(crate) mod merge;
pub(crate) mod models;
pub(crate) mod plot;
pub(crate) mod run;
pub(crate) mod scale;
pub(crate) mod serve;
pub(crate) mod tables;
pub(crate) mod temporal;
pub(crate) mod trec;
pub(crate) mod validate;
pub(crate) mod verify;
