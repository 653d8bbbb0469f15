//! What an index keeps of a belief for its search filter: a tenth of the belief (no names,
//! aliases or content), with the strings a large store repeats (users, scope lists) held once.

use crate::suite::{Belief, BeliefType};
use std::collections::HashSet;
use std::sync::Arc;

/// What a search filter reads of a belief. The id is shared with the index's id map, and the
/// user and scope list with every belief that has the same ones: at 1M beliefs about 100 bytes
/// a belief, against 220 with owned strings.
#[derive(Debug, Clone, PartialEq)]
pub struct Filterable {
    /// Belief id.
    pub id: Arc<str>,
    /// Owner.
    pub user_id: Arc<str>,
    /// Neither resolved nor superseded.
    pub active: bool,
    /// Type.
    pub kind: BeliefType,
    /// Subtype `expertise` (never a search hit).
    pub expertise: bool,
    /// Scopes.
    pub scope: Arc<[Arc<str>]>,
}

/// Hands out one shared copy of each user id and scope list it has seen.
#[derive(Debug, Default)]
pub(crate) struct Interner {
    strings: HashSet<Arc<str>>,
    lists: HashSet<Arc<[Arc<str>]>>,
}

impl Interner {
    /// What the filter needs of `belief`, its repeated strings shared.
    pub(crate) fn keep(&mut self, belief: &Belief) -> Filterable {
        let scope: Vec<Arc<str>> = belief.scope.iter().map(|s| self.string(s)).collect();
        let scope = match self.lists.get(scope.as_slice()) {
            Some(list) => list.clone(),
            None => {
                let list: Arc<[Arc<str>]> = scope.into();
                self.lists.insert(list.clone());
                list
            }
        };
        Filterable {
            id: Arc::from(belief.id.as_str()),
            user_id: self.string(&belief.user_id),
            active: belief.is_active(),
            kind: belief.kind,
            expertise: belief.subtype.as_deref() == Some("expertise"),
            scope,
        }
    }

    fn string(&mut self, s: &str) -> Arc<str> {
        if let Some(kept) = self.strings.get(s) {
            return kept.clone();
        }
        let kept: Arc<str> = Arc::from(s);
        self.strings.insert(kept.clone());
        kept
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repeated_users_and_scope_lists_are_shared() {
        use crate::suite::{Suite, SuiteSource};
        let corpus = Suite::load(&SuiteSource::Builtin("pmb".into()))
            .expect("built-in suite")
            .corpus;
        let mut interner = Interner::default();
        let kept: Vec<Filterable> = corpus.iter().map(|b| interner.keep(b)).collect();
        for (k, b) in kept.iter().zip(&corpus) {
            assert_eq!(&*k.id, b.id);
            assert_eq!(&*k.user_id, b.user_id);
            assert_eq!(k.scope.iter().map(|s| &**s).collect::<Vec<_>>(), b.scope);
            assert_eq!(k.active, b.is_active());
        }
        let same_user = kept.iter().filter(|k| &*k.user_id == "test-user");
        assert!(same_user
            .clone()
            .all(|k| Arc::ptr_eq(&k.user_id, &kept[0].user_id)));
        assert_eq!(interner.lists.len(), {
            let mut lists: Vec<&Vec<String>> = corpus.iter().map(|b| &b.scope).collect();
            lists.sort();
            lists.dedup();
            lists.len()
        });
    }
}
