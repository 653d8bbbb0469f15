//! One file per command: its arguments and `run(args) -> Result<ExitCode>`.

pub mod alias_learning;
pub mod beam;
pub mod cache;
pub mod claims;
pub mod compare;
pub mod config;
pub mod doctor;
pub mod embed;
pub mod flywheel;
pub mod history;
pub mod html;
pub mod locomo;
pub mod longmemeval;
pub mod merge;
pub mod models;
pub mod plot;
pub mod run;
pub mod scale;
pub mod serve;
pub mod tables;
pub mod temporal;
pub mod trec;
pub mod validate;
pub mod verify;
