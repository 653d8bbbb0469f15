#!/usr/bin/env bash
# A library user gets the files the command line writes: `tenure-eval run --suite pmb --backend
# bm25 --junit --summary-md --history --html` and `examples/library_run.rs` (the same run
# through the library's plan) into two folders, compared byte for byte with the measured fields
# masked (the reports', journals', history's and page's latencies, timings and dates, JUnit's
# `time`, the summary's p50/p95 columns) and the two folders' names; and the table each prints
# on stdout (`job::show`), its p50/p95 columns masked.
#
#   scripts/library-matches-cli.sh [BIN]      (BIN: the binary, default target/debug/tenure-eval)
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/debug/tenure-eval}
[ -x "$bin" ] || { echo "not an executable: $bin (cargo build first)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$bin" run --suite pmb --backend bm25 --quiet --out "$work/cli" \
  --junit "$work/cli/junit.xml" --summary-md "$work/cli/summary.md" \
  --history "$work/cli/history" --html "$work/cli/page.html" >"$work/cli.stdout"
# The example's messages (what it wrote, as the command line's stderr says) are shown only if
# it fails.
cargo run --locked --quiet --example library_run -- "$work/lib" >"$work/lib.stdout" \
  2>"$work/lib.stderr" || { cat "$work/lib.stderr" >&2; exit 1; }
# shellcheck source=scripts/measured.sh
source "$(dirname "$0")/measured.sh"
for side in cli lib; do
  mask_measured "$work/$side"
  sed -E -i 's/ time="[0-9.]+"/ time="<measured>"/g' "$work/$side/junit.xml"
  # The summary table's last two columns are the p50 and p95 latencies.
  sed -E -i 's/\| *[0-9.]+ *\| *[0-9.]+ *\|$/| <measured> | <measured> |/' "$work/$side/summary.md"
  # The history's lines: when each pass ran (a timestamp, never empty), and its report's path
  # under the side's folder.
  sed -E -i -e "s#$work/$side/#<out>/#g" \
    -e 's/"date":"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:.]+Z"/"date":"<measured>"/g' \
    "$work/$side/history/history.jsonl"
  # The page holds the reports as JSON, with each report's ingestion time, and the history last,
  # whose table has a date per run: timestamps are masked there only.
  sed -E -i -e 's/"ingestionMs":[-0-9.eE+]+/"ingestionMs":"<measured>"/g' \
    -e "s/(\"($measured)\": ?)(\"[^\"]*\"|[-0-9.eE+]+|null)/\1\"<measured>\"/g" \
    -e "s#$work/$side/#<out>/#g" "$work/$side/page.html"
  perl -pi -e 's{("history":.*)}{my $h = $1; $h =~ s/"\d{4}-\d\d-\d\dT[\d:.]+Z"/"<measured>"/g; $h}e' \
    "$work/$side/page.html"
done
diff -r "$work/cli" "$work/lib"
# The tables' last two columns are the p50 and p95 latencies; a failing case's line names its
# report's path under the side's folder.
for side in cli lib; do
  sed -E -i -e 's/\| *[0-9.]+ *\| *[0-9.]+ *\|$/| <measured> | <measured> |/' \
    -e "s#$work/$side/#<out>/#g" "$work/$side.stdout"
done
[ -s "$work/cli.stdout" ] || { echo "library-matches-cli: the command line printed no table" >&2; exit 1; }
diff "$work/cli.stdout" "$work/lib.stdout"
files=$(find "$work/cli" -type f | wc -l)
echo "library-matches-cli: the library's run wrote the command line's $files files and printed its table, measured fields masked"
