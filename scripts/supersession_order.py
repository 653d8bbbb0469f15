#!/usr/bin/env python3
"""Supersession read at query time among the results retrieved, against BEAM's knowledge
updates (docs/results.md, "Supersession on BEAM's knowledge updates"; run by
scripts/benchmark-results.sh, section supersession).

The recency prior over BM25's first 10 orders every result by time, whatever it is about, and
costs every ability whose answer is the earlier statement. The links found at write time
(supersession_links.py) pull a superseder into the list from the store and cost recall. This is
the third reading of the seeds' rule: two results retrieved for one question that say alike
things are taken as one statement and its successor, and the later is placed above the earlier;
results that are not alike keep BM25's order. The set of the first 10 is BM25's, so R@10 is
plain BM25's by construction; what it can change is which comes first, and what it costs.

  the rule     BM25's first 10 are taken in BM25's order; each is placed right above the
               highest-placed result already taken that is earlier in its chat and alike to it
               by at least theta, or else below all of them. Alike: the idf-weighted Jaccard of
               the two messages' word sets, as in supersession_links.py (idf over the chat).
               Every pair alike (theta 0) gives the first 10 in time order, newest first: the
               limit of the recency prior as W grows, shown as a reference row.
  the protocol fixed before any of its figures was seen: theta from the grid 0.05, 0.1, 0.2,
               0.3, 0.4, chosen on the 100K tier (development) as the most updates first, ties
               to the larger theta (the lesser change), and reported on the 500K tier (held out)
               with nDCG@10 over every question and over the questions that are not knowledge
               updates (what the reordering costs the rest).

usage: supersession_order.py TREC_STEM BEAM_DIR   (TREC_STEM.run and TREC_STEM.qrels)
Prints a markdown table and a line naming theta. Standard library only.
"""
import json
import math
import sys
from pathlib import Path

from supersession_links import TIERS, messages, read_trec, update_first, words

GRID = (0.05, 0.1, 0.2, 0.3, 0.4)
K = 10


def chat_index(beam):
    """Each message id's place in its chat and its idf-weighted word set, per chat."""
    place, weighted = {}, {}
    for tier in TIERS:
        for folder in sorted((beam / tier).iterdir(), key=lambda p: int(p.name)):
            chat = f"{tier}-{folder.name}"
            found = messages(json.load(open(folder / "chat.json")))
            sets = [words(m["content"]) for m in found]
            df = {}
            for ws in sets:
                for w in ws:
                    df[w] = df.get(w, 0) + 1
            for at, (m, ws) in enumerate(zip(found, sets)):
                doc = f"{chat}/m{m['id']}"
                place[doc] = at
                weighted[doc] = {w: math.log(len(sets) / df[w]) for w in ws}
    return place, weighted


def alike(a, b):
    shared = sum(a[w] for w in a.keys() & b.keys())
    union = sum(a.values()) + sum(b.values()) - shared
    return shared / union if union > 0 else 0.0


def reorder(ranked, place, weighted, theta):
    out = []
    for doc in ranked[:K]:
        at = next((i for i, d in enumerate(out)
                   if place[d] < place[doc]
                   and (theta == 0 or alike(weighted[d], weighted[doc]) >= theta)), len(out))
        out.insert(at, doc)
    return out + ranked[K:]


def wilson(k, n, z=1.959964):
    """The 95% Wilson score interval of k successes in n."""
    p, scale = k / n, 1 + z * z / n
    centre = (p + z * z / (2 * n)) / scale
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / scale
    return centre - half, centre + half


def ndcg(ranked, grades):
    """nDCG@10 as trec_eval's ndcg_cut.10 and ir_measures compute it (grade as gain)."""
    dcg = sum(grades.get(d, 0) / math.log2(i + 2) for i, d in enumerate(ranked[:K]))
    ideal = sorted((g for g in grades.values() if g > 0), reverse=True)[:K]
    best = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    return dcg / best if best else 0.0


def figures(ranking, grades, tier, order):
    every, rest, first, updates = [], [], 0, 0
    for query in sorted(grades):
        if not query.startswith(tier + "-"):
            continue
        ranked = order(ranking.get(query, []))
        g = grades[query]
        every.append(ndcg(ranked, g))
        if "/knowledge_update/" not in query:
            rest.append(ndcg(ranked, g))
        judged = update_first(ranked, g)
        if judged is not None:
            updates += 1
            first += judged
    return first, updates, sum(every) / len(every), sum(rest) / len(rest)


def main():
    stem, beam = sys.argv[1], Path(sys.argv[2])
    ranking, grades = read_trec(stem)
    place, weighted = chat_index(beam)
    rows = [("plain bm25-text", lambda r: r)]
    rows += [(f"alike later first, theta {t}", lambda r, t=t: reorder(r, place, weighted, t))
             for t in GRID]
    rows += [("time order (theta 0: the prior's limit)", lambda r: reorder(r, place, weighted, 0))]
    table = {name: {tier: figures(ranking, grades, tier, order) for tier in TIERS}
             for name, order in rows}
    print("| order of the first 10 | update first 100K (dev) | nDCG@10 100K | nDCG@10 100K, "
          "not updates | update first 500K (held out) | nDCG@10 500K | nDCG@10 500K, not updates |")
    print("|---|---|---|---|---|---|---|")
    for name, _ in rows:
        cells = []
        for tier in TIERS:
            first, n, every, rest = table[name][tier]
            cells += [f"{first}/{n} ({first / n:.3f})", f"{every:.3f}", f"{rest:.3f}"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    chosen = max(GRID, key=lambda t: (table[f"alike later first, theta {t}"]["100K"][0], t))
    first, n, every, rest = table[f"alike later first, theta {chosen}"]["500K"]
    base = table["plain bm25-text"]["500K"]
    low, high = wilson(first, n)
    print()
    print(f"Chosen on the 100K tier: theta {chosen}. Held out (500K): {first}/{n} updates first "
          f"({first / n:.3f}; 95% Wilson interval {low:.2f}-{high:.2f}) against plain BM25's {base[0]}/{base[1]}; nDCG@10 {every:.3f} "
          f"against {base[2]:.3f}, on the questions that are not updates {rest:.3f} against "
          f"{base[3]:.3f}; R@10 is plain BM25's (the first 10 are the same set).")


if __name__ == "__main__":
    main()
