// tenure-eval html, second part of the script (after app.js, in the same <script> element):
// the session and difference views, routing, keys and start-up.

// ---- sessions ------------------------------------------------------------------------------

function sessionList() {
  return [h("h2", {}, "Sessions"), h("table", { id: "session-table" }, h("thead", {}, h("tr", {}, h("th", {}, "Session"), h("th", { class: "n" }, "Turns"),
    sessionReports.map((i) => h("th", {}, reportName(i))))),
  h("tbody", {}, DATA.sessions.map((sc) => h("tr", { "data-id": sc.id }, h("td", {}, link("#session/" + encodeURIComponent(sc.id), sc.id)),
    h("td", { class: "n" }, sc.turns.length),
    sessionReports.map((i) => { const t = R[i].turns[sc.id] || []; return h("td", {}, t.map((x) => chip(x.outcome, "turn " + x.turn))); })))))];
}

const PALETTE = 12;
function driftChart(sc, key) {
  const W = 560, H = 170, L = 36, B = 22, T = 8;
  const n = Math.max(sc.turns.length, 1);
  const x = (t) => L + (n === 1 ? (W - L) / 2 : (t * (W - L - 10)) / (n - 1));
  const y = (v) => T + (1 - v) * (H - T - B);
  const svg = s("svg", { class: "drift-chart", viewBox: `0 0 ${W} ${H}`, role: "img", "data-measure": key,
    "aria-label": "drift per turn, one line per report" });
  for (const v of [0, 0.5, 1]) {
    svg.append(s("line", { x1: L, x2: W, y1: y(v), y2: y(v), class: "grid" }), s("text", { x: 4, y: y(v) + 4, class: "axis" }, v.toFixed(1)));
  }
  sc.turns.forEach((t, k) => svg.append(s("text", { x: x(k) - 3, y: H - 6, class: "axis" }, t.index)));
  sessionReports.forEach((i, j) => {
    const turns = R[i].turns[sc.id] || [];
    const pts = turns.map((t, k) => [x(k), y(t[key] === undefined || t[key] === null ? 0 : t[key]), t]);
    const g = s("g", { class: "series c" + (j % PALETTE), "data-file": R[i].file });
    if (pts.length > 1) g.append(s("polyline", { points: pts.map((p) => p[0] + "," + p[1]).join(" ") }));
    for (const [px, py, t] of pts) {
      g.append(s("circle", { cx: px, cy: py, r: 3.5, class: "pt" }, s("title", {}, `${reportName(i)} · turn ${t.turn}: ${num(t[key], 3)}`)));
    }
    svg.append(g);
  });
  return svg;
}

function sessionView(id) {
  const sc = DATA.sessions.find((x) => x.id === id);
  if (!sc) return [h("p", {}, "No session " + id + ".")];
  const legend = h("div", { class: "legend" }, sessionReports.map((i, j) => h("span", { class: "lg c" + (j % PALETTE) }, "━ " + reportName(i))));
  const turns = sc.turns.map((t, k) => {
    const mark = marker(t.gold, [], t.noise);
    return h("tr", { class: "turn", "data-turn": t.index },
      h("td", { class: "n" }, t.index),
      h("td", { class: "msg" }, h("div", {}, t.message), h("div", { class: "muted small" }, "gold: " + (t.gold.join(", ") || "none"))),
      sessionReports.map((i) => {
        const e = (R[i].turns[sc.id] || [])[k];
        if (!e) return h("td", { class: "muted" }, "–");
        const m = (bid) => (e.noise.includes(bid) ? "noise" : mark(bid));
        return h("td", { class: "o-" + e.outcome, "data-file": R[i].file }, h("div", {}, chip(e.outcome), " ", e.label,
          " · drift ", num(e.drift, 2), " / ", num(e.precisionDrift, 2)), idList(e.relevant, m),
        e.failures.length ? h("details", {}, h("summary", {}, e.failures.length + " failure(s)"), h("ul", { class: "failures" }, e.failures.map((f) => h("li", {}, f)))) : null,
        e.error ? h("div", { class: "error" }, `error (${e.error.kind}, ${e.error.attempts} attempt(s)): ${e.error.message}`) : null);
      }));
  });
  return [h("div", { class: "casenav" }, link("#sessions", "← all sessions")), h("h2", { id: "case-title" }, sc.id), h("p", {}, sc.description),
    h("div", { class: "charts" },
      h("figure", {}, driftChart(sc, "drift"), h("figcaption", {}, "Drift per turn: noise / (relevant + pinned), the paper's")),
      h("figure", {}, driftChart(sc, "precisionDrift"), h("figcaption", {}, "Drift per turn: 1 − precision, PrecisionMemBench's"))),
    legend,
    h("div", { class: "scroll" }, h("table", { id: "turns" }, h("thead", {}, h("tr", {}, h("th", {}, "Turn"), h("th", {}, "Message"),
      sessionReports.map((i) => h("th", {}, reportName(i))))), h("tbody", {}, turns)))];
}

// ---- differences ---------------------------------------------------------------------------

function differences() {
  if (!DATA.differences.length) return [h("h2", {}, "Differences"), h("p", {}, "Differences need two or more reports of the same kind.")];
  const out = [h("h2", {}, "Differences")];
  for (const d of DATA.differences) {
    const names = d.reports.map(reportName);
    out.push(h("h3", {}, `${d.kind === "static" ? "Static cases" : "Session turns"}: flips (${d.flips.length})`),
      h("p", { class: "muted" }, "Cases passed by some reports and failed or errored in others."),
      h("div", { class: "scroll tall" }, h("table", { class: "flips", id: "flips-" + d.kind }, h("thead", {}, h("tr", {}, h("th", {}, "Case"), h("th", {}, "Category"),
        names.map((n) => h("th", {}, n)))), h("tbody", {}, d.flips.map((f) => h("tr", { "data-case": f.case, "data-turn": f.turn },
        h("td", {}, link(f.turn === null ? "#case/" + encodeURIComponent(f.case) : "#session/" + encodeURIComponent(f.case),
          f.turn === null ? f.case : f.case + " · turn " + f.turn)), h("td", { class: "muted" }, f.category),
        f.outcomes.map((o) => h("td", {}, chip(o)))))))));
    const t = d.table;
    const best = t.columns.map((c) => Math.max(...c.means.filter((m) => m !== null)));
    out.push(h("h3", {}, "Runs compared"), h("div", { class: "scroll" }, h("table", { class: "runs", id: "runs-" + d.kind },
      h("thead", {}, h("tr", {}, h("th", {}, ""), h("th", {}, "Run"), t.columns.map((c) => h("th", { class: "n" }, c.measure)))),
      h("tbody", {}, t.runs.map((run, k) => h("tr", {}, h("td", {}, run.letter), h("td", { title: run.file }, run.name),
        t.columns.map((c, j) => h("td", { class: "n" + (c.means[k] === best[j] ? " best" : "") },
          c.means[k] === null ? "–" : c.measure === "passed" ? t.passed[k] + "/" + t.commonCases : num(c.means[k], 4),
          c.beats[k].length ? h("sup", {}, c.beats[k].join("")) : null))))))),
    h("p", { class: "muted small" }, `Superscripts name the runs a run beats: Fisher's paired randomisation test, two-sided, Holm-adjusted over each measure's pairs, p < ${t.alpha} (seed ${t.seed}); ${t.commonCases} cases in every run. As tenure-eval compare computes them.`));
    out.push(h("h3", {}, "Against " + names[0]), h("div", { class: "scroll" }, h("table", { class: "pairs" }, h("thead", {}, h("tr", {},
      ["New", "Paired", "Pass → fail", "Fail → pass", "McNemar p", "Precision Δ (95 % CI)"].map((x) => h("th", {}, x)))),
    h("tbody", {}, d.pairs.map((p, k) => h("tr", {}, h("td", {}, names[k + 1]), h("td", { class: "n" }, p.paired),
      h("td", { class: "n" }, p.passToFail.length), h("td", { class: "n" }, p.failToPass.length),
      h("td", { class: "n" }, p.mcnemarP < 1e-4 ? p.mcnemarP.toExponential(3) : p.mcnemarP.toFixed(4)),
      h("td", { class: "n" }, p.precisionDifference ? `${num(p.precisionDifference.mean, 4)} [${num(p.precisionDifference.low, 4)}, ${num(p.precisionDifference.high, 4)}]` : "–")))))));
  }
  return out;
}

// ---- routing and keys ----------------------------------------------------------------------

let listMove = null;
let listOpen = null;

function route() {
  const hash = decodeURIComponent(location.hash.slice(1) || "overview");
  const [view, ...rest] = hash.split("/");
  const arg = rest.join("/");
  listMove = null;
  listOpen = null;
  let content;
  let tab = view;
  if (view === "case") { content = caseView(arg); tab = "cases"; }
  else if (view === "session") { content = sessionView(arg); tab = "sessions"; }
  else if (view === "cases") content = caseList();
  else if (view === "sessions") content = sessionList();
  else if (view === "differences") content = differences();
  else { content = overview(); tab = "overview"; }
  main.replaceChildren(...content);
  main.setAttribute("data-view", view);
  for (const a of document.querySelectorAll("#tabs a")) a.classList.toggle("on", a.dataset.view === tab);
  if (view === "case" || view === "session") window.scrollTo(0, 0);
}

document.addEventListener("keydown", (e) => {
  const typing = e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement;
  if (e.key === "/" && !typing) {
    e.preventDefault();
    if (!document.getElementById("f-text")) go("#cases");
    const box = document.getElementById("f-text");
    if (box) box.focus();
  } else if (e.key === "Escape" && typing) {
    e.target.blur();
  } else if (!typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
    if ((e.key === "j" || e.key === "k") && listMove) { e.preventDefault(); listMove(e.key === "j" ? 1 : -1); }
    else if (e.key === "Enter" && listOpen && e.target === document.body) listOpen();
  }
});

window.addEventListener("hashchange", route);
document.getElementById("footer").textContent =
  `${DATA.tool} · suite ${DATA.suite.name} · keys: / search, j/k next/previous, Enter open`;
if (!staticReports.length) document.querySelector('#tabs a[data-view="cases"]').hidden = true;
if (!sessionReports.length) document.querySelector('#tabs a[data-view="sessions"]').hidden = true;
route();
