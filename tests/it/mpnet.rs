//! The second real model, all-mpnet-base-v2 (`scripts/setup-models.sh --mpnet`), held to its
//! reference: Hugging Face's MPNet forward written out in plain numpy from the same safetensors
//! (`scripts/mpnet_reference.py`), which shares no code with the ONNX graph's builder. Real
//! inputs of the pmb suite in batches (so padding, the relative position bias and the masked mean
//! are exercised), and a text past the model's 384 tokens (truncation).
//!
//! The model is about 400 MB from PyPI and only fetched on request: without it these tests say
//! so in one line and skip, even under `TENURE_EVAL_REQUIRE_ALL`.

use crate::common::needs::{env_path, needs, Need};
use crate::common::{builtin, cosine};
use tenure_eval::embed::onnx::{EmbedOptions, OnnxEmbedder};
use tenure_eval::embed::{needed_texts, Embedder, Role, TextPolicy};

#[test]
fn mpnet_vectors_equal_the_numpy_forward_within_1e_5() {
    if !needs(&[Need::Onnx, Need::Python, Need::Mpnet]) {
        return;
    }
    let models = env_path("TENURE_EVAL_MODELS").unwrap();
    let suite = builtin("pmb");
    let mut texts: Vec<String> = needed_texts(&suite, TextPolicy::of(suite.profile))
        .into_iter()
        .map(|t| t.text)
        .take(24)
        .collect();
    texts.push("The deploy slipped again because the staging cluster ran out of disk. ".repeat(40));
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut model = OnnxEmbedder::open(
        &models.join("all-mpnet-base-v2"),
        None,
        EmbedOptions {
            batch_size: 8,
            threads: 2,
            ..EmbedOptions::default()
        },
    )
    .unwrap();
    assert_eq!(model.info().dimensions, 768);
    let ours = model.embed(&texts, Role::Belief, &mut |_| {}).unwrap();
    let reference =
        crate::common::python_reference::mpnet(&models.join(".sources/all-mpnet-base-v2"), &texts);
    assert_eq!(ours.len(), reference.len());
    for (i, (a, b)) in ours.iter().zip(&reference).enumerate() {
        assert_eq!(a.len(), 768, "text {i}");
        let worst = a
            .iter()
            .zip(b)
            .map(|(x, y)| (x - y).abs())
            .fold(0f32, f32::max);
        assert!(
            worst <= 1e-5,
            "text {i} ({:?}): largest difference {worst}",
            texts[i]
        );
    }
    // And it is a sentence model: a paraphrase is nearer than an unrelated sentence.
    let v = model
        .embed(
            &[
                "A man is playing a guitar.",
                "Someone is strumming a guitar.",
                "The stock market fell sharply today.",
            ],
            Role::Query,
            &mut |_| {},
        )
        .unwrap();
    assert!(
        cosine(&v[0], &v[1]) > 0.7 && cosine(&v[0], &v[2]) < 0.1,
        "{:?}",
        (cosine(&v[0], &v[1]), cosine(&v[0], &v[2]))
    );
}
