#!/usr/bin/env python3
"""Train the TemporalClassifier's learned part and write its weights (docs/temporal.md).

    .venv/bin/python scripts/train-temporal.py --locomo locomo10.json --beam chats/ \
        [--livechat] [--embedder models/all-minilm-l6-v2] [--binary target/release/tenure-eval]
        [--out src/temporal/model.json]

What it does, deterministically:
- reads each training statement's features through `tenure-eval temporal features`, the one
  featurisation inference uses (src/temporal/features.rs), and trains on their buckets (each
  feature hashed by FNV-1a 64 into 2^22 buckets, in Rust, so the hash has one definition): the
  weights file maps bucket numbers to weights and holds no words of the training text;
- the training data: the LoCoMo dev labels (cases/temporal/locomo-dev.labels.jsonl, 640
  statements), with --beam the BEAM dev labels (cases/temporal/beam-dev.labels.jsonl, 160
  statements of BEAM's 100K chats 1-10), with --livechat the LiveChat dev statements
  (cases/temporal/livechat-dev.labels.jsonl, 320 statements of eight Gitter rooms, their texts
  in the file under LiveChat's MIT licence; with --more-livechat also
  cases/temporal/livechat-dev2.labels.jsonl, 320 more), and the
  software statements
  (cases/temporal/statements.jsonl) without their corrections (the rules decide corrections,
  so the model has three classes), the software statements weighted by --se-weight;
- chooses C and the software weight from a grid by cross-validation grouped by conversation
  (five LoCoMo dev conversations, ten BEAM dev chats, eight LiveChat rooms, five folds of
  the software statements, by id mod 5), on the macro F1 of the whole classifier (the rules'
  tiers 1-3 first, the model after): the mean over the real-utterance parts trained on
  (LoCoMo's, and BEAM's and LiveChat's when given); a tie goes to the smaller C, then the
  smaller weight;
- with --embedder DIR (the embedded model, docs/temporal.md, "The fourth attempt"), each
  statement's sentence embedding by that ONNX model folder, as `tenure-eval temporal features
  --embedder DIR` gives it, is appended to its buckets, scaled by --alpha (3, chosen on the
  development sets' cross-validation), and the weights go to src/temporal/model-minilm.json
  with the embedder's identity (its name, the sha256 of its model.onnx, tokenizer.json and
  embedder.json, which the classifier compares with the folder it is given, and its width)
  and each class's dense weights (already multiplied by alpha);
- fits scikit-learn's LogisticRegression (lbfgs, balanced class weights) on all of it and
  writes the weights, rounded to 6 decimals, as JSON.

It never reads a test set's labels (cases/temporal/*-test*.labels.jsonl).

It runs on one thread: the matrices are a few hundred rows, and OpenBLAS's and OpenMP's
thread pools (one thread per core by default) spun beside each fit, costing six times the
CPU for a run three times as long on a 2-core machine (48 s of CPU in 25 s against 8 s in 8 s;
the weights and every figure the same).
"""
import argparse, hashlib, json, os, subprocess, sys
import numpy as np
from scipy.sparse import csr_matrix, hstack
from threadpoolctl import threadpool_limits
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score

DEV = "cases/temporal/locomo-dev.labels.jsonl"
SE = "cases/temporal/statements.jsonl"
BEAM_DEV = "cases/temporal/beam-dev.labels.jsonl"
# LiveChat's dev statements: the rule's 161st-480th, and with --more-livechat its 481st-800th
# (the fifth attempt, kept for the embedded model only; docs/temporal.md).
LC_DEV = "cases/temporal/livechat-dev.labels.jsonl"
LC_DEV2 = "cases/temporal/livechat-dev2.labels.jsonl"
CLASSES = ["forward_open", "current_state", "closed"]
GRID_C = [0.1, 0.3, 1.0, 3.0]
GRID_SE = [0.3, 1.0]
# The rules' tiers that decide before the model (src/temporal/mod.rs, RULE_TIERS), without
# the "denial" family.
RULE_TIERS = {1, 2, 3}
# src/temporal/features.rs's BUCKETS (the model file records it; the classifier checks it).
BUCKETS = 1 << 22


def features(binary, path, texts=()):
    cmd = [binary, "temporal", "features", path, *texts]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        # tenure-eval's own message names the file and what it expected.
        sys.exit(f"train-temporal: {' '.join(cmd)}: exit {run.returncode}\n{run.stderr}")
    return [json.loads(line) for line in run.stdout.splitlines()]


def rule(row):
    """The class the rules decide, or None when the model decides."""
    fs = set(row["features"])
    tier = next((int(f[5:]) for f in fs if f.startswith("tier=")), 0)
    if tier in RULE_TIERS and "rule=correction/denial" not in fs:
        return next(f[5:] for f in fs if f.startswith("rule=") and "/" not in f)
    return None


# --alpha: the scale of the embedding beside the 0/1 buckets (0 when not embedded).
ALPHA = 0.0


def matrix(vec, rows, fitting=False):
    """The buckets, and with --embedder the scaled embedding after them."""
    buckets = [{str(b): 1 for b in r["buckets"]} for r in rows]
    x = vec.fit_transform(buckets) if fitting else vec.transform(buckets)
    if not ALPHA:
        return x
    dense = np.array([r["embedding"] for r in rows], dtype=np.float64) * ALPHA
    return hstack([x, csr_matrix(dense)]).tocsr()


def fit(rows, c, se_weight):
    train = [r for r in rows if r["class"] != "correction"]
    vec = DictVectorizer(sort=True)
    x = matrix(vec, train, fitting=True)
    w = [se_weight if r["group"].startswith("se") else 1.0 for r in train]
    model = LogisticRegression(C=c, max_iter=10000, class_weight="balanced")
    model.fit(x, [r["class"] for r in train], sample_weight=w)
    return vec, model


def predict(vec, model, rows):
    x = matrix(vec, rows)
    return [rule(r) or p for r, p in zip(rows, model.predict(x))]


def macro(gold, pred):
    labels = sorted(set(gold) | set(pred))
    return f1_score(gold, pred, average="macro", labels=labels)


def cross_validate(rows, c, se_weight):
    pred = {}
    for g in sorted({r["group"] for r in rows}):
        vec, model = fit([r for r in rows if r["group"] != g], c, se_weight)
        test = [r for r in rows if r["group"] == g]
        pred.update(zip((r["id"] for r in test), predict(vec, model, test)))
    out = {}
    for part in PARTS:
        sel = [r for r in rows if part_of(r) == part]
        if sel:
            out[part] = macro([r["class"] for r in sel], [pred[r["id"]] for r in sel])
    return out, pred


# The three sources of training statements, by their group's prefix.
PARTS = ("locomo", "beam", "livechat", "se")


def part_of(row):
    g = row["group"]
    if g.startswith("se"):
        return "se"
    return "beam" if g.startswith("100K") else "livechat" if g.startswith("lc-") else "locomo"


def chosen_by(scores):
    """What the grid maximises: the mean cross-validated macro F1 over the real-utterance
    parts present (LoCoMo dev, and BEAM's and LiveChat's dev when trained on)."""
    real = [scores[p] for p in ("locomo", "beam", "livechat") if p in scores]
    return sum(real) / len(real)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--locomo", required=True)
    ap.add_argument("--beam", help="BEAM's chats/ folder: train on its dev statements too "
                                   "(" + BEAM_DEV + ")")
    ap.add_argument("--livechat", action="store_true",
                    help="train on LiveChat's dev statements too (" + LC_DEV + ", texts included)")
    ap.add_argument("--more-livechat", action="store_true",
                    help="with --livechat, its second dev part too (" + LC_DEV2 + "): the "
                         "embedded model's training since the fifth attempt")
    ap.add_argument("--embedder", metavar="DIR",
                    help="the embedded model: append each statement's sentence embedding by "
                         "this ONNX model folder (writes src/temporal/model-minilm.json)")
    ap.add_argument("--alpha", type=float, default=3.0,
                    help="the embedding's scale beside the buckets (with --embedder)")
    ap.add_argument("--c", type=float, action="append", metavar="C",
                    help="the grid's C values (repeatable; default: " +
                         ", ".join(map(str, GRID_C)) + "); one value with one --se-weight "
                         "refits a committed model at its own setting, without the grid")
    ap.add_argument("--se-weight", type=float, action="append", metavar="W",
                    help="the grid's software weights (repeatable; default: " +
                         ", ".join(map(str, GRID_SE)) + ")")
    ap.add_argument("--binary", default="target/release/tenure-eval")
    ap.add_argument("--out", help="default: src/temporal/model.json, with --embedder "
                                  "src/temporal/model-minilm.json")
    ap.add_argument("--predictions", metavar="PREFIX",
                    help="write the chosen setting's cross-validated predictions to "
                         "PREFIX.locomo-dev.jsonl, PREFIX.software.jsonl and, when trained "
                         "on them, PREFIX.beam-dev.jsonl and PREFIX.livechat-dev.jsonl")
    ap.add_argument("--fitted", metavar="PREFIX",
                    help="write the final model's in-sample predictions to "
                         "PREFIX.locomo-dev.jsonl (and the other parts' files, as "
                         "--predictions): what the harness's classifier must say with the "
                         "weights written")
    args = ap.parse_args()
    if args.more_livechat and not args.livechat:
        ap.error("--more-livechat adds to --livechat: give both")
    if args.alpha <= 0:
        ap.error("--alpha must be above 0")
    if args.alpha != ap.get_default("alpha") and not args.embedder:
        ap.error("--alpha scales the embedding: give it with --embedder")
    global ALPHA
    embed = ["--embedder", args.embedder] if args.embedder else []
    ALPHA = args.alpha if args.embedder else 0.0
    out = args.out or ("src/temporal/model-minilm.json" if args.embedder
                       else "src/temporal/model.json")
    dev = features(args.binary, DEV, ["--locomo", args.locomo, *embed])
    se = features(args.binary, SE, embed)
    for r in dev:
        r["group"] = r["id"].split("/")[0]
    for r in se:
        r["group"] = "se%d" % (int(r["id"][1:]) % 5)
    beam = features(args.binary, BEAM_DEV, ["--beam", args.beam, *embed]) if args.beam else []
    for r in beam:
        r["group"] = r["id"].split("/")[0]
    lc_files = ([LC_DEV] + ([LC_DEV2] if args.more_livechat else [])) if args.livechat else []
    lc = [r for f in lc_files for r in features(args.binary, f, embed)]
    for r in lc:
        r["group"] = "lc-" + r["id"].split("/")[0]
    rows = dev + se + beam + lc
    grid = []
    for c in args.c or GRID_C:
        for se_weight in args.se_weight or GRID_SE:
            scores, pred = cross_validate(rows, c, se_weight)
            grid.append((chosen_by(scores), -c, -se_weight, c, se_weight, scores, pred))
            said = ", ".join(f"{k} {v:.3f}" for k, v in scores.items())
            print(f"C={c} se-weight={se_weight}: cross-validated macro F1 {said}",
                  file=sys.stderr)
    best = max(grid, key=lambda g: (round(g[0], 6), g[1], g[2]))
    c, se_weight = best[3], best[4]
    print(f"chosen: C={c} se-weight={se_weight}", file=sys.stderr)
    parts = (("locomo-dev", dev), ("software", se), ("beam-dev", beam), ("livechat-dev", lc))

    def write_predictions(prefix, pred):
        # One file per part, for `tenure-eval temporal eval` (which scores a line's
        # "predicted" as given).
        for part, sel in parts:
            if not sel:
                continue
            with open(f"{prefix}.{part}.jsonl", "w") as f:
                for r in sel:
                    f.write(json.dumps({"id": r["id"], "class": r["class"],
                                        "predicted": pred[r["id"]]}) + "\n")

    if args.predictions:
        # The chosen setting's cross-validated predictions, as the grid made them.
        write_predictions(args.predictions, best[6])
    vec, model = fit(rows, c, se_weight)
    if args.fitted:
        write_predictions(args.fitted, dict(zip((r["id"] for r in rows),
                                                predict(vec, model, rows))))
    assert list(model.classes_) == sorted(CLASSES)
    order = [list(model.classes_).index(k) for k in CLASSES]
    weights = {}
    n_buckets = len(vec.feature_names_)
    for j, name in enumerate(vec.feature_names_):
        ws = [round(float(model.coef_[i, j]), 6) for i in order]
        if any(ws):
            weights[name] = ws
    sha = lambda p: hashlib.sha256(open(p, "rb").read()).hexdigest()
    doc = {
        "about": "TemporalClassifier learned part: multinomial logistic regression over the "
                 "buckets of src/temporal/features.rs (FNV-1a 64 of each feature, modulo "
                 "2^22); weights by bucket number; built by scripts/train-temporal.py",
        "buckets": BUCKETS,
        "trainedOn": {DEV: sha(DEV), SE: sha(SE), **({BEAM_DEV: sha(BEAM_DEV)} if beam else {}),
                      **{f: sha(f) for f in lc_files}},
        "C": c, "seWeight": se_weight,
        "crossValidatedMacroF1": {k: round(v, 4) for k, v in best[5].items()},
        "classes": CLASSES,
        "intercept": [round(float(model.intercept_[i]), 6) for i in order],
        "weights": dict(sorted(weights.items(), key=lambda kv: int(kv[0]))),
    }
    if args.embedder:
        # The embedder's identity, so the classifier refuses vectors of another model, and
        # each class's weight per dimension with alpha folded in (score += dense . e).
        # The folder by its three files (src/temporal/model.rs, EmbeddedModel); the name is
        # for messages only.
        config = os.path.join(args.embedder, "embedder.json")
        has_config = os.path.exists(config)
        name = (json.load(open(config)).get("name") if has_config else None) \
            or os.path.basename(os.path.normpath(args.embedder))
        dims = len(rows[0]["embedding"])
        doc["about"] += "; with --embedder, each class's weights on the statement's sentence " \
                        "embedding (dense, alpha folded in)"
        doc["alpha"] = ALPHA
        doc["embedder"] = {"name": name,
                           "sha256": sha(os.path.join(args.embedder, "model.onnx")),
                           "tokenizerSha256": sha(os.path.join(args.embedder, "tokenizer.json")),
                           "configSha256": sha(config) if has_config else None,
                           "dimensions": dims}
        doc["dense"] = [[round(float(model.coef_[i, n_buckets + d]) * ALPHA, 6)
                         for d in range(dims)] for i in order]
    # One bucket a line, so a retrained model's diff reads bucket by bucket.
    weights_doc = doc.pop("weights")
    dense = doc.pop("dense", None)
    head = json.dumps(doc, indent=1)[:-2]
    if dense is not None:
        # One class's dense weights a line.
        head += ',\n "dense": [\n' + ",\n".join(f"  {json.dumps(d)}" for d in dense) + "\n ]"
    body = ",\n".join(f" {json.dumps(k)}: {json.dumps(v)}" for k, v in weights_doc.items())
    with open(out, "w") as f:
        f.write(f'{head},\n "weights": {{\n{body}\n }}\n}}\n')
    print(f"wrote {out}: {len(weights)} buckets", file=sys.stderr)


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
