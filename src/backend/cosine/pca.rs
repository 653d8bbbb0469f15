//! A projection onto the leading principal directions of a set of unit vectors, for the HNSW
//! graph's optional reduced space (`--hnsw-dims`). The graph finds candidates among projected
//! vectors; the caller rescores them with the full vectors, so the projection only decides
//! which rows are looked at, never a score.
//!
//! Directions are the eigenvectors of the uncentred second-moment matrix E[x xᵀ] (not the
//! covariance): inner products, which rank cosine search, are preserved best by the directions
//! that carry most of E[(q·x)²]. nalgebra's symmetric eigensolver computes them; the matrix is
//! estimated on an evenly spaced sample of rows, so the result depends only on the rows.

use super::exact::Matrix;
use nalgebra::{DMatrix, SymmetricEigen};

/// Rows read to estimate the second-moment matrix (evenly spaced over the set).
const SAMPLE: usize = 20_000;

/// `dims` directions in the rows' space, row-major.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Projection {
    /// Dimensions of the input vectors.
    pub from: usize,
    /// Dimensions after projection.
    pub to: usize,
    /// `to` rows of `from` values.
    basis: Vec<f32>,
    /// Share of the sample's second moment the kept directions carry (1 = nothing lost).
    pub kept: f64,
}

impl Projection {
    /// The `to` leading directions of `rows` (`to` is capped at the rows' dimensions).
    pub(crate) fn fit(rows: &Matrix, to: usize) -> Projection {
        let from = rows.dims();
        let to = to.clamp(1, from);
        let n = rows.rows();
        let step = (n / SAMPLE).max(1);
        let mut moment = DMatrix::<f64>::zeros(from, from);
        let mut sampled = 0usize;
        for id in (0..n).step_by(step) {
            let v = rows.row(id);
            for a in 0..from {
                let va = f64::from(v[a]);
                for b in a..from {
                    moment[(a, b)] += va * f64::from(v[b]);
                }
            }
            sampled += 1;
        }
        for a in 0..from {
            for b in 0..a {
                moment[(a, b)] = moment[(b, a)];
            }
        }
        moment /= sampled.max(1) as f64;
        let eigen = SymmetricEigen::new(moment);
        // Largest eigenvalue first; equal ones by index, so the order is fixed.
        let mut order: Vec<usize> = (0..from).collect();
        order.sort_by(|&a, &b| {
            eigen.eigenvalues[b]
                .total_cmp(&eigen.eigenvalues[a])
                .then(a.cmp(&b))
        });
        let total: f64 = eigen.eigenvalues.iter().map(|e| e.max(0.0)).sum();
        let kept: f64 = order[..to]
            .iter()
            .map(|&i| eigen.eigenvalues[i].max(0.0))
            .sum();
        let mut basis = Vec::with_capacity(to * from);
        for &i in &order[..to] {
            basis.extend((0..from).map(|a| eigen.eigenvectors[(a, i)] as f32));
        }
        Projection {
            from,
            to,
            basis,
            kept: if total > 0.0 { kept / total } else { 1.0 },
        }
    }

    /// `v` in the reduced space.
    pub(crate) fn apply(&self, v: &[f32]) -> Vec<f32> {
        self.basis
            .chunks_exact(self.from)
            .map(|direction| {
                ndarray::ArrayView1::from(direction).dot(&ndarray::ArrayView1::from(v))
            })
            .collect()
    }

    /// The basis as bytes (little-endian f32), with `from`, `to` and `kept` in front: what a
    /// cached graph keeps beside it.
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24 + self.basis.len() * 4);
        out.extend((self.from as u64).to_le_bytes());
        out.extend((self.to as u64).to_le_bytes());
        out.extend(self.kept.to_le_bytes());
        self.basis.iter().for_each(|x| out.extend(x.to_le_bytes()));
        out
    }

    /// Read back what [`Projection::to_bytes`] wrote; `None` when it is not that.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Option<Projection> {
        let word = |i: usize| -> Option<[u8; 8]> { bytes.get(i * 8..i * 8 + 8)?.try_into().ok() };
        let from = u64::from_le_bytes(word(0)?) as usize;
        let to = u64::from_le_bytes(word(1)?) as usize;
        let kept = f64::from_le_bytes(word(2)?);
        let body = bytes.get(24..)?;
        if from == 0 || to == 0 || body.len() != from.checked_mul(to)?.checked_mul(4)? {
            return None;
        }
        let basis = body
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Some(Projection {
            from,
            to,
            basis,
            kept,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors in a 2-d plane of 5-d space: two directions keep everything, and inner products
    /// survive the projection.
    #[test]
    fn a_plane_is_kept_whole_and_round_trips() {
        let mut rows = Matrix::new(5);
        for i in 0..50 {
            let (a, b) = ((i as f32 * 0.37).sin(), (i as f32 * 0.91).cos());
            let v = [a, b, a + b, 0.0, a - b];
            let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            rows.push(&v.map(|x| x / n));
        }
        let p = Projection::fit(&rows, 2);
        assert!((p.kept - 1.0).abs() < 1e-9, "{}", p.kept);
        let (x, y) = (rows.row(3), rows.row(17));
        let full: f32 = x.iter().zip(y).map(|(a, b)| a * b).sum();
        let reduced: f32 = p.apply(x).iter().zip(p.apply(y)).map(|(a, b)| a * b).sum();
        assert!((full - reduced).abs() < 1e-5, "{full} against {reduced}");
        assert_eq!(Projection::from_bytes(&p.to_bytes()), Some(p.clone()));
        assert_eq!(Projection::from_bytes(&p.to_bytes()[..30]), None);
    }
}
