// The Watch view. The server runs the solver (GET /api/watch, server-sent events, one
// frame per step); this page opens a stream to play or step, closes it to pause, and
// draws the last frame. Paused at step N, it resumes with a stream from N.
"use strict";
const TOKEN = document.querySelector('meta[name="knightnet-token"]').content;
const SIZE = 48;
const NS = "http://www.w3.org/2000/svg";
const PALETTE = ["#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"];
let frame = null;
let moves = [];
// The holes of the board's shape (the stream's first frame names them).
let holes = new Set();
let source = null;
let setup = null;

const $ = (id) => document.getElementById(id);

// The run to watch. The seed stays text: a JavaScript number cannot hold every u64
// seed a results folder's records carry. A shape's picture gives the board its size, as
// in Play; the leaper, surface and shape are read by the server as Play's are.
function readSetup() {
  const lines = $("shape").value.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  if (lines.length) {
    $("rows").value = lines.length;
    $("cols").value = lines[0].length;
  }
  const s = {
    solver: $("solver").value,
    rows: Number($("rows").value),
    cols: Number($("cols").value),
    seed: $("seed").value.trim(),
    leaper: $("leaper").value,
    surface: $("surface").value,
  };
  if (lines.length) s.shape = lines.join("\n");
  if ($("random_start").checked) s.random_start = true;
  else s.start = Number($("start").value);
  if ($("attempts").value.trim() !== "") s.attempts = Number($("attempts").value);
  return s;
}

function stop() {
  if (source) { source.close(); source = null; }
  document.body.dataset.playing = "false";
}

// Open a stream from the current step to `to` (or the run's end).
function open(to) {
  stop();
  const q = new URLSearchParams({ token: TOKEN, ...setup, from: frame ? frame.step : 0, rate: $("rate").value });
  if (to !== undefined) q.set("to", to);
  source = new EventSource("/api/watch?" + q);
  document.body.dataset.playing = "true";
  source.onmessage = (ev) => {
    const f = JSON.parse(ev.data);
    if (f.moves) moves = f.moves;
    if (f.holes) holes = new Set(f.holes);
    frame = f;
    draw();
    if (f.last) stop();
  };
  source.onerror = () => {
    if (!source) return;
    stop();
    // The stream failed: ask again for the refusal's reason, dropping the answer at
    // once if it is a stream after all.
    const ask = new AbortController();
    fetch("/api/watch?" + q, { signal: ask.signal }).then((r) => {
      if (r.ok) { ask.abort(); return null; }
      return r.json();
    }).then((e) => {
      if (e) $("message").textContent = e.error;
    }).catch(() => {});
  };
}

function reset(ev) {
  if (ev) ev.preventDefault();
  stop();
  setup = readSetup();
  frame = null; moves = []; holes = new Set();
  open(0);
}

function line(svg, a, b, cls, stroke, width) {
  const cols = setup.cols;
  const [x1, y1] = [(a % cols) * SIZE + SIZE / 2, Math.floor(a / cols) * SIZE + SIZE / 2];
  const [x2, y2] = [(b % cols) * SIZE + SIZE / 2, Math.floor(b / cols) * SIZE + SIZE / 2];
  const l = document.createElementNS(NS, "line");
  l.setAttribute("x1", x1); l.setAttribute("y1", y1); l.setAttribute("x2", x2); l.setAttribute("y2", y2);
  l.setAttribute("class", cls);
  if (stroke) l.setAttribute("stroke", stroke);
  if (width) l.setAttribute("stroke-width", width);
  svg.appendChild(l);
}

// A label on square s: centred, or in its top-left corner with `corner`.
function text(svg, s, label, cls, corner) {
  const cols = setup.cols;
  const at = corner ? 9 : SIZE / 2;
  const t = document.createElementNS(NS, "text");
  t.setAttribute("x", (s % cols) * SIZE + at);
  t.setAttribute("y", Math.floor(s / cols) * SIZE + at);
  t.setAttribute("class", cls);
  t.textContent = label;
  svg.appendChild(t);
}

function draw() {
  const { rows, cols } = setup;
  const svg = $("board");
  svg.replaceChildren();
  svg.setAttribute("width", cols * SIZE);
  svg.setAttribute("height", rows * SIZE);
  for (let s = 0; s < rows * cols; s++) {
    const r = Math.floor(s / cols), c = s % cols;
    const rect = document.createElementNS(NS, "rect");
    rect.setAttribute("x", c * SIZE); rect.setAttribute("y", r * SIZE);
    rect.setAttribute("width", SIZE); rect.setAttribute("height", SIZE);
    let cls = "sq " + ((r + c) % 2 ? "dark" : "light");
    if (holes.has(s)) cls = "sq hole";
    else if (frame.degree && frame.degree[s] !== 2) cls += " off-two";
    rect.setAttribute("class", cls);
    svg.appendChild(rect);
  }
  const key = ([a, b]) => Math.min(a, b) + "-" + Math.max(a, b);
  if (frame.active) {
    if ($("show-u").checked && frame.u.length) {
      // Every move, its colour and width by U: positive U (towards firing) blue.
      const top = Math.max(1, ...frame.u.map(Math.abs));
      moves.forEach((m, e) => {
        const x = frame.u[e] / top;
        line(svg, m[0], m[1], "u", x > 0 ? "#4a90d9" : "#bbb", (0.5 + 2.5 * Math.abs(x)).toFixed(2));
      });
    }
    const cycleOf = new Map();
    (frame.cycles || []).forEach((cyc, i) => cyc.forEach((s, k) => cycleOf.set(key([s, cyc[(k + 1) % cyc.length]]), i)));
    if ($("show-v").checked) {
      for (const m of frame.active) {
        const i = cycleOf.get(key(m));
        line(svg, m[0], m[1], "v", i === undefined ? "#222" : PALETTE[i % PALETTE.length], 3);
      }
    }
    frame.degree.forEach((d, s) => { if (!holes.has(s)) text(svg, s, d, "num degree", true); });
    document.body.dataset.active = frame.active.map(key).sort().join(" ");
    document.body.dataset.cycles = frame.cycles ? frame.cycles.length : "";
  } else if (frame.path) {
    const p = frame.path;
    for (let i = 1; i < p.length; i++) line(svg, p[i - 1], p[i], "v", "#36c", 2);
    p.forEach((s, i) => text(svg, s, i + 1, "num"));
    document.body.dataset.path = p.join(",");
  }
  let counters = `step ${frame.step}: ${frame.counters}`;
  if (frame.off_two !== null && frame.off_two !== undefined) counters += `; squares without two active moves: ${frame.off_two}`;
  if (frame.cycles) counters += `; ${frame.cycles.length} cycle${frame.cycles.length === 1 ? "" : "s"}`;
  $("counters").textContent = counters;
  $("message").textContent = frame.running ? "" : `run over: ${frame.outcome}`;
  document.body.dataset.holes = [...holes].sort((a, b) => a - b).join(",");
  document.body.dataset.step = frame.step;
  document.body.dataset.running = frame.running;
}

async function init() {
  const names = await (await fetch("/api/watch/solvers")).json();
  for (const n of names) {
    const o = document.createElement("option");
    o.value = n; o.textContent = n;
    $("solver").appendChild(o);
  }
  $("solver").value = names.includes("network:parberry") ? "network:parberry" : names[0];
  // A link from the Results view names the run to replay: /watch?solver=…&seed=….
  const given = new URLSearchParams(location.search);
  if (given.has("leaper") && ![...$("leaper").options].some((o) => o.value === given.get("leaper"))) {
    const o = document.createElement("option");
    o.value = o.textContent = given.get("leaper");
    $("leaper").appendChild(o);
  }
  for (const id of ["solver", "rows", "cols", "seed", "start", "attempts", "leaper", "surface", "shape"]) {
    if (given.has(id)) $(id).value = given.get(id);
  }
  $("random_start").checked = given.get("random_start") === "true";
  reset();
}

$("setup").addEventListener("submit", reset);
$("play").addEventListener("click", () => { if (frame && frame.running) open(); });
$("pause").addEventListener("click", stop);
$("step").addEventListener("click", () => { if (frame && frame.running) open(frame.step + 1); });
$("rate").addEventListener("input", () => {
  $("rate-text").textContent = $("rate").value;
  if (source && document.body.dataset.playing === "true") open();
});
$("show-u").addEventListener("change", () => frame && draw());
$("show-v").addEventListener("change", () => frame && draw());
init();
