# The reports' measured fields (the manifest and schema call them measured: startedAt, the
# latencies and ingestion timings) and how a script masks them: sourced by the scripts that
# compare two runs' files byte for byte (check-identical.sh, library-matches-cli.sh).
# shellcheck shell=bash
measured='startedAt|latencyMs|retrievalLatencyMs|meanLatencyMs|p50LatencyMs|p95LatencyMs|totalMs|meanPerBeliefMs|ms|buildMs|elapsedMs'

# mask_measured DIR: every measured field's value in DIR's reports (.json) and journals (.jsonl)
# becomes "<measured>".
mask_measured() {
  find "$1" \( -name '*.json' -o -name '*.jsonl' \) -print0 | xargs -0 sed -E -i \
    "s/(\"($measured)\": ?)(\"[^\"]*\"|[-0-9.eE+]+|null)/\1\"<measured>\"/g"
}
