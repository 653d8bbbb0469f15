#!/usr/bin/env bash
# Session-turn latency of `tenure-eval serve`, as a client sees it: for each binary given, R
# rounds (alternating binaries) of `serve --backend bm25` on 127.0.0.1 and the pmb session suite
# run against it over HTTP by the first binary; prints p50/p95/max over the pooled turns
# (retrievalLatencyMs of every turn entry) and how many turns took over 20 ms.
#
#   scripts/serve-turn-latency.sh [-r ROUNDS] BIN [BIN...]
#
# Used for issue 22's TCP_NODELAY measurement (docs/providers.md): a release build of main
# against the same build with `set_tcp_nodelay(false)`.
set -euo pipefail
rounds=10
if [[ ${1:-} == -r ]]; then rounds=$2; shift 2; fi
(($# >= 1)) || { echo "usage: scripts/serve-turn-latency.sh [-r ROUNDS] BIN [BIN...]" >&2; exit 2; }
client=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for r in $(seq 1 "$rounds"); do
  i=0
  for bin in "$@"; do
    i=$((i + 1))
    "$bin" serve --backend bm25 --port 0 >"$work/url" 2>/dev/null &
    pid=$!
    for _ in $(seq 100); do [[ -s $work/url ]] && break; sleep 0.05; done
    url=$(head -n1 "$work/url")
    "$client" session --suite pmb --backend http --url "$url" --name serve --out "$work/$i-$r" \
      --quiet >/dev/null 2>"$work/$i-$r.err" || { cat "$work/$i-$r.err" >&2; kill "$pid"; exit 3; }
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
i=0
for bin in "$@"; do
  i=$((i + 1))
  python3 - "$bin" "$work" "$i" <<'PY'
import glob, json, math, sys
bin, work, i = sys.argv[1:]
lat = sorted(c["retrievalLatencyMs"] for f in glob.glob(f"{work}/{i}-*/pmb/*.json")
             for c in json.load(open(f))["cases"])
at = lambda p: lat[max(0, math.ceil(p / 100 * len(lat)) - 1)]
print(f"{bin}: {len(lat)} turns, p50 {at(50)} ms, p95 {at(95)} ms, max {lat[-1]} ms, "
      f"over 20 ms: {sum(x > 20 for x in lat)}")
PY
done
