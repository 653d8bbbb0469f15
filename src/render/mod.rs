//! Renderings of reports for people: the self-contained HTML explorer ([`html`]).

pub mod html;
