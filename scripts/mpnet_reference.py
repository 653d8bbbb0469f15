"""all-mpnet-base-v2 in plain numpy, from its safetensors: the reference the ONNX graph is held to.

Hugging Face's MPNetModel forward written out by hand for one unpadded text at a time (no ONNX,
no graph builder shared with scripts/build_mpnet_onnx.py): embeddings with positions from 2,
the relative position bucket computed per pair in Python, 12 layers, exact GELU via math.erf,
then mean pooling and L2 normalisation as sentence-transformers' modules.json says.

Reads JSON {"texts": [...]} on stdin, writes {"vectors": [[...], ...]} on stdout.
Usage: python mpnet_reference.py SOURCE_DIR   (the folder holding model.safetensors, tokenizer.json)
"""

import json
import math
import os
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

MAX_TOKENS = 384


def bucket(relative, num_buckets=32, max_distance=128):
    n = -relative
    out = num_buckets // 2 if n < 0 else 0
    n = abs(n)
    exact = num_buckets // 4
    if n < exact:
        return out + n
    large = exact + int(math.log(n / exact) / math.log(max_distance / exact) * (num_buckets // 2 - exact))
    return out + min(num_buckets // 2 - 1, large)


def main():
    source = sys.argv[1]
    w = load_file(os.path.join(source, "model.safetensors"))
    tokenizer = Tokenizer.from_file(os.path.join(source, "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    erf = np.vectorize(math.erf)

    def norm(x, p):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) / np.sqrt(var + 1e-5) * w[p + ".weight"] + w[p + ".bias"]

    def lin(x, p):
        return x @ w[p + ".weight"].T + w[p + ".bias"]

    def embed(text):
        ids = tokenizer.encode(text).ids
        n = len(ids)
        x = w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][np.arange(n) + 2]
        x = norm(x, "embeddings.LayerNorm").astype(np.float64)
        table = np.array([[bucket(j - i) for j in range(n)] for i in range(n)])
        bias = w["encoder.relative_attention_bias.weight"][table].transpose(2, 0, 1)
        for layer in range(12):
            p = f"encoder.layer.{layer}"
            q, k, v = (lin(x, f"{p}.attention.attn.{c}").reshape(n, 12, 64).transpose(1, 0, 2) for c in "qkv")
            scores = q @ k.transpose(0, 2, 1) / 8.0 + bias
            probs = np.exp(scores - scores.max(-1, keepdims=True))
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(1, 0, 2).reshape(n, 768)
            x = norm(lin(context, f"{p}.attention.attn.o") + x, f"{p}.attention.LayerNorm")
            h = lin(x, f"{p}.intermediate.dense")
            x = norm(lin(0.5 * h * (1 + erf(h / math.sqrt(2))), f"{p}.output.dense") + x, f"{p}.output.LayerNorm")
        pooled = x.mean(0)
        return (pooled / np.linalg.norm(pooled)).tolist()

    texts = json.load(sys.stdin)["texts"]
    json.dump({"vectors": [embed(t) for t in texts]}, sys.stdout)


if __name__ == "__main__":
    main()
