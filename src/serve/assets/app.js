// The Play view. The rules live on the server (POST /api/play/*); this page keeps the
// path, its redo stack and the cursor, and draws what the server answers.
"use strict";
const TOKEN = document.querySelector('meta[name="knightnet-token"]').content;
const SIZE = 48;
const NS = "http://www.w3.org/2000/svg";
let view = null;
let redo = [];
let hint = null;
let cursor = 0;
// The leaper, surface and shape of the game, sent with every request (the server keeps
// no state and builds the board's moves from them).
let setup = {};

async function api(name, body) {
  const r = await fetch("/api/play/" + name, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Knightnet-Token": TOKEN },
    body: JSON.stringify(body),
  });
  const answer = await r.json();
  if (!r.ok) throw new Error(answer.error || r.statusText);
  return answer;
}

function say(text, kind) {
  const m = document.getElementById("message");
  m.textContent = text;
  m.className = kind || "";
}

async function show(path) {
  try {
    view = await api("state", { rows: view.rows, cols: view.cols, path, ...setup });
    hint = null;
    draw();
  } catch (e) { say(e.message, "dead"); }
}

function draw() {
  const svg = document.getElementById("board");
  svg.replaceChildren();
  svg.setAttribute("width", view.cols * SIZE);
  svg.setAttribute("height", view.rows * SIZE);
  const number = new Map(view.path.map((s, i) => [s, i + 1]));
  const legal = new Set(view.legal);
  const holes = new Set(view.holes);
  const centre = (s) => [(s % view.cols) * SIZE + SIZE / 2, Math.floor(s / view.cols) * SIZE + SIZE / 2];
  for (let s = 0; s < view.rows * view.cols; s++) {
    const r = Math.floor(s / view.cols), c = s % view.cols;
    const rect = document.createElementNS(NS, "rect");
    rect.setAttribute("x", c * SIZE); rect.setAttribute("y", r * SIZE);
    rect.setAttribute("width", SIZE); rect.setAttribute("height", SIZE);
    let cls = "sq " + ((r + c) % 2 ? "dark" : "light");
    if (holes.has(s)) cls = "sq hole";
    if (legal.has(s)) cls += " legal";
    if (s === hint) cls += " hint";
    if (s === view.mark) cls += " mark";
    if (s === cursor) cls += " cursor";
    rect.setAttribute("class", cls);
    rect.id = "sq-" + view.names[s];
    rect.dataset.square = s;
    if (!holes.has(s)) rect.addEventListener("click", () => play(s));
    const title = document.createElementNS(NS, "title");
    title.textContent = view.names[s];
    rect.appendChild(title);
    svg.appendChild(rect);
  }
  if (view.path.length > 1) {
    const line = document.createElementNS(NS, "polyline");
    line.setAttribute("class", "path");
    line.setAttribute("points", view.path.map((s) => centre(s).join(",")).join(" "));
    svg.appendChild(line);
  }
  for (const [s, n] of number) {
    const [x, y] = centre(s);
    const t = document.createElementNS(NS, "text");
    t.setAttribute("x", x); t.setAttribute("y", y);
    t.setAttribute("class", "num");
    t.textContent = n;
    svg.appendChild(t);
  }
  const moves = view.path.length;
  if (view.complete) {
    say(`tour complete: ${view.ending} tour` + (view.ending === "closed" ? " (the last square is a move from the start)" : ""), "done");
  } else {
    say(`move ${moves}: ${view.message}`, view.dead ? "dead" : "");
  }
  document.body.dataset.moves = moves;
  document.body.dataset.path = view.path.join(",");
  document.body.dataset.hint = hint === null ? "" : String(hint);
  document.body.dataset.ending = view.ending || "";
  document.body.dataset.legal = view.legal.join(",");
  document.body.dataset.surface = view.surface;
}

function play(s) {
  if (!view.legal.includes(s)) return;
  redo = [];
  cursor = s;
  show(view.path.concat([s]));
}

function undo() {
  if (view.path.length <= 1) return;
  redo.push(view.path[view.path.length - 1]);
  show(view.path.slice(0, -1));
}

function redoMove() {
  if (!redo.length) return;
  show(view.path.concat([redo.pop()]));
}

async function takeHint() {
  try {
    const h = await api("hint", { rows: view.rows, cols: view.cols, path: view.path, ...setup });
    hint = h.square;
    draw();
    say(h.square === null ? "no hint: no tour continues from here" : `hint: ${view.names[h.square]} (${h.kind === "completes" ? "a tour continues from there" : "Warnsdorff's choice"})`);
  } catch (e) { say(e.message, "dead"); }
}

async function finish() {
  try {
    const f = await api("finish", { rows: view.rows, cols: view.cols, path: view.path, ...setup });
    if (f.outcome === "found") { redo = []; await show(view.path.concat(f.moves)); }
    else say(f.outcome === "impossible" ? "no tour completes this path" : "the search ran out of its budget", "dead");
  } catch (e) { say(e.message, "dead"); }
}

async function newGame(ev) {
  if (ev) ev.preventDefault();
  const seedBox = document.getElementById("seed");
  if (seedBox.value === "") seedBox.value = Math.floor(Math.random() * 1e9);
  const shape = document.getElementById("shape").value;
  const lines = shape.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  if (lines.length) {
    // A picture gives the board its size.
    document.getElementById("rows").value = lines.length;
    document.getElementById("cols").value = lines[0].length;
  }
  setup = {
    leaper: document.getElementById("leaper").value,
    surface: document.getElementById("surface").value,
  };
  if (lines.length) setup.shape = shape;
  try {
    view = await api("new", {
      rows: Number(document.getElementById("rows").value),
      cols: Number(document.getElementById("cols").value),
      seed: Number(seedBox.value),
      ...setup,
    });
    redo = []; hint = null; cursor = view.path[0];
    draw();
  } catch (e) { say(e.message, "dead"); }
}

function key(ev) {
  if (!view || ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA") return;
  const r = Math.floor(cursor / view.cols), c = cursor % view.cols;
  const to = { ArrowUp: [r - 1, c], ArrowDown: [r + 1, c], ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1] }[ev.key];
  if (to) {
    if (to[0] >= 0 && to[0] < view.rows && to[1] >= 0 && to[1] < view.cols) cursor = to[0] * view.cols + to[1];
    draw();
  } else if (ev.key === "Enter" || ev.key === " ") play(cursor);
  else if (ev.key === "u") undo();
  else if (ev.key === "r") redoMove();
  else if (ev.key === "h") takeHint();
  else if (ev.key === "f") finish();
  else return;
  ev.preventDefault();
}

document.getElementById("setup").addEventListener("submit", newGame);
document.getElementById("undo").addEventListener("click", undo);
document.getElementById("redo").addEventListener("click", redoMove);
document.getElementById("hint").addEventListener("click", takeHint);
document.getElementById("finish").addEventListener("click", finish);
document.addEventListener("keydown", key);
newGame();
