//! Exact top-k cosine search at a quarter of the memory traffic: every row is also kept as int8
//! codes (one scale per row), the int8 dot products are scanned, and only rows whose exact score
//! could still reach the top k are scored in float32. The answer is the float32 scan's, by a
//! bound, not by luck:
//!
//! each row keeps e = ‖x − s·c‖₂, the norm of its quantisation error (s its scale, c its codes);
//! the query's is e_q. For unit x and q, |x·q − (s·c)·(s_q·c_q)| ≤ e + (1 + e)·e_q (Cauchy–Schwarz
//! twice), plus a margin for float32 rounding. With a the int8 estimate and b that bound, every
//! row's exact score lies in [a − b, a + b]. If L is the k-th largest a − b, a row with a + b < L
//! scores below at least k rows, so it cannot be in the top k; every other row is scored exactly
//! and the top k is taken from them with the same order and tie rule as the full scan.
//!
//! The int8 dot product is written by hand (no well-kept crate does an i8·i8 → i32 dot), in a
//! shape the compiler vectorises, with an AVX2 build of the same loop chosen at run time.

use super::exact::{top_k, Matrix};
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;

/// A lower bound, ordered by `f32::total_cmp` (the bounds are finite).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bound(f32);

impl Eq for Bound {}

impl PartialOrd for Bound {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Bound {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Rounding margin added to every bound (float32 sums over 384 terms are off by far less).
const MARGIN: f32 = 1e-4;

/// Int8 codes of unit rows.
#[derive(Debug, Clone, Default)]
pub struct Int8Rows {
    dims: usize,
    codes: Vec<i8>,
    scales: Vec<f32>,
    errors: Vec<f32>,
}

/// Codes, scale and error norm of `v`.
fn quantise(v: &[f32]) -> (Vec<i8>, f32, f32) {
    let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
    let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
    let codes: Vec<i8> = v
        .iter()
        .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8)
        .collect();
    let error = v
        .iter()
        .zip(&codes)
        .map(|(x, c)| {
            let d = f64::from(*x) - f64::from(scale) * f64::from(*c);
            d * d
        })
        .sum::<f64>()
        .sqrt() as f32;
    (codes, scale, error)
}

fn dot_portable(a: &[i8], b: &[i8]) -> i32 {
    a.iter()
        .zip(b)
        .map(|(x, y)| i32::from(*x) * i32::from(*y))
        .sum()
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dot_avx2(a: &[i8], b: &[i8]) -> i32 {
    // The same loop, compiled for AVX2.
    dot_portable(a, b)
}

/// i8 · i8 summed in i32 (exact: 384 · 127² is far below i32::MAX).
fn dot(a: &[i8], b: &[i8]) -> i32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        return unsafe { dot_avx2(a, b) };
    }
    dot_portable(a, b)
}

impl Int8Rows {
    /// No rows, `dims` columns.
    pub fn new(dims: usize) -> Int8Rows {
        Int8Rows {
            dims,
            ..Int8Rows::default()
        }
    }

    /// Append a unit row.
    pub fn push(&mut self, v: &[f32]) {
        let (codes, scale, error) = quantise(v);
        self.codes.extend_from_slice(&codes);
        self.scales.push(scale);
        self.errors.push(error);
    }

    /// Rows held.
    pub(crate) fn rows(&self) -> usize {
        self.scales.len()
    }

    /// Exactly `top_k(matrix.scores(query, admitted), k, tie)`, scoring in float32 only the rows
    /// the int8 bound cannot rule out; also how many rows were scored in float32.
    pub fn top_k(
        &self,
        matrix: &Matrix,
        query: &[f32],
        k: usize,
        admitted: &dyn Fn(usize) -> bool,
        tie: impl Fn(usize) -> usize,
    ) -> (Vec<(f32, usize)>, usize) {
        let (q_codes, q_scale, q_error) = quantise(query);
        // The k largest lower bounds so far, smallest on top. Their smallest, L so far, only
        // rises as rows are read, so a row whose upper bound is below it now is below the final
        // L too: it is dropped at once, and only the few rows that may still count are kept
        // (not a million estimates a query). The final L filters the kept rows as before.
        let mut lows: BinaryHeap<Reverse<Bound>> = BinaryHeap::with_capacity(k + 1);
        let floor = |lows: &BinaryHeap<Reverse<Bound>>| match lows.peek() {
            Some(Reverse(Bound(low))) if k > 0 && lows.len() == k => *low,
            _ => f32::NEG_INFINITY,
        };
        let mut kept: Vec<(f32, f32, usize)> = Vec::new();
        for id in 0..self.rows() {
            if !admitted(id) {
                continue;
            }
            let codes = &self.codes[id * self.dims..(id + 1) * self.dims];
            let a = dot(codes, &q_codes) as f32 * self.scales[id] * q_scale;
            let b = self.errors[id] + (1.0 + self.errors[id]) * q_error + MARGIN;
            if a + b < floor(&lows) {
                continue; // and a - b is below L as well: it does not enter the k lows
            }
            kept.push((a, b, id));
            if k > 0 {
                lows.push(Reverse(Bound(a - b)));
                if lows.len() > k {
                    lows.pop();
                }
            }
        }
        let floor = floor(&lows);
        let scored: Vec<(f32, usize)> = kept
            .into_iter()
            .filter(|(a, b, _)| a + b >= floor)
            .map(|(_, _, id)| (matrix.dot(id, query), id))
            .collect();
        let n = scored.len();
        (top_k(scored, k, tie), n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: Vec<f32>) -> Vec<f32> {
        let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
        v.into_iter().map(|x| x / n).collect()
    }

    #[test]
    fn the_bound_holds_and_the_top_k_is_the_full_scans() {
        // Deterministic pseudo-random unit rows, many near-duplicates (ties and near-ties).
        let mut state = 7u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((state >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        let dims = 48;
        let base: Vec<Vec<f32>> = (0..50)
            .map(|_| unit((0..dims).map(|_| next()).collect()))
            .collect();
        let mut matrix = Matrix::new(dims);
        let mut rows = Int8Rows::new(dims);
        for i in 0..3000 {
            let v = if i % 3 == 0 {
                base[i % 50].clone() // exact duplicates: equal scores, tie rule decides
            } else {
                unit(base[i % 50].iter().map(|x| x + 0.05 * next()).collect())
            };
            matrix.push(&v);
            rows.push(&v);
        }
        for q in 0..40 {
            let query = unit(base[q % 50].iter().map(|x| x + 0.1 * next()).collect());
            let admitted = |id: usize| id % 7 != 3;
            // k of 1, of the suites' 20, and of nearly every admitted row.
            for k in [1, 20, 2500] {
                let full = top_k(matrix.scores(&query, &admitted), k, |id| id);
                let (fast, scored) = rows.top_k(&matrix, &query, k, &admitted, |id| id);
                assert_eq!(fast, full, "query {q}, k {k}");
                assert!(k == 2500 || scored < 3000, "{scored}");
            }
            // The bound: every row's estimate is within it.
            let (qc, qs, qe) = quantise(&query);
            let mut bounds = Vec::new();
            for id in 0..rows.rows() {
                let codes = &rows.codes[id * dims..(id + 1) * dims];
                let a = dot(codes, &qc) as f32 * rows.scales[id] * qs;
                let b = rows.errors[id] + (1.0 + rows.errors[id]) * qe;
                assert!((matrix.dot(id, &query) - a).abs() <= b + 1e-6);
                if admitted(id) {
                    let b = b + MARGIN; // as top_k computes it
                    bounds.push((a - b, a + b));
                }
            }
            // Scored in float32: exactly the rows whose upper bound reaches the 20th largest
            // lower bound of all admitted rows (the running bound keeps none fewer, none more).
            let mut lows: Vec<f32> = bounds.iter().map(|(low, _)| *low).collect();
            lows.sort_by(|x, y| y.total_cmp(x));
            let reach = bounds.iter().filter(|(_, high)| *high >= lows[19]).count();
            assert_eq!(rows.top_k(&matrix, &query, 20, &admitted, |id| id).1, reach);
        }
        // Fewer rows than k: everything is scored. k 0: nothing is returned.
        let (few, n) = rows.top_k(&matrix, &base[0], 5000, &|_| true, |id| id);
        assert_eq!((few.len(), n), (3000, 3000));
        assert!(rows
            .top_k(&matrix, &base[0], 0, &|_| true, |id| id)
            .0
            .is_empty());
    }
}
