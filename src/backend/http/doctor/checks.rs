//! The checks, in the order `run_checks` runs them; each notes one finding.

use super::*;

impl Doctor<'_> {
    /// Reset, add, then the checks that need a belief that comes back; the error path in any
    /// case; and a closing reset (the store is left empty), checked when something was found.
    pub(super) fn run_checks(&mut self) {
        if !self.reset("reset") {
            self.skip(&[
                "add",
                "round-trip",
                "isolation",
                "scope",
                "scopes",
                "update",
            ]);
            self.skip(&["error-path", "limit", "reset-again", "reset-clears"]);
            return;
        }
        let beliefs = probe_beliefs();
        let added = self.add(&beliefs);
        if !added {
            self.skip(&["round-trip"]);
        }
        let found = added && self.round_trip(&beliefs[0]);
        if found {
            self.isolation();
            self.scope();
            self.update(&beliefs[0]);
        } else {
            self.skip(&["isolation", "scope", "scopes", "update"]);
        }
        self.error_path();
        if found {
            self.limit();
        } else {
            self.skip(&["limit"]);
        }
        if self.reset("reset-again") && found {
            self.reset_clears();
        } else {
            self.skip(&["reset-clears"]);
        }
    }

    fn reset(&mut self, check: &'static str) -> bool {
        match self.client.call(Endpoint::Reset, None) {
            Ok(reply) if reply.ok() => {
                self.note(
                    check,
                    Verdict::Ok,
                    format!("DELETE /reset answered HTTP {}", reply.status),
                    "",
                );
                true
            }
            Ok(reply) => {
                self.note(
                    check,
                    Verdict::Fail,
                    status_saw("DELETE /reset", &reply),
                    "careful mode stops seeding and records the error on every case; compat mode \
                     ignores the status and seeds on top of what the store holds",
                );
                false
            }
            Err(e) => {
                self.note(
                    check,
                    Verdict::Fail,
                    e.message,
                    "no run can reset the store",
                );
                false
            }
        }
    }

    fn add(&mut self, beliefs: &[Belief]) -> bool {
        for belief in beliefs {
            let reply = match self
                .client
                .call(Endpoint::Add, Some(&wire::seed_body(belief, false)))
            {
                Ok(reply) => reply,
                Err(e) => {
                    self.note(
                        "add",
                        Verdict::Fail,
                        e.message,
                        "seeding fails: every case records the error",
                    );
                    return false;
                }
            };
            if !reply.ok() {
                self.note("add", Verdict::Fail, status_saw("POST /add", &reply),
                    "careful mode fails seeding (every case records the error); compat mode counts \
                     the belief as added though the store refused it");
                return false;
            }
            if reply.json().is_none() {
                self.note("add", Verdict::Fail,
                    format!("POST /add answered HTTP {} with a body that is not JSON: {:?}", reply.status, excerpt(&reply.text)),
                    "seeding fails in both modes (upstream's client reads every /add answer as JSON): no case runs");
                return false;
            }
        }
        self.note(
            "add",
            Verdict::Ok,
            format!(
                "POST /add accepted {} beliefs with JSON answers",
                beliefs.len()
            ),
            "",
        );
        true
    }

    /// The belief just added comes back, under its benchmark id.
    fn round_trip(&mut self, belief: &Belief) -> bool {
        let (answer, waited) = match self.search_until(WORD, &belief.id) {
            Ok(found) => found,
            Err(saw) => {
                self.note("round-trip", Verdict::Fail, saw,
                    "careful mode records the error on every case; compat mode scores every case as \
                     retrieving nothing (or loses it, when the body is not JSON)");
                return false;
            }
        };
        let id = &belief.id;
        if !answer.has(id) {
            self.note("round-trip", Verdict::Fail,
                format!("searching {WORD:?} for {USER} returned {} results, none with id {id:?} (waited {} ms)",
                        answer.len, waited.as_millis()),
                "every relevant tier comes back empty: precision and recall 0 in both modes");
            return false;
        }
        let late = waited > Duration::from_millis(500);
        let lateness = if late {
            format!(" after {} ms", waited.as_millis())
        } else {
            String::new()
        };
        if answer.ids.iter().any(|i| i == id) {
            let (verdict, effect) = if late {
                (Verdict::Warn, "the store indexes late: give --seed-delay-ms or --wait-after-seed, or the first cases search an incomplete store")
            } else {
                (Verdict::Ok, "")
            };
            self.note(
                "round-trip",
                verdict,
                format!("{id:?} came back as the result's id{lateness}"),
                effect,
            );
        } else {
            self.note("round-trip", Verdict::Warn,
                format!("{id:?} came back only in metadata.beliefId{lateness} (top-level ids: {:?})",
                        answer.ids.iter().take(3).collect::<Vec<_>>()),
                "ids only in metadata.beliefId: compat mode drops every hit (precision and recall 0, as \
                 upstream would publish); careful mode reads them");
        }
        true
    }

    fn isolation(&mut self) {
        match self.search(WORD, USER, &[], 20) {
            Ok(answer) if answer.has("doctor-probe-other") => self.note("isolation", Verdict::Fail,
                format!("searching for {USER} returned {OTHER_USER}'s belief"),
                "other users' beliefs come back: Cross-user isolation cases fail (they exclude the \
                 other user's ids); careful mode counts them in diagnostics.otherUser"),
            Ok(_) => self.note("isolation", Verdict::Ok,
                format!("searching for {USER} returned none of {OTHER_USER}'s beliefs"), ""),
            Err(saw) => self.note("isolation", Verdict::Fail, saw, "searches fail"),
        }
    }

    /// `scope` filters (or is ignored), and the careful client's `scopes` list is honoured.
    fn scope(&mut self) {
        let first = self.search(WORD, USER, &["domain:code"], 20);
        let filtered = matches!(&first, Ok(a) if !a.has("doctor-probe-writing"));
        match first {
            Ok(a) if a.has("doctor-probe-writing") => self.note(
                "scope",
                Verdict::Warn,
                "a domain:writing belief came back for scope domain:code: scope is not filtered"
                    .into(),
                "out-of-scope beliefs are kept (the client does not filter): Scope disambiguation \
                 cases that exclude them fail; careful mode counts them in diagnostics.outOfScope",
            ),
            Ok(a) if a.has("doctor-probe-code") => self.note(
                "scope",
                Verdict::Ok,
                "scope domain:code returned the domain:code belief only".into(),
                "",
            ),
            Ok(a) => self.note(
                "scope",
                Verdict::Fail,
                format!(
                    "scope domain:code returned {} results, not the domain:code belief",
                    a.len
                ),
                "scoped cases retrieve nothing",
            ),
            Err(saw) => self.note("scope", Verdict::Fail, saw, "scoped searches fail"),
        }
        match self.search(WORD, USER, &["domain:writing", "domain:code"], 20) {
            Ok(_) if !filtered => self.note("scopes", Verdict::Ok,
                "scope is not filtered, so every scope's beliefs come back".into(), ""),
            Ok(a) if a.has("doctor-probe-code") && a.has("doctor-probe-writing") => self.note("scopes", Verdict::Ok,
                "scope domain:writing with scopes [domain:writing, domain:code] returned both beliefs".into(),
                "compat mode sends only the first scope (as upstream); where that filters, the other \
                 scopes' beliefs are missed there and found in careful mode"),
            Ok(a) => self.note("scopes", Verdict::Warn,
                format!("scope domain:writing with scopes [domain:writing, domain:code] returned {} results \
                         without the domain:code belief: only the first scope is read", a.len),
                "multi-scope cases miss every belief outside their first scope, in both modes"),
            Err(saw) => self.note("scopes", Verdict::Fail, saw, "multi-scope searches fail"),
        }
    }

    /// `PUT /update` with a new alias, then a search for it.
    fn update(&mut self, belief: &Belief) {
        // A store that answers any query with the user's beliefs (a vector store returns its
        // nearest) finds the belief by the new alias before the update too, and a finding after
        // it would show nothing: an audit got "give --supports-update" from a store whose
        // updates did nothing.
        match self.search(NEW_ALIAS, USER, &[], 20) {
            Ok(a) if a.has(&belief.id) => {
                return self.note("update", Verdict::Warn,
                    format!("the new alias {NEW_ALIAS:?} finds the belief before any update (the store answers a word it never saw)"),
                    "whether updates work cannot be told from searches: leave supportsUpdate off unless the system says so")
            }
            Ok(_) => {}
            Err(saw) => return self.note("update", Verdict::Fail, saw, "searches fail"),
        }
        let mut updated = belief.clone();
        updated.aliases.push(NEW_ALIAS.into());
        let reply = match self
            .client
            .call(Endpoint::Update, Some(&wire::update_body(&updated)))
        {
            Ok(reply) => reply,
            Err(e) => {
                return self.note(
                    "update",
                    Verdict::Fail,
                    e.message,
                    "session alias updates fail",
                )
            }
        };
        if !reply.ok() {
            return self.note("update", Verdict::Warn, status_saw("PUT /update", &reply),
                "no update: leave supportsUpdate off (the default); sessions re-add the belief with \
                 its new aliases (POST /add), which may leave a duplicate");
        }
        match self.search_until(NEW_ALIAS, &belief.id) {
            Ok((a, _)) if a.has(&belief.id) => self.note("update", Verdict::Ok,
                format!("PUT /update answered HTTP {}; the new alias {NEW_ALIAS:?} finds the belief", reply.status),
                "give --supports-update (supportsUpdate in providers.config.json)"),
            Ok(_) => self.note("update", Verdict::Warn,
                format!("PUT /update answered HTTP {} but the new alias {NEW_ALIAS:?} does not find the belief", reply.status),
                "with --supports-update, session turns that search an added alias miss it (drift)"),
            Err(saw) => self.note("update", Verdict::Fail, saw, "searches fail"),
        }
    }

    /// A search without a query: a careful client wants a 4xx.
    fn error_path(&mut self) {
        let reply = match self.client.call(
            Endpoint::Search,
            Some(br#"{"user_id":"doctor-user-a","limit":20}"#),
        ) {
            Ok(reply) => reply,
            Err(e) => {
                return self.note(
                    "error-path",
                    Verdict::Warn,
                    format!("a search without a query: {}", e.message),
                    "a bad request breaks the connection instead of answering 4xx",
                )
            }
        };
        let saw = format!(
            "a search without a query answered HTTP {}: {}",
            reply.status,
            excerpt(&reply.text)
        );
        match reply.status {
            400..=499 => self.note("error-path", Verdict::Ok, saw, ""),
            500..=599 => self.note("error-path", Verdict::Warn, saw,
                "a bad request answers 5xx: careful mode retries what cannot succeed before recording it"),
            _ => self.note("error-path", Verdict::Warn, saw,
                "a bad request answers 2xx: an error looks like an empty result (scored as a miss, not \
                 an error)"),
        }
    }

    fn limit(&mut self) {
        match self.search(WORD, USER, &[], 1) {
            Ok(a) if a.len <= 1 => self.note("limit", Verdict::Ok, format!("limit 1 returned {} result(s)", a.len), ""),
            Ok(a) => self.note("limit", Verdict::Warn, format!("limit 1 returned {} results", a.len),
                "limit is ignored: the client still keeps at most maxBeliefs (after dropping pinned ids), \
                 so scores do not change; answers are larger than needed"),
            Err(saw) => self.note("limit", Verdict::Fail, saw, "searches fail"),
        }
    }

    fn reset_clears(&mut self) {
        match self.search(WORD, USER, &[], 20) {
            Ok(a) if a.len == 0 => self.note(
                "reset-clears",
                Verdict::Ok,
                "after /reset the probe beliefs are gone".into(),
                "",
            ),
            Ok(a) => {
                // Ids this doctor added (top level or in metadata) are kept data; any other id
                // was never added by anyone here: invented, or another store's.
                let probes: Vec<String> = probe_beliefs().into_iter().map(|b| b.id).collect();
                let kept = a
                    .ids
                    .iter()
                    .chain(&a.metadata_ids)
                    .any(|i| probes.contains(i));
                let never: Vec<&String> = a.ids.iter().filter(|i| !probes.contains(i)).collect();
                let saw = format!("after /reset a search still returned {} results", a.len);
                if kept {
                    self.note("reset-clears", Verdict::Fail, saw,
                        "earlier runs' beliefs stay: re-seeding duplicates them, and ids the client does not \
                         know are dropped (careful mode counts them in diagnostics.unknown)");
                } else {
                    self.note("reset-clears", Verdict::Fail,
                        format!("{saw}, with ids never added: {}", list(&never)),
                        "the store is empty, so these ids were never added here: the system invents ids or \
                         answers from another store (careful mode counts them in diagnostics.unknown and \
                         warns)");
                }
            }
            Err(saw) => self.note("reset-clears", Verdict::Fail, saw, "searches fail"),
        }
    }
}

/// At most five ids, quoted, then how many more.
fn list(ids: &[&String]) -> String {
    let shown: Vec<String> = ids.iter().take(5).map(|i| format!("{i:?}")).collect();
    match ids.len().saturating_sub(5) {
        0 => shown.join(", "),
        more => format!("{} and {more} more", shown.join(", ")),
    }
}
