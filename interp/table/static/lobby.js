// The lobby: pick a game, its options, the player count and who sits where; create the table; show the links.
"use strict";
let bots = [], game = null;   // the game chosen, as /api/games/NAME describes it
const $ = (id) => document.getElementById(id);

async function showPlayers() {
  game = await (await fetch("/api/games/" + encodeURIComponent($("game").value))).json();
  const select = $("players");
  select.replaceChildren(...game.players.map((n) => el("option", {value: n, text: n})));
  select.value = game.default_players;
  showSeats(); showOptions();
  $("new-table").dataset.game = game.name;   // the form is the chosen game's
}

function showSeats() {
  const n = Number($("players").value), names = game.seat_names[n];
  const box = $("seats");
  box.replaceChildren(el("legend", {text: "Seats"}));
  names.forEach((name, seat) => {
    const select = el("select", {"data-seat": seat, "aria-label": name});
    select.append(el("option", {value: "human", text: "a person (invite link)"}));
    for (const bot of bots) select.append(el("option", {value: "bot:" + bot, text: "bot: " + bot}));
    select.value = seat === 0 ? "human" : "bot:heuristic";
    box.append(el("label", {}, name + " ", select));
  });
}

function showOptions() {
  const box = $("options");
  box.replaceChildren(el("legend", {text: "Options"}));
  for (const opt of game.options) {
    let input;
    if (opt.values.length) {
      input = el("select", {name: opt.name});
      for (const v of opt.values) input.append(el("option", {value: String(v), text: String(v)}));
      input.value = String(opt.default);
    } else if (typeof opt.default === "boolean") {
      input = el("input", {type: "checkbox", name: opt.name});
      input.checked = opt.default;
    } else {
      input = el("input", {name: opt.name, value: String(opt.default), size: 8});
    }
    input.dataset.kind = typeof opt.default;
    box.append(el("label", {title: opt.doc}, opt.name + " ", input, el("small", {text: " " + opt.doc})));
  }
  box.hidden = game.options.length === 0;
}

function optionValues() {
  const out = {};
  for (const input of $("options").querySelectorAll("input, select")) {
    const opt = game.options.find((o) => o.name === input.name);
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (input.type !== "checkbox" && typeof opt.default === "number" && value !== "" && !isNaN(Number(value))) value = Number(value);
    if (value !== opt.default) out[input.name] = value;
  }
  return out;
}

async function create(event) {
  event.preventDefault();
  $("lobby-error").textContent = "";
  const seats = [...$("seats").querySelectorAll("select")].map((s) =>
    s.value === "human" ? {kind: "human"} : {kind: "bot", bot: s.value.slice(4)});
  const body = {game: $("game").value, players: Number($("players").value), options: optionValues(), seats};
  const response = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
                                               body: JSON.stringify(body)});
  const data = await response.json();
  if (!response.ok) { $("lobby-error").textContent = data.error; return; }
  const list = $("link-list");
  list.replaceChildren();
  for (const seat of data.seats) {
    if (seat.kind !== "human") { list.append(el("li", {text: `${seat.name}: bot (${seat.bot})`})); continue; }
    const url = location.origin + seat.url;
    list.append(el("li", {}, `${seat.name}: `, el("a", {href: url, target: "_blank", "data-seat": seat.seat, text: url})));
  }
  const watch = location.origin + data.spectator;
  list.append(el("li", {}, "spectators: ", el("a", {href: watch, target: "_blank", class: "spectator", text: watch})));
  $("links").hidden = false;
}

async function start() {
  const data = await (await fetch("/api/games")).json();
  bots = data.bots;
  $("game").replaceChildren(...data.games.map((name) => el("option", {value: name, text: name})));
  $("game").addEventListener("change", showPlayers);
  $("players").addEventListener("change", () => { showSeats(); });
  $("new-table").addEventListener("submit", create);
  await showPlayers();
  $("create").disabled = false;
}
start();
