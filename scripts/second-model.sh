#!/usr/bin/env bash
# docs/results.md's "A second real model" section, regenerated: all-MiniLM-L6-v2 against
# all-mpnet-base-v2 under `tenure-eval models` on pmb, LoCoMo and BEAM's 100K tier (rank
# measures, the chance row, BM25 as the reference), with what each model costs to embed each
# suite from an empty store: wall time, texts a second and the process's peak memory.
#
#   scripts/second-model.sh DATA_DIR
#
# DATA_DIR as scripts/benchmark-results.sh's. Needs the release build and
# scripts/setup-models.sh --mpnet. BEAM's 500K tier is left out: MiniLM takes about 15 minutes
# over both tiers here and MPNet about eight times its arithmetic, hours on 2 cores.
# Fresh stores under target/second-model (every text embedded, so the costs are whole). Run it
# on an idle machine: the costs are wall times.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/second-model.sh DATA_DIR}
bin=target/release/tenure-eval
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
[ -f models/all-mpnet-base-v2/model.onnx ] || { echo "run scripts/setup-models.sh --mpnet first" >&2; exit 2; }
ORT_DYLIB_PATH=${ORT_DYLIB_PATH:-$PWD/$(scripts/setup-models.sh)}
export ORT_DYLIB_PATH
work=target/second-model
rm -rf "$work"
mkdir -p "$work"
file=$(mktemp)
trap 'rm -f "$file"' EXIT
models=(all-minilm-l6-v2 all-mpnet-base-v2)

suite_flags() {
  case $1 in
  pmb) echo "--suite pmb" ;;
  locomo) echo "--suite locomo --data $data/locomo/locomo10.json" ;;
  beam-100K) echo "--suite beam --data $data/beam --tier 100K" ;;
  esac
}

# Wall seconds and peak resident MB of one command (its own process tree), from Python's
# resource module: no GNU time needed.
measure() {
  python3 - "$@" <<'PY'
import resource, subprocess, sys, time
start = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"{time.monotonic() - start:.1f} {peak:.0f}")
PY
}

{
  echo "<!-- second-model:begin (scripts/second-model.sh; do not edit by hand) -->"
  echo
  echo "What each model costs to embed a suite's texts from an empty store (\`embed\` at its defaults, 2 cores; peak is the process's resident memory):"
  echo
  echo "| suite | model | texts | seconds | texts/s | peak MB |"
  echo "|---|---|---|---|---|---|"
  for suite in pmb locomo beam-100K; do
    read -r -a flags <<<"$(suite_flags "$suite")"
    texts=$("$bin" embed "${flags[@]}" --export-texts --quiet | wc -l)
    for model in "${models[@]}"; do
      read -r seconds peak < <(measure "$bin" embed "${flags[@]}" --model "models/$model" \
        --store-dir "$work/store" --quiet)
      rate=$(python3 -c "print(round($texts / $seconds))")
      echo "| $suite | $model | $texts | $seconds | $rate | $peak |"
      echo "second-model: embedded $suite with $model in $seconds s" >&2
    done
  done
  echo
  for suite in pmb locomo beam-100K; do
    read -r -a flags <<<"$(suite_flags "$suite")"
    echo '```sh'
    echo "tenure-eval models $(suite_flags "$suite" | sed "s#$data#DATA#") --model all-minilm-l6-v2 --model all-mpnet-base-v2"
    echo '```'
    echo
    "$bin" models "${flags[@]}" --model "models/${models[0]}" --model "models/${models[1]}" \
      --store-dir "$work/store" --out "$work/reports" --quiet | sed 's/^### /#### /'
    echo
  done
  # The two models and BM25 paired question by question: does the larger model beat the smaller,
  # and BM25?
  for suite in locomo beam; do
    reports=("$work/reports/$suite/retrieval-report-bm25-text.json")
    for model in "${models[@]}"; do
      reports+=("$work/reports/$suite/$model-retrieval-report-vector.json")
    done
    echo '```sh'
    echo "tenure-eval compare BM25 MINILM MPNET --metrics R@10,nDCG@10,RR   # $suite"
    echo '```'
    echo
    "$bin" compare "${reports[@]}" --metrics R@10,nDCG@10,RR | sed "s/^### Runs compared/#### $suite: runs compared/"
    echo
  done
  echo "<!-- second-model:end -->"
} >"$file"
python3 scripts/put_section.py second-model "$file"
echo "second-model: wrote docs/results.md's second-model section" >&2
