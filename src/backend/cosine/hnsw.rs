//! Approximate search through an HNSW graph (usearch). Scores of the returned candidates are
//! recomputed exactly by the caller, so exact and HNSW runs report the same numbers whenever
//! the graph finds the same neighbours.
//!
//! usearch replaced hnsw_rs after both were measured on the same vectors (docs/results.md,
//! "Vector search at 1M"): at 100k, usearch built the graph 3.5x faster and searched it 9x
//! faster at equal recall. Optionally (`dims`), the graph holds the vectors projected onto
//! their leading principal directions ([`super::pca`]) and is asked for at least `rerank`
//! candidates, which the caller rescores with the full vectors.

use super::exact::Matrix;
use super::pca::Projection;
use usearch::{Index, IndexOptions, MetricKind, ScalarKind};

/// HNSW construction and search parameters (`--hnsw-m`, `--hnsw-ef-construction`,
/// `--hnsw-ef-search`, `--hnsw-dims`, `--hnsw-rerank`).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct HnswParams {
    /// Neighbours kept per node and layer (M).
    pub max_connections: usize,
    /// Candidate list size while building.
    pub ef_construction: usize,
    /// Candidate list size while searching (raised to the candidates asked for).
    pub ef_search: usize,
    /// Principal directions the graph keeps (0: the full vectors), fitted on the vectors
    /// [`Graph::build`] is given; vectors inserted later are projected the same way.
    pub dims: usize,
    /// Candidates asked of the graph at least, rescored exactly by the caller (0: k).
    pub rerank: usize,
}

impl Default for HnswParams {
    fn default() -> Self {
        HnswParams {
            max_connections: 16,
            ef_construction: 200,
            ef_search: 200,
            dims: 0,
            rerank: 0,
        }
    }
}

/// A usearch failure (its C++ exceptions carry a message only).
#[derive(Debug, thiserror::Error)]
#[error("HNSW index (usearch): {0}")]
pub struct GraphError(String);

fn graph_error(e: impl std::fmt::Display) -> GraphError {
    GraphError(e.to_string())
}

/// An HNSW graph over unit vectors (or their projection); ids are the caller's row numbers.
pub struct Graph {
    index: Index,
    params: HnswParams,
    projection: Option<Projection>,
}

impl Graph {
    fn empty(
        params: HnswParams,
        dims: usize,
        capacity: usize,
        threads: usize,
    ) -> Result<Graph, GraphError> {
        let index = Index::new(&IndexOptions {
            dimensions: dims,
            // Unit vectors: the inner product is the cosine. Projected vectors are not unit,
            // and the inner product is what the projection preserves.
            metric: MetricKind::IP,
            quantization: ScalarKind::F32,
            connectivity: params.max_connections.clamp(2, 256),
            expansion_add: params.ef_construction.max(1),
            expansion_search: params.ef_search.max(1),
            multi: false,
        })
        .map_err(graph_error)?;
        index
            .reserve_capacity_and_threads(capacity.max(1), threads.max(1))
            .map_err(graph_error)?;
        Ok(Graph {
            index,
            params,
            projection: None,
        })
    }

    /// A graph of every row of `rows` (id = row number), built on `threads` threads, projected
    /// first when `params.dims` is below the rows' dimensions.
    pub fn build(params: HnswParams, rows: &Matrix, threads: usize) -> Result<Graph, GraphError> {
        let projection = (params.dims > 0 && params.dims < rows.dims())
            .then(|| Projection::fit(rows, params.dims));
        let dims = projection.as_ref().map_or(rows.dims(), |p| p.to);
        let mut graph = Graph::empty(params, dims, rows.rows(), threads)?;
        graph.projection = projection;
        let threads = threads.max(1);
        let graph_ref = &graph;
        // Row i goes to thread i mod threads; usearch takes concurrent adds.
        std::thread::scope(|scope| {
            let workers: Vec<_> = (0..threads)
                .map(|t| {
                    scope.spawn(move || -> Result<(), GraphError> {
                        for id in (t..rows.rows()).step_by(threads) {
                            graph_ref.add(rows.row(id), id)?;
                        }
                        Ok(())
                    })
                })
                .collect();
            workers.into_iter().try_for_each(|w| {
                w.join()
                    .unwrap_or_else(|_| Err(graph_error("a build thread panicked")))
            })
        })?;
        Ok(graph)
    }

    fn add(&self, v: &[f32], id: usize) -> Result<(), GraphError> {
        match &self.projection {
            Some(p) => self.index.add(id as u64, &p.apply(v)),
            None => self.index.add(id as u64, v),
        }
        .map_err(graph_error)
    }

    /// Add one vector (the graph grows as needed).
    pub(crate) fn insert(&mut self, v: &[f32], id: usize) -> Result<(), GraphError> {
        if self.index.size() >= self.index.capacity() {
            let grown = (self.index.capacity() * 2).max(16);
            self.index.reserve(grown).map_err(graph_error)?;
        }
        self.add(v, id)
    }

    /// Vectors in the graph.
    pub(crate) fn len(&self) -> usize {
        self.index.size()
    }

    /// The projection, when the graph holds reduced vectors.
    pub(crate) fn projection(&self) -> Option<&Projection> {
        self.projection.as_ref()
    }

    /// Bytes the graph holds (usearch's own count: the graph and its vectors).
    pub(crate) fn memory_bytes(&self) -> usize {
        self.index.memory_usage()
    }

    /// Ids of (up to) the `k` nearest vectors that `admitted` accepts, nearest first, among at
    /// least `rerank` candidates: the caller rescores them exactly.
    ///
    /// The filter is applied to what the graph returns, asking for twice as many neighbours
    /// until `k` pass or the graph is exhausted (a filtered walk gives up the graph's early
    /// exit).
    pub fn nearest(&self, query: &[f32], k: usize, admitted: &dyn Fn(usize) -> bool) -> Vec<usize> {
        let total = self.len();
        if k == 0 || total == 0 {
            return Vec::new();
        }
        let projected;
        let query = match &self.projection {
            Some(p) => {
                projected = p.apply(query);
                projected.as_slice()
            }
            None => query,
        };
        // usearch searches with max(ef_search, want) candidates.
        let target = k.max(self.params.rerank).min(total);
        let mut want = target;
        loop {
            let found = self
                .index
                .search(query, want)
                .map(|m| m.keys)
                .unwrap_or_default();
            let exhausted = found.len() < want || want >= total;
            let mut kept: Vec<usize> = found
                .into_iter()
                .map(|key| key as usize)
                .filter(|&id| admitted(id))
                .collect();
            if kept.len() >= target || exhausted {
                kept.truncate(target);
                return kept;
            }
            want = (want * 2).min(total);
        }
    }

    /// Write the graph to `path` (usearch's format) and its projection, if any, to
    /// `path` + `.pca`. Both are written under temporary names and renamed, the projection
    /// first: a graph file at `path` is always whole and has its projection beside it.
    pub(crate) fn save(&self, path: &std::path::Path) -> Result<(), GraphError> {
        let partial = with_suffix(path, ".partial");
        let text = partial
            .to_str()
            .ok_or_else(|| graph_error("a path that is not UTF-8"))?;
        self.index.save(text).map_err(graph_error)?;
        if let Some(p) = &self.projection {
            let pca = with_suffix(path, ".pca");
            let pca_partial = with_suffix(&pca, ".partial");
            std::fs::write(&pca_partial, p.to_bytes()).map_err(graph_error)?;
            std::fs::rename(&pca_partial, &pca).map_err(graph_error)?;
        }
        std::fs::rename(&partial, path).map_err(graph_error)
    }

    /// Read what [`Graph::save`] wrote, for `params`.
    pub(crate) fn load(params: HnswParams, path: &std::path::Path) -> Result<Graph, GraphError> {
        let text = path
            .to_str()
            .ok_or_else(|| graph_error("a path that is not UTF-8"))?;
        let index = Index::restore(text).map_err(graph_error)?;
        index.change_expansion_search(params.ef_search.max(1));
        let pca = with_suffix(path, ".pca");
        let projection = match std::fs::read(&pca) {
            Ok(bytes) => Some(Projection::from_bytes(&bytes).ok_or_else(|| {
                graph_error(format!(
                    "{}: not a projection tenure-eval wrote",
                    pca.display()
                ))
            })?),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(graph_error(e)),
        };
        Ok(Graph {
            index,
            params,
            projection,
        })
    }
}

fn with_suffix(path: &std::path::Path, suffix: &str) -> std::path::PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}
