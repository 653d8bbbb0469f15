//! The write half of the report format: reports as upstream shapes them (`json.rs`), static
//! reports streamed case by case (`stream.rs`), and external systems' entries (`external.rs`);
//! all built from the one schema (`super::schema`).

pub mod external;
pub mod json;
pub mod stream;
