"""Reference embedder: Python onnxruntime on a tenure-eval model folder, for cross-checks.

Reads JSON {"texts": [...]} on stdin, writes {"vectors": [[...], ...]} on stdout, embedding
exactly as the harness does: tokenizer.json, model.onnx, the pooling, normalisation and
max_batch of embedder.json, in batches of --batch (default 32). With --bench N it instead times N sentences in batches of --batch and prints
{"sentences_per_second": x}; with --time it times the texts given, once, in batches of --batch in
file order, and prints {"seconds": x} (the obvious script the harness's speed is measured
against). --threads 0 leaves ONNX Runtime its default (one thread per core).

Usage: python embed_reference.py MODEL_DIR [--threads T] [--bench N | --time] [--batch B]
"""

import argparse
import json
import os
import sys
import time

import numpy as np
import onnxruntime as ort
from tokenizers import Tokenizer


class Embedder:
    def __init__(self, folder, threads):
        with open(os.path.join(folder, "embedder.json"), encoding="utf-8") as f:
            self.config = json.load(f)
        self.tokenizer = Tokenizer.from_file(os.path.join(folder, "tokenizer.json"))
        options = ort.SessionOptions()
        if threads > 0:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self.session = ort.InferenceSession(os.path.join(folder, "model.onnx"), options, providers=["CPUExecutionProvider"])

    def embed(self, texts, batch):
        """Embed in batches of `batch` (capped by embedder.json's max_batch), as the harness does."""
        batch = max(1, min(batch, self.config.get("max_batch") or batch))
        out = [self.embed_batch(texts[i : i + batch]) for i in range(0, len(texts), batch)]
        return np.concatenate(out) if out else np.zeros((0, 0), np.float32)

    def embed_batch(self, texts):
        encodings = self.tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encodings], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encodings], dtype=np.int64)
        types = np.array([e.type_ids for e in encodings], dtype=np.int64)
        hidden = self.session.run(["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": types})[0]
        if self.config.get("pooling", "mean") == "cls":
            pooled = hidden[:, 0, :]
        else:
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
        if self.config.get("normalize", True):
            pooled = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
        return pooled.astype(np.float32)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("model_dir")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--bench", type=int, default=0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--time", action="store_true")
    args = parser.parse_args()
    embedder = Embedder(args.model_dir, args.threads)
    texts = json.load(sys.stdin)["texts"]
    if args.time:
        embedder.embed(texts[: args.batch], args.batch)  # warm-up
        start = time.perf_counter()
        embedder.embed(texts, args.batch)
        json.dump({"seconds": time.perf_counter() - start}, sys.stdout)
    elif args.bench:
        work = [texts[i % len(texts)] for i in range(args.bench)]
        embedder.embed(work[: args.batch], args.batch)  # warm-up
        start = time.perf_counter()
        embedder.embed(work, args.batch)
        elapsed = time.perf_counter() - start
        json.dump({"sentences_per_second": len(work) / elapsed, "sentences": len(work), "seconds": elapsed}, sys.stdout)
    else:
        json.dump({"vectors": embedder.embed(texts, args.batch).tolist()}, sys.stdout)


if __name__ == "__main__":
    main()
