#!/usr/bin/env bash
# tenure-eval beside Lucene on the scale study's corpora: `tenure-eval scale --export` writes
# each size's corpus, queries and answers; scripts/lucene/ScaleLucene.java indexes the same
# corpus in Lucene (8.8.1 from Debian's liblucene8-java), runs the same queries, and checks that every
# answer is ours, id for id and score for score. Each engine runs in a process of its own per
# size (honest peak memory). Prints a Markdown table; exits 1 if any answer differs.
#
#   scripts/lucene-side-by-side.sh [SIZES] [FOLDER]     # defaults: 10k,100k,1m target/lucene
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${1:-10k,100k,1m}
OUT=${2:-target/lucene}
CP=$(scripts/setup-lucene.sh)
cargo build --release --locked --quiet
rm -rf "$OUT"
mkdir -p "$OUT/classes"
javac -d "$OUT/classes" -cp "$CP" scripts/lucene/ScaleLucene.java
target/release/tenure-eval scale --suite pmb --sizes "$SIZES" --export "$OUT" --format json \
  > "$OUT/tenure-eval.json"
for dir in "$OUT"/[0-9]*/; do
  size=$(basename "$dir")
  echo "lucene: $size beliefs" >&2
  java -cp "$CP:$OUT/classes" ScaleLucene "$dir" > "$OUT/lucene-$size.json"
done
python3 - "$OUT" <<'PY'
import json, pathlib, sys
out = pathlib.Path(sys.argv[1])
ours = {r["beliefs"]: r for r in json.loads((out / "tenure-eval.json").read_text())}
# The version Lucene reports (Debian's liblucene8-java 8.8.1 names its jars 8.7.0).
version = json.loads((out / f"lucene-{min(ours)}.json").read_text())["lucene"]
print(f"### tenure-eval beside Lucene {version}: same corpus, same queries, same answers\n")
print("| Beliefs | Build ms (ours / Lucene) | Search p50 µs (ours / Lucene) | Search p95 µs (ours / Lucene) | Peak RSS MiB (ours / Lucene) | Same answers | Same case answers |")
print("|---|---|---|---|---|---|---|")
differ = False
for n in sorted(ours):
    t, l = ours[n], json.loads((out / f"lucene-{n}.json").read_text())
    pair = lambda a, b: f"{a:,.0f} / {b:,.0f} ({a / b:.2f}x)" if b else f"{a:,.0f} / {b:,.0f}"
    print(f"| {n:,} | {pair(t['buildMs'], l['buildMs'])} | {pair(t['searchP50Us'], l['searchP50Us'])} "
          f"| {pair(t['searchP95Us'], l['searchP95Us'])} | {pair(t['peakRssMib'], l['peakRssMib'])} "
          f"| {l['sameAnswers']}/{l['queries']} | {l['sameCaseAnswers']}/{l['caseSearches']} |")
    if (l["sameAnswers"] != l["queries"] or l["queries"] != t["queries"]
            or l["sameCaseAnswers"] != l["caseSearches"]):
        differ = True
        print(f"\n{n}: {l['firstDifference']}", file=sys.stderr)
sys.exit(1 if differ else 0)
PY
