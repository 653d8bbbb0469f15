//! `embed`'s plan ([`FillPlan`]): the stores of one or more models filled with the vectors a
//! set of suites needs, each suite under its own text policy (the profile's, with the model's
//! overrides), and each store saved in its folder. What happens is told through
//! [`FillEvent`]s, so the command line draws its progress bars and prints its lines, and a
//! library user gets the same stores (docs/embeddings.md).

use crate::backend::cosine::CosineConfig;
use crate::embed::places::Places;
use crate::embed::source::fill;
use crate::embed::{needed_texts, EmbeddingStore};
use crate::error::{Error, Result};
use crate::suite::Suite;
use std::path::Path;
use std::time::Instant;

/// Which stores to fill for which suites.
pub struct FillPlan {
    /// The models, each as a cosine backend's settings: its model (an ONNX folder or a served
    /// model; a store name alone embeds nothing and is refused), store folder and text
    /// overrides.
    pub models: Vec<CosineConfig>,
    /// The suites whose texts are embedded, in order.
    pub suites: Vec<Suite>,
    /// Start each store from nothing: every needed text embedded again, and vectors no suite
    /// needs any more dropped.
    pub refresh: bool,
}

/// What one suite's texts did to one store.
#[derive(Debug, Clone, PartialEq)]
pub struct Filled {
    /// The store's name.
    pub store: String,
    /// The suite's label.
    pub suite: String,
    /// The text policy the texts were embedded under, as `BELIEF+QUERY` text names.
    pub policy: String,
    /// Texts the suite needs under that policy.
    pub needed: usize,
    /// Of those, the ones embedded now (the rest were stored already).
    pub embedded: usize,
    /// Wall time of the embedding (measured).
    pub seconds: f64,
}

/// What a [`FillPlan`] reports while it works, in order.
#[derive(Debug)]
pub enum FillEvent<'a> {
    /// A suite's texts start into a store.
    Start {
        /// The store's name.
        store: &'a str,
        /// The suite's label.
        suite: &'a str,
    },
    /// Texts embedded so far of the suite's missing ones.
    Progress {
        /// Embedded so far.
        done: usize,
        /// Missing when the suite started.
        total: usize,
    },
    /// A suite's texts are in the store.
    Filled(&'a Filled),
    /// A store was written.
    Saved {
        /// Its folder.
        folder: &'a Path,
        /// Vectors it holds.
        vectors: usize,
    },
}

impl FillPlan {
    /// Fill and save every model's store, one after another; what each suite did, in order.
    /// A model that is only a store's name is a usage error naming it, before any work.
    pub fn run(self, on: &mut dyn FnMut(FillEvent)) -> Result<Vec<Filled>> {
        if let Some(config) = self.models.iter().find(|c| !c.source().is_embedder()) {
            return Err(Error::Usage(format!(
                "embed needs a model folder (model.onnx + tokenizer.json) or a served model \
                 (ollama:NAME[@URL], openai:NAME[@URL]); {} is neither",
                config.model
            )));
        }
        let mut out = Vec::new();
        for config in &self.models {
            let source = config.source();
            let (mut embedder, mut store) = if self.refresh {
                source.open_fresh()?
            } else {
                source.open_model()?
            };
            let name = store.model.name.clone();
            for suite in &self.suites {
                out.push(fill_suite(
                    config,
                    suite,
                    &name,
                    embedder.as_mut(),
                    &mut store,
                    on,
                )?);
            }
            let folder = Places::new(config.store_dir.as_deref()).folder(&name);
            store.save(&folder)?;
            on(FillEvent::Saved {
                folder: &folder,
                vectors: store.len(),
            });
        }
        Ok(out)
    }
}

/// One suite's missing texts into `store`.
fn fill_suite(
    config: &CosineConfig,
    suite: &Suite,
    name: &str,
    embedder: &mut dyn crate::embed::Embedder,
    store: &mut EmbeddingStore,
    on: &mut dyn FnMut(FillEvent),
) -> Result<Filled> {
    let policy = config.policy(suite.profile);
    let needed = needed_texts(suite, policy);
    let label = suite.label();
    on(FillEvent::Start {
        store: name,
        suite: &label,
    });
    let start = Instant::now();
    let embedded = fill(embedder, store, policy, &needed, &mut |done, total| {
        on(FillEvent::Progress { done, total })
    })?;
    let filled = Filled {
        store: name.to_string(),
        suite: label,
        policy: policy.label(),
        needed: needed.len(),
        embedded,
        seconds: start.elapsed().as_secs_f64(),
    };
    on(FillEvent::Filled(&filled));
    Ok(filled)
}
