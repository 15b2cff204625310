// The rulelang playground: a CodeMirror 6 editor checked by the server as the user types,
// the rules in words beside it, a game against bots, the conformance diagrams and a rules sheet.
// Everything is served by `rulelang serve`; nothing is fetched from elsewhere.
import {EditorState} from "@codemirror/state";
import {EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection} from "@codemirror/view";
import {defaultKeymap, history, historyKeymap, indentWithTab} from "@codemirror/commands";
import {StreamLanguage, syntaxHighlighting} from "@codemirror/language";
import {linter, lintGutter, forceLinting} from "@codemirror/lint";
import {autocompletion, completionKeymap} from "@codemirror/autocomplete";
import {classHighlighter} from "@lezer/highlight";

const $ = (sel) => document.querySelector(sel);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "onclick") node.addEventListener("click", v);
    else if (k === "text") node.textContent = v;
    else node.setAttribute(k, v);
  }
  for (const kid of kids) node.append(kid);
  return node;
};

// ---------------------------------------------------------------------------
// Talking to the server: every answer is JSON with `error` on failure
// ---------------------------------------------------------------------------

async function api(path, body, method) {
  const opts = body === undefined ? {method: method || "GET"}
    : {method: method || "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  const res = await fetch(path, opts);
  const type = res.headers.get("content-type") || "";
  const data = type.includes("json") ? await res.json() : {error: await res.text()};
  if (!res.ok) {
    const err = new Error(data.error || `the server answered ${res.status}`);
    err.data = data;
    throw err;
  }
  return data;
}

function say(message, bad = false) {
  const box = $("#status");
  box.textContent = message;
  box.className = bad ? "bad" : "";
}

// ---------------------------------------------------------------------------
// The language: highlighting from the server's keyword list
// ---------------------------------------------------------------------------

function rulelangLanguage(keywords) {
  const words = new Set(keywords);
  return StreamLanguage.define({
    name: "rulelang",
    token(stream) {
      if (stream.eatSpace()) return null;
      if (stream.match(/#.*/)) return "comment";
      if (stream.match(/"(?:[^"\\]|\\.)*"?/)) return "string";
      if (stream.match(/\[\d{1,2}\|\d{1,2}\]/)) return "atom";  // larger sets: [9|12]
      if (stream.match(/\d+/)) return "number";
      const word = stream.match(/[A-Za-z][A-Za-z0-9'\-]*/);
      if (word) {
        if (words.has(word[0])) return "keyword";
        return "variableName";
      }
      stream.next();
      return "punctuation";
    },
    languageData: {commentTokens: {line: "#"}},
  });
}

function completions(starts) {
  return (context) => {
    const line = context.state.doc.lineAt(context.pos);
    const before = line.text.slice(0, context.pos - line.from);
    const after = line.text.slice(context.pos - line.from);
    const m = before.match(/^(\s*)([A-Za-z' ]*)$/);
    if (!m || (after.trim() !== "" && !context.explicit)) return null;  // a statement starts a line; don't offer mid-edit
    if (!context.explicit && m[2].length === 0) return null;
    const indented = m[1].length > 0;
    const options = starts
      .filter((s) => indented ? s.section !== null : true)
      .map((s) => ({label: s.label, detail: s.detail, type: "keyword", apply: s.label}));
    return {from: line.from + m[1].length, to: line.to, options, validFor: /^[A-Za-z' ]*$/};
  };
}

// ---------------------------------------------------------------------------
// The editor and its live diagnostics; every check also refreshes the side panels
// ---------------------------------------------------------------------------

let view = null;
let currentPath = null;
let lastAnalysis = null;
let firstCheckDone;
const firstCheck = new Promise((resolve) => { firstCheckDone = resolve; });  // the page is ready once it is checked

function toDiagnostics(doc, diagnostics) {
  return diagnostics.map((d) => {
    const lineNo = Math.min(Math.max(d.line || 1, 1), doc.lines);
    const line = doc.line(lineNo);
    const from = Math.min(line.from + Math.max((d.column || 1) - 1, 0), line.to);
    let to = d.end_column ? line.from + d.end_column - 1 : from + 1;
    to = Math.min(Math.max(to, from), line.to);
    const message = `${d.code}: ${d.message}` + (d.hint ? `\nhint: ${d.hint}` : "");
    return {from, to: to === from && from === line.to ? from : Math.max(to, from), severity: "error", message, source: d.code};
  });
}

const checkSource = async (v) => {
  const text = v.state.doc.toString();
  let result;
  try {
    result = await api("/api/analyse", {text, path: currentPath});
  } catch (err) {
    say(err.message, true);
    firstCheckDone();
    return [];
  }
  if (v.state.doc.toString() !== text) return [];  // typed meanwhile: the next check will come
  lastAnalysis = result;
  showAnalysis(result);
  firstCheckDone();
  if (result.ok) playerCounts(result.players);
  return toDiagnostics(v.state.doc, result.diagnostics);
};

function showAnalysis(result) {
  const list = $("#diagnostics");
  list.replaceChildren();
  $("#check-state").textContent = result.ok ? "no errors" : `${result.diagnostics.length} error${result.diagnostics.length === 1 ? "" : "s"}`;
  $("#check-state").className = result.ok ? "ok" : "bad";
  for (const d of result.diagnostics) {
    const item = el("li", {"class": "diagnostic", "data-code": d.code, "data-line": d.line, "data-column": d.column},
      el("pre", {text: d.rendered}));
    item.addEventListener("click", () => goTo(d.line, d.column));
    list.append(item);
  }
  // every panel computed from the text follows it; while the text has an error the last valid ones stay, greyed
  document.querySelectorAll(".follows-text").forEach((panel) => panel.classList.toggle("stale", !result.ok));
  $("#stale-note").hidden = result.ok;
  $("#new-game").disabled = !result.ok;
  $("#new-game").title = result.ok ? "" : "The text has an error: fix it to play it";
  if (!result.ok) return;
  const explain = $("#explain");
  explain.replaceChildren(el("h3", {text: `${result.title} (${result.name})`}));
  for (const sec of result.sections) {
    const ul = el("ul");
    for (const s of sec.sentences) {
      ul.append(el("li", {"class": s.inherited ? "inherited" : "stated", "data-key": s.key,
        text: s.text + (s.inherited && result.base ? ` (from ${result.base})` : "")}));
    }
    explain.append(el("h4", {text: sec.heading}), ul);
  }
  const diff = $("#diff");
  diff.replaceChildren();
  if (!result.base) diff.append(el("p", {"class": "muted", text: "Not based on another ruleset: nothing to compare."}));
  else if (!result.diff.length) diff.append(el("p", {text: `States the same rules as ${result.base}.`}));
  for (const d of result.diff) {
    diff.append(el("div", {"class": "diff-item"}, el("strong", {text: d.what}),
      el("div", {"class": "minus", text: `${result.base}: ${d.base}`}),
      el("div", {"class": "plus", text: `here: ${d.here}`})));
  }
  const inh = $("#inherited");
  inh.replaceChildren();
  if (!result.base) inh.append(el("p", {"class": "muted", text: "Nothing is inherited."}));
  for (const s of result.inherited) inh.append(el("li", {text: s}));
}

function goTo(line, column) {
  const l = view.state.doc.line(Math.min(Math.max(line || 1, 1), view.state.doc.lines));
  const pos = Math.min(l.from + Math.max((column || 1) - 1, 0), l.to);
  view.dispatch({selection: {anchor: pos}, scrollIntoView: true});
  view.focus();
}

function setText(text) {
  view.dispatch({changes: {from: 0, to: view.state.doc.length, insert: text}});
}

async function makeEditor() {
  const words = await api("/api/words");
  const lang = rulelangLanguage(words.keywords);
  view = new EditorView({
    parent: $("#editor"),
    state: EditorState.create({
      doc: "",
      extensions: [
        lineNumbers(), history(), drawSelection(), highlightActiveLine(),
        lang, syntaxHighlighting(classHighlighter),
        linter(checkSource, {delay: 300}), lintGutter(),
        autocompletion({override: [completions(words.starts)], icons: false}),
        keymap.of([...completionKeymap, ...defaultKeymap, ...historyKeymap, indentWithTab,
          {key: "Mod-Shift-f", run: () => { formatText(); return true; }}]),
        EditorView.lineWrapping,
      ],
    }),
  });
  window.playgroundView = view;  // for the browser tests and the curious
}

// ---------------------------------------------------------------------------
// Starting points: a bundled variant, `based on` one, or a workspace file
// ---------------------------------------------------------------------------

let botNames = [];

async function loadVariants() {
  const data = await api("/api/variants");
  const select = $("#variant");
  for (const v of data.variants) select.append(el("option", {value: v.name, text: `${v.name}: ${v.title}`}));
  botNames = data.bots;
  seatChoices();
  return data.variants;
}

async function openVariant() {
  const name = $("#variant").value;
  const data = await api(`/api/variants/${encodeURIComponent(name)}`);
  currentPath = null;
  setText(data.text);
  say(`Opened the bundled ruleset ${name} (save it under a name of your own to keep changes).`);
}

function basedOn() {
  const name = $("#variant").value;
  currentPath = null;
  setText(`# House rules: state only what differs from ${name}.\nruleset my-${name} "My ${name}"\nsource "House rules"\nbased on ${name}\n\n`);
  view.dispatch({selection: {anchor: view.state.doc.length}});
  view.focus();
  say(`A new ruleset based on ${name}: add the statements you change.`);
}

async function refreshFiles() {
  const data = await api("/api/files");
  const select = $("#files");
  select.replaceChildren(el("option", {value: "", text: data.files.length ? "(workspace files)" : "(no .rules file yet)"}));
  for (const f of data.files) select.append(el("option", {value: f, text: f}));
  $("#workspace-name").textContent = data.root;
}

async function openFile() {
  const name = $("#files").value;
  if (!name) return;
  try {
    const data = await api(`/api/file?path=${encodeURIComponent(name)}`);
    currentPath = name;
    $("#save-name").value = name;
    setText(data.text);
    say(`Opened ${name}.`);
  } catch (err) { say(err.message, true); }
}

async function saveFile() {
  const name = $("#save-name").value.trim();
  try {
    const data = await api("/api/file", {path: name, text: view.state.doc.toString()}, "PUT");
    currentPath = data.path;
    say(`Saved ${data.path}.`);
    refreshFiles();
  } catch (err) { say(err.message, true); }
}

async function formatText() {
  try {
    const data = await api("/api/format", {text: view.state.doc.toString(), path: currentPath});
    if (data.changed) setText(data.text);
    say(data.changed ? "Formatted." : "Already in the canonical form.");
  } catch (err) { say(err.message, true); }
}

// ---------------------------------------------------------------------------
// Play against bots
// ---------------------------------------------------------------------------

let game = null;
let chosenTile = null;

// A bot choice per other seat, as many as the players chosen (a bot chosen once is kept when the count changes)
function seatChoices() {
  const players = Number($("#players").value);
  const seats = $("#seats");
  for (let s = seats.children.length + 1; s < players; s++) {
    const sel = el("select", {"class": "bot-choice", "aria-label": `seat ${s}`});
    for (const b of botNames) sel.append(el("option", {value: b, text: b}));
    sel.value = "greedy";
    seats.append(el("label", {"class": "seat", "data-seat": String(s)}, `seat ${s} `, sel));
  }
  seats.querySelectorAll(".seat").forEach((row) => {
    row.hidden = Number(row.dataset.seat) >= players;
  });
}

// The player counts the ruleset allows (double-nine and double-twelve sets seat more than four)
function playerCounts(counts) {
  if (!counts || !counts.length) return;
  const select = $("#players");
  const now = select.value;
  if ([...select.options].map((o) => o.value).join() === counts.join()) return;
  select.replaceChildren(...counts.map((n) => el("option", {value: String(n), text: String(n)})));
  select.value = counts.map(String).includes(now) ? now : String(counts[0]);
  seatChoices();
}

async function newGame() {
  const players = Number($("#players").value);
  const bots = [...document.querySelectorAll("#seats .bot-choice")].slice(0, players - 1).map((s) => s.value);
  const seed = Number($("#seed").value) || 1;
  try {
    game = await api("/api/games", {text: view.state.doc.toString(), path: currentPath, players, bots, seed});
    uploaded = null;
    chosenTile = null;
    drawGame(true);
    say(`New game of ${game.name} against ${bots.join(", ")}.`);
    $("#game").scrollIntoView({block: "nearest"});  // the board, the hand, the scores and the last moves
  } catch (err) { say(err.message, true); }
}

// "You played 4-5 on the 5-5, right end." (its end's letter was on the board before the move), "You led 6-6."
function youPlayed(words) {
  const said = words.replace(/ \([A-Z]\)/, "");
  if (said.startsWith("lead ")) return `You led ${said.slice(5)}.`;
  if (said === "draw a tile") return "You drew a tile.";
  return `You played ${said}.`;
}

async function play(move) {
  const legal = game.legal.find((m) => m.move === move);
  const words = legal ? moveWords(legal, $("#board svg")) : move;
  say(`Playing ${words}…`);
  const body = {move};
  if (game.claims !== "none") body.claim = Number($("#claim").value) || 0;  // the muggins rule: shown points
  try {
    game = await api(`/api/games/${game.id}/move`, body);
    $("#claim").value = "";
    chosenTile = null;
    drawGame(true);
    say(youPlayed(words));  // done: the reply above the board says what the others did
    if ($("#replay").open && !uploaded) replayLatest();
  } catch (err) { say(err.message, true); }
}

// The muggins rule: call on the last placement, or let it go
async function call(want) {
  try {
    game = await api(`/api/games/${game.id}/call`, {call: want});
    drawGame(true);
    say(want ? [...game.log].reverse().find((line) => line.includes("muggins")) || "Called." : "You let it go.");
  } catch (err) { say(err.message, true); }
}

function chooseTile(tile) {
  const moves = game.legal.filter((m) => m.tile === tile);
  if (moves.length === 1 && (moves[0].target === null || game.legal.length === 1)) return play(moves[0].move);
  chosenTile = moves.length ? tile : null;
  drawGame();
  if (!moves.length) say(`${tileWords(tile)} cannot be played now.`, true);
  else if (moves.length > 1 && moves.every((m) => m.target === moves[0].target && m.side === moves[0].side)) offerChoice(moves);
  else say(`${tileWords(tile)}: click a highlighted point of the layout (or a move below).`);
}

// Where several moves fit one place (the sniff laid crosswise or endwise, or several tiles), a small choice
// under the board: a button per move, named by what differs between them
function offerChoice(moves) {
  const oneTile = moves.every((m) => m.tile === moves[0].tile);
  const twice = (m) => moves.filter((x) => x.tile === m.tile).length > 1;
  const label = (m) => (oneTile ? "" : tileWords(m.tile) + " ")
    + (oneTile || twice(m) ? (m.endwise ? "endwise" : "crosswise") : "")
    + (m.points ? ` +${m.points}` : "");
  const box = $("#choice");
  box.replaceChildren(el("span", {text: oneTile ? `Lay ${tileWords(moves[0].tile)}: ` : "Several tiles fit there: "}),
    ...moves.map((m) => el("button", {"class": "choice", "data-move": m.move, onclick: () => play(m.move),
      text: label(m).trim()})),
    el("button", {"class": "choice-cancel", onclick: () => { chosenTile = null; drawGame(); say(""); }, text: "Cancel"}));
  box.hidden = false;
  say(oneTile ? `${tileWords(moves[0].tile)} may be laid crosswise or endwise: choose below the board.`
    : "Several tiles fit there: choose one below the board (or a tile of your hand first).");
}

// ---------------------------------------------------------------------------
// A tile of the hand, drawn upright as the board draws its tiles (rulelang/tools/svg.py):
// the same size, colours and pip places, so that a tile in the hand looks like the tile laid
// ---------------------------------------------------------------------------

const UNIT = 14;  // pixels per grid unit; a tile is 2 x 4 units
// pip offsets from a half's centre, in units, along the tile (a) and across it (c): svg.py's PIPS
const GRID3 = [-0.5, 0, 0.5].flatMap((a) => [-0.5, 0, 0.5].map((c) => [a, c]));
const GRID4 = [-0.5, 0, 0.5].flatMap((a) => [-0.6, -0.2, 0.2, 0.6].map((c) => [a, c]));
const same = (p, q) => p[0] === q[0] && p[1] === q[1];
const PIPS = [
  [],
  [[0, 0]],
  [[-0.5, -0.5], [0.5, 0.5]],
  [[-0.5, -0.5], [0, 0], [0.5, 0.5]],
  [[-0.5, -0.5], [-0.5, 0.5], [0.5, -0.5], [0.5, 0.5]],
  [[-0.5, -0.5], [-0.5, 0.5], [0, 0], [0.5, -0.5], [0.5, 0.5]],
  [[-0.5, -0.5], [0, -0.5], [0.5, -0.5], [-0.5, 0.5], [0, 0.5], [0.5, 0.5]],
];
PIPS.push([...PIPS[6], [0, 0]]);  // 7: larger sets, as on double-nine and double-twelve tiles
PIPS.push(GRID3.filter((p) => !same(p, [0, 0])));  // 8
PIPS.push(GRID3);  // 9
PIPS.push(GRID4.filter((p) => !same(p, [0, -0.2]) && !same(p, [0, 0.2])));  // 10
PIPS.push(GRID4.filter((p) => !same(p, [0, 0.2])));  // 11
PIPS.push(GRID4);  // 12

function tileSvg(tile) {
  const halves = tile.replace(/[[\]]/g, "").split("|").map(Number);
  const w = 2 * UNIT, h = 4 * UNIT, inset = 1;
  const parts = [`<svg class="hand-tile" xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" aria-hidden="true">`,
    `<rect class="tile-rect" x="${inset}" y="${inset}" width="${w - 2 * inset}" height="${h - 2 * inset}" rx="4" fill="#fffdf6" stroke="#222" stroke-width="1.5"/>`,
    `<line x1="${0.3 * UNIT}" y1="${h / 2}" x2="${w - 0.3 * UNIT}" y2="${h / 2}" stroke="#222" stroke-width="1"/>`];
  halves.forEach((value, half) => {
    const cx = UNIT, cy = UNIT * (1 + 2 * half);  // the upper half, then the lower one
    for (const [a, c] of PIPS[value] || []) {
      parts.push(`<circle class="pip" cx="${cx + c * UNIT}" cy="${cy + a * UNIT}" r="${value < 10 ? 2.6 : 1.9}" fill="#222"/>`);
    }
  });
  parts.push("</svg>");
  return parts.join("");
}

// ---------------------------------------------------------------------------
// The board: cropped to the layout (the legend is the page's, in its own text size) and drawn as large as
// the box allows, never below MIN_SCALE (a tile at least about 30 px long): a longer layout scrolls instead
// ---------------------------------------------------------------------------

const MIN_SCALE = 0.6;  // svg.py draws a tile 56 px long at scale 1
const LABEL_PX = 13;  // the end labels' size on the screen, whatever the scale

// The drawing's box around its tiles and markers (its own title and legend left out), from the attributes
// (no layout needed: the pane may be hidden)
function layoutBox(svg) {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  const grow = (x, y, w, h) => { x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x + w); y1 = Math.max(y1, y + h); };
  const num = (node, name) => Number(node.getAttribute(name)) || 0;
  svg.querySelectorAll("g.tile rect.tile-rect").forEach((r) => grow(num(r, "x"), num(r, "y"), num(r, "width"), num(r, "height")));
  svg.querySelectorAll("g.marker circle").forEach((c) => {
    const r = num(c, "r") + 2;
    grow(num(c, "cx") - r, num(c, "cy") - r, 2 * r, 2 * r);
  });
  if (x0 === Infinity) return null;  // an empty layout: the drawing's own text says so
  const pad = 22;  // room for the end labels
  const shift = (svg.querySelector("g.layout")?.getAttribute("transform") || "").match(/translate\(([-\d.]+)[ ,]+([-\d.]+)\)/);
  const [sx, sy] = shift ? [Number(shift[1]), Number(shift[2])] : [0, 0];  // the layout's group is moved under the title
  return {x: x0 - pad + sx, y: y0 - pad + sy, w: x1 - x0 + 2 * pad, h: y1 - y0 + 2 * pad};
}

function cropBoard(box) {
  const svg = box.querySelector("svg");
  if (!svg) return null;
  const vb = layoutBox(svg);
  if (vb) {
    svg.querySelectorAll("g.legend").forEach((g) => g.remove());
    const title = svg.querySelector(":scope > text");  // the drawing's title: the page says it
    if (title) title.remove();
    svg.setAttribute("viewBox", `${vb.x} ${vb.y} ${vb.w} ${vb.h}`);
    svg.dataset.w = String(vb.w);
    svg.dataset.h = String(vb.h);
  } else {  // an empty layout: a line of words, not the drawing's legend
    svg.innerHTML = '<text x="90" y="26" text-anchor="middle" font-size="15" font-family="sans-serif">The layout is empty</text>';
    svg.setAttribute("viewBox", "0 0 180 40");
    svg.dataset.w = "180";
    svg.dataset.h = "40";
  }
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  return svg;
}

const MIN_BOARD_PX = 200;  // the board's box is never lower than this, whatever the window

// The board's box takes the window's height left by the rest of the game (the whole page when it fits, as at
// 1280x760; else the game alone, from the line above the board to your moves), so that the board, your hand,
// the scores and the last moves are seen together; the drawing's scale fits that box, within MIN_SCALE..1,
// and the box scrolls what does not fit
function fitBoard() {
  const board = $("#board");
  const svg = board.querySelector("svg");
  if (!svg || !board.clientWidth) return;  // hidden: fitted when shown
  const box = board.getBoundingClientRect();
  const game = $("#game").getBoundingClientRect();
  const below = Math.max($("#yours").getBoundingClientRect().bottom, $("#board-box").getBoundingClientRect().bottom) - box.bottom;
  const aboveInPage = box.top + window.scrollY;
  const aboveInGame = box.top - game.top;
  const room = (above) => window.innerHeight - above - below - 12;
  const height = Math.max(MIN_BOARD_PX, room(aboveInPage) >= 300 ? room(aboveInPage) : room(aboveInGame));
  board.style.height = `${height}px`;
  const w = Number(svg.dataset.w), h = Number(svg.dataset.h);
  const scale = Math.max(MIN_SCALE, Math.min(1, (board.clientWidth - 4) / w, (board.clientHeight - 4) / h));
  svg.style.width = `${w * scale}px`;
  svg.style.height = `${h * scale}px`;
  svg.dataset.scale = scale.toFixed(3);
  svg.querySelectorAll("text.end-label").forEach((t) => t.setAttribute("font-size", (LABEL_PX / scale).toFixed(1)));
}

// ---------------------------------------------------------------------------
// Moves in words: "4-5 on the 5-5, right end", the end read from where the board draws it
// ---------------------------------------------------------------------------

const tileWords = (tile) => tile.replace(/[[\]]/g, "").replace("|", "-");

function centreOf(svg, tile) {
  const r = svg && svg.querySelector(`g.tile[data-tile="${tile}"] rect.tile-rect`);
  if (!r) return null;
  const n = (name) => Number(r.getAttribute(name)) || 0;
  return {x: n("x") + n("width") / 2, y: n("y") + n("height") / 2};
}

function markerOf(svg, tile, side) {
  const c = svg && svg.querySelector(`g.marker[data-tile="${tile}"][data-side="${side}"] circle`);
  return c ? {x: Number(c.getAttribute("cx")), y: Number(c.getAttribute("cy"))} : null;
}

function direction(from, to) {
  const dx = to.x - from.x, dy = to.y - from.y;
  if (Math.abs(dx) >= Math.abs(dy)) return dx > 0 ? "right" : "left";
  return dy > 0 ? "bottom" : "top";
}

// Where a tile goes on TARGET, in words; POINT: the end's marker or the tile laid there, on the board
function placeWords(svg, target, point) {
  const from = centreOf(svg, target);
  return from && point ? `on the ${tileWords(target)}, ${direction(from, point)} end` : `on the ${tileWords(target)}`;
}

let endLabels = new Map();  // "tile side" -> the letter drawn beside that end on the board

// A legal move in words, e.g. "4-5 on the 5-5, right end (A)"; the sniff's two ways are named
function moveWords(m, svg) {
  if (m.tile === null) return "draw a tile";
  if (m.target === null) return `lead ${tileWords(m.tile)}`;
  const label = endLabels.get(`${m.target} ${m.side}`);
  const twoWays = game.legal.some((x) => x !== m && x.tile === m.tile && x.target === m.target && x.side === m.side);
  return `${tileWords(m.tile)} ${placeWords(svg, m.target, markerOf(svg, m.target, m.side))}`
    + (label ? ` (${label})` : "") + (twoWays ? (m.endwise ? ", endwise" : ", crosswise") : "");
}

// A line of the log in words: the moves' notation replaced by what the board shows
function logWords(line, svg) {
  return line.replace(/(\[\d+\|\d+\]) on (\[\d+\|\d+\]) ([a-z]+(?:-[ab])?)( endwise)?/g,
    (_all, tile, target, _side, endwise) => `${tileWords(tile)} ${placeWords(svg, target, centreOf(svg, tile))}`
      + (endwise ? ", endwise" : ""))
    .replace(/ plays (\[\d+\|\d+\])(?= claim|:)/, (_all, tile) => ` leads ${tileWords(tile)}`)
    .replace(/: ends [\d +]+= \d+/, "")  // the counted ends are on the board; a score follows as ", +15"
    .replace(/\[(\d+)\|(\d+)\]/g, "$1-$2");
}

const TURN_LINE = /^(seat \d+ \(.*?\) (plays|draws|passes|goes out|calls)|Round \d+ over|No muggins)/;
const MINE = /^seat 0 \(you\) (plays|draws a tile instead|passes)/;

// The lines since your last move (the bots' reply), and the last few turns, in words
function newsOf(svg) {
  const lines = game.log;
  let mine = -1;
  lines.forEach((line, i) => { if (MINE.test(line)) mine = i; });
  const reply = lines.slice(mine + 1).filter((line) => TURN_LINE.test(line));
  return {reply: reply.map((line) => logWords(line, svg)),
    last: lines.filter((line) => TURN_LINE.test(line)).slice(-5).map((line) => logWords(line, svg)),
    fresh: reply.length};
}

// the tiles the others just laid, framed on the board
function markJustPlayed(svg) {
  const lines = game.log;
  let mine = -1;
  lines.forEach((line, i) => { if (MINE.test(line)) mine = i; });
  for (const line of lines.slice(mine + 1)) {
    const m = line.match(/^seat \d+ \(.*?\) plays (\[\d+\|\d+\])/);
    const g = m && svg.querySelector(`g.tile[data-tile="${m[1]}"]`);
    if (g) g.classList.add("just-played");
  }
}

// The letters beside the ends your tiles can go to (A, B, ...), placed outside the end, away from its tile
function labelEnds(svg) {
  endLabels = new Map();
  for (const m of game.legal) {
    if (m.target === null || endLabels.has(`${m.target} ${m.side}`)) continue;
    const at = markerOf(svg, m.target, m.side), from = centreOf(svg, m.target);
    if (!at || !from) continue;
    const letter = String.fromCharCode(65 + endLabels.size);
    endLabels.set(`${m.target} ${m.side}`, letter);
    const dx = at.x - from.x, dy = at.y - from.y, len = Math.hypot(dx, dy) || 1;
    const text = document.createElementNS("http://www.w3.org/2000/svg", "text");
    text.setAttribute("class", "end-label");
    text.setAttribute("data-end", letter);
    text.setAttribute("data-at", `${m.target} ${m.side}`);
    text.setAttribute("x", (at.x + 15 * dx / len).toFixed(1));
    text.setAttribute("y", (at.y + 15 * dy / len + 4).toFixed(1));
    text.setAttribute("text-anchor", "middle");
    text.textContent = letter;
    (svg.querySelector("g.layout") || svg).append(text);  // in the markers' coordinates
  }
}

let drawn = 0;

function drawGame(fresh = false) {
  $("#game").hidden = false;
  const board = $("#board");
  board.innerHTML = game.svg;
  $("#choice").hidden = true;
  if (fresh) board.dataset.version = String(++drawn);  // a new state from the server (the tests wait on it)
  const svg = cropBoard(board);
  if (svg) { labelEnds(svg); markJustPlayed(svg); }
  for (const m of game.legal) {
    if (m.target === null || (chosenTile !== null && m.tile !== chosenTile)) continue;
    const marker = board.querySelector(`g.marker[data-tile="${m.target}"][data-side="${m.side}"]`);
    if (!marker) continue;
    marker.classList.add("legal");
    if (chosenTile !== null) marker.classList.add("chosen");
    marker.setAttribute("data-move", m.move);
    const choose = () => {
      const fits = game.legal.filter((x) => x.target === m.target && x.side === m.side
        && (chosenTile === null || x.tile === chosenTile));
      if (fits.length === 1) play(fits[0].move);
      else offerChoice(fits);
    };
    marker.addEventListener("click", choose);
    const label = board.querySelector(`text.end-label[data-at="${m.target} ${m.side}"]`);
    if (label && !label.classList.contains("legal")) {  // the end's letter is clicked as the end is
      label.classList.add("legal");
      label.addEventListener("click", choose);
    }
  }
  const hand = $("#hand");
  hand.replaceChildren();
  const playable = new Set(game.legal.map((m) => m.tile));
  for (const t of game.hand) {
    const button = el("button", {"class": "tile" + (playable.has(t) ? " playable" : "") + (t === chosenTile ? " chosen" : ""),
      "data-tile": t, "aria-label": t, title: tileWords(t), onclick: () => chooseTile(t)});
    button.innerHTML = tileSvg(t);
    hand.append(button);
  }
  const moves = $("#moves");
  moves.replaceChildren();
  for (const m of game.legal) {
    moves.append(el("button", {"class": "move", "data-move": m.move, title: m.move, onclick: () => play(m.move),
      text: moveWords(m, svg) + (m.points ? `  +${m.points}` : "")}));
  }
  $("#turn").textContent = game.over ? `The match is over: ${game.winner ? game.winner + " wins" : "a draw"}.`
    : game.call ? `${game.call.placer} has placed: call muggins, or let it go${game.your_turn ? " and play" : ""}.`
    : game.your_turn ? "Your turn." : "Waiting.";
  const news = newsOf(svg);
  $("#reply").textContent = news.reply.join(" · ");
  $("#last-moves").replaceChildren(...news.last.map((line, i) =>
    el("li", {"class": i >= news.last.length - news.fresh ? "new" : "", text: line})));
  $("#claim-box").hidden = game.claims === "none" || !game.your_turn;
  $("#call-box").hidden = !game.call;
  if (game.call) $("#call").textContent = `Call muggins on ${game.call.placer}`;
  $("#counted").textContent = `Counted ends: ${game.counted.map((c) => c.value).join(" + ") || "0"} = ${game.count}`
    + `   ·   boneyard ${game.boneyard}   ·   tiles in hands ${game.hand_counts.join(", ")}`;
  const scores = $("#scores");
  scores.replaceChildren(el("tr", {}, el("th", {text: "side"}), el("th", {text: "shown"}), el("th", {text: "raw"})));
  for (const s of game.scores) scores.append(el("tr", {}, el("td", {text: s.name}), el("td", {text: String(s.shown)}), el("td", {text: String(s.raw)})));
  $("#target").textContent = `Round ${game.round}; target ${game.target}.`;
  $("#log").replaceChildren(...game.log.slice(-60).map((line) => el("li", {text: line})));
  $("#transcript").href = `/api/games/${game.id}/transcript`;
  $("#transcript").hidden = false;
  const last = $("#last-round");
  if (game.last_round) {
    last.hidden = false;
    $("#last-round-summary").textContent = `Round ${game.last_round.number}: ${game.last_round.summary} Hands left: ${game.last_round.hands.join("; ")}`;
    $("#last-round-board").innerHTML = game.last_round.svg;
  } else last.hidden = true;
  fitBoard();  // once the hand and the moves under the board are drawn
}

// ---------------------------------------------------------------------------
// Replay: the current game, or a saved transcript, after any turn
// ---------------------------------------------------------------------------

let uploaded = null;  // a transcript read from a file, replayed instead of the current game

function showReplay(view) {
  const slider = $("#replay-turn");
  slider.max = String(view.turns);
  slider.value = String(view.turn);
  $("#replay-caption").textContent = view.caption;
  $("#replay-board").innerHTML = view.svg;
}

async function replayTurn() {
  const turn = Number($("#replay-turn").value);
  try {
    const view = uploaded ? await api("/api/replay", {transcript: uploaded, turn})
      : game ? await api(`/api/games/${game.id}/replay?turn=${turn}`) : null;
    if (view) showReplay(view);
  } catch (err) { say(err.message, true); }
}

async function replayLatest() {
  try { showReplay(await api(`/api/games/${game.id}/replay`)); } catch (err) { say(err.message, true); }
}

async function replayFile() {
  const file = $("#replay-file").files[0];
  if (!file) return;
  try {
    uploaded = JSON.parse(await file.text());
    showReplay(await api("/api/replay", {transcript: uploaded, turn: null}));
    say(`Replaying ${file.name}: move the slider.`);
  } catch (err) {
    uploaded = null;
    say(err instanceof SyntaxError ? `${file.name} is not JSON` : err.message, true);
  }
}

// ---------------------------------------------------------------------------
// Diagrams: every conformance case's position
// ---------------------------------------------------------------------------

let cases = [];

let caseVariantChosen = false;  // once the user picks a variant, it stays

async function loadCases() {
  cases = (await api("/api/cases")).cases;
  const variants = [...new Set(cases.map((c) => c.variant))];
  const sel = $("#case-variant");
  sel.replaceChildren(...variants.map((v) => el("option", {value: v, text: v})));
  pickCaseVariant();
}

// The cases of the edited ruleset's base (or of the bundled ruleset itself), until the user picks others
function pickCaseVariant() {
  const sel = $("#case-variant");
  if (!caseVariantChosen && lastAnalysis && lastAnalysis.ok) {
    const mine = [lastAnalysis.base, lastAnalysis.name].find((v) => [...sel.options].some((o) => o.value === v));
    if (mine && sel.value !== mine) sel.value = mine;
    else if (sel.dataset.listed === sel.value) return;
  }
  sel.dataset.listed = sel.value;
  listCases();
}

function listCases() {
  const v = $("#case-variant").value;
  const list = $("#case-list");
  list.replaceChildren(...cases.filter((c) => c.variant === v).map((c) =>
    el("li", {}, el("a", {href: "#", "data-case": c.id, onclick: (e) => { e.preventDefault(); showCase(c).then(() => $("#case-view").scrollIntoView({block: "nearest"})); }, text: c.id}),
      el("span", {"class": "muted", text: ` ${c.description}`}))));
}

async function showCase(c, step) {
  const slider = $("#case-step");
  slider.max = String(c.steps);
  if (step === undefined) slider.value = String(c.steps);
  slider.dataset.case = c.id;
  $("#case-step-label").textContent = `after step ${slider.value} of ${c.steps}`;
  const res = await fetch(`/api/cases/${encodeURIComponent(c.id)}/svg?step=${slider.value}`);
  const box = $("#case-board");
  if (!res.ok) { box.textContent = (await res.json()).error; return; }
  box.innerHTML = await res.text();
  const svg = cropBoard(box);  // the caption and the legend are the page's, never cut by the box
  if (svg) {  // across the pane's width, never below its own size, and no taller than most of the window
    const w = Number(svg.dataset.w), h = Number(svg.dataset.h);
    svg.style.minWidth = `${w}px`;
    svg.style.height = `${Math.max(h, Math.min(box.clientWidth * h / w, 0.75 * window.innerHeight))}px`;
  }
  $("#case-title").textContent = `${c.id}: ${c.description}`;
}

// ---------------------------------------------------------------------------
// The printable sheet: rendered by the server, opened in a window of its own
// ---------------------------------------------------------------------------

async function printSheet() {
  const res = await fetch("/sheet", {method: "POST", headers: {"Content-Type": "application/json"},
    body: JSON.stringify({text: view.state.doc.toString(), path: currentPath})});
  if (!res.ok) { say((await res.text()).trim(), true); return; }
  const url = URL.createObjectURL(new Blob([await res.text()], {type: "text/html"}));
  window.open(url, "_blank");
}

// ---------------------------------------------------------------------------
// Tabs and start-up
// ---------------------------------------------------------------------------

function showTab(name) {
  document.body.dataset.tab = name;
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.tab === name));
  document.querySelectorAll(".pane").forEach((p) => { p.hidden = p.id !== `pane-${name}`; });
  if (name === "play") fitBoard();  // sized once it can be measured
  if (name === "diagrams") pickCaseVariant();
}

async function main() {
  await makeEditor();
  const variants = await loadVariants();
  document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showTab(t.dataset.tab)));
  $("#open-variant").addEventListener("click", openVariant);
  $("#based-on").addEventListener("click", basedOn);
  $("#open-file").addEventListener("click", openFile);
  $("#save").addEventListener("click", saveFile);
  $("#format").addEventListener("click", formatText);
  $("#new-game").addEventListener("click", newGame);
  $("#call").addEventListener("click", () => call(true));
  $("#no-call").addEventListener("click", () => call(false));
  $("#players").addEventListener("change", seatChoices);
  $("#print").addEventListener("click", printSheet);
  $("#case-variant").addEventListener("change", () => { caseVariantChosen = true; listCases(); });
  $("#menu").addEventListener("click", () => {
    const open = document.querySelector("header").classList.toggle("open");
    $("#menu").setAttribute("aria-expanded", String(open));
  });
  window.addEventListener("resize", fitBoard);
  $("#replay-turn").addEventListener("input", replayTurn);
  $("#replay-file").addEventListener("change", replayFile);
  $("#replay").addEventListener("toggle", () => { if ($("#replay").open && !uploaded && game) replayLatest(); });
  $("#case-step").addEventListener("input", () => {
    const c = cases.find((x) => x.id === $("#case-step").dataset.case);
    if (c) showCase(c, Number($("#case-step").value));
  });
  seatChoices();
  showTab("rules");
  await refreshFiles();
  if (variants.length) { $("#variant").value = variants.some((v) => v.name === "allfives") ? "allfives" : variants[0].name; basedOn(); }
  forceLinting(view);
  loadCases();
  await firstCheck;  // the starting text's diagnostics and explanation are shown
  document.body.dataset.ready = "yes";
}

main().catch((err) => say(`The playground could not start: ${err.message}`, true));
