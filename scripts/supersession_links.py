#!/usr/bin/env python3
"""Supersession recorded in the store, against BEAM's knowledge updates (docs/results.md,
"Supersession on BEAM's knowledge updates"; scripts/benchmark-results.sh, section supersession).

The recency prior orders by time; the seeds' store records which statement supersedes which
(`superseded_by`) and answers with the superseding one. This measures that rule over plain
bm25-text's ranking (a `tenure-eval trec` export of its BEAM report, 50 results a question):

  the rule     walking the first 10 results in order, a result that was superseded has the last
               of its chain of superseders placed right above it (taken from lower in the list,
               or from the store when BM25 did not retrieve it), unless that one ranks above it
               already; the list is then cut at 10 as before.
  the links    (a) BEAM's own: each knowledge update's original message superseded by its
               updated one (the qrels' grades: 1 the original, 2 the update; docs/beam.md), what
               a write path that recorded every update correctly would hold: a bound, not a
               method, since the metric reads the same links;
               (b) found in the text at write time: each message supersedes the earlier message
               of its chat (either role) most like it, when that likeness reaches theta; likeness
               is the idf-weighted Jaccard of the two messages' word sets (words as bm25-text
               cuts them: runs of letters and digits, lowercased; idf log(N/df) over the chat).

Protocol for (b), fixed before any of its figures was seen: theta from the grid 0.2, 0.3, 0.4,
0.5, chosen on the 100K tier (development) as the most updates first with R@10 within 0.02 of
plain BM25's, reported on the 500K tier (held out); every theta is shown on both.

usage: supersession_links.py TREC_STEM BEAM_DIR   (TREC_STEM.run and TREC_STEM.qrels)
Prints a markdown table and a line naming theta. Standard library only.
"""
import json
import math
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path

GRID = (0.2, 0.3, 0.4, 0.5)
TIERS = ("100K", "500K")


def read_trec(stem):
    ranking, grades = defaultdict(list), defaultdict(dict)
    for line in open(stem + ".run"):
        query, _, doc = line.split()[:3]
        ranking[query].append(doc)
    for line in open(stem + ".qrels"):
        query, _, doc, grade = line.split()
        grades[query][doc] = int(grade)
    return ranking, grades


def messages(chat):
    """A chat's messages in file order, as tenure-eval reads them: every object with an id, a
    role and a content, wherever it sits."""
    found = []

    def walk(node):
        if isinstance(node, dict):
            if {"id", "role", "content"} <= node.keys():
                found.append(node)
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(chat)
    return found


def words(text):
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def most_alike(items):
    """For each message, its likeness to the most alike earlier message and that message's
    index (None for the first); ties keep the earliest."""
    df = Counter(w for _, ws in items for w in ws)
    idf = {w: math.log(len(items) / n) for w, n in df.items()}
    weight = [sum(idf[w] for w in ws) for _, ws in items]
    out = []
    for j, (_, ws) in enumerate(items):
        best, at = 0.0, None
        for i in range(j):
            shared = sum(idf[w] for w in ws & items[i][1])
            union = weight[i] + weight[j] - shared
            if union > 0 and shared / union > best:
                best, at = shared / union, i
        out.append((best, at))
    return out


def place(ranked, links, k=10):
    out = list(ranked)
    i = 0
    while i < min(k, len(out)):
        last, seen = out[i], {out[i]}
        while last in links and links[last] not in seen:
            last = links[last]
            seen.add(last)
        if last != out[i]:
            j = out.index(last) if last in out else None
            if j is None or j > i:
                if j is not None:
                    out.pop(j)
                out.insert(i, last)
                i += 1
        i += 1
    return out


def update_first(ranked, g):
    """For a knowledge update with an original (grades 2 and 1), whether the update ranks above
    every original retrieved, as `tenure-eval beam` counts it; None for any other question."""
    if not (2 in g.values() and 1 in g.values()):
        return None
    for doc in ranked:
        if g.get(doc) == 1:
            return False
        if g.get(doc) == 2:
            return True
    return False


def measure(ranking, grades, tier, links_of):
    recalls, first, updates = [], 0, 0
    for query, ranked in ranking.items():
        if not query.startswith(tier + "-"):
            continue
        chat = query.split("/")[0]
        if links_of is not None:
            ranked = place(ranked, links_of(chat))
        g = grades.get(query, {})
        relevant = {d for d, grade in g.items() if grade > 0}
        if relevant:
            recalls.append(len(relevant & set(ranked[:10])) / len(relevant))
        judged = update_first(ranked, g)
        if judged is not None:
            updates += 1
            first += judged
    return sum(recalls) / len(recalls), first, updates


def main():
    stem, beam = sys.argv[1], Path(sys.argv[2])
    ranking, grades = read_trec(stem)
    given = defaultdict(dict)
    for query, g in grades.items():
        originals = [d for d, grade in g.items() if grade == 1]
        update = [d for d, grade in g.items() if grade == 2]
        if originals and update:
            for d in originals:
                given[query.split("/")[0]][d] = max(update, key=lambda x: int(x.split("/m")[1]))
    chats, alike = {}, {}
    for tier in TIERS:
        for folder in sorted((beam / tier).iterdir(), key=lambda p: int(p.name)):
            chat = f"{tier}-{folder.name}"
            items = [(f"{chat}/m{m['id']}", words(m["content"]))
                     for m in messages(json.load(open(folder / "chat.json")))]
            chats[chat], alike[chat] = items, most_alike(items)

    def found(theta):
        def links(chat):
            return {chats[chat][at][0]: chats[chat][j][0]
                    for j, (score, at) in enumerate(alike[chat])
                    if at is not None and score >= theta}
        return links

    rows = [("plain bm25-text", None), ("links given (BEAM's own: a bound)", lambda c: given[c])]
    rows += [(f"links found, theta {t}", found(t)) for t in GRID]
    figures = {name: {tier: measure(ranking, grades, tier, links) for tier in TIERS}
               for name, links in rows}
    print("| links | R@10 100K (dev) | update first 100K (dev) | R@10 500K (held out) "
          "| update first 500K (held out) |")
    print("|---|---|---|---|---|")
    for name, _ in rows:
        cells = []
        for tier in TIERS:
            r10, first, n = figures[name][tier]
            cells += [f"{r10:.3f}", f"{first}/{n} ({first / n:.3f})"]
        print(f"| {name} | " + " | ".join(cells) + " |")
    plain = figures["plain bm25-text"]["100K"][0]
    allowed = [t for t in GRID if figures[f"links found, theta {t}"]["100K"][0] >= plain - 0.02]
    chosen = max(allowed, key=lambda t: (figures[f"links found, theta {t}"]["100K"][1], -t))
    r10, first, n = figures[f"links found, theta {chosen}"]["500K"]
    base = figures["plain bm25-text"]["500K"]
    print()
    print(f"Chosen on the 100K tier: theta {chosen}. Held out (500K): {first}/{n} updates first "
          f"against plain BM25's {base[1]}/{base[2]}, R@10 {r10:.3f} against {base[0]:.3f} "
          f"({r10 - base[0]:+.3f}).")


if __name__ == "__main__":
    main()
