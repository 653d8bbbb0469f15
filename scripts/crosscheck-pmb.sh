#!/usr/bin/env bash
# Cross-check: PrecisionMemBench's own harness (Node, AVA) and tenure-eval's `--compat pmb`
# client, both against `tenure-eval serve --backend bm25`, on PrecisionMemBench's fixtures.
# Every entry field but latencies, and every summary field, must agree.
#
#   scripts/crosscheck-pmb.sh PMB_CHECKOUT      (a checkout of tenurehq/precisionMemBench)
#
# Needs Node 20 and npm (the registry). Node 20 lacks iterator helpers, which the harness uses:
# core-js provides them as a preload. The harness runs on a copy of the checkout, with one
# provider added to its providers.config.json (`tenure-eval`, no seed delay).
set -euo pipefail
pmb="$(cd "${1:?usage: scripts/crosscheck-pmb.sh PMB_CHECKOUT}" && pwd)"
if [ ! -f "$pmb/package.json" ] || [ ! -f "$pmb/src/retrieval.external.eval.test.ts" ]; then
  echo "crosscheck-pmb.sh: $pmb is not a checkout of tenurehq/precisionMemBench (no package.json or src/retrieval.external.eval.test.ts)" >&2
  exit 2
fi
cd "$(dirname "$0")/.."
cargo build --release --quiet
bin="$PWD/target/release/tenure-eval"
work="$(mktemp -d)"
trap 'kill "${serve_pid:-0}" 2>/dev/null || true; rm -rf "$work"' EXIT
cp -r "$pmb/." "$work/pmb"
cd "$work/pmb"
python3 - <<'PY'
import json
config = json.load(open("providers.config.json"))
config["tenure-eval"] = {"envVar": "TENURE_EVAL_URL", "defaultUrl": "http://127.0.0.1:8080", "seedDelayMs": 0}
json.dump(config, open("providers.config.json", "w"), indent=2)
PY
npm ci --no-audit --no-fund --silent
npm install --no-save --silent core-js
"$bin" serve --suite pmb --port 0 --quiet > "$work/url" &
serve_pid=$!
until [ -s "$work/url" ]; do sleep 0.1; done
url="$(cat "$work/url")"
export MEMORY_PROVIDER=tenure-eval TENURE_EVAL_URL="$url" RESEED=true
export NODE_OPTIONS="--require $PWD/node_modules/core-js/actual/iterator/index.js"
suite=(--corpus fixtures/beliefs.seed.json --cases fixtures/retrieval.cases.json
       --sessions fixtures/session-retrieval.cases.json --profile head)
for kind in static session; do
  test_file=src/retrieval.external.eval.test.ts stem=""
  if [ "$kind" = session ]; then test_file=src/session-retrieval.external.eval.test.ts stem="session-"; fi
  npx ava "$test_file" --timeout 10m > "$work/ava-$kind.log" 2>&1 || true   # failed cases fail AVA tests
  "$bin" "$kind" "${suite[@]}" --backend http --url "$url" --name tenure-eval --compat pmb \
    --quiet --out "$work/ours" > /dev/null
  python3 - "test-results/${stem}retrieval-report-tenure-eval.json" \
    "$work/ours/custom/${stem}retrieval-report-tenure-eval.json" "$kind" <<'PY'
import json, sys
theirs, ours = (json.load(open(p)) for p in sys.argv[1:3])
same = lambda a, b: a == b or (isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)
measured = lambda field: "atency" in field
fields = differing = 0
if len(theirs["cases"]) != len(ours["cases"]):
    sys.exit(f"{sys.argv[3]}: {len(theirs['cases'])} entries upstream, {len(ours['cases'])} ours")
for t, o in zip(theirs["cases"], ours["cases"]):
    for field in (f for f in t if not measured(f)):
        fields += 1
        if not same(t[field], o.get(field)):
            differing += 1
            print(f"  {t.get('caseId')}: {field}: upstream {t[field]!r}, ours {o.get(field)!r}")
for field in (f for f in theirs["retrieval"] if not measured(f)):
    fields += 1
    if not same(theirs["retrieval"][field], ours["retrieval"].get(field)):
        differing += 1
        print(f"  summary {field}: upstream {theirs['retrieval'][field]!r}, ours {ours['retrieval'].get(field)!r}")
passed = theirs["retrieval"]["totalPassed"]
print(f"{sys.argv[3]}: {len(theirs['cases'])} entries, {passed} passed; {fields} fields compared, {differing} differ")
sys.exit(1 if differing else 0)
PY
done
