//! The scale study's vector rows: exact and HNSW cosine search over synthetic sentence-embedding
//! -like vectors of a given count. Recall@10 of the graph (its candidates rescored exactly, as
//! the cosine backend does) against exact search, query latencies, build time and memory.
//!
//! The vectors have a low intrinsic dimension, as sentence embeddings do: a 32-d Gaussian latent
//! mapped into 384 dimensions by a fixed random projection, plus a little isotropic noise,
//! normalised. ChaCha8 with fixed seeds (7 for the vectors, 8 for the queries) makes them the
//! same on every run; `benches/vector_search.rs` uses the same ones.
//!
//! A built graph is cached (`cache`): the file's name is a hash of the vectors and the
//! parameters, so it is reused exactly when neither changed.

use crate::backend::cosine::exact::{top_k, Matrix};
use crate::backend::cosine::hnsw::{Graph, HnswParams};
use crate::backend::cosine::quantized::Int8Rows;
use crate::error::{Error, Result};
use crate::eval::summary::percentile;
use crate::render::table::{number_cell, Table};
use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::Path;
use std::time::Instant;

/// Dimensions of the synthetic vectors (all-MiniLM-L6-v2's).
pub(crate) const DIMS: usize = 384;
/// Queries searched.
pub(crate) const QUERIES: usize = 200;
/// Neighbours compared.
pub(crate) const K: usize = 10;

/// The graph the study builds unless told otherwise: chosen by the measurements in
/// docs/results.md ("Vector search at 1M").
pub(crate) const STUDY_PARAMS: HnswParams = HnswParams {
    max_connections: 32,
    ef_construction: 128,
    ef_search: 200,
    dims: 32,
    rerank: 50,
};

/// What one count of vectors measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct VectorRow {
    /// Vectors searched.
    pub vectors: usize,
    /// The graph's parameters.
    pub params: HnswParams,
    /// Exact search (int8 prefilter, float32 answers): median ms a query. Measured.
    pub exact_p50_ms: f64,
    /// HNSW search with exact rescoring: median ms a query. Measured.
    pub hnsw_p50_ms: f64,
    /// Its 95th percentile, ms. Measured.
    pub hnsw_p95_ms: f64,
    /// Mean share of the exact top 10 the graph's top 10 holds, over the queries.
    pub recall_at_10: f64,
    /// Graph build, s (the projection included); `None` when it came from the cache. Measured.
    pub build_s: Option<f64>,
    /// Threads that built it.
    pub threads: usize,
    /// The graph's memory (usearch's count), MiB. Measured.
    pub graph_mib: f64,
    /// The vectors' memory as float32, MiB.
    pub vectors_mib: f64,
    /// Share of the second moment the projection keeps, when the graph is reduced.
    pub projection_kept: Option<f64>,
    /// The process's peak resident memory, MiB (Linux; a process of its own per count, from
    /// `tenure-eval scale --vectors`). Measured.
    pub peak_rss_mib: Option<f64>,
}

/// Standard normal by Box–Muller.
fn normal(rng: &mut ChaCha8Rng) -> f32 {
    let u1 = ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64;
    let u2 = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// `n` synthetic unit vectors drawn from `seed` (the projection is the same for every seed).
pub(crate) fn synthetic(n: usize, seed: u64) -> Matrix {
    const LATENT: usize = 32;
    let mut basis_rng = ChaCha8Rng::seed_from_u64(1);
    let basis: Vec<f32> = (0..DIMS * LATENT).map(|_| normal(&mut basis_rng)).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut matrix = Matrix::new(DIMS);
    let mut v = vec![0f32; DIMS];
    for _ in 0..n {
        let z: Vec<f32> = (0..LATENT).map(|_| normal(&mut rng)).collect();
        for (d, x) in v.iter_mut().enumerate() {
            let row = &basis[d * LATENT..(d + 1) * LATENT];
            *x = row.iter().zip(&z).map(|(a, b)| a * b).sum::<f32>() + 0.5 * normal(&mut rng);
        }
        let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.iter_mut().for_each(|x| *x /= norm);
        matrix.push(&v);
    }
    matrix
}

/// The cache file of a graph of `rows` with `params`: a hash of both (of the parameters that
/// shape the graph; ef_search and rerank act at search time only).
fn cache_file(dir: &Path, rows: &Matrix, params: &HnswParams) -> std::path::PathBuf {
    let mut hash = Sha256::new();
    hash.update(format!(
        "usearch {} {} m{} efc{} dims{}",
        usearch::version(),
        rows.dims(),
        params.max_connections,
        params.ef_construction,
        params.dims
    ));
    for chunk in rows.as_slice().chunks(1 << 16) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
        hash.update(&bytes);
    }
    let hex: String = hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    dir.join(format!(
        "hnsw-{}x{}-{hex}.usearch",
        rows.rows(),
        rows.dims()
    ))
}

/// The graph of `rows`: read from `cache` when there, else built on `threads` threads (and
/// written there). The build time is `None` for a graph read back.
pub(crate) fn graph(
    rows: &Matrix,
    params: HnswParams,
    threads: usize,
    cache: Option<&Path>,
) -> Result<(Graph, Option<f64>)> {
    let file = cache.map(|dir| cache_file(dir, rows, &params));
    if let Some(file) = file.as_ref().filter(|f| f.is_file()) {
        let graph = Graph::load(params, file).map_err(|e| Error::backend("scale", e))?;
        if graph.len() == rows.rows() {
            return Ok((graph, None));
        }
    }
    let start = Instant::now();
    let graph = Graph::build(params, rows, threads).map_err(|e| Error::backend("scale", e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let (Some(file), Some(dir)) = (file, cache) {
        crate::io::create_folder(dir).map_err(|e| Error::Output {
            path: dir.to_path_buf(),
            source: e,
        })?;
        // Graph::save renames into place: a killed run leaves no half graph.
        graph.save(&file).map_err(|e| Error::backend("scale", e))?;
    }
    Ok((graph, Some(seconds)))
}

/// Measure `n` vectors: exact answers and timing, then the graph's.
pub(crate) fn measure(
    n: usize,
    params: HnswParams,
    threads: usize,
    cache: Option<&Path>,
) -> Result<VectorRow> {
    let rows = synthetic(n, 7);
    let queries = synthetic(QUERIES, 8);
    let mut codes = Int8Rows::new(DIMS);
    (0..n).for_each(|id| codes.push(rows.row(id)));
    let all = |_: usize| true;
    let mut exact_ms = Vec::with_capacity(QUERIES);
    let mut truth = Vec::with_capacity(QUERIES);
    for q in 0..QUERIES {
        let start = Instant::now();
        let (top, _) = codes.top_k(&rows, queries.row(q), K, &all, |id| id);
        exact_ms.push(start.elapsed().as_secs_f64() * 1e3);
        truth.push(top.into_iter().map(|(_, id)| id).collect::<Vec<_>>());
    }
    drop(codes);
    let (graph, build_s) = graph(&rows, params, threads, cache)?;
    let search = |q: &[f32]| {
        let candidates = graph.nearest(q, K, &all);
        top_k(
            candidates
                .into_iter()
                .map(|id| (rows.dot(id, q), id))
                .collect(),
            K,
            |id| id,
        )
    };
    (0..QUERIES).for_each(|q| drop(search(queries.row(q)))); // warm-up
    let mut hnsw_ms = Vec::with_capacity(QUERIES);
    let mut found = 0usize;
    for (q, expected) in truth.iter().enumerate() {
        let start = Instant::now();
        let top = search(queries.row(q));
        hnsw_ms.push(start.elapsed().as_secs_f64() * 1e3);
        found += top.iter().filter(|(_, id)| expected.contains(id)).count();
    }
    exact_ms.sort_by(f64::total_cmp);
    hnsw_ms.sort_by(f64::total_cmp);
    Ok(VectorRow {
        vectors: n,
        params,
        exact_p50_ms: percentile(&exact_ms, 0.5),
        hnsw_p50_ms: percentile(&hnsw_ms, 0.5),
        hnsw_p95_ms: percentile(&hnsw_ms, 0.95),
        // Of the true neighbours: K a query, or every vector of a store smaller than K (an
        // audit found a store of 5 reported at 0.5 with every neighbour found).
        recall_at_10: found as f64 / truth.iter().map(Vec::len).sum::<usize>().max(1) as f64,
        build_s,
        threads,
        graph_mib: graph.memory_bytes() as f64 / (1024.0 * 1024.0),
        vectors_mib: (n * DIMS * 4) as f64 / (1024.0 * 1024.0),
        projection_kept: graph.projection().map(|p| p.kept),
        peak_rss_mib: super::peak_rss_mib(),
    })
}

/// The vector rows' table.
pub(crate) fn table(rows: &[VectorRow]) -> Table {
    let graph = |p: &HnswParams| {
        let mut s = format!(
            "M {}, efc {}, ef {}",
            p.max_connections, p.ef_construction, p.ef_search
        );
        if p.dims > 0 {
            s.push_str(&format!(", {} dims", p.dims));
        }
        if p.rerank > 0 {
            s.push_str(&format!(", rerank {}", p.rerank));
        }
        s
    };
    Table {
        title: "Scale: cosine search over synthetic 384-d vectors (exact and HNSW)".into(),
        header: [
            "Vectors",
            "Exact p50 ms",
            "HNSW p50 ms",
            "HNSW p95 ms",
            "Recall@10",
            "Build s",
            "Graph MiB",
            "Vectors MiB",
            "Peak RSS MiB",
            "Graph",
        ]
        .map(String::from)
        .to_vec(),
        rows: rows
            .iter()
            .map(|r| {
                vec![
                    r.vectors.to_string(),
                    format!("{:.2}", r.exact_p50_ms),
                    format!("{:.3}", r.hnsw_p50_ms),
                    format!("{:.3}", r.hnsw_p95_ms),
                    format!("{:.4}", r.recall_at_10),
                    match r.build_s {
                        Some(s) => format!("{s:.0} ({} threads)", r.threads),
                        None => "cached".into(),
                    },
                    format!("{:.0}", r.graph_mib),
                    format!("{:.0}", r.vectors_mib),
                    number_cell(r.peak_rss_mib, 0),
                    graph(&r.params),
                ]
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small set: the graph finds nearly all of the exact top 10, and a second build of the
    /// same vectors comes from the cache with the same answers.
    #[test]
    fn recall_on_a_small_set_and_the_cache_is_reused() {
        let dir = tempfile::tempdir().unwrap();
        let params = HnswParams {
            rerank: 50,
            dims: 64,
            ..HnswParams::default()
        };
        let first = measure(3_000, params, 2, Some(dir.path())).unwrap();
        assert!(first.recall_at_10 >= 0.99, "{first:?}");
        assert!(first.build_s.is_some());
        let again = measure(3_000, params, 2, Some(dir.path())).unwrap();
        assert_eq!(again.build_s, None, "read from the cache");
        assert_eq!(again.recall_at_10, first.recall_at_10);
        let other = HnswParams { dims: 0, ..params };
        assert!(measure(3_000, other, 2, Some(dir.path()))
            .unwrap()
            .build_s
            .is_some());
    }
}
