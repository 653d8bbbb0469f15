//! Exact cosine search: one matrix-vector product over every stored unit vector (ndarray).

use ndarray::{ArrayView1, ArrayView2};

/// Row-major unit vectors, one row per belief version (or any id).
#[derive(Debug, Clone)]
pub struct Matrix {
    dims: usize,
    data: Vec<f32>,
}

impl Matrix {
    /// An empty matrix of `dims` columns.
    pub fn new(dims: usize) -> Matrix {
        Matrix {
            dims,
            data: Vec::new(),
        }
    }

    /// Append a row (its id is the row number).
    pub fn push(&mut self, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dims);
        self.data.extend_from_slice(v);
    }

    /// Columns of a row.
    pub(crate) fn dims(&self) -> usize {
        self.dims
    }

    /// Every row, one after another.
    pub(crate) fn as_slice(&self) -> &[f32] {
        &self.data
    }

    /// Number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.data.len() / self.dims.max(1)
    }

    /// Row `id`.
    pub(crate) fn row(&self, id: usize) -> &[f32] {
        &self.data[id * self.dims..(id + 1) * self.dims]
    }

    /// Cosine of row `id` with the unit vector `query`.
    pub(crate) fn dot(&self, id: usize, query: &[f32]) -> f32 {
        let row = &self.data[id * self.dims..(id + 1) * self.dims];
        ArrayView1::from(row).dot(&ArrayView1::from(query))
    }

    /// `(cosine, row)` of every row that `admitted` accepts, in row order.
    pub fn scores(&self, query: &[f32], admitted: &dyn Fn(usize) -> bool) -> Vec<(f32, usize)> {
        let Ok(matrix) = ArrayView2::from_shape((self.rows(), self.dims), &self.data) else {
            return Vec::new();
        };
        matrix
            .dot(&ArrayView1::from(query))
            .iter()
            .enumerate()
            .filter(|&(id, _)| admitted(id))
            .map(|(id, &score)| (score, id))
            .collect()
    }
}

/// The `k` highest `(score, id)` pairs, best first; equal scores in ascending `tie(id)` order.
pub fn top_k(
    mut scored: Vec<(f32, usize)>,
    k: usize,
    tie: impl Fn(usize) -> usize,
) -> Vec<(f32, usize)> {
    let order =
        |a: &(f32, usize), b: &(f32, usize)| b.0.total_cmp(&a.0).then(tie(a.1).cmp(&tie(b.1)));
    if scored.len() > k {
        scored.select_nth_unstable_by(k, order);
        scored.truncate(k);
    }
    scored.sort_by(order);
    scored
}
