//! This machine's single-precision matrix-multiply peak through ONNX Runtime's own kernels: the
//! ceiling an embedding model's matrix products can reach on one core (docs/results.md,
//! "Embedding speed"). The graph is one MatMul of a rows × 1024 input by a constant 1024 × 1024
//! weight (`scripts/build_matmul_onnx.py`, in `models/matmul`).

use super::{load_runtime, open_session};
use crate::error::{Error, Result};
use ndarray::Array2;
use ort::value::TensorRef;
use std::path::Path;
use std::time::Instant;

/// GFLOP/s of a 1024 × 1024 by 1024 × 1024 product on one single-threaded session: the median
/// of `runs` runs after one warm-up.
pub fn matmul_gflops(folder: &Path, ort_lib: Option<&Path>, runs: usize) -> Result<f64> {
    let (_, environment) = load_runtime(ort_lib)?;
    let model = folder.join("model.onnx");
    let fail =
        |e: &dyn std::fmt::Display| Error::backend("matmul", format!("{}: {e}", model.display()));
    let mut session = open_session(&environment, &model).map_err(|e| fail(&e))?;
    let a = Array2::<f32>::from_shape_fn((1024, 1024), |(i, j)| ((i * 31 + j) % 97) as f32 / 97.0);
    let mut rates = Vec::new();
    for run in 0..=runs.max(1) {
        let input = TensorRef::from_array_view(&a).map_err(|e| fail(&e))?;
        let start = Instant::now();
        session
            .run(ort::inputs!["a" => input])
            .map_err(|e| fail(&e))?;
        if run > 0 {
            rates.push(2.0 * 1024f64.powi(3) / start.elapsed().as_secs_f64() / 1e9);
        }
    }
    rates.sort_by(f64::total_cmp);
    Ok(rates[rates.len() / 2])
}
