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


def observations(sample):
    # The observation database as task_eval/get_facts.py builds it: sessions ascending, speakers
    # and facts as listed; each entry's dia_id as gpt_utils.py's get_rag_context reads it (a
    # string with a comma split on it and stripped, a list as it is).
    sessions = sorted(int(key.split("_")[1]) for key in sample["observation"])
    out = []
    for n in sessions:
        for facts in sample["observation"][f"session_{n}_observation"].values():
            for _fact, dia_id in facts:
                if isinstance(dia_id, str) and "," in dia_id:
                    dia_id = [s.strip() for s in dia_id.split(",")]
                out.append(dia_id if isinstance(dia_id, list) else [dia_id])
    return out


def main():
    data, report, k = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
    ranking = {c["caseId"]: c["relevantBeliefs"] for c in report["cases"]}
    total, sums = defaultdict(int), defaultdict(float)
    for sample in data:
        cited = observations(sample) if "observation" in sample else []
        for i, qa in enumerate(sample["qa"]):
            line = {"evidence": qa.get("evidence", [])}
            ids = ranking.get(f"{sample['sample_id']}/q{i}")
            if ids:
                items = [x.split("/", 1)[1] for x in ids[:k]]
                if items[0].startswith("O"):
                    # gpt_utils.py flattens each retrieved observation's dia_ids in rank order.
                    items = [d for item in items for d in cited[int(item[1:])]]
                line["m_context"] = items
            # An empty context would raise IndexError in evaluation.py; tenure-eval counts it
            # 0, and a question with evidence that no item of the database stands for (not a
            # case of an observation run) is missed whatever is retrieved.
            r = 0.0 if not ids and line["evidence"] else recall_of(line, "m")
            for group in (NAMES[qa["category"]], "all"):
                total[group] += 1
                sums[group] += r
    print(json.dumps({g: sums[g] / total[g] for g in total}))


main()
