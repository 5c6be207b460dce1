"""Helpers of the table server's tests: a client that plays its seat's decisions, and the hidden-card check."""
from __future__ import annotations

import json
import random
import re

from interp.engine import events, match as engine


def bots(n: int, humans=(0,), bot: str = "random") -> list:
    """The `seats` of a new table's request: `humans` are people, the others bots."""
    return [{"kind": "human"} if s in humans else {"kind": "bot", "bot": bot} for s in range(n)]


def play_seat(ws, rng: random.Random, until=lambda record: record["deal_over"]) -> tuple:
    """Play a random legal move at every decision this connection gets, until `until(record)`; the messages
    received and the notations of the moves sent."""
    received: list = []
    sent: list = []
    while True:
        message = ws.receive_json()
        received.append(message)
        if message["type"] != "state":
            continue
        record = message["record"]
        if until(record):
            return received, sent
        if record["decision"]:
            sent.append(rng.choice(record["decision"]["moves"])["notation"])
            ws.send_json({"type": "move", "move": sent[-1]})


class Seen:
    """The cards each seat (None: anyone, a spectator) has been shown in the full state during the current deal:
    the zones it may see (all of them, or the part shown to all), the cards this deal's events told to it carry or
    name in their words (a called card), the trick on the table. Worked out from the state, the spec's visibility
    rules and the events' audiences, not from `State.view`; events are read once each."""

    def __init__(self, game):
        self.game, self.forms = game, card_forms(game)
        self.deal, self.read, self.cards = 0, {}, {}

    def of(self, st, seat) -> set:
        if st.deal_no != self.deal:
            self.deal, self.read, self.cards = st.deal_no, {}, {}
        cards = self.cards.setdefault(seat, set())
        game = self.game
        for zid, zone in enumerate(st.zones):
            if seat is not None and game.zone_visible(st, zid, seat) or seat is None and (
                    zid in st.revealed or game.zone_of(zid, st.n)[0].visible == "all"):
                cards.update(zone)
            else:
                cards.update(game.zone_shown(st, zid))
        start = st.deal_events + self.read.get(seat, 0)
        for event in st.events[start:]:
            if event.audience is None or seat in event.audience:
                cards.update(event.cards)
                told = events.text(st, event) or ""
                cards.update(self.forms[word] for word in _SPLIT.split(told) if word in self.forms)
        self.read[seat] = len(st.events) - st.deal_events
        phase = engine.current_phase(st)
        if phase is not None:
            cards.update(phase.held(st))
        return cards


_SPLIT = re.compile(r"[\s,;:()·—]+")


def card_forms(game) -> dict:
    """Each way a card is written (its code, `10♥`) -> the card, but for words that are also a bid's name or label
    (a bid `7♠` beside the card 7♠)."""
    deck = game.deck
    forms = {}
    for card in range(len(deck)):
        forms[deck.codes[card]] = card
        forms[deck.pretty(card)] = card
    for bid in game.bids:
        forms.pop(bid.name, None)
        forms.pop(bid.label, None)
    return forms


def leaks(game, message: dict, known: set) -> list:
    """The cards outside `known` that `message` names: as a code anywhere in it, or as a card is written among the
    words of its text (`card_forms`); (card code, the text naming it) each. A decision's menu may name cards the
    seat does not see (a card to call): its words are left out, but a card it offers to play must be known."""
    named = _NAMED.setdefault(id(game), {})
    if not named:
        named[None] = card_forms(game)
    forms = named[None]
    found = []
    for text in _strings(_without_menu(message)):
        if text not in named:  # the cards a text names, worked out once per text
            named[text] = [forms[word] for word in {text, *_SPLIT.split(text)} if word in forms]
        found.extend((game.deck.codes[card], text) for card in named[text] if card not in known)
    decision = message.get("record", {}).get("decision") or {"moves": []}
    found.extend((m["card"], "a card to play") for m in decision["moves"]
                 if m["card"] is not None and game.deck.parse(m["card"]) not in known)
    return found


_NAMED: dict = {}  # id(game) -> {text: the cards it names; None: card_forms(game)}


def _without_menu(message: dict) -> dict:
    record = message.get("record")
    if not record or not record.get("decision"):
        return message
    return {**message, "record": {**record, "decision": {**record["decision"], "moves": []}}}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def wire(message: dict) -> dict:
    """`message` as it crosses the socket (JSON and back)."""
    return json.loads(json.dumps(message))


def play_together(sockets: list, rng: random.Random, until=lambda record: record["deal_over"]) -> dict:
    """Several connections at one table, each playing a random legal move at its decisions, until `until` holds
    for each; the last state message of each. Every change is sent to every connection, so each reads in turn."""
    last: dict = {}
    while len(last) < len(sockets) or not all(until(m["record"]) for m in last.values()):
        for ws in sockets:
            if ws in last and until(last[ws]["record"]):
                continue
            message = ws.receive_json()
            while message["type"] != "state":
                message = ws.receive_json()
            last[ws] = message
            decision = message["record"]["decision"]
            if decision and not until(message["record"]):
                ws.send_json({"type": "move", "move": rng.choice(decision["moves"])["notation"]})
    return last


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(db: str, port: int, *extra: str):
    """`interp serve` as a subprocess on 127.0.0.1:`port` over the database `db`, once it answers (bots at once)."""
    import subprocess
    import sys
    import time
    import urllib.request
    process = subprocess.Popen([sys.executable, "-m", "interp", "serve", "--port", str(port), "--db", db,
                                "--bot-delay", "0", *extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=1).read()
            return process
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(process.stdout.read().decode())
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("interp serve did not answer within 30 s")
