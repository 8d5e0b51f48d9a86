// The Results view. The server reads the results folders (GET /api/results, then
// /api/results/{folder}?path=...): the spec from run.json, the cells from summary.json,
// and each figure's data as the table `knightnet plot` writes beside the figure; and the
// convergence data `knightnet convergence` wrote (GET /api/convergence, then
// /api/convergence/{folder}?path=...): what ran, the curves and the runs. This page only
// lays them out and draws them with uPlot (vendor/, MIT). No number shown here is
// computed here: the rates, intervals and curves are the server's.
"use strict";
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"];
const $ = (id) => document.getElementById(id);
let charts = [];

// How each figure of `plot` is drawn: x and y columns, the columns naming a series,
// optional interval columns, and a filter on the rows. A figure without an entry is
// offered as CSV only.
const FIGURES = {
  "tour-rate": [{ x: "board", y: "p_tour", low: "wilson_low", high: "wilson_high", series: ["series"], ylabel: "p(tour)" }],
  "outcomes": [{ x: "board", y: "p_tour", low: "p_tour_low", high: "p_tour_high", series: ["configuration"], ylabel: "p(tour)" }],
  "iterations": [{ x: "board", y: "median", low: "p25", high: "p75", series: ["configuration"], ylabel: "iterations: median, p25 to p75" }],
  "cost": [{ x: "board", y: "time_per_tour_s", low: "bootstrap_low_s", high: "bootstrap_high_s", series: ["solver"], ylabel: "seconds per tour", ylog: true }],
  "run-length": [
    { x: "run_length", y: "ecdf", series: ["cell", "board"], filter: { quantity: "iterations" }, stepped: true, xlog: true, xlabel: "iterations to a tour (failed attempts counted as restarts)", ylabel: "share of runs" },
    { x: "run_length", y: "ecdf", series: ["cell", "board"], filter: { quantity: "time_ns" }, stepped: true, xlog: true, xlabel: "time to a tour (ns)", ylabel: "share of runs" },
  ],
  "phase": [{ x: 1, y: "p_tour", low: "wilson_low", high: "wilson_high", series: ["board", 2], ylabel: "p(tour)" }],
  "failures": [
    { x: "value", y: "share", series: ["board"], filter: { quantity: "cycles" }, xlabel: "cycles in a several-cycle failure", ylabel: "share of failures" },
    { x: "value", y: "cumulative_share", series: ["board"], filter: { quantity: "cycle_length" }, stepped: true, xlabel: "cycle length", ylabel: "cumulative share of cycles" },
  ],
  "hf-ratio": [],
};

function el(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

// A share as the page shows it: four decimals.
function share(v) {
  return v === null || v === undefined ? "" : v.toFixed(4);
}

// A board's squares, to order boards by size ("8x8" -> 64).
function squares(b) {
  const m = /^(\d+)x(\d+)$/.exec(b);
  return m ? Number(m[1]) * Number(m[2]) : Infinity;
}

async function getJson(url) {
  const r = await fetch(url);
  const body = await r.json();
  if (!r.ok) throw new Error(body.error || r.statusText);
  return body;
}

// What the address names: a results folder, or convergence data (`convergence=1`).
function where() {
  const q = new URLSearchParams(location.hash.slice(1));
  return q.has("folder") ? { folder: Number(q.get("folder")), path: q.get("path") || "", convergence: q.has("convergence") } : null;
}

// The address of a results folder, or of convergence data.
function link(f, convergence) {
  const q = { folder: f.folder, path: f.path };
  if (convergence) q.convergence = 1;
  return "#" + new URLSearchParams(q);
}

async function init() {
  let list, conv;
  try {
    [list, conv] = await Promise.all([getJson("/api/results"), getJson("/api/convergence")]);
  } catch (e) {
    $("message").textContent = e.message;
    return;
  }
  for (const f of list) {
    const li = el("li");
    const a = el("a", f.name);
    a.href = link(f, false);
    li.appendChild(a);
    $("folders").appendChild(li);
  }
  for (const c of conv.entries) {
    const li = el("li");
    const a = el("a", c.name);
    a.href = link(c, true);
    a.title = `${c.board}, ${c.runs} runs each: ${c.configurations.join(", ")}`;
    li.appendChild(a);
    $("convergence-list").appendChild(li);
  }
  $("no-folders").hidden = list.length > 0;
  $("no-convergence").hidden = conv.entries.length > 0;
  $("convergence-ignored").textContent = conv.ignored.map((i) => `ignored ${i.path}: ${i.why}`).join("; ");
  document.body.dataset.folders = list.length;
  document.body.dataset.convergence = conv.entries.length;
  if (!where() && list.length + conv.entries.length === 1) {
    location.replace(list.length ? link(list[0], false) : link(conv.entries[0], true));
  }
  show();
}

// Read what `w` names from `api` (`results` or `convergence`), saying `what` is being
// read; the previous charts go once it has come. Null (the error shown) on failure.
async function load(api, w, what) {
  document.body.dataset.loaded = "";
  $("message").textContent = `reading ${what}…`;
  let d;
  try {
    d = await getJson(`/api/${api}/${w.folder}?` + new URLSearchParams({ path: w.path }));
  } catch (e) {
    $("message").textContent = e.message;
    return null;
  }
  $("message").textContent = "";
  charts.forEach((c) => c.destroy());
  charts = [];
  return d;
}

async function show() {
  const w = where();
  if (!w) return;
  if (w.convergence) return showConvergence(w);
  const d = await load("results", w, "the folder");
  if (!d) return;
  $("convergence").hidden = true;
  $("folder").hidden = false;
  spec(d);
  cells(d);
  figures(d);
  document.body.dataset.loaded = d.run ? d.run.name : (d.summary ? d.summary.spec : w.path);
}

function spec(d) {
  const r = d.run;
  $("spec-name").textContent = r ? r.name : d.summary ? d.summary.spec : d.path;
  $("spec-description").textContent = r ? r.description : d.summary ? d.summary.description : "";
  const dl = $("spec");
  dl.replaceChildren();
  const item = (k, v) => { dl.appendChild(el("dt", k)); dl.appendChild(el("dd", v)); };
  if (r) {
    item("seed", r.seed);
    item("version", `knightnet ${r.version}, engine ${r.engine_version}`);
    item("revision", (r.revision || "unknown") + (r.dirty ? " (with uncommitted changes)" : ""));
    item("spec", r.spec_source);
    item("trials", `${r.trials_done} of ${r.trials_planned}`);
  }
  $("notes").textContent = d.notes.join("; ");
}

function cells(d) {
  const body = $("cells").tBodies[0];
  body.replaceChildren();
  if (!d.summary) return;
  for (const c of d.summary.cells) {
    const tour = c.outcomes.find((o) => o.outcome === "tour");
    const tr = el("tr");
    tr.dataset.key = `${c.label}/${c.board}`;
    tr.appendChild(el("td", c.cell));
    tr.appendChild(el("td", c.label));
    tr.appendChild(el("td", c.board));
    tr.appendChild(el("td", c.solver));
    tr.appendChild(el("td", c.trials));
    tr.appendChild(el("td", c.tours));
    tr.appendChild(el("td", tour ? share(tour.share) : "", "p-tour"));
    tr.appendChild(el("td", tour ? `[${share(tour.ci_low)}, ${share(tour.ci_high)}]` : "", "interval"));
    const td = el("td", undefined, "replays");
    const offered = d.replays.filter((r) => r.cell === c.cell);
    for (const r of offered) {
      const a = el("a", `trial ${r.trial}`, "replay");
      a.href = "/watch?" + r.watch;
      a.title = `seed ${r.seed}: recorded ${r.outcome}` + (r.iterations !== null ? ` after ${r.iterations} iterations` : "");
      td.appendChild(a);
      td.appendChild(document.createTextNode(" "));
    }
    if (offered.length > 0) {
      // Any other trial, by its number: the server gives its seed and the Watch query.
      const n = el("input", undefined, "trial-number");
      n.type = "number"; n.min = "0"; n.max = String(c.trials - 1); n.placeholder = "trial";
      const go = el("button", "replay", "replay-trial");
      go.type = "button";
      go.addEventListener("click", async () => {
        const q = new URLSearchParams({ path: d.path, cell: c.cell, trial: n.value });
        const r = await fetch(`/api/results/${d.folder}/replay?` + q);
        if (r.ok) location.href = "/watch?" + (await r.json()).watch;
        else go.title = await r.text();
      });
      td.appendChild(n);
      td.appendChild(go);
    }
    tr.appendChild(td);
    body.appendChild(tr);
  }
}

function figures(d) {
  const box = $("figures");
  box.replaceChildren();
  const drawn = [];
  for (const f of d.figures) {
    const sec = el("section", undefined, "figure");
    sec.id = "figure-" + f.stem;
    sec.appendChild(el("h4", f.title));
    if (f.skipped) {
      sec.appendChild(el("p", "not drawn: " + f.skipped, "help"));
      box.appendChild(sec);
      continue;
    }
    const a = el("a", `download CSV (${f.stem}.csv)`, "csv");
    a.href = `/api/results/${d.folder}/csv/${f.stem}?` + new URLSearchParams({ path: d.path });
    a.download = `${f.stem}.csv`;
    sec.appendChild(a);
    if (f.rows.length < f.total_rows) {
      sec.appendChild(el("p", `drawn from the first ${f.rows.length} of ${f.total_rows} rows; the CSV has them all`, "help"));
    }
    box.appendChild(sec);
    for (const cfg of FIGURES[f.stem] || []) {
      const c = chart(sec, f, cfg);
      if (c) { charts.push(c); drawn.push(f.stem); }
    }
  }
  document.body.dataset.figures = [...new Set(drawn)].join(" ");
}

// The column a figure entry names: by name, or by position (phase's swept keys).
function column(f, name) {
  return typeof name === "number" ? name : f.header.indexOf(name);
}

// One uPlot chart of the figure's table as `cfg` says, or null without rows.
function chart(parent, f, cfg) {
  const col = (n) => column(f, n);
  if (col(cfg.x) < 0 || col(cfg.y) < 0) return null;
  const picked = f.rows.filter((r) => Object.entries(cfg.filter || {}).every(([k, v]) => r[col(k)] === v));
  // A log axis has no place for 0 (a classical solver's run takes no iterations).
  const rows = cfg.xlog ? picked.filter((r) => Number(r[col(cfg.x)]) > 0) : picked;
  if (!rows.length) return null;
  if (rows.length < picked.length) {
    parent.appendChild(el("p", `${picked.length - rows.length} rows at ${f.header[col(cfg.x)]} 0 are left out of the log axis below (the CSV has them)`, "help"));
  }
  const xs = rows.map((r) => r[col(cfg.x)]);
  const numeric = xs.every((v) => v !== "" && Number.isFinite(Number(v)));
  let cats = null, xvals;
  if (numeric) {
    xvals = [...new Set(xs.map(Number))].sort((a, b) => a - b);
  } else {
    cats = [...new Set(xs)];
    if (cfg.x === "board") cats.sort((a, b) => squares(a) - squares(b));
    xvals = cats.map((_, i) => i);
  }
  const at = new Map(xvals.map((x, i) => [numeric ? x : cats[i], i]));
  // A series' name: its columns' values (a column given by position, with its name).
  const name = (r) => cfg.series.map((s) => (typeof s === "number" ? `${f.header[s]}=${r[s]}` : r[col(s)])).join(" ");
  const keys = [...new Set(rows.map(name))];
  const num = (v) => (v === "" || v === undefined ? null : Number(v));
  const ys = keys.map(() => xvals.map(() => null));
  const lows = keys.map(() => xvals.map(() => null));
  const highs = keys.map(() => xvals.map(() => null));
  for (const r of rows) {
    const k = keys.indexOf(name(r));
    const i = at.get(numeric ? Number(r[col(cfg.x)]) : r[col(cfg.x)]);
    ys[k][i] = num(r[col(cfg.y)]);
    if (cfg.low) { lows[k][i] = num(r[col(cfg.low)]); highs[k][i] = num(r[col(cfg.high)]); }
  }
  const fmt = (v) => (v === null || v === undefined ? "–" : Number(v.toPrecision(4)).toString());
  const series = [{ label: numeric ? cfg.xlabel || f.header[col(cfg.x)] : "board", value: (u, v) => (v === null ? "–" : numeric ? fmt(v) : cats[v]) }];
  keys.forEach((k, s) => {
    series.push({
      label: k,
      stroke: PALETTE[s % PALETTE.length],
      width: 2,
      spanGaps: true,
      points: { show: !(cfg.stepped || cfg.band), size: 7 },
      paths: cfg.stepped ? uPlot.paths.stepped({ align: 1 }) : undefined,
      value: (u, v, si, i) => (v === null ? "–" : fmt(v) + (cfg.low && i !== null && lows[s][i] !== null ? ` [${fmt(lows[s][i])}, ${fmt(highs[s][i])}]` : "")),
    });
  });
  // Interval whiskers of each shown series, drawn after the series (or, with
  // `cfg.band`, the interval as a translucent band from low to high).
  const whiskers = (u) => {
    if (!cfg.low) return;
    const ctx = u.ctx;
    ctx.save();
    if (cfg.band) {
      ctx.globalAlpha = 0.2;
      keys.forEach((_, s) => {
        if (!u.series[s + 1].show) return;
        const at = xvals.map((x, i) => i).filter((i) => lows[s][i] !== null && highs[s][i] !== null);
        if (!at.length) return;
        ctx.fillStyle = PALETTE[s % PALETTE.length];
        ctx.beginPath();
        at.forEach((i, k) => {
          const px = u.valToPos(xvals[i], "x", true), py = u.valToPos(highs[s][i], "y", true);
          if (k === 0) ctx.moveTo(px, py); else ctx.lineTo(px, py);
        });
        [...at].reverse().forEach((i) => ctx.lineTo(u.valToPos(xvals[i], "x", true), u.valToPos(lows[s][i], "y", true)));
        ctx.closePath();
        ctx.fill();
      });
      ctx.restore();
      return;
    }
    ctx.lineWidth = 1.5 * devicePixelRatio;
    keys.forEach((_, s) => {
      if (!u.series[s + 1].show) return;
      ctx.strokeStyle = PALETTE[s % PALETTE.length];
      xvals.forEach((x, i) => {
        if (lows[s][i] === null || highs[s][i] === null) return;
        const px = u.valToPos(x, "x", true);
        const lo = u.valToPos(lows[s][i], "y", true), hi = u.valToPos(highs[s][i], "y", true);
        const w = 4 * devicePixelRatio;
        ctx.beginPath();
        ctx.moveTo(px, lo); ctx.lineTo(px, hi);
        ctx.moveTo(px - w, lo); ctx.lineTo(px + w, lo);
        ctx.moveTo(px - w, hi); ctx.lineTo(px + w, hi);
        ctx.stroke();
      });
    });
    ctx.restore();
  };
  const x = numeric
    ? {
        time: false,
        distr: cfg.xlog ? 3 : 1,
        // A log axis keeps the range dragged (uPlot's own rounds its ends out to whole
        // decades, which undid a zoom), and spans the data when drawn or reset.
        range: cfg.xlog ? (u, min, max) => (min == null || min === max ? [(min || 1) / 2, (max || 1) * 2] : [min, max]) : undefined,
      }
    : {
        time: false,
        // The whole axis (the data's 0 to n − 1, when drawn or reset by a double click)
        // gets half a category of margin each side; a zoom keeps the range dragged.
        range: (u, min, max) => (min === 0 && max === cats.length - 1) || min == null ? [-0.5, cats.length - 0.5] : [min, max],
      };
  const xaxis = numeric
    ? { label: cfg.xlabel || f.header[col(cfg.x)], values: (u, splits) => splits.map((v) => (v === null ? "" : fmt(v))) }
    : {
        label: "board",
        splits: (u) => xvals.filter((i) => i >= u.scales.x.min && i <= u.scales.x.max),
        values: (u, splits) => splits.map((i) => cats[i] ?? ""),
      };
  const holder = el("div", undefined, "chart");
  parent.appendChild(holder);
  const opts = {
    width: Math.min(900, Math.max(480, document.body.clientWidth - 40)),
    height: 300,
    scales: { x, y: { distr: cfg.ylog ? 3 : 1 } },
    axes: [xaxis, { label: cfg.ylabel || f.header[col(cfg.y)], size: 70, values: (u, splits) => splits.map((v) => (v === null ? "" : fmt(v))) }],
    series,
    hooks: { draw: [whiskers] },
    cursor: { drag: { x: true, y: false } },
  };
  const u = new uPlot(opts, [xvals, ...ys], holder);
  holder.uplot = u; // the chart's scales, for the browser tests
  return u;
}

// The measures of a convergence figure: the CSV's column prefix and the axis label.
const MEASURES = [
  ["off_two", "squares off degree 2"],
  ["active", "active neurons (V = 1)"],
  ["changed", "neurons whose U changed"],
];

async function showConvergence(w) {
  const d = await load("convergence", w, "the convergence data");
  if (!d) return;
  $("folder").hidden = true;
  $("convergence").hidden = false;
  const i = d.info;
  $("conv-name").textContent = d.name;
  const dl = $("conv-info");
  dl.replaceChildren();
  const item = (k, v) => { dl.appendChild(el("dt", k)); dl.appendChild(el("dd", v)); };
  item("board", i.board + (i.graph === "open" ? ` (open graph${i.start ? " from " + i.start : ""})` : ""));
  if (i.mode === "trace") {
    item("run", `the one run of the trace ${i.trace_file || "(file not named)"}, solve seed ${i.seed}`);
  } else {
    item("runs", `${i.runs} of each configuration, base seed ${i.seed}`);
  }
  item("version", `knightnet ${i.version}, engine ${i.engine_version}`);
  item("revision", (i.revision || "unknown") + (i.dirty ? " (with uncommitted changes)" : ""));
  $("conv-notes").textContent = d.notes.join("; ");
  const configs = $("conv-configs").tBodies[0];
  configs.replaceChildren();
  for (const c of d.configurations) {
    const tr = el("tr");
    tr.dataset.variant = c.variant;
    tr.appendChild(el("td", c.variant));
    tr.appendChild(el("td", c.preset || ""));
    // The parameters as `key=value`, the preset's name left to its own column.
    const params = c.params ? Object.entries(c.params).filter(([k]) => k !== "preset").map(([k, v]) => `${k}=${typeof v === "object" && v !== null ? JSON.stringify(v) : v}`).join(" ") : "not recorded";
    tr.appendChild(el("td", params, "params"));
    tr.appendChild(el("td", c.runs));
    tr.appendChild(el("td", c.tours));
    tr.appendChild(el("td", c.watch ? (c.replay_note || "each run below links to the Watch view") : "no replay: " + c.replay_note, c.watch ? "" : "no-replay"));
    configs.appendChild(tr);
  }
  const q = new URLSearchParams({ path: d.path });
  const base = d.path.split("/").pop().replace(/\.convergence\.json$/, "");
  $("conv-csv").href = `/api/convergence/${d.folder}/csv/data?` + q;
  $("conv-csv").download = `${base}.csv`;
  $("conv-runs-csv").href = `/api/convergence/${d.folder}/csv/runs?` + q;
  $("conv-runs-csv").download = `${base}-runs.csv`;
  const box = $("conv-figures");
  box.replaceChildren();
  const units = [...new Set(d.configurations.map((c) => c.unit))];
  const unit = units.length === 1 ? units[0] : "step or sweep";
  const table = { header: d.data.header, rows: d.data.rows };
  if (d.data.rows.length < d.data.total_rows) {
    box.appendChild(el("p", `drawn from the first ${d.data.rows.length} of ${d.data.total_rows} rows; the CSV has them all`, "help"));
  }
  for (const [m, label] of MEASURES) {
    const sec = el("section", undefined, "figure");
    sec.id = "conv-figure-" + m;
    sec.appendChild(el("h4", label));
    box.appendChild(sec);
    const c = chart(sec, table, {
      x: "step", y: `${m}_mean`, low: `${m}_p10`, high: `${m}_p90`, series: ["configuration"], band: true,
      xlog: d.log_x, xlabel: unit + (d.log_x ? " (log scale)" : ""), ylabel: label,
    });
    if (c) charts.push(c);
  }
  const runs = $("conv-runs").tBodies[0];
  runs.replaceChildren();
  for (const r of d.runs) {
    const tr = el("tr");
    tr.dataset.key = `${r.configuration}/${r.run}`;
    for (const v of [r.configuration, r.run, r.seed, r.outcome, r.iterations]) tr.appendChild(el("td", v));
    const td = el("td");
    if (r.watch) {
      const a = el("a", "watch", "replay");
      a.href = "/watch?" + r.watch;
      td.appendChild(a);
    } else {
      const c = d.configurations.find((c) => c.variant === r.configuration);
      td.appendChild(el("span", "no replay", "no-replay"));
      td.title = c ? c.replay_note : "";
    }
    tr.appendChild(td);
    runs.appendChild(tr);
  }
  if (d.runs.length < d.total_runs) {
    const tr = el("tr");
    const td = el("td", `… and ${d.total_runs - d.runs.length} more in the runs CSV`);
    td.colSpan = 6;
    tr.appendChild(td);
    runs.appendChild(tr);
  }
  document.body.dataset.loaded = d.path;
}

window.addEventListener("hashchange", show);
init();
