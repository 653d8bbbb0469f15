#!/usr/bin/env bash
# docs/results.md's sections on the field's benchmarks, regenerated: BEAM (per tier and ability,
# the knowledge-update order, a figure), LoCoMo's three databases released and corrected,
# LoCoMo-Plus by relation type, and the Temporal Memory Dataset by test type; each through
# bm25-text, cosine (all-MiniLM-L6-v2), their RRF, and a context scorer where it applies.
#
#   scripts/benchmark-results.sh DATA_DIR [SECTION...]
#
# alias-learning is the alias flywheel on held-out questions (docs/alias-learning.md).
#
# DATA_DIR holds the benchmarks as the tests read them from TENURE_EVAL_DATA (CONTRIBUTING.md,
# "Benchmark data"): locomo/locomo10.json, locomo-audit/, locomo-plus/locomo_plus.json, beam/,
# zyphra-temporal/. SECTION is any of beam, supersession, locomo, locomo-plus, time, alias-learning
# (default: all six).
# Needs the release build (cargo build --release) and the MiniLM ONNX model and ONNX Runtime
# (scripts/setup-models.sh). Embeds every text once into target/bench-store (reused on the
# next run), writes reports under target/bench-reports, replaces the text between each
# section's markers in docs/results.md, and prints each step's wall time on stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
data=${1:?usage: scripts/benchmark-results.sh DATA_DIR [beam|locomo|locomo-plus|time ...]}
shift
sections=("${@:-beam supersession locomo locomo-plus time alias-learning}")
read -r -a sections <<<"${sections[*]}"
bin=target/release/tenure-eval
[ -x "$bin" ] || { echo "build it first: cargo build --release" >&2; exit 2; }
ORT_DYLIB_PATH=${ORT_DYLIB_PATH:-$PWD/$(scripts/setup-models.sh)}
export ORT_DYLIB_PATH
model=models/all-minilm-l6-v2
store=target/bench-store
out=target/bench-reports
mkdir -p "$store" "$out"
cosine=(--model "$model" --store-dir "$store")

step() {
  local name=$1; shift
  local start=$SECONDS
  "$@"
  echo "benchmark-results: $name: $((SECONDS - start)) s" >&2
}

# Replace docs/results.md's text between `<!-- NAME:begin` and `<!-- NAME:end -->` by FILE.
put() {
  python3 scripts/put_section.py "$1" "$2"
}

# Every backend's run table of one suite, one backend at a time (the per-category table).
tables() {
  local dir=$1; shift
  local flags
  for backend in bm25-text cosine rrf composite; do
    case $backend in
    bm25-text) flags=() ;;
    cosine | composite) flags=("${cosine[@]}") ;;
    rrf) flags=(--fuse bm25-text,cosine "${cosine[@]}") ;;
    esac
    "$bin" run "$@" --backend "$backend" "${flags[@]}" --out "$dir" --quiet |
      sed -n '/^### /,/^passed /p' | sed 's/^### /#### /'
    echo
  done
}

for section in "${sections[@]}"; do
  file=$(mktemp)
  case $section in
  beam)
    suite=(--suite beam --data "$data/beam")
    step "embed beam" "$bin" embed "${suite[@]}" "${cosine[@]}" --quiet
    step "run beam" "$bin" run "${suite[@]}" --backend bm25-text,cosine,rrf,composite \
      --fuse bm25-text,cosine "${cosine[@]}" --out "$out" --quiet >/dev/null
    # The composite scorer as specified keeps nothing over BEAM's long chats (every score under
    # its Compressed tier's 0.40); with every tier kept it ranks what it scores.
    step "run beam composite, every tier" "$bin" run "${suite[@]}" --backend composite \
      --tier-thresholds 0.75,0,0 "${cosine[@]}" --out "$out" --quiet >/dev/null
    reports=("$out/beam/retrieval-report-bm25-text.json"
      "$out/beam/all-minilm-l6-v2-retrieval-report-vector.json"
      "$out/beam/all-minilm-l6-v2-retrieval-report-rrf-fusebm25-text+cosine.json"
      "$out/beam/all-minilm-l6-v2-retrieval-report-composite.json"
      "$out/beam/all-minilm-l6-v2-retrieval-report-composite-tiers0.75,0,0.json")
    {
      echo "<!-- beam:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      "$bin" beam "${reports[@]}" --data "$data/beam" --plot docs/beam.svg --quiet |
        sed 's/^### /#### /'
      echo
      echo "![BEAM: nDCG@10 by ability, and the knowledge-update order](beam.svg)"
      echo
      echo "<!-- beam:end -->"
    } >"$file"
    ;;
  supersession)
    # bm25-text's recency prior across W, over every result and over BM25's first 10 only.
    suite=(--suite beam --data "$data/beam")
    sweep=()
    # W 32 and 64 over the first 10 were added after the rows up to 16 had been read over both
    # tiers together; their W is chosen on the 100K tier alone and reported on 500K (below).
    for window in 0 10; do
      grid=(0 0.5 1 2 4 8 16)
      [ "$window" = 10 ] && grid+=(32 64)
      for w in "${grid[@]}"; do
        flags=()
        [ "$w" = 0 ] || flags=(--recency "$w")
        [ "$w" = 0 ] || [ "$window" = 0 ] || flags+=(--recency-window "$window")
        [ "$w" = 0 ] && [ "$window" = 10 ] && continue
        dir="$out/supersession/w$w-k$window"
        step "run beam bm25-text W=$w K=$window" "$bin" run "${suite[@]}" --backend bm25-text \
          "${flags[@]}" --out "$dir" --quiet >/dev/null
        sweep+=("$dir/beam/"*.json)
      done
    done
    {
      echo "<!-- supersession:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      "$bin" beam "${sweep[@]}" --data "$data/beam" --format json --quiet | python3 -c '
import json, sys
runs = json.load(sys.stdin)
abilities = [c["ability"] for c in runs[0]["cells"] if c["tier"] == "all" and c["ability"] != "all"]
short = {"contradiction_resolution": "contra", "event_ordering": "order", "information_extraction": "extract",
         "instruction_following": "instruct", "knowledge_update": "update", "multi_session_reasoning": "multi",
         "preference_following": "pref", "summarization": "summ", "temporal_reasoning": "time"}
print("| run | R@10 | nDCG@10 | RR | update first | " + " | ".join("nDCG@10 " + short.get(a, a) for a in abilities) + " |")
print("|---" * (5 + len(abilities)) + "|")
for r in runs:
    cells = {c["ability"]: c for c in r["cells"] if c["tier"] == "all"}
    whole = cells["all"]
    k, n = whole["updateOrder"]
    at = {m: i for i, m in enumerate(r["rankMeasures"])}
    row = [r["name"], "%.3f" % whole["rank"][at["R@10"]], "%.3f" % whole["rank"][at["nDCG@10"]], "%.3f" % whole["rank"][at["RR"]], "%d/%d (%.3f)" % (k, n, k / n)]
    row += ["%.3f" % cells[a]["rank"][at["nDCG@10"]] for a in abilities]
    print("| " + " | ".join(row) + " |")
'
      echo
      # W over the first 10, chosen on the 100K tier (most updates first, ties to the smaller
      # W; R@10 is BM25's in every such row) and reported on the held-out 500K tier.
      "$bin" beam "${sweep[@]}" --data "$data/beam" --format json --quiet | python3 -c '
import json, sys
sys.path.insert(0, "scripts")
from supersession_order import wilson
every = json.load(sys.stdin)
runs = [r for r in every if "-recw10" in r["name"]]
plain = next(r for r in every if r["name"] == "bm25-text")
def cell(r, tier):
    c = next(c for c in r["cells"] if c["tier"] == tier and c["ability"] == "all")
    at = {m: i for i, m in enumerate(r["rankMeasures"])}
    return c["updateOrder"], c["rank"][at["R@10"]], c["rank"][at["nDCG@10"]]
w = lambda r: float(r["name"].split("-rec")[1].split("-")[0])
best = max(runs, key=lambda r: (cell(r, "100K")[0][0], -w(r)))
(k, n), r10, ndcg = cell(best, "500K")
(dk, dn), _, _ = cell(best, "100K")
(pk, pn), pr10, pndcg = cell(plain, "500K")
low, high = wilson(k, n)
print("The prior over the first 10, W chosen on the 100K tier: W = %g (%d/%d updates first there). Held out (500K): %d/%d (%.3f; 95%% Wilson interval %.2f-%.2f) updates first against plain BM25\x27s %d/%d, R@10 %.3f against %.3f, nDCG@10 %.3f against %.3f." % (w(best), dk, dn, k, n, k / n, low, high, pk, pn, r10, pr10, ndcg, pndcg))
'
      echo
      # The most any reordering of plain BM25's first 10 can put first: every question whose
      # updated message is among them, and those already first below the tenth place.
      plain="$out/supersession/w0-k0/beam/retrieval-report-bm25-text.json"
      "$bin" trec "$plain" "${suite[@]}" --out "$out/supersession/trec" 2>/dev/null
      python3 - "$out/supersession/trec/retrieval-report-bm25-text" <<'PY'
import sys
from collections import defaultdict
grades, ranking = defaultdict(dict), defaultdict(list)
for line in open(sys.argv[1] + ".qrels"):
    query, _, doc, grade = line.split()
    grades[query][doc] = int(grade)
for line in open(sys.argv[1] + ".run"):
    query, _, doc = line.split()[:3]
    ranking[query].append(doc)
# BEAM's grades: an update 2, its original 1 (docs/beam.md); the updates with an original.
updates = [q for q, g in grades.items() if 2 in g.values() and 1 in g.values()]
def first(docs):
    at = lambda grade: [i for i, d in enumerate(docs) if grades[q].get(d) == grade]
    return bool(at(2)) and (not at(1) or min(at(2)) < min(at(1)))
within = at_best = 0
for q in updates:
    top, rest = ranking[q][:10], ranking[q][10:]
    if any(grades[q].get(d) == 2 for d in top):
        within += 1
        at_best += 1
    elif not any(grades[q].get(d) == 1 for d in top) and first(rest):
        at_best += 1
n = len(updates)
print(f"Reordering plain BM25's first 10 can put at most **{at_best}/{n} ({at_best / n:.3f})** of "
      f"the updates first: the updated message is among the first 10 in {within}, and "
      f"{at_best - within} more are first already below the tenth place.")
PY
      echo
      # Supersession recorded in the store instead of a prior: BEAM's own links (a bound) and
      # links found in the text at write time (theta chosen on 100K, reported on 500K).
      echo "Supersession recorded in the store (\`scripts/supersession_links.py\`: a superseded result in the first 10 has its superseder placed right above it), per tier:"
      echo
      python3 scripts/supersession_links.py "$out/supersession/trec/retrieval-report-bm25-text" "$data/beam"
      echo
      echo "Supersession read at query time among the first 10 (\`scripts/supersession_order.py\`: a later result alike to an earlier one is placed above it; the set, and so R@10, is BM25's), per tier:"
      echo
      python3 scripts/supersession_order.py "$out/supersession/trec/retrieval-report-bm25-text" "$data/beam"
      echo
      echo "<!-- supersession:end -->"
    } >"$file"
    ;;
  locomo)
    reports=()
    for view in released corrected; do
      overlay=()
      suffix=""
      if [ "$view" = corrected ]; then
        overlay=(--corrections "$data/locomo-audit")
        suffix="-corrected"
      fi
      for unit in turns observations summaries; do
        suite=(--suite locomo --data "$data/locomo/locomo10.json" --unit "$unit" "${overlay[@]}")
        step "embed locomo $unit $view" "$bin" embed "${suite[@]}" "${cosine[@]}" --quiet
        step "run locomo $unit $view" "$bin" run "${suite[@]}" --backend bm25-text,cosine,rrf \
          --fuse bm25-text,cosine "${cosine[@]}" --out "$out" --quiet >/dev/null
        label=locomo
        [ "$unit" = turns ] || label="locomo-$unit"
        for file_name in retrieval-report-bm25-text.json all-minilm-l6-v2-retrieval-report-vector.json \
          all-minilm-l6-v2-retrieval-report-rrf-fusebm25-text+cosine.json; do
          reports+=("$out/$label$suffix/$file_name")
        done
      done
    done
    {
      echo "<!-- locomo-databases:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      echo "#### Released evidence"
      echo
      "$bin" locomo "${reports[@]:0:9}" --data "$data/locomo/locomo10.json" --quiet |
        sed 's/^### /##### /'
      echo
      echo "#### Corrected evidence (the locomo-audit's WRONG_CITATION entries)"
      echo
      "$bin" locomo "${reports[@]:9:9}" --data "$data/locomo/locomo10.json" \
        --corrections "$data/locomo-audit" --quiet | sed 's/^### /##### /'
      echo
      echo "<!-- locomo-databases:end -->"
    } >"$file"
    section=locomo-databases
    ;;
  locomo-plus)
    suite=(--suite locomo-plus --data "$data/locomo-plus/locomo_plus.json"
      --locomo "$data/locomo/locomo10.json")
    step "embed locomo-plus" "$bin" embed "${suite[@]}" "${cosine[@]}" --quiet
    {
      echo "<!-- locomo-plus:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      tables "$out" "${suite[@]}"
      echo "<!-- locomo-plus:end -->"
    } >"$file"
    ;;
  time)
    suite=(--suite temporal-memory --data "$data/zyphra-temporal")
    step "embed temporal-memory" "$bin" embed "${suite[@]}" "${cosine[@]}" --quiet
    {
      echo "<!-- time-questions:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      tables "$out" "${suite[@]}"
      echo "Chance: cosine over a random vector per text (\`--model random\`)."
      echo
      "$bin" run "${suite[@]}" --backend cosine --model random --out "$out" --quiet |
        sed -n '/^### /,/^passed /p' | sed 's/^### /#### /'
      echo
      echo "<!-- time-questions:end -->"
    } >"$file"
    section=time-questions
    ;;
  alias-learning)
    {
      echo "<!-- alias-learning:begin (scripts/benchmark-results.sh; do not edit by hand) -->"
      echo
      for bench in locomo beam; do
        case $bench in
        locomo) flags=(--suite locomo --data "$data/locomo/locomo10.json") shown="--suite locomo --data locomo10.json" ;;
        beam) flags=(--suite beam --data "$data/beam") shown="--suite beam --data chats/" ;;
        esac
        echo '```sh'
        echo "tenure-eval alias-learning $shown --seed 1"
        echo '```'
        echo
        step "alias-learning $bench" "$bin" alias-learning "${flags[@]}" --seed 1 --quiet |
          sed 's/^### /#### /'
        echo
      done
      echo "<!-- alias-learning:end -->"
    } >"$file"
    ;;
  *)
    echo "unknown section $section (beam, supersession, locomo, locomo-plus, time, alias-learning)" >&2
    exit 2
    ;;
  esac
  put "$section" "$file"
  rm -f "$file"
  echo "benchmark-results: wrote docs/results.md's $section section" >&2
done
