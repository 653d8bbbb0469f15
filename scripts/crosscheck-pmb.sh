#!/usr/bin/env bash
# Cross-check: PrecisionMemBench's own harness (Node, AVA) and tenure-eval's `--compat pmb`
# client, each against its own `tenure-eval serve --backend B`, on the built-in `pmb` suite as a
# user asks for it (`--suite pmb`: tenure-eval then sends PrecisionMemBench's copy of the files).
# Every entry field but latencies, every summary field, and every request each serve received
# (method, path, body bytes, in order) must agree.
#
#   scripts/crosscheck-pmb.sh PMB_CHECKOUT [--backend bm25|cosine] [--keep DIR]
#
#   PMB_CHECKOUT   a checkout of tenurehq/precisionMemBench (18c7955 is what tests/golden/ holds)
#   --backend      what `serve` runs (default bm25). cosine (all-minilm-l6-v2, the committed
#                  store) answers from embeddings of the exact texts it is sent.
#   --keep DIR     copy PrecisionMemBench's two reports and the request log its serve saw to DIR
#                  (how tests/golden/pmb-harness-<backend>/ was made)
#
# Needs Node 20 and npm (the registry). Node 20 lacks iterator helpers, which the harness uses:
# core-js provides them as a preload. The harness runs on a copy of the checkout, with one
# provider added to its providers.config.json (`tenure-eval`, no seed delay).
# TENURE_EVAL_BIN names a built binary to use instead of building the release one.
set -euo pipefail
usage="usage: scripts/crosscheck-pmb.sh PMB_CHECKOUT [--backend bm25|cosine] [--keep DIR]"
pmb_arg="${1:?$usage}"
shift
backend=bm25 keep=""
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) backend="${2:?$usage}"; shift 2 ;;
    --keep) keep="$(mkdir -p "${2:?$usage}" && cd "$2" && pwd)"; shift 2 ;;
    *) echo "crosscheck-pmb.sh: unknown argument $1; $usage" >&2; exit 2 ;;
  esac
done
case "$backend" in bm25|cosine) ;; *) echo "crosscheck-pmb.sh: --backend is bm25 or cosine, not $backend" >&2; exit 2 ;; esac
pmb="$(cd "$pmb_arg" && pwd)"
if [ ! -f "$pmb/package.json" ] || [ ! -f "$pmb/src/retrieval.external.eval.test.ts" ]; then
  echo "crosscheck-pmb.sh: $pmb is not a checkout of tenurehq/precisionMemBench (no package.json or src/retrieval.external.eval.test.ts)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
repo="$PWD"
if [ -z "${TENURE_EVAL_BIN:-}" ]; then
  cargo build --release --quiet
  bin="$PWD/target/release/tenure-eval"
else
  bin="$(cd "$(dirname "$TENURE_EVAL_BIN")" && pwd)/$(basename "$TENURE_EVAL_BIN")"
fi
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"' EXIT
cp -r "$pmb/." "$work/pmb"

# One serve per client, each logging what it received.
serve() {   # serve NAME -> URL in $work/NAME.url, log in $work/NAME.requests.jsonl
  (cd "$repo" && exec "$bin" serve --suite pmb --backend "$backend" --port 0 --quiet \
    --request-log "$work/$1.requests.jsonl") > "$work/$1.url" &
  pids+=($!)
  until [ -s "$work/$1.url" ]; do sleep 0.1; done
}
serve upstream
serve ours

cd "$work/pmb"
python3 - <<'PY'
import json
config = json.load(open("providers.config.json"))
config["tenure-eval"] = {"envVar": "TENURE_EVAL_URL", "defaultUrl": "http://127.0.0.1:8080", "seedDelayMs": 0}
json.dump(config, open("providers.config.json", "w"), indent=2)
PY
npm ci --no-audit --no-fund --silent
npm install --no-save --silent core-js
export MEMORY_PROVIDER=tenure-eval TENURE_EVAL_URL="$(cat "$work/upstream.url")" RESEED=true
export NODE_OPTIONS="--require $PWD/node_modules/core-js/actual/iterator/index.js"
status=0
for kind in static session; do
  test_file=src/retrieval.external.eval.test.ts stem=""
  if [ "$kind" = session ]; then test_file=src/session-retrieval.external.eval.test.ts stem="session-"; fi
  npx ava "$test_file" --timeout 10m > "$work/ava-$kind.log" 2>&1 || true   # failed cases fail AVA tests
  # --label keeps upstream's file name (a compat run is otherwise labelled tenure-eval-compat).
  "$bin" "$kind" --suite pmb --backend http --url "$(cat "$work/ours.url")" --name tenure-eval \
    --compat pmb --label tenure-eval --quiet --out "$work/ours" > /dev/null || true   # exit 3 when a case errs: compared below
  python3 "$repo/scripts/crosscheck_compare.py" reports "$kind" \
    "test-results/${stem}retrieval-report-tenure-eval.json" \
    "$work/ours/pmb/${stem}retrieval-report-tenure-eval.json" || status=1
  if [ -n "$keep" ]; then cp "test-results/${stem}retrieval-report-tenure-eval.json" "$keep/"; fi
done
python3 "$repo/scripts/crosscheck_compare.py" requests all \
  "$work/upstream.requests.jsonl" "$work/ours.requests.jsonl" || status=1
if [ -n "$keep" ]; then cp "$work/upstream.requests.jsonl" "$keep/requests.jsonl"; fi
exit $status
