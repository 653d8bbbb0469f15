//! One model call: a batch's token ids padded into `rows × width` matrices (the attention mask
//! zero over padding), the graph run on one session, its token vectors pooled per text (mean
//! over attended tokens, or the first token) and normalised.

use super::batches::Batch;
use crate::embed::store::Pooling;
use ndarray::{Array2, ArrayViewD, Axis};
use ort::session::Session;
use ort::value::TensorRef;

/// What every call of one embedding run shares.
pub(crate) struct Call<'a> {
    /// Each text's tokens, in input order (unpadded).
    pub encodings: &'a [tokenizers::Encoding],
    /// The id padding positions get.
    pub pad_id: u32,
    /// The graph takes `token_type_ids`.
    pub token_types: bool,
    /// The output holding the token (or pooled) vectors.
    pub output: &'a str,
    /// Mean or first-token pooling.
    pub pooling: Pooling,
    /// L2-normalise each vector.
    pub normalize: bool,
}

impl Call<'_> {
    /// The vectors of `batch`'s rows, in its row order; an error as the runtime words it.
    pub(crate) fn run(
        &self,
        session: &mut Session,
        batch: &Batch,
    ) -> Result<Vec<Vec<f32>>, String> {
        let (rows, width) = (batch.rows.len(), batch.width);
        let matrix = |get: &dyn Fn(&tokenizers::Encoding) -> &[u32], pad: u32| {
            let mut flat = vec![i64::from(pad); rows * width];
            for (r, &i) in batch.rows.iter().enumerate() {
                for (c, &x) in get(&self.encodings[i]).iter().enumerate() {
                    flat[r * width + c] = i64::from(x);
                }
            }
            Array2::from_shape_vec((rows, width), flat)
        };
        let text = |e: &dyn std::fmt::Display| e.to_string();
        let ids = matrix(&|e| e.get_ids(), self.pad_id).map_err(|e| text(&e))?;
        let mask = matrix(&|e| e.get_attention_mask(), 0).map_err(|e| text(&e))?;
        let types = matrix(&|e| e.get_type_ids(), 0).map_err(|e| text(&e))?;
        let mut feed = ort::inputs![
            "input_ids" => TensorRef::from_array_view(&ids).map_err(|e| text(&e))?,
            "attention_mask" => TensorRef::from_array_view(&mask).map_err(|e| text(&e))?,
        ];
        if self.token_types {
            feed.push((
                "token_type_ids".into(),
                TensorRef::from_array_view(&types)
                    .map_err(|e| text(&e))?
                    .into(),
            ));
        }
        let outputs = session.run(feed).map_err(|e| text(&e))?;
        let hidden = outputs[self.output]
            .try_extract_array::<f32>()
            .map_err(|e| text(&e))?;
        let pooled = pool(hidden, &mask, self.pooling)?;
        Ok(pooled
            .into_iter()
            .map(|v| if self.normalize { l2(v) } else { v })
            .collect())
    }
}

/// Token vectors → one vector per text (mean over attended tokens, or the first token).
fn pool(
    hidden: ArrayViewD<'_, f32>,
    mask: &Array2<i64>,
    pooling: Pooling,
) -> std::result::Result<Vec<Vec<f32>>, String> {
    match hidden.ndim() {
        2 => Ok(hidden
            .outer_iter()
            .map(|row| row.iter().copied().collect())
            .collect()),
        3 => Ok(hidden
            .outer_iter()
            .zip(mask.outer_iter())
            .map(|(tokens, attended)| match pooling {
                Pooling::Cls => tokens.index_axis(Axis(0), 0).iter().copied().collect(),
                Pooling::Mean => {
                    let width = tokens.shape()[1];
                    let mut sum = vec![0f32; width];
                    let mut count = 0f32;
                    for (token, &m) in tokens.outer_iter().zip(attended.iter()) {
                        if m != 0 {
                            count += 1.0;
                            for (s, x) in sum.iter_mut().zip(token.iter()) {
                                *s += x;
                            }
                        }
                    }
                    let count = count.max(1e-9);
                    sum.into_iter().map(|s| s / count).collect()
                }
            })
            .collect()),
        n => Err(format!(
            "model output has rank {n}; expected batch × sequence × dim or batch × dim"
        )),
    }
}

fn l2(v: Vec<f32>) -> Vec<f32> {
    let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt().max(1e-12);
    v.into_iter().map(|x| x / norm).collect()
}
