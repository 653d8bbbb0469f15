#!/usr/bin/env python3
"""Compare what PrecisionMemBench's harness and tenure-eval's `--compat pmb` client produced
(scripts/crosscheck-pmb.sh): two reports, or two request logs of `tenure-eval serve`.

  crosscheck_compare.py reports KIND UPSTREAM.json OURS.json
  crosscheck_compare.py requests all UPSTREAM.jsonl OURS.jsonl

Reports: every entry field but the measured ones (latencies), in order, and every summary field.
Requests: method, path and body text of every request, in order. Prints each difference and a
count line; exits 1 when anything differs.
"""
import json
import sys


def measured(field):
    return "atency" in field


def reports(kind, upstream, ours):
    theirs, mine = (json.load(open(p)) for p in (upstream, ours))
    if len(theirs["cases"]) != len(mine["cases"]):
        print(f"{kind}: {len(theirs['cases'])} entries upstream, {len(mine['cases'])} ours")
        return 1
    fields = differing = equal_entries = 0
    for t, o in zip(theirs["cases"], mine["cases"]):
        same_entry = True
        for field in (f for f in t if not measured(f)):
            fields += 1
            if t[field] != o.get(field):
                differing += 1
                same_entry = False
                print(f"  {t.get('caseId')}: {field}: upstream {t[field]!r}, ours {o.get(field)!r}")
        equal_entries += same_entry
    for field in (f for f in theirs["retrieval"] if not measured(f)):
        fields += 1
        if theirs["retrieval"][field] != mine["retrieval"].get(field):
            differing += 1
            print(f"  summary {field}: upstream {theirs['retrieval'][field]!r}, ours {mine['retrieval'].get(field)!r}")
    passed = theirs["retrieval"]["totalPassed"]
    print(f"{kind}: {equal_entries}/{len(theirs['cases'])} entries equal, {passed} passed; "
          f"{fields} fields compared, {differing} differ")
    return 1 if differing else 0


def requests(upstream, ours):
    theirs, mine = ([json.loads(l) for l in open(p)] for p in (upstream, ours))
    differing = 0
    for i, (t, o) in enumerate(zip(theirs, mine)):
        if t != o:
            differing += 1
            print(f"  request {i + 1}: upstream {t!r}\n               ours     {o!r}")
    if len(theirs) != len(mine):
        differing += 1
        print(f"  {len(theirs)} requests upstream, {len(mine)} ours")
    equal = min(len(theirs), len(mine)) - (differing - (len(theirs) != len(mine)))
    print(f"requests: {equal}/{len(theirs)} equal (method, path, body), {differing} differ")
    return 1 if differing else 0


if __name__ == "__main__":
    what, kind, upstream, ours = sys.argv[1:5]
    sys.exit(reports(kind, upstream, ours) if what == "reports" else requests(upstream, ours))
