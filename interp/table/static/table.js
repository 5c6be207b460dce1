// The table page: one seat's (or a spectator's) live view of a table. Everything shown comes from the server's
// records (interp/table/present.py); cards are drawn from the deck the server describes. No game is named here.
"use strict";
const $ = (id) => document.getElementById(id);
const tableId = location.pathname.split("/").pop();
const token = location.hash.slice(1);
let deck = {}, seat = null, socket = null, retry = 0, record = null;
let selected = new Set(), queue = [];   // cards picked for a discard of several, and those still to send
let pending = false;                     // a move was sent: no other until the server answers

function card(code, extra) {
  const info = deck[code] || {rank: code, symbol: "", red: false, label: code};
  const node = el("div", {class: "card" + (info.red ? " red" : "") + (info.symbol ? "" : " plain"),
                          "data-card": code, title: info.label, ...(extra || {})});
  node.append(el("span", {class: "rank", text: info.rank}));
  node.append(el("span", {class: "pip", text: info.symbol || info.rank}));
  return node;
}

function inColour(text) {
  // the line's text, with the symbols of the suits the deck draws red in red
  const red = new Set(Object.values(deck).filter((c) => c.red && c.symbol).map((c) => c.symbol));
  const parts = [];
  let plain = "";
  for (const ch of text) {
    if (!red.has(ch)) { plain += ch; continue; }
    parts.push(plain, el("span", {class: "red", text: ch}));
    plain = "";
  }
  parts.push(plain);
  return parts;
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}?token=${encodeURIComponent(token)}`);
  socket.onopen = () => { retry = 0; $("connection").textContent = "connected"; $("connection").className = "connection ok"; };
  socket.onmessage = (event) => receive(JSON.parse(event.data));
  socket.onclose = (event) => {
    pending = false;
    $("connection").className = "connection lost";
    if (event.code === 4403) { $("connection").textContent = "this link opens no seat"; return; }
    const wait = Math.min(8000, 500 * 2 ** retry++);
    $("connection").textContent = `reconnecting in ${Math.round(wait / 1000)} s…`;
    setTimeout(connect, wait);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function sendMove(notation) {
  // one move per decision: a second click before the server's answer is not sent
  if (pending) return;
  pending = true;
  document.body.classList.add("pending");
  send({type: "move", move: notation});
}

function receive(message) {
  pending = false;
  document.body.classList.remove("pending");
  if (message.type === "hello") {
    deck = message.deck; seat = message.seat;
    $("game").textContent = message.game;
    $("who").textContent = seat === null ? "watching" : `you are ${message.seat_name}`;
    document.title = `${message.game} — interp`;
  } else if (message.type === "error") {
    $("error").textContent = message.message;
    queue = [];
  } else if (message.type === "state") {
    $("error").textContent = "";
    record = message.record;
    show(message);
  }
}

function show(message) {
  const r = message.record;
  $("status").textContent = r.status;
  $("seats").replaceChildren(...r.seats.map((s) => el("li", {class: (s.to_move ? "to-move " : "") +
    (s.seat === r.you ? "you " : "") + (s.active ? "" : "out"), text: s.name + (s.seat === r.you ? " (you)" : "")})));
  $("running").replaceChildren(...r.running.map((line) => el("div", {text: line})));
  $("zones").replaceChildren(...r.zones.map((z) => el("div", {class: "zone"},
    el("h3", {text: z.title + (z.hidden ? ` (+${z.hidden} unseen)` : "")}),
    el("div", {class: "cards"}, ...z.cards.map((c) => card(c))))));
  $("trick").replaceChildren(...r.trick.map((p) => el("figure", {}, card(p.card), el("figcaption", {text: p.name}))));
  const last = r.last_trick;
  $("last-trick").replaceChildren(...(last ? [...last.plays.map((p) => el("figure", {}, card(p.card),
    el("figcaption", {text: p.name}))), el("p", {text: last.winner ? `${last.winner} wins` : "nobody wins"})] : []));
  showSheet(r.sheet);
  $("log").replaceChildren(...r.log.map((line) => el("li", {}, ...inColour(line))));
  $("log").scrollTop = $("log").scrollHeight;
  showDecision(r.decision);
  showBetween(message);
}

function showSheet(sheet) {
  const table = el("table", {class: "sheet"});
  table.append(el("tr", {}, ...sheet.headers.map((h) => el("th", {text: h}))));
  for (const row of sheet.rows) table.append(el("tr", {}, ...row.map((v) => el("td", {text: String(v)}))));
  $("sheet").replaceChildren(table);
}

function showDecision(decision) {
  const playable = new Map();
  const box = $("decision");
  box.replaceChildren();
  const several = decision && decision.phase === "discard";
  if (!decision && record.to_move && !record.deal_over) {
    box.append(el("p", {class: "waiting", text: `${record.to_move} to move`}));
  }
  if (decision) {
    box.append(el("p", {class: "prompt", text: decision.prompt + (decision.for ? ` (for ${decision.for})` : "")}));
    for (const m of decision.moves) {
      if (m.card !== null && record.hand.includes(m.card)) { playable.set(m.card, m.notation); continue; }
      const button = el("button", {type: "button", class: "move", text: m.label});
      button.addEventListener("click", () => sendMove(m.notation));
      box.append(button);
    }
    if (several && playable.size) {
      const confirm = el("button", {type: "button", id: "confirm", class: "confirm", text: "Discard the selected cards"});
      confirm.disabled = selected.size === 0;
      confirm.addEventListener("click", () => { queue = [...selected]; selected.clear(); sendQueued(playable); });
      box.append(confirm);
    }
  }
  if (several && queue.length) { sendQueued(playable); }
  if (!several) { selected.clear(); queue = []; }
  const hand = $("hand");
  hand.replaceChildren(...record.hand.map((code) => {
    const node = card(code);
    if (playable.has(code)) {
      node.classList.add("playable");
      node.tabIndex = 0;
      if (selected.has(code)) node.classList.add("selected");
      const act = () => {
        if (several) {
          selected.has(code) ? selected.delete(code) : selected.add(code);
          showDecision(decision);
        } else sendMove(playable.get(code));
      };
      node.addEventListener("click", act);
      node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") act(); });
    }
    return node;
  }));
}

function sendQueued(playable) {
  // the engine asks one card a move: the selected cards go one by one, each when it is asked for
  while (queue.length && !playable.has(queue[0])) queue.shift();
  if (queue.length) sendMove(playable.get(queue.shift()));
}

function showBetween(message) {
  const r = message.record, box = $("between");
  if (!r.deal_over) { box.hidden = true; return; }
  box.hidden = false;
  box.replaceChildren();
  if (r.result) {
    box.append(el("h2", {text: `Deal ${r.result.deal}` + (r.result.void ? " is void" : " result")}));
    box.append(el("ul", {}, ...r.result.lines.map((line) => el("li", {text: line}))));
  }
  if (r.final) {
    box.append(el("h2", {text: "The match is over"}));
    box.append(el("ol", {class: "final"}, ...r.final.map((f) => el("li", {text: `${f.name}: ${f.result}`}))));
  }
  if (seat !== null) {
    const button = el("button", {type: "button", id: "next", class: "confirm",
                                 text: r.match_over ? "Play again" : "Next deal"});
    button.disabled = message.ready;
    button.addEventListener("click", () => send({type: "next"}));
    box.append(button);
  }
  if (message.waiting.length) box.append(el("p", {text: "waiting for " + message.waiting.join(", ")}));
}

connect();
