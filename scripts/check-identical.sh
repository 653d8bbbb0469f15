#!/usr/bin/env bash
# Reports of two builds are byte-identical apart from measured fields.
#
#   scripts/check-identical.sh [--added KEY,...] BASELINE_BIN [NEW_BIN]
#
# Runs `run --suite pmb|paper|bitemporal` through every built-in backend (bm25, cosine, the
# three fusions, composite plain and --bitemporal, spreading, recent) and a short `flywheel`
# study with each binary (NEW_BIN
# defaults to this checkout's debug build) into its own temporary folder, replaces the value of
# every measured field with "<measured>" (the fields the manifest and schema call measured:
# startedAt, the latencies and ingestion timings), and diffs the two trees byte for byte. The
# rest of each line, the key order, the file names and the paper layout's sidecar sha256 (its
# report carries no measured field) must match. Run from the repository root: cosine reads the
# committed embedding stores under embeddings/.
#
# --added KEY,...: manifest keys the new build adds on purpose (e.g. `suiteCopy`, issue 22):
# their lines are dropped from the new side's files before the diff, and each must have been
# there (a key named but never written is an error too).
set -euo pipefail
added=""
if [[ ${1:-} == --added ]]; then added=$2; shift 2; fi
base=${1:?usage: scripts/check-identical.sh [--added KEY,...] BASELINE_BIN [NEW_BIN]}
new=${2:-target/debug/tenure-eval}
[ -x "$base" ] || { echo "not an executable: $base" >&2; exit 2; }
[ -x "$new" ] || { echo "not an executable: $new (cargo build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# shellcheck source=scripts/measured.sh
source "$(dirname "$0")/measured.sh"
# One command of one side; 1 would be a failed gate, none is set here, so any non-zero exit is a
# failure.
each() {
  local side=$1 name=$2; shift 2
  "$@" --quiet >"$work/$side.$name.stdout" 2>"$work/$side.$name.stderr" || {
    code=$?
    echo "$* exited $code:" >&2; cat "$work/$side.$name.stderr" >&2; exit 3; }
}
for side in base new; do
  bin=$base; [ "$side" = new ] && bin=$new
  for suite in pmb paper bitemporal; do
    each "$side" "$suite" "$bin" run --suite "$suite" \
      --backend bm25,cosine,rrf,combsum,fallback,composite,spreading,recent --out "$work/$side/$suite"
    each "$side" "$suite-bt" "$bin" run --suite "$suite" --backend composite --bitemporal \
      --out "$work/$side/$suite-bitemporal"
  done
  each "$side" flywheel "$bin" flywheel --sessions 6 --seed 7 --out "$work/$side/flywheel" \
    --plot "$work/$side/flywheel/flywheel.svg"
  # Reports (.json) and the journals beside them (.jsonl: a finished case's latency).
  mask_measured "$work/$side"
done
for key in ${added//,/ }; do
  hits=$(grep -rl "^ *\"$key\": " "$work/new" | wc -l)
  [ "$hits" -gt 0 ] || { echo "--added $key: no report of the new build has it" >&2; exit 1; }
  find "$work/new" -name '*.json' -print0 | xargs -0 sed -E -i "/^ *\"$key\": .*,$/d"
  echo "dropped the added key $key from $hits files of the new build"
done
files=$(find "$work/base" -name '*.json' | wc -l)
if diff -r "$work/base" "$work/new"; then
  echo "identical: $files report files (pmb, paper, bitemporal × every backend; static + sessions; the flywheel's outputs and figure), measured fields ($measured) masked"
else
  echo "DIFFERENT (above)" >&2
  exit 1
fi
