#!/usr/bin/env python3
"""LoCoMo's recall accuracy by its own evaluation code's expressions, for the test of
`tenure-eval locomo` (tests/it/locomo.rs). Reads the LoCoMo file and one tenure-eval report,
gives each question its context (the report's ranking, first k items, in LoCoMo's ids) and
evaluates task_eval/evaluation.py's recall expressions (snap-research/LoCoMo 3eb6f2c,
eval_question_answering) on it, then averages per category as task_eval/evaluation_stats.py
does (sum of recalls over the category's questions / its questions).

usage: locomo_recall_reference.py LOCOMO_JSON REPORT_JSON K   -> {category: mean, "all": mean}
Standard library only."""
import json, sys
from collections import defaultdict

NAMES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop", 5: "adversarial"}


def recall_of(line, key):
    # The two expressions of evaluation.py, unchanged; a question without evidence gets 1.
    if key + '_context' in line and len(line['evidence']) > 0:
        if line[key + '_context'][0].startswith('S'):
            sessions = [e[1:] for e in line[key + '_context']]
            return float(sum([ev.split(':')[0][1:] in sessions for ev in line["evidence"]]))/len(line['evidence'])
        return float(sum([ev in line[key + '_context'] for ev in line["evidence"]]))/len(line['evidence'])
    return 1


def main():
    data, report, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
    ranking = {c["caseId"]: c["relevantBeliefs"] for c in report["cases"]}
    total, sums = defaultdict(int), defaultdict(float)
    for sample in data:
        for i, qa in enumerate(sample["qa"]):
            line = {"evidence": qa.get("evidence", [])}
            ids = ranking.get(f"{sample['sample_id']}/q{i}")
            if ids:
                line["m_context"] = [x.split("/", 1)[1] for x in ids[:k]]
            # An empty context would raise IndexError in evaluation.py; tenure-eval counts it 0.
            r = 0.0 if ids == [] and line["evidence"] else recall_of(line, "m")
            for group in (NAMES[qa["category"]], "all"):
                total[group] += 1
                sums[group] += r
    print(json.dumps({g: sums[g] / total[g] for g in total}))


main()
