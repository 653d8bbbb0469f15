"""Build the one-MatMul ONNX graph that measures this machine's single-precision matrix-multiply
peak through ONNX Runtime's own kernels (benches/embed_throughput.rs): the ceiling an embedding
model's matrix products can reach on one core.

Writes OUT/matmul/model.onnx: input `a` (float32, rows x 1024, rows free), a constant 1024 x
1024 weight `b` (seeded), output `c` = a @ b, 2 * rows * 1024 * 1024 flops a run.

Usage: python build_matmul_onnx.py OUT_DIR
"""

import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

SIZE = 1024


def main():
    out = os.path.join(sys.argv[1], "matmul")
    os.makedirs(out, exist_ok=True)
    b = np.random.default_rng(20260511).standard_normal((SIZE, SIZE)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("MatMul", ["a", "b"], ["c"])],
        "matmul",
        [helper.make_tensor_value_info("a", TensorProto.FLOAT, ["rows", SIZE])],
        [helper.make_tensor_value_info("c", TensorProto.FLOAT, ["rows", SIZE])],
        [numpy_helper.from_array(b, "b")],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    # The IR version the MiniLM export uses: onnx writes its newest by default, which the ONNX
    # Runtime the `ort` crate loads may not read yet.
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, os.path.join(out, "model.onnx"))


if __name__ == "__main__":
    main()
