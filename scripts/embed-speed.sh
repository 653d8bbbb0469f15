#!/usr/bin/env bash
# docs/results.md's "Embedding speed" section, regenerated: this machine's matrix-multiply peak,
# LoCoMo's texts embedded by tenure-eval and by the obvious onnxruntime script side by side in
# one run (fp32 and int8; benches/embed_throughput.rs), BEAM's two tiers embedded from an empty
# store (wall time, fp32 and int8), and what the int8 export costs in retrieval: cosine R@10 and
# nDCG@10 on LoCoMo and BEAM beside the fp32 model's.
#
#   scripts/embed-speed.sh DATA_DIR
#
# DATA_DIR as scripts/benchmark-results.sh's. Needs the release build and scripts/setup-models.sh.
# Fresh stores under target/embed-speed (removed first: every text is embedded); the fp32 BEAM
# runs reuse target/bench-store when scripts/benchmark-results.sh filled it. Run it on an idle
# machine: the figures are wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/embed-speed.sh DATA_DIR}
bin=target/release/tenure-eval
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
ORT_DYLIB_PATH=${ORT_DYLIB_PATH:-$PWD/$(scripts/setup-models.sh)}
TENURE_EVAL_MODELS=${TENURE_EVAL_MODELS:-$PWD/models}
TENURE_EVAL_PYTHON=${TENURE_EVAL_PYTHON:-$PWD/.venv/bin/python}
export ORT_DYLIB_PATH TENURE_EVAL_MODELS TENURE_EVAL_PYTHON
export TENURE_EVAL_DATA=$data
work=target/embed-speed
rm -rf "$work"
mkdir -p "$work"
file=$(mktemp)
trap 'rm -f "$file"' EXIT

{
  echo "<!-- embed-speed:begin (scripts/embed-speed.sh; do not edit by hand) -->"
  echo
  echo "Side by side in one run (\`cargo bench --bench embed_throughput\`):"
  echo
  cargo bench --quiet --bench embed_throughput -- --noplot 2>&1 |
    grep -E '^(peak|embed/)' | sed 's/^/- /'
  echo
  echo "BEAM's two tiers (43,790 messages and 1,100 questions) from an empty store, \`embed\` at its defaults:"
  echo
  for model in all-minilm-l6-v2 all-minilm-l6-v2-int8; do
    start=$SECONDS
    "$bin" embed --suite beam --data "$data/beam" --model "models/$model" \
      --store-dir "$work/store" --quiet
    echo "- $model: $((SECONDS - start)) s"
  done
  echo
  echo "What the int8 export costs in retrieval (cosine, exact search):"
  echo
  echo "| suite | model | R@10 | nDCG@10 |"
  echo "|---|---|---|---|"
  for suite in locomo beam; do
    case $suite in
    locomo) flags=(--suite locomo --data "$data/locomo/locomo10.json") ;;
    beam) flags=(--suite beam --data "$data/beam") ;;
    esac
    for model in all-minilm-l6-v2 all-minilm-l6-v2-int8; do
      "$bin" embed "${flags[@]}" --model "models/$model" --store-dir "$work/store" --quiet
      "$bin" run "${flags[@]}" --backend cosine --model "models/$model" --store-dir "$work/store" \
        --quiet --out "$work/reports" >/dev/null
      python3 -c '
import json, sys
report = json.load(open(sys.argv[3]))
means = report["retrieval"]["rankMetrics"]["means"]
print("| %s | %s | %.3f | %.3f |" % (sys.argv[1], sys.argv[2], means["R@10"], means["nDCG@10"]))
' "$suite" "$model" "$work/reports/$suite/$model-retrieval-report-vector.json"
    done
  done
  echo
  echo "<!-- embed-speed:end -->"
} >"$file"
python3 scripts/put_section.py embed-speed "$file"
echo "embed-speed: wrote docs/results.md's embedding speed section" >&2
