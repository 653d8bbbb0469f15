#!/usr/bin/env python3
"""Reference values for tenure-eval's rank metrics and paired tests, from the tools users
already trust. Reads a JSON request on stdin, prints a JSON answer on stdout.

  {"op": "measures", "run": PATH, "qrels": PATH, "measures": ["P@5", ...]}
      -> {"provider": {...}, "values": {qid: {measure: value}}}   (ir_measures, per query)
  {"op": "permutation", "pairs": [[x, y], ...]}
      -> {"p": ...}   exact paired sign-flip test (scipy.stats.permutation_test, all 2^n
                      flips, statistic: mean difference, two-sided)
  {"op": "permutation_sampled", "pairs": [...], "resamples": R, "seed": S}
      -> {"p": ...}   the same test on R random flips (numpy's generator, not ours: the two
                      sampled answers agree within sampling error, not exactly)
  {"op": "binomial", "plus": k, "n": n}
      -> {"p": ...}   exact two-sided binomial test at 1/2 (scipy.stats.binomtest): McNemar
  {"op": "ttest", "pairs": [[x, y], ...]}
      -> {"p": ...}   paired Student's t test (scipy.stats.ttest_rel)
"""
import json
import sys


def measures(req):
    import ir_measures

    wanted = [ir_measures.parse_measure(m) for m in req["measures"]]
    qrels = list(ir_measures.read_trec_qrels(req["qrels"]))
    run = list(ir_measures.read_trec_run(req["run"]))
    values = {}
    for m in wanted:
        for metric in ir_measures.iter_calc([m], qrels, run):
            values.setdefault(metric.query_id, {})[str(metric.measure)] = metric.value
    return {"values": values}


def permutation(req):
    """Exact (all 2^n flips) unless the request gives a number of resamples and a seed."""
    import numpy as np
    from scipy import stats

    x = np.array([p[0] for p in req["pairs"]], dtype=float)
    y = np.array([p[1] for p in req["pairs"]], dtype=float)
    res = stats.permutation_test(
        (x, y),
        lambda a, b, axis: np.mean(a - b, axis=axis),
        permutation_type="samples",
        vectorized=True,
        n_resamples=req.get("resamples", np.inf),
        random_state=req.get("seed"),
        alternative="two-sided",
    )
    return {"p": float(res.pvalue)}


def binomial(req):
    from scipy import stats

    return {"p": float(stats.binomtest(req["plus"], req["n"], 0.5).pvalue)}


def ttest(req):
    from scipy import stats

    x = [p[0] for p in req["pairs"]]
    y = [p[1] for p in req["pairs"]]
    return {"p": float(stats.ttest_rel(x, y).pvalue)}


OPS = {
    "measures": measures,
    "permutation": permutation,
    "permutation_sampled": permutation,
    "binomial": binomial,
    "ttest": ttest,
}


def main():
    # --lines: one request a line, one answer a line, until stdin closes (a test asking many
    # questions pays for Python's start and scipy's import once).
    if sys.argv[1:] == ["--lines"]:
        for line in sys.stdin:
            req = json.loads(line)
            json.dump(OPS[req["op"]](req), sys.stdout)
            sys.stdout.write("\n")
            sys.stdout.flush()
        return
    req = json.load(sys.stdin)
    json.dump(OPS[req["op"]](req), sys.stdout)


if __name__ == "__main__":
    main()
