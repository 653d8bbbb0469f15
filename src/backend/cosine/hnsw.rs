//! Approximate search through an HNSW graph (hnsw_rs). Scores of the returned candidates are
//! recomputed exactly by the caller, so exact and HNSW runs report the same numbers whenever
//! the graph finds the same neighbours.

use hnsw_rs::anndists::dist::Distance;
use hnsw_rs::hnsw::Hnsw;

/// HNSW construction and search parameters (`--hnsw-m`, `--hnsw-ef-construction`,
/// `--hnsw-ef-search`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HnswParams {
    /// Neighbours kept per node and layer (M).
    pub max_connections: usize,
    /// Candidate list size while building.
    pub ef_construction: usize,
    /// Candidate list size while searching (raised to k when smaller).
    pub ef_search: usize,
    /// Layers at most.
    pub max_layers: usize,
}

impl Default for HnswParams {
    fn default() -> Self {
        HnswParams {
            max_connections: 16,
            ef_construction: 200,
            ef_search: 200,
            max_layers: 16,
        }
    }
}

/// `1 − dot` of unit vectors, clamped at 0. Written here because anndists' `DistDot` asserts
/// `dot <= 1`, which float rounding breaks for a vector and itself.
#[derive(Debug, Default, Clone, Copy)]
pub(super) struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        let dot: f32 = a.iter().zip(b).map(|(x, y)| x * y).sum();
        (1.0 - dot).max(0.0)
    }
}

pub(super) struct Graph {
    hnsw: Hnsw<'static, f32, UnitCosine>,
    params: HnswParams,
}

impl Graph {
    pub(super) fn new(params: HnswParams, expected: usize) -> Graph {
        Graph {
            hnsw: Hnsw::new(
                params.max_connections.clamp(2, 256),
                expected.max(1),
                params.max_layers.clamp(1, 16),
                params.ef_construction.max(1),
                UnitCosine,
            ),
            params,
        }
    }

    pub(super) fn insert(&mut self, v: &[f32], id: usize) {
        self.hnsw.insert_slice((v, id));
    }

    /// Ids of (up to) the `k` nearest vectors that `admitted` accepts.
    pub(super) fn nearest(
        &self,
        query: &[f32],
        k: usize,
        admitted: &dyn Fn(usize) -> bool,
    ) -> Vec<usize> {
        if k == 0 || self.hnsw.get_nb_point() == 0 {
            return Vec::new();
        }
        let filter = |id: &usize| admitted(*id);
        let ef = self.params.ef_search.max(k);
        self.hnsw
            .search_filter(query, k, ef, Some(&filter))
            .into_iter()
            .map(|n| n.d_id)
            .collect()
    }
}
