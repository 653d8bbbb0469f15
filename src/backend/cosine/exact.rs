//! Exact cosine search: one matrix-vector product over every stored unit vector (ndarray).

use ndarray::{ArrayView1, ArrayView2};

/// Row-major unit vectors, one row per belief version.
#[derive(Debug, Clone)]
pub(super) struct Matrix {
    dims: usize,
    data: Vec<f32>,
}

impl Matrix {
    pub(super) fn new(dims: usize) -> Matrix {
        Matrix {
            dims,
            data: Vec::new(),
        }
    }

    pub(super) fn push(&mut self, v: &[f32]) {
        debug_assert_eq!(v.len(), self.dims);
        self.data.extend_from_slice(v);
    }

    fn rows(&self) -> usize {
        self.data.len() / self.dims.max(1)
    }

    /// Cosine of row `id` with the unit vector `query`.
    pub(super) fn dot(&self, id: usize, query: &[f32]) -> f32 {
        let row = &self.data[id * self.dims..(id + 1) * self.dims];
        ArrayView1::from(row).dot(&ArrayView1::from(query))
    }

    /// `(cosine, row)` of every row that `admitted` accepts, in row order.
    pub(super) fn scores(
        &self,
        query: &[f32],
        admitted: &dyn Fn(usize) -> bool,
    ) -> Vec<(f32, usize)> {
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
