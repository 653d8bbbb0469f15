//! Two embedders built into the binary, for comparing models against what no model knows:
//! - `hashed[:DIM]`: a bag of words hashed into DIM dimensions (the "hashing trick": each
//!   lower-cased word adds ±1 at the dimension its FNV-1a hash picks, the sign from the hash's
//!   top bit). Its cosine is a word-overlap score: a lexical baseline with no training.
//! - `random[:DIM]`: a unit vector drawn for each text from ChaCha8 seeded with the text's
//!   FNV-1a hash. Its cosines carry no information: the chance row of `models`.
//!
//! Both are deterministic and need no runtime; DIM defaults to 384 (MiniLM's width). Their
//! vectors are computed in memory on every run, never stored.

use super::store::{ModelInfo, Pooling};
use super::vectors::Embedder;
use super::Role;
use crate::error::{Error, Result};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Which built-in embedder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Hashed bag of words.
    Hashed,
    /// A random vector per text.
    Random,
}

/// Width when the spec gives none.
const DEFAULT_DIM: usize = 384;

/// A built-in embedder.
#[derive(Debug, Clone)]
pub(crate) struct BuiltinEmbedder {
    kind: Kind,
    info: ModelInfo,
}

/// FNV-1a, 64 bits (stable across platforms and versions, unlike std's hasher).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

impl BuiltinEmbedder {
    /// The embedder `spec` names (`hashed`, `hashed:256`, `random`, `random:384`), if it names
    /// one; a bad width is a usage error.
    pub(crate) fn parse(spec: &str) -> Option<Result<BuiltinEmbedder>> {
        let (name, dim) = spec.split_once(':').unwrap_or((spec, ""));
        let kind = match name {
            "hashed" => Kind::Hashed,
            "random" => Kind::Random,
            _ => return None,
        };
        let dimensions = if dim.is_empty() {
            DEFAULT_DIM
        } else {
            match dim.parse::<usize>() {
                Ok(d) if (2..=8192).contains(&d) => d,
                _ => {
                    return Some(Err(Error::Usage(format!(
                        "--model {spec}: expected {name}:DIM with DIM from 2 to 8192"
                    ))))
                }
            }
        };
        let (label, source) = match kind {
            Kind::Hashed => ("hashed-bow", "built in: hashed bag of words (FNV-1a, ±1)"),
            Kind::Random => ("random", "built in: a random unit vector per text (chance)"),
        };
        Some(Ok(BuiltinEmbedder {
            kind,
            info: ModelInfo {
                name: format!("{label}-{dimensions}"),
                source: source.into(),
                sha256: None,
                tokenizer_sha256: None,
                dimensions,
                pooling: Pooling::Mean,
                normalize: true,
                query_prefix: String::new(),
                document_prefix: String::new(),
                max_tokens: None,
                service: None,
            },
        }))
    }

    fn vector(&self, text: &str) -> Vec<f32> {
        let dim = self.info.dimensions;
        let mut v = vec![0f32; dim];
        match self.kind {
            Kind::Hashed => {
                let lower = text.to_lowercase();
                let mut words: Vec<&str> = lower
                    .split(|c: char| !c.is_alphanumeric())
                    .filter(|w| !w.is_empty())
                    .collect();
                // A text with no word (empty, or punctuation) is one empty word, so that no
                // vector is all zeros (stores refuse those).
                if words.is_empty() {
                    words.push("");
                }
                for word in words {
                    let h = fnv1a(word.as_bytes());
                    v[(h % dim as u64) as usize] += if h >> 63 == 1 { 1.0 } else { -1.0 };
                }
            }
            Kind::Random => {
                let mut rng = ChaCha8Rng::seed_from_u64(fnv1a(text.as_bytes()));
                for x in &mut v {
                    // Uniform in [-1, 1): the direction of a random point of the cube.
                    *x = (rng.next_u32() as f64 / 2f64.powi(31) - 1.0) as f32;
                }
            }
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        if norm > 0.0 {
            v.iter_mut().for_each(|x| *x /= norm);
        }
        v
    }
}

impl Embedder for BuiltinEmbedder {
    fn info(&self) -> &ModelInfo {
        &self.info
    }

    fn embed(
        &mut self,
        texts: &[&str],
        _role: Role,
        on_batch: &mut dyn FnMut(usize),
    ) -> Result<Vec<Vec<f32>>> {
        let out: Vec<Vec<f32>> = texts.iter().map(|t| self.vector(t)).collect();
        on_batch(texts.len());
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cos(a: &[f32], b: &[f32]) -> f32 {
        a.iter().zip(b).map(|(x, y)| x * y).sum()
    }

    #[test]
    fn hashed_vectors_score_word_overlap_and_random_ones_do_not() {
        let hashed = BuiltinEmbedder::parse("hashed").unwrap().unwrap();
        assert_eq!(hashed.info.name, "hashed-bow-384");
        let (a, b, c) = (
            hashed.vector("Deploy the billing service"),
            hashed.vector("the billing service deploy"),
            hashed.vector("Zebra quantum marmalade"),
        );
        assert!((cos(&a, &b) - 1.0).abs() < 1e-6, "same words, any order");
        assert!(cos(&a, &c).abs() < 0.6);
        let random = BuiltinEmbedder::parse("random:64").unwrap().unwrap();
        let (x, y) = (
            random.vector("Deploy the billing service"),
            random.vector("Deploy the billing service."),
        );
        assert!((cos(&x, &x) - 1.0).abs() < 1e-6);
        assert!(
            cos(&x, &y) < 0.6,
            "a one-character change is another random vector"
        );
        assert_eq!(
            random.vector("same"),
            random.vector("same"),
            "deterministic"
        );
        assert!(BuiltinEmbedder::parse("random:1").unwrap().is_err());
        assert!(BuiltinEmbedder::parse("all-minilm-l6-v2").is_none());
    }
}
