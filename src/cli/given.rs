//! Which flags were given on the command line, whatever their values: a flag given for a
//! backend not chosen is refused ([`super::backends::BackendFlags::check`]), and a flag at its
//! default is not one given.

use clap::parser::ValueSource;
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// The ids (field names) of the flags given on the command line, of the subcommand run.
static GIVEN: OnceLock<BTreeSet<String>> = OnceLock::new();

/// Parse the command line, remembering which flags were given.
pub fn parse() -> std::result::Result<super::Cli, clap::Error> {
    use clap::{CommandFactory, FromArgMatches};
    let matches = super::Cli::command().try_get_matches()?;
    let mut given = BTreeSet::new();
    if let Some((_, sub)) = matches.subcommand() {
        for id in sub.ids() {
            if sub.value_source(id.as_str()) == Some(ValueSource::CommandLine) {
                given.insert(id.as_str().to_string());
            }
        }
    }
    let _ = GIVEN.set(given);
    super::Cli::from_arg_matches(&matches)
}

/// Was the flag whose field is `id` given on the command line?
pub fn given(id: &str) -> bool {
    GIVEN.get().is_some_and(|g| g.contains(id))
}
