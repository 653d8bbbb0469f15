//! Approximate search through an HNSW graph (hnsw_rs). Scores of the returned candidates are
//! recomputed exactly by the caller, so exact and HNSW runs report the same numbers whenever
//! the graph finds the same neighbours.

use hnsw_rs::anndists::dist::Distance;
use hnsw_rs::hnsw::Hnsw;

/// HNSW construction and search parameters (`--hnsw-m`, `--hnsw-ef-construction`,
/// `--hnsw-ef-search`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
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
pub(crate) struct UnitCosine;

impl Distance<f32> for UnitCosine {
    fn eval(&self, a: &[f32], b: &[f32]) -> f32 {
        // ndarray's unrolled dot (8 accumulators) vectorises; a plain iterator sum does not.
        let dot = ndarray::ArrayView1::from(a).dot(&ndarray::ArrayView1::from(b));
        (1.0 - dot).max(0.0)
    }
}

/// An HNSW graph over unit vectors; ids are the caller's row numbers.
pub struct Graph {
    hnsw: Hnsw<'static, f32, UnitCosine>,
    params: HnswParams,
}

impl Graph {
    /// An empty graph sized for about `expected` vectors.
    pub fn new(params: HnswParams, expected: usize) -> Graph {
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

    /// Add one vector.
    pub fn insert(&mut self, v: &[f32], id: usize) {
        self.hnsw.insert_slice((v, id));
    }

    /// Add many vectors on every core (for large synthetic stores).
    pub fn insert_many(&mut self, rows: &[(&[f32], usize)]) {
        self.hnsw.parallel_insert_slice(&rows.to_vec());
    }

    /// Ids of (up to) the `k` nearest vectors that `admitted` accepts, nearest first.
    ///
    /// hnsw_rs's own filtered search gives up its early exit and walks most of the graph (about
    /// 15 ms a query at 20k vectors), so the filter is applied afterwards instead, asking the
    /// graph for twice as many neighbours until `k` pass or the graph is exhausted.
    pub fn nearest(&self, query: &[f32], k: usize, admitted: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let total = self.hnsw.get_nb_point();
        if k == 0 || total == 0 {
            return Vec::new();
        }
        let mut want = k.min(total);
        loop {
            let ef = self.params.ef_search.max(want);
            let found = self.hnsw.search(query, want, ef);
            let exhausted = found.len() < want || want >= total;
            let mut kept: Vec<usize> = found
                .into_iter()
                .map(|n| n.d_id)
                .filter(|&id| admitted(id))
                .collect();
            if kept.len() >= k || exhausted {
                kept.truncate(k);
                return kept;
            }
            want = (want * 2).min(total);
        }
    }
}
