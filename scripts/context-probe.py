#!/usr/bin/env python3
"""The sixth attempt's probe (docs/temporal.md, "The sixth attempt"), development sets only:
would the conversation a statement answers, or a fourth class the model learns, let the
TemporalClassifier's learned part find developer chat's corrections?

    .venv/bin/python scripts/context-probe.py --locomo locomo10.json --beam chats/ \
        --livechat data/manual [--binary target/release/tenure-eval]

It trains as scripts/train-temporal.py --beam --livechat --more-livechat does (the harness's
features through that script's `features`, its `rule`, `part_of` and `macro`, the same groups;
its own loop of fits, the training script's `fit` and `cross_validate` with the context
features and the fourth class added), over C in 0.3, 1, 3 at software weight 0.3, in four
variants: the lexical
model's training on both LiveChat parts (the fifth attempt's, without the embedding); with
context features; with `correction` as a fourth class of the model (balanced class
weights, as the other three); and both. The context of a LoCoMo statement is the turns before
it in its session, of a LiveChat one the messages before it in its room's file (the three the
annotators were shown); the software and BEAM statements have none. The context features:
whether the statement opens its session or room (nothing before it), whether the message
before is the speaker's own or another's, whether another's asked a question, how many of the
statement's content words (four letters or more, not a stop word) the three messages before
hold (0, 1, 2, 3 or more), whether the statement holds a negation or retraction word, and that
word beside the speaker and beside an overlap; after another's question, the statement's head
and mood features paired with it.

It prints, per variant, the cross-validated macro F1 of each real-utterance part at the setting
of the best mean (over the classes labelled or predicted, as the harness's `temporal eval`
does: a `correction` predicted where none is labelled adds a class of F1 0), LiveChat dev's
per-class F1 and corrections found, and how many LoCoMo and BEAM dev statements were predicted
`correction` (none is one); then how often the
context features fire on LiveChat dev's corrections and on its other statements. It reads no
held-out labels. A probe, not a training script: it writes no weights.
"""
import argparse, collections, importlib.util, json, os, re, sys
from threadpoolctl import threadpool_limits
from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("train", os.path.join(HERE, "train-temporal.py"))
train = importlib.util.module_from_spec(spec)
spec.loader.exec_module(train)

ROOMS = ["Appium", "Gitter", "Typescript", "angular", "dl4j", "docker", "ethereum", "nodejs"]
# LiveChat's message line (src/study/temporal/livechat.rs, rule 2).
MESSAGE = re.compile(r"^\d*\s*\[\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\] <([^>]+)> ?(.*)$")
STOP = set("that this with have what your from they them there their about would could "
           "should which when were been will just like into then than also only some more "
           "very here want need know think".split())
NEGATION = {"not", "no", "nope", "never", "wrong", "instead", "rather", "actually", "meant",
            "mean", "sorry", "oops", "misread", "misunderstood", "but", "isn't", "doesn't",
            "don't", "didn't", "wasn't", "can't", "won't", "aren't"}
CLASSES4 = ["forward_open", "current_state", "closed", "correction"]


def words(text):
    text = text.lower().replace("\u2019", "'")
    return [w.strip("'") for w in re.split(r"[^\w']+", text) if w.strip("'")]


def context_features(row):
    if row.get("context") is None:
        return {}
    speaker, before = row["context"]
    if not before:
        return {"ctx:first": 1}
    last_speaker, last = before[-1]
    same = last_speaker == speaker
    f = {"ctx:prev=" + ("same" if same else "other"): 1}
    if "?" in last and not same:
        f["ctx:prevq"] = 1
    said = set(words(row["text"]))
    content = {w for w in said if len(w) >= 4 and w not in STOP}
    earlier = {w for _, t in before for w in words(t)}
    overlap = min(3, len(content & earlier))
    f[f"ctx:ovl={overlap}"] = 1
    if said & NEGATION:
        f["ctx:neg"] = 1
        f["ctx:neg&" + ("same" if same else "other")] = 1
        if overlap:
            f["ctx:neg&ovl"] = 1
    if "ctx:prevq" in f:
        for x in row["features"]:
            if x.startswith(("head=", "mood=")):
                f["ctx:prevq&" + x] = 1
    return f


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--locomo", required=True)
    ap.add_argument("--beam", required=True)
    ap.add_argument("--livechat", required=True, help="LiveChat's data/manual/ folder")
    ap.add_argument("--binary", default="target/release/tenure-eval")
    args = ap.parse_args()
    b = args.binary
    dev = train.features(b, train.DEV, ["--locomo", args.locomo])
    se = train.features(b, train.SE)
    beam = train.features(b, train.BEAM_DEV, ["--beam", args.beam])
    lc = train.features(b, train.LC_DEV) + train.features(b, train.LC_DEV2)
    for r in dev + beam:
        r["group"] = r["id"].split("/")[0]
    for r in se:
        r["group"] = "se%d" % (int(r["id"][1:]) % 5)
    for r in lc:
        r["group"] = "lc-" + r["id"].split("/")[0]
    # Texts: LoCoMo dev's by its draw, LiveChat dev's from their files.
    drawn = train.subprocess.run([b, "temporal", "draw", "--locomo", args.locomo, "--part",
                                  "dev", "--n", "640"], capture_output=True, text=True,
                                 check=True).stdout
    text = {json.loads(l)["id"]: json.loads(l)["text"] for l in drawn.splitlines()}
    for f in (train.LC_DEV, train.LC_DEV2):
        text.update((json.loads(l)["id"], json.loads(l)["text"]) for l in open(f))
    conversations = {c["sample_id"]: c["conversation"] for c in json.load(open(args.locomo))}
    for r in dev:
        conv, dia, _ = r["id"].split("/")
        turns = conversations[conv][f"session_{int(dia[1:].split(':')[0])}"]
        i = [t["dia_id"] for t in turns].index(dia)
        r["text"] = text[r["id"]]
        r["context"] = (turns[i]["speaker"],
                        [(t["speaker"], t["text"]) for t in turns[max(0, i - 3):i]])
    rooms = {}
    for room in ROOMS:
        lines = open(os.path.join(args.livechat, room + ".txt"), encoding="utf-8").read()
        rooms[room] = [(f"L{i + 1}", m.group(1), m.group(2)) for i, line in
                       enumerate(lines.split("\n")) if (m := MESSAGE.match(line.rstrip("\r")))]
    for r in lc:
        room, line, _ = r["id"].split("/")
        ms = rooms[room]
        i = [m[0] for m in ms].index(line)
        r["text"] = text[r["id"]]
        r["context"] = (ms[i][1], [(m[1], m[2]) for m in ms[max(0, i - 3):i]])
    rows = dev + se + beam + lc

    def run(context, four, c):
        def matrix(vec, sel, fitting=False):
            d = [{**{str(x): 1 for x in r["buckets"]},
                  **(context_features(r) if context else {})} for r in sel]
            return vec.fit_transform(d) if fitting else vec.transform(d)
        pred = {}
        for g in sorted({r["group"] for r in rows}):
            fit = [r for r in rows if r["group"] != g and (four or r["class"] != "correction")]
            vec = DictVectorizer(sort=True)
            model = LogisticRegression(C=c, max_iter=10000, class_weight="balanced")
            model.fit(matrix(vec, fit, True), [r["class"] for r in fit],
                      sample_weight=[0.3 if r["group"].startswith("se") else 1.0 for r in fit])
            test = [r for r in rows if r["group"] == g]
            pred.update(zip((r["id"] for r in test), (
                train.rule(r) or p for r, p in zip(test, model.predict(matrix(vec, test))))))
        scores = {}
        for part in ("locomo", "beam", "livechat"):
            sel = [r for r in rows if train.part_of(r) == part]
            scores[part] = train.macro([r["class"] for r in sel], [pred[r["id"]] for r in sel])
        gold = [r["class"] for r in lc]
        got = [pred[r["id"]] for r in lc]
        per_class = f1_score(gold, got, labels=CLASSES4, average=None, zero_division=0)
        found = sum(1 for g, p in zip(gold, got) if g == p == "correction")
        false = sum(pred[r["id"]] == "correction" for r in dev + beam)
        return scores, per_class, found, got.count("correction"), gold.count("correction"), false

    print("| variant | C | LoCoMo dev | BEAM dev | LiveChat dev | mean | LiveChat F1 fo / cs / "
          "closed / corr | corrections found (predicted) of gold | LoCoMo and BEAM dev "
          "predicted `correction` |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, context, four in (("lexical, both LiveChat parts", False, False),
                                ("context", True, False),
                                ("fourth class", False, True),
                                ("context and fourth class", True, True)):
        grid = []
        for c in (0.3, 1.0, 3.0):
            out = run(context, four, c)
            grid.append((round(sum(out[0].values()) / 3, 6), -c, c, out))
        mean, _, c, (s, pc, found, predicted, gold, false) = max(grid)
        print(f"| {name} | {c} | {s['locomo']:.3f} | {s['beam']:.3f} | {s['livechat']:.3f} | "
              f"{mean:.3f} | {' / '.join(f'{x:.3f}' for x in pc)} | {found} ({predicted}) of "
              f"{gold} | {false} |", flush=True)
    fires = collections.Counter()
    for r in lc:
        for k in context_features(r):
            fires[k, r["class"] == "correction"] += 1
    n_corr = sum(r["class"] == "correction" for r in lc)
    print(f"\nLiveChat dev ({len(lc)} statements, {n_corr} corrections): feature, corrections "
          "it fires on, other statements it fires on")
    for k in sorted({k for k, _ in fires}):
        print(f"- {k}: {fires[k, True]}, {fires[k, False]}")


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
