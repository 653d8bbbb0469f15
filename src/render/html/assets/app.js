// tenure-eval html: the page's script. Vanilla JavaScript written for this page: no framework,
// because the page is one offline file (no network, no CDN) within a 3 MB budget, and its five
// views need nothing a framework adds. Every text is set with textContent (never innerHTML),
// so nothing in a report can inject markup.
"use strict";

const DATA = JSON.parse(document.getElementById("data").textContent);
const R = DATA.reports;
const main = document.getElementById("main");
const ROW_HEIGHT = 30; // px of one row of the virtualised case list (matches .vrow in the CSS)
const OUTCOMES = ["active", "structural", "empty", "failed", "errored"];
const OUTCOME_TEXT = {
  active: "passed (active retrieval)", structural: "passed (structural)",
  empty: "passed (trivially empty)", failed: "failed", errored: "errored",
};

// ---- small helpers -------------------------------------------------------------------------

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") el.className = v;
    else if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else el.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

const SVG = "http://www.w3.org/2000/svg";
function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, v);
  for (const c of children) el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  return el;
}

function num(x, d) {
  return x === null || x === undefined ? "–" : Number(x).toFixed(d);
}
function passed(o) {
  return o === "active" || o === "structural" || o === "empty";
}
function chip(o, title) {
  return h("span", { class: "chip o-" + (o || "none"), title: title || OUTCOME_TEXT[o] || "not in this report" },
    o ? (passed(o) ? "✓" : o === "failed" ? "✗" : "!") : "·");
}
function reportName(i) {
  const r = R[i];
  return r.name + (r.kind === "session" ? " (session)" : "");
}
function link(href, text, attrs) {
  return h("a", Object.assign({ href }, attrs || {}), text);
}
function go(hash) {
  if (location.hash !== hash) location.hash = hash;
  else route();
}

const staticReports = R.map((r, i) => i).filter((i) => R[i].kind === "static");
const sessionReports = R.map((r, i) => i).filter((i) => R[i].kind === "session");

// ---- overview ------------------------------------------------------------------------------

const overviewColumns = [
  ["Run", (r) => r.name, null],
  ["Backend", (r) => r.backend + (r.provider !== r.name && r.provider !== r.backend ? " · " + r.provider : ""), null],
  ["Model", (r) => r.model || "", null],
  ["Kind", (r) => r.kind, null],
  ["Passed", (r) => r.summary.totalPassed, (r) => r.summary.totalPassed + "/" + r.summary.totalCases],
  ["Active", (r) => r.summary.activeRetrievalPasses, null],
  ["Structural", (r) => r.summary.passTypes.structural, null],
  ["Trivially empty", (r) => r.summary.passTypes.triviallyEmpty, null],
  ["Errored", (r) => r.summary.errored || 0, null],
  ["Precision", (r) => r.summary.meanPrecision, (r) => num(r.summary.meanPrecision, 4)],
  ["Recall", (r) => r.summary.meanRecall, (r) => num(r.summary.meanRecall, 4)],
  ["Drift (noise share)", (r) => r.drift, (r) => num(r.drift, 4)],
  ["Drift (1 − precision)", (r) => r.precisionDrift, (r) => num(r.precisionDrift, 4)],
];
let sortState = { col: null, dir: 1 };

function rankMeasures() {
  const names = [];
  for (const r of R) for (const [m] of r.rank) if (!names.includes(m)) names.push(m);
  return names;
}

function overview() {
  const measures = rankMeasures();
  const cols = overviewColumns.concat(
    measures.map((m) => [m, (r) => (r.rank.find((x) => x[0] === m) || [0, null])[1],
      (r) => num((r.rank.find((x) => x[0] === m) || [0, null])[1], 4)]),
    [["p50 ms", (r) => r.summary.p50LatencyMs, (r) => num(r.summary.p50LatencyMs, 2)],
      ["p95 ms", (r) => r.summary.p95LatencyMs, (r) => num(r.summary.p95LatencyMs, 2)]],
  );
  const order = R.map((r, i) => i);
  if (sortState.col !== null) {
    const key = cols[sortState.col][1];
    order.sort((a, b) => {
      const x = key(R[a]), y = key(R[b]);
      if (x === y) return a - b;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (x < y ? -1 : 1) * sortState.dir;
    });
  }
  const head = h("tr", {}, cols.map(([title], k) => h("th", {
    class: "sortable" + (sortState.col === k ? (sortState.dir > 0 ? " asc" : " desc") : ""),
    tabindex: 0, "aria-sort": sortState.col === k ? (sortState.dir > 0 ? "ascending" : "descending") : null,
    onclick: () => { sortState = { col: k, dir: sortState.col === k ? -sortState.dir : 1 }; route(); },
  }, title)));
  const body = order.map((i) => {
    const r = R[i];
    return h("tr", { "data-file": r.file, title: r.file + " · " + r.scale },
      cols.map(([, key, show], k) => h("td", { class: k > 3 ? "n" : null }, show ? show(r) : key(r))));
  });
  // A stopped run's report holds the cases before the stop: say so above everything.
  const stops = R.filter((r) => r.stopped).map((r) =>
    h("p", { class: "stopped", role: "alert" }, h("strong", {}, "Run stopped: "),
      `${r.file} ${r.stopped}. Its cases before the stop are shown; --resume continues it.`));
  // A shard's or a selection's report holds some of the suite's cases: say so beside it.
  const parts = R.filter((r) => r.part).map((r) =>
    h("p", { class: "stopped part", role: "note" }, h("strong", {}, "Part of a run: "),
      `${r.file} is ${r.part}: its cases only, not the suite's whole run.`));
  // A --rerun-failed run: a pass among the cases sent again may be a second try.
  const reruns = R.filter((r) => r.rerun).map((r) =>
    h("p", { class: "stopped rerun", role: "note" }, h("strong", {}, "A second look: "),
      `${r.file} is a --rerun-failed run: ${r.rerun}.`));
  // A compat-mode run whose system failed its calls: its scores count the failures as empty.
  const unhealthy = R.filter((r) => r.unhealthy).map((r) =>
    h("p", { class: "stopped", role: "alert" }, h("strong", {}, "Failed run: "),
      `${r.file}: ${r.unhealthy}. Its failed calls are scored as empty answers, as upstream scores them.`));
  const out = [h("h2", {}, "Reports"), ...stops, ...unhealthy, ...parts, ...reruns,
    h("p", { class: "muted" }, `Suite ${DATA.suite.name} (${DATA.suite.profile} profile) · ${R.length} report(s). `
      + "Click a heading to sort. Drift: the paper's noise / (relevant + pinned), and PrecisionMemBench's 1 − precision."),
    h("div", { class: "scroll" }, h("table", { id: "overview-table" }, h("thead", {}, head), h("tbody", {}, body)))];
  // Per-category breakdown: passed / cases per report.
  const cats = [];
  for (const r of R) for (const c of r.summary.categories) if (!cats.includes(c.category)) cats.push(c.category);
  out.push(h("h2", {}, "Per category"), h("div", { class: "scroll" }, h("table", { id: "category-table" },
    h("thead", {}, h("tr", {}, h("th", {}, "Category"), R.map((r, i) => h("th", { class: "n" }, reportName(i))))),
    h("tbody", {}, cats.map((c) => h("tr", {}, h("td", {}, c), R.map((r) => {
      const row = r.summary.categories.find((x) => x.category === c);
      return h("td", { class: "n", title: row ? "precision " + num(row.meanPrecision, 4) : "" },
        row ? row.passed + "/" + row.caseCount : "–");
    })))))));
  // Repeated runs: each measure's spread, and the cases whose pass/fail differed.
  R.forEach((r, i) => {
    if (!r.repeats) return;
    const rp = r.repeats;
    out.push(h("h2", {}, `Repeats: ${reportName(i)} (${rp.n} runs, each on a fresh store)`),
      h("div", { class: "scroll" }, h("table", { class: "repeats" },
        h("thead", {}, h("tr", {}, ["Measure", "Mean", "SD", "95% CI", "Range"].map((t) => h("th", {}, t)))),
        h("tbody", {}, rp.measures.map((m) => h("tr", {}, h("td", {}, m.measure),
          h("td", { class: "n" }, num(m.mean, 4)), h("td", { class: "n" }, num(m.sd, 4)),
          h("td", { class: "n" }, num(m.ci95[0], 4) + " – " + num(m.ci95[1], 4)),
          h("td", { class: "n" }, num(m.min, 4) + " – " + num(m.max, 4))))))),
      rp.flaky.length
        ? h("ul", { class: "flaky" }, rp.flaky.map((f) => h("li", {},
          link("#case/" + encodeURIComponent(f.case.replace(/ turn \d+$/, "")), f.case), ` passed ${f.passed} of ${f.of}`)))
        : h("p", { class: "muted" }, "No flaky case: every case passed or failed in every repeat."));
  });
  // A run history (--history DIR): each label's runs, and the verdict on its last change.
  for (const hs of DATA.history || []) {
    out.push(h("h2", {}, "History: " + hs.title),
      h("div", { class: "scroll" }, h("table", { class: "history" },
        h("thead", {}, h("tr", {}, hs.header.map((t) => h("th", {}, t)))),
        h("tbody", {}, hs.rows.map((row) => h("tr", {}, row.map((c, k) => h("td", { class: k > 2 ? "n" : null }, c))))))),
      h("p", { class: hs.regression ? "stopped" : "muted", role: hs.regression ? "alert" : null }, hs.verdict));
  }
  return out;
}

// ---- cases ---------------------------------------------------------------------------------

let filter = { cat: "", outcome: "", q: "" };
let selected = 0;
let filtered = [];

function outcomesOf(c) {
  return staticReports.map((i) => (R[i].entries[c.id] || {}).outcome || null);
}

function applyFilter() {
  const q = filter.q.toLowerCase();
  filtered = DATA.cases.filter((c) => {
    if (filter.cat && c.category !== filter.cat) return false;
    if (filter.outcome) {
      const os = outcomesOf(c);
      const hit = filter.outcome === "passed" ? os.some(passed) : os.includes(filter.outcome);
      if (!hit) return false;
    }
    if (q) {
      const text = [c.id, c.description, c.query || "", c.category].join(" ").toLowerCase();
      if (!text.includes(q)) return false;
    }
    return true;
  });
  if (selected >= filtered.length) selected = Math.max(0, filtered.length - 1);
}

function caseList() {
  applyFilter();
  const cats = [...new Set(DATA.cases.map((c) => c.category))];
  const count = h("span", { id: "case-count", "data-matches": filtered.length },
    `${filtered.length} of ${DATA.cases.length} cases`);
  const controls = h("div", { class: "controls" },
    h("label", {}, "Category ", h("select", { id: "f-cat", onchange: (e) => { filter.cat = e.target.value; refresh(); } },
      h("option", { value: "" }, "all"), cats.map((c) => h("option", { value: c, selected: filter.cat === c }, c)))),
    h("label", {}, "Outcome ", h("select", { id: "f-outcome", onchange: (e) => { filter.outcome = e.target.value; refresh(); } },
      h("option", { value: "" }, "any"), h("option", { value: "passed", selected: filter.outcome === "passed" }, "passed"),
      OUTCOMES.map((o) => h("option", { value: o, selected: filter.outcome === o }, OUTCOME_TEXT[o])))),
    h("label", { class: "grow" }, "Text ", h("input", { id: "f-text", type: "search", value: filter.q,
      placeholder: "id, query, description  ( / )", oninput: (e) => { filter.q = e.target.value; refresh(); } })),
    count);
  const legend = h("div", { class: "legend muted" }, "Columns: ",
    staticReports.map((i) => h("span", { class: "lg" }, reportName(i))));
  const viewport = h("div", { id: "case-list", class: "vlist", tabindex: 0 });
  const spacer = h("div", { class: "vspace" });
  viewport.append(spacer);
  // Virtualised: only the rows in view (plus a margin) exist in the DOM, so 10,000 cases
  // scroll as smoothly as 77.
  function paint() {
    spacer.style.height = filtered.length * ROW_HEIGHT + "px";
    const top = viewport.scrollTop, height = viewport.clientHeight || 600;
    const first = Math.max(0, Math.floor(top / ROW_HEIGHT) - 10);
    const last = Math.min(filtered.length, Math.ceil((top + height) / ROW_HEIGHT) + 10);
    for (const old of viewport.querySelectorAll(".vrow")) old.remove();
    for (let k = first; k < last; k++) {
      const c = filtered[k];
      viewport.append(h("a", { class: "vrow" + (k === selected ? " sel" : ""), href: "#case/" + encodeURIComponent(c.id),
        "data-id": c.id, style: `top:${k * ROW_HEIGHT}px` },
      h("span", { class: "chips" }, outcomesOf(c).map((o, j) => chip(o, reportName(staticReports[j]) + ": " + (OUTCOME_TEXT[o] || "absent")))),
      h("span", { class: "cid" }, c.id), h("span", { class: "cat muted" }, c.category)));
    }
  }
  viewport.addEventListener("scroll", paint);
  function refresh() {
    applyFilter();
    count.textContent = `${filtered.length} of ${DATA.cases.length} cases`;
    count.setAttribute("data-matches", filtered.length);
    viewport.scrollTop = 0;
    paint();
  }
  requestAnimationFrame(paint);
  paint();
  listMove = (d) => {
    selected = Math.min(Math.max(0, selected + d), filtered.length - 1);
    const y = selected * ROW_HEIGHT;
    if (y < viewport.scrollTop) viewport.scrollTop = y;
    if (y + ROW_HEIGHT > viewport.scrollTop + viewport.clientHeight) viewport.scrollTop = y + ROW_HEIGHT - viewport.clientHeight;
    paint();
  };
  listOpen = () => filtered[selected] && go("#case/" + encodeURIComponent(filtered[selected].id));
  return [h("h2", {}, "Cases"), controls, legend, viewport];
}

function idList(ids, mark, cls) {
  if (!ids.length) return h("span", { class: "muted" }, "none");
  return h("ol", { class: "ids " + (cls || "") }, ids.map((id) => {
    const m = mark(id);
    return h("li", { class: "bid " + m, "data-id": id, title: m }, id);
  }));
}

function expectBlock(expect) {
  const rows = [];
  for (const [tier, e] of [["pinned", expect.pinned], ["relevant", expect.relevant], ["questions", expect.questions]]) {
    if (!e) continue;
    const parts = [];
    if (e.only) parts.push(["exactly", e.only.join(", ") || "(nothing)"]);
    if (e.must.length) parts.push(["must include", e.must.join(", ")]);
    if (e.mustNot.length) parts.push(["must exclude", e.mustNot.join(", ")]);
    if (e.should && e.should.length) parts.push(["should include", e.should.join(", ")]);
    if (e.ordered && e.ordered.length) parts.push(["ordered", e.ordered.map((p) => p[0] + " before " + p[1]).join("; ")]);
    if (e.max !== null && e.max !== undefined) parts.push(["at most", e.max]);
    if (e.min !== null && e.min !== undefined) parts.push(["at least", e.min]);
    rows.push(h("tr", {}, h("th", {}, tier), h("td", {}, parts.length ? parts.map(([k, v]) => h("div", {}, h("em", {}, k + ": "), String(v))) : "no assertion")));
  }
  for (const p of expect.preludes || []) rows.push(h("tr", {}, h("th", {}, "prelude"), h("td", {}, p)));
  return h("table", { class: "expect" }, h("tbody", {}, rows.length ? rows : h("tr", {}, h("td", {}, "no assertion"))));
}

function marker(gold, excluded, noise) {
  return (id) => (noise.includes(id) || excluded.includes(id) ? "noise" : gold.includes(id) ? "relevant" : "other");
}

function hitsBlock(hits, mark) {
  if (!hits.length) return h("p", { class: "muted" }, "no search hits recorded");
  const top = Math.max(...hits.map((x) => x.score), 1e-9);
  return h("table", { class: "hits" }, h("tbody", {}, hits.map((x, k) => h("tr", { class: "hit " + mark(x.id), "data-id": x.id, "data-score": x.score },
    h("td", { class: "n muted" }, k + 1), h("td", { class: "bid " + mark(x.id) }, x.id), h("td", { class: "n" }, x.score),
    h("td", { class: "bar" }, x.terms.length
      ? h("span", { class: "stack", style: `width:${Math.max(4, 100 * x.score / top)}%` }, x.terms.map((t, j) => h("span", {
        class: "seg s" + (j % 4), style: `flex-grow:${Math.max(t[2], 0)}`, title: `${t[0]}: ${t[1]} ${num(t[2], 4)}` })))
      : h("span", { class: "stack plain", style: `width:${Math.max(4, 100 * x.score / top)}%` })),
    h("td", { class: "terms muted" }, x.terms.map((t) => t[1] + " (" + t[0] + ")").join(", "))))));
}

// The first failures in view, the rest one click away (a noisy system fails a case 20 ways).
const FAILURES_SHOWN = 3;
function failureList(failures) {
  if (!failures.length) return null;
  const li = (f) => h("li", {}, f);
  const rest = failures.slice(FAILURES_SHOWN);
  return h("div", { class: "failbox" }, h("ul", { class: "failures" }, failures.slice(0, FAILURES_SHOWN).map(li)),
    rest.length ? h("details", {}, h("summary", {}, `${rest.length} more failure(s)`), h("ul", { class: "failures" }, rest.map(li))) : null);
}

function entryColumn(i, e, mark) {
  const r = R[i];
  if (!e) return h("section", { class: "col", "data-file": r.file }, h("h3", {}, reportName(i)), h("p", { class: "muted" }, "not in this report"));
  return h("section", { class: "col report-col o-" + e.outcome, "data-file": r.file },
    h("h3", {}, chip(e.outcome), " ", reportName(i)),
    h("div", { class: "muted small" }, OUTCOME_TEXT[e.outcome], " · precision ", num(e.precision, 2), " · recall ", num(e.recall, 2),
      e.latencyMs !== null && e.latencyMs !== undefined ? " · " + num(e.latencyMs, 2) + " ms" : ""),
    e.expandedQuery !== null && e.expandedQuery !== undefined ? h("div", { class: "xq" }, h("em", {}, "expanded query: "), e.expandedQuery) : null,
    e.error ? h("div", { class: "error" }, `error (${e.error.kind}, ${e.error.attempts} attempt(s)): ${e.error.message}`) : null,
    failureList(e.failures),
    h("div", { class: "tier", "data-tier": "pinned" }, h("h4", {}, "Pinned"), idList(e.pinned, mark)),
    h("div", { class: "tier", "data-tier": "relevant" }, h("h4", {}, "Relevant (rank order)"), idList(e.relevant, mark)),
    e.questions.length ? h("div", { class: "tier", "data-tier": "questions" }, h("h4", {}, "Open questions"), idList(e.questions, () => "other")) : null,
    h("div", { class: "tier", "data-tier": "hits" }, h("h4", {}, "Search hits (" + r.scale + ")"), hitsBlock(e.hits, mark)),
    e.diagnostics ? h("div", { class: "diag" }, h("h4", {}, "Diagnostics (careful mode)"),
      h("dl", {}, Object.entries(e.diagnostics).map(([k, v]) => [h("dt", {}, k), h("dd", {}, typeof v === "string" ? v : JSON.stringify(v))]))) : null);
}

function caseView(id) {
  const c = DATA.cases.find((x) => x.id === id);
  if (!c) return [h("p", {}, "No case " + id + ".")];
  applyFilter();
  const k = filtered.findIndex((x) => x.id === id);
  if (k >= 0) selected = k;
  const mark = marker(c.gold, c.excluded, []);
  const nav = h("div", { class: "casenav" }, link("#cases", "← all cases"),
    k > 0 ? link("#case/" + encodeURIComponent(filtered[k - 1].id), "‹ previous (k)") : null,
    k >= 0 && k + 1 < filtered.length ? link("#case/" + encodeURIComponent(filtered[k + 1].id), "next (j) ›") : null);
  listMove = (d) => { const n = filtered[k + d]; if (n) go("#case/" + encodeURIComponent(n.id)); };
  return [nav, h("h2", { id: "case-title" }, c.id), h("p", {}, h("span", { class: "pill" }, c.category), " ", c.description),
    h("div", { class: "query" }, h("em", {}, "query: "), c.query || "(not in the suite)"),
    c.scope.length ? h("div", { class: "muted" }, "scope: " + c.scope.join(", ")) : null,
    h("h3", {}, "Expected"), expectBlock(c.expect),
    h("p", { class: "legend" }, h("span", { class: "bid relevant" }, "relevant (gold)"), " ", h("span", { class: "bid noise" }, "noise (excluded)"), " ",
      h("span", { class: "bid other" }, "not judged")),
    h("div", { class: "cols" }, staticReports.map((i) => entryColumn(i, R[i].entries[c.id], mark)))];
}

