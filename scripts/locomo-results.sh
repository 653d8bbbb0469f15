#!/usr/bin/env bash
# docs/results.md's LoCoMo section and figure, regenerated: every backend on LoCoMo (turns and
# sessions), LoCoMo's tables by category, the paired significance table, the figure.
#
#   scripts/locomo-results.sh LOCOMO_JSON
#
# Needs the release build (cargo build --release) and the MiniLM ONNX model and ONNX Runtime
# (scripts/setup-models.sh). Embeds every turn, session and question once into a store under
# target/locomo-store (reused on the next run), writes the reports under target/locomo-reports,
# the figure to docs/locomo.svg, and replaces the text between the LoCoMo markers of
# docs/results.md. Prints the wall time of each step on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/locomo-results.sh LOCOMO_JSON}
bin=target/release/tenure-eval
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
ORT_DYLIB_PATH=${ORT_DYLIB_PATH:-$PWD/$(scripts/setup-models.sh)}
export ORT_DYLIB_PATH
model=models/all-minilm-l6-v2
store=target/locomo-store
out=target/locomo-reports
rm -rf "$out"
mkdir -p "$store" "$out"

step() {
  local name=$1; shift
  local start=$SECONDS
  "$@"
  echo "locomo-results: $name: $((SECONDS - start)) s" >&2
}

for unit in turns sessions; do
  step "embed $unit" "$bin" embed --suite locomo --data "$data" --unit "$unit" --model "$model" \
    --store-dir "$store" --quiet
  step "run $unit" "$bin" run --suite locomo --data "$data" --unit "$unit" --quiet \
    --backend bm25,bm25-text,cosine,rrf,composite --fuse bm25-text,cosine \
    --model "$model" --store-dir "$store" --out "$out" >/dev/null
done

# In one order: alias-BM25, plain BM25, cosine, their fusion, the composite scorer; turns, then
# sessions.
reports=()
for unit in locomo locomo-sessions; do
  for file in retrieval-report-tenure.json retrieval-report-bm25-text.json \
    all-minilm-l6-v2-retrieval-report-vector.json \
    all-minilm-l6-v2-retrieval-report-rrf-fusebm25-text+cosine.json \
    all-minilm-l6-v2-retrieval-report-composite.json; do
    reports+=("$out/$unit/$file")
  done
done
section=$(mktemp)
{
  echo "<!-- locomo:begin (scripts/locomo-results.sh; do not edit by hand) -->"
  echo
  "$bin" locomo "${reports[@]}" --data "$data" --plot docs/locomo.svg --quiet |
    sed 's/^### /#### /'
  echo
  echo "#### Paired significance, turns (Fisher's randomisation test, Holm-adjusted over each measure's pairs)"
  echo
  "$bin" compare "${reports[@]:0:5}" --metrics R@10,nDCG@10,RR --suite locomo --data "$data" |
    sed '/^#* Runs compared$/,+1d'
  echo
  echo "![LoCoMo: R@k against k, nDCG@10 by category](locomo.svg)"
  echo
  echo "<!-- locomo:end -->"
} >"$section"
python3 scripts/put_section.py locomo "$section"
echo "locomo-results: wrote docs/results.md's LoCoMo section and docs/locomo.svg" >&2
