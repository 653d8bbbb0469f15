#!/usr/bin/env bash
# The Ray runner's speed-up against a slow memory system, on this machine (docs/guide.md).
#   scripts/ray-speedup.sh [LATENCY_MS] [ROUNDS] [LOCOMO_FILE]
# A slow system: `tenure-eval serve --latency-ms LATENCY_MS` (default 100; cosine over hashed bags of words behind it, which indexes a large suite in seconds) answers pmb's static
# cases, or LoCoMo's 1,986 questions when LOCOMO_FILE (locomo10.json) is given (shipped to the
# tasks). Timed, ROUNDS times each (default 3), the median printed:
#   - one process: `tenure-eval static --backend http` against one system;
#   - scripts/ray_shards.py with 1, 2, 4 and 8 shards on a local Ray cluster (a head and one node
#     of 2 CPUs, started once, outside the timing), each task with its own system; 4 and 8
#     shards ask for a half and a quarter of a CPU each, as a waiting run needs little.
# Needs a release build and the venv with Ray (scripts/setup-models.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
LATENCY="${1:-100}"
ROUNDS="${2:-3}"
BIN=target/release/tenure-eval
RAY=.venv/bin/ray
PY=.venv/bin/python
export RAY_USAGE_STATS_ENABLED=0
WORK="$(mktemp -d)"
SUITE="--suite pmb"
SHIP=()
if [[ -n ${3:-} ]]; then
  # Shipped from a path inside this folder (target/ is git-ignored): a link to the file.
  ln -sf "$(realpath "$3")" target/ray-speedup-locomo.json
  SUITE="--suite locomo --data target/ray-speedup-locomo.json"
  SHIP=(--ship target/ray-speedup-locomo.json)
fi
PORT=$((20000 + RANDOM % 20000))
trap '"$RAY" stop --force >/dev/null 2>&1; rm -rf "$WORK"' EXIT

"$RAY" start --head --node-ip-address 127.0.0.1 --port "$PORT" --num-cpus 0 \
  --include-dashboard false --disable-usage-stats >/dev/null 2>&1
"$RAY" start --address "127.0.0.1:$PORT" --node-ip-address 127.0.0.1 --num-cpus 2 >/dev/null 2>&1

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
seconds() { local s; s=$(date +%s.%N); "$@" >/dev/null 2>&1 || true; echo "$(date +%s.%N) - $s" | bc; }

single() {
  "$BIN" serve $SUITE --backend cosine --model hashed --port 0 --quiet --latency-ms "$LATENCY" > "$WORK/url" &
  local pid=$!
  until [[ -s "$WORK/url" ]]; do sleep 0.05; done
  rm -rf "$WORK/single"
  "$BIN" static $SUITE --backend http --url "$(head -1 "$WORK/url")" --quiet --out "$WORK/single"
  kill "$pid"; wait "$pid" 2>/dev/null || true; : > "$WORK/url"
}

sharded() {
  local n=$1 cpus=$2
  rm -rf "$WORK/ray$n"
  "$PY" scripts/ray_shards.py --address "127.0.0.1:$PORT" --shards "$n" --cpus-per-shard "$cpus" \
    --suite-args "$SUITE" "${SHIP[@]}" --run "static --backend http --url {url}" \
    --system "{bin} serve $SUITE --backend cosine --model hashed --port 0 --quiet --latency-ms $LATENCY" \
    --binary "$BIN" --out "$WORK/ray$n" --quiet
}

echo "| $SUITE static, serve --latency-ms $LATENCY | median of $ROUNDS, s | speed-up |"
echo "|---|---|---|"
base=$(for _ in $(seq "$ROUNDS"); do seconds single; done | median)
printf '| one process | %.1f | 1.00x |\n' "$base"
for spec in "1 1" "2 1" "4 0.5" "8 0.25"; do
  set -- $spec
  t=$(for _ in $(seq "$ROUNDS"); do seconds sharded "$1" "$2"; done | median)
  printf '| Ray, %s shards (%s CPU each) | %.1f | %.2fx |\n' "$1" "$2" "$t" "$(echo "$base / $t" | bc -l)"
done
