"""`tricks`: trick play. Rules as data: `follow` suit, `must_trump` when void, `overtrump` when trumping,
`trump` (a DSL expression giving a suit code or none), `leader` of the first trick, a fixed number of `tricks`.

`lead_from` lets a zone lead tricks (an all-pass deal's talon cards): `{zone, when (trick_no), can_win, credit,
then}` — while `when` holds (asked only while the zone has a card), the zone's top card is turned up and leads;
if it cannot win, the best player card of its suit wins; `credit` names the seat (or none) credited when the zone
card wins or nobody follows; `then` who plays first.
`allowed` (a condition on `card`, with `me`, `trick_no` and the trick's `cards` so far) narrows the playable cards
further, e.g. "the first lead in the suit announced"; when it would leave none, it is ignored.
Hooks: `on_trick` (with `winner`, `trick_no`, the trick's `cards` and the `players` who played them in order
— none for a zone's card — its `leader`, and `last` for the deal's last trick), `after_first_card`. Won cards go
to the per-seat zone `won` (or `unclaimed` when a trick is credited to nobody).

`escape` (a condition on `card`, worked out once per card when the phase starts) marks escape cards: always
playable, they never win a trick, and when one is led the first other card sets the suit to follow. Where the
escape card ends up is the spec's business (`on_trick`). `escape_wins` (a condition with the led escape `card`,
its `leader`, `trick_no` and `last`) makes a led escape card win its trick after all, e.g. "led to the last trick
by a side that won every trick before". `announcements` are optional calls a player may make
before playing a card (`{name, label, when, do, bots}`, with `me` and `trick_no`): each is offered while its
`when` holds, at most once per player and trick, and the same player then goes on to play a card.

`strength` and `points` (a `CardTable` each) may depend on the trump: per-rank tables for the trump suit and the
plain suits, or an expression on `card` and `trump`, worked out once per card when the phase starts (the trump
is fixed then). `strength` orders the cards of a suit for winning and overtrumping (default: the deck's rank
order); `points` gives `on_trick` its `trick_points` (default: the deck's points). `trump_exempt` (with `me` and
`winning`, the seat winning the trick so far) frees a player void in the led suit from `must_trump`.
"""
from __future__ import annotations

from interp.dsl.compile import ITEMS
from interp.dsl.reads import words_in
from interp.engine.phases.base import with_locals
from interp.engine.phases.card_tables import PER_CARD_MEMO, CardTable, PerCard
from interp.engine.phases.params import compile_for
from interp.engine.phases.trick_legality import TrickLegality
from interp.engine.phases.trick_rules import NO_CARDS, ZONE_SEAT, Announcement, LeadFrom, TrickProgress
from interp.engine.phases.trick_suits import SuitRule
from interp.engine.phases.turns import Template
from interp.engine.state import Event, Move
from interp.errors import SpecRuntimeError

MOVE_LIST_MEMO = 4096  # sets of cards whose sorted moves a plain phase remembers (then it starts again)
ORDERS_MEMO = 256  # sets of players whose orders of play a phase remembers (then it starts again)
RULES = ("follow", "must_trump", "overtrump", "must_beat")  # the follow rules, in `TrickProgress.rules` order
# the locals `allowed` sees: its filter (TrickRules.allowed_args) takes them as arguments in this order, the card aside
ALLOWED_LOCALS = {"me": ("seat", None), "card": ("card", None), "trick_no": ("int", None), "cards": ("list[card]", None)}
YAML_WORDS = frozenset({"yes", "no", "on", "off", "y", "n"})  # booleans written as words the DSL does not know


class TricksPhase(TrickLegality):
    """A compiled `tricks` phase, on its rules as fields (TrickRules), who wins a trick (TrickWinner) and which cards
    are legal (TrickLegality): here it compiles, starts, and plays card by card. Its progress is in `state.ph`
    (`players`, `leader`, the `trick` in play and who played each card (`by`), the `order` of play and whose
    `turn`, the trick number `no`, the `trump`, the `escape` cards, announcements `said` by the seat to play, and
    the `strength` / `points` tables)."""

    type_name = "tricks"
    __slots__ = ()  # its fields are TrickRules'

    @classmethod
    def compile(cls, spec: dict, cc) -> "TricksPhase":
        trick_local = {"trick_no": ("int", None)}
        win_local = {"winner": ("seat", None), "trick_no": ("int", None), "cards": ("list[card]", None),
                     "players": ("list[seat]", None), "leader": ("seat", None), "last": ("bool", None),
                     "trick_points": ("num", None)}
        announcements = [cls.announcement(cc, ann, ("announcements", i))
                         for i, ann in enumerate(spec.get("announcements") or [])]
        lead_from = None
        if "lead_from" in spec:
            lf = spec["lead_from"]
            lead_from = LeadFrom(
                cc.zone_name(("lead_from", "zone"), per_seat=False),
                cc.expr(("lead_from", "when"), "bool", trick_local),
                cc.expr(("lead_from", "can_win"), "bool") if "can_win" in lf else (lambda st: True),
                cc.expr(("lead_from", "credit"), "seat") if "credit" in lf else (lambda st: None),
                cc.expr(("lead_from", "then"), "seat") if "then" in lf else None,
            )
        varying = {key: cls.rule(cc, key, trick_local) for key in RULES if isinstance(spec.get(key), str)}
        kind = cls.path_for(spec, announcements, varying)
        return kind(
            spec["id"], cc.when(), spec.get("label", ""),
            players=cc.expr("players", "list[seat]") if "players" in spec else (lambda st: st.active),
            leader=cc.expr("leader", "seat"),
            count=cc.number("tricks", spec["tricks"]) if "tricks" in spec else None,
            hand=cc.zone_name("hand", per_seat=True) if "hand" in spec else cc.default_hand(),
            won=cc.zone_name("won", per_seat=True),
            unclaimed=cc.zone_name("unclaimed", per_seat=False) if "unclaimed" in spec else None,
            trump=cc.expr("trump", "str") if "trump" in spec else (lambda st: None),
            follow=spec.get("follow", True) is True,
            must_trump=spec.get("must_trump", False) is True,
            overtrump=spec.get("overtrump", False) is True,
            must_beat=spec.get("must_beat", False) is True,
            varying=varying,
            suit_rule=SuitRule.compile(cc),
            until=cc.expr("until", "bool") if "until" in spec else None,
            texts={key: " ".join(str(spec[key]).split()) for key in ("suit", "until", *varying) if key in spec},
            on_trick=cc.stmts("on_trick", win_local) if "on_trick" in spec else None,
            after_first=cc.stmts("after_first_card") if "after_first_card" in spec else None,
            lead_from=lead_from,
            allowed=cc.filter("allowed", "card", ALLOWED_LOCALS) if "allowed" in spec else None,
            allowed_args=cc.filter_args("allowed", "card", ALLOWED_LOCALS) if "allowed" in spec else None,
            escape=cc.expr("escape", "bool", {"card": ("card", None)}) if "escape" in spec else None,
            escape_memo=PerCard.compile(cc, "escape", {"card"}) if "escape" in spec else None,
            escape_wins=cc.expr("escape_wins", "bool", {"card": ("card", None), "leader": ("seat", None),
                                                        "trick_no": ("int", None), "last": ("bool", None)})
            if "escape_wins" in spec else None,
            announcements=announcements,
            strength=CardTable.compile(cc, "strength", "order"),
            card_points=CardTable.compile(cc, "points", "values"),
            trump_exempt=cc.expr("trump_exempt", "bool", {"me": ("seat", None), "winning": ("seat", None)})
            if "trump_exempt" in spec else None,
            trick_locals=frozenset(win_local).intersection(words_in(spec["on_trick"], cc.c.scope.macros))
            if "on_trick" in spec else frozenset(),
        )

    @staticmethod
    def rule(cc, key: str, local: dict):
        """A follow rule written as a condition, worked out at each trick (a word such as "yes" is refused: the
        rule is `true`, `false` or a condition)."""
        text = str(cc.spec[key]).strip()
        if text.lower() in YAML_WORDS:
            raise cc.error(f"'{key}' must be a boolean (true or false) or a condition, not \"{text}\"", key,
                           f"write {key}: true (no quotes), or a condition such as \"trick_no > 1\"")
        return cc.expr(key, "bool", local)

    @staticmethod
    def announcement(cc, ann: dict, path: tuple) -> Announcement:
        """An entry of `announcements`, with its `for:` parameters if it has some."""
        said = {"me": ("seat", None), "trick_no": ("int", None), "cards": ("list[card]", None)}
        named = {"me": ("seat", None)}
        params = compile_for(cc, path, said)
        for var, _, type_ in params:
            named[var] = said[var]
        when = cc.expr(path + ("when",), "bool", said) if "when" in ann else None
        return Announcement(
            str(ann["name"]), str(ann.get("label", ann["name"])), when,
            cc.stmts(path + ("do",), said) if "do" in ann else None,
            cc.expr(path + ("bots",), "num", said) if "bots" in ann else None,
            getattr(when, "requires", {}).get("trick_no"), Move("option", str(ann["name"])), tuple(params),
            tuple(said[var][1] for var, _, _ in params),
            Template.compile(cc, path + ("label",), named) if params and "label" in ann else None)

    @classmethod
    def path_for(cls, spec: dict, announcements: list, varying: dict) -> type:
        """The class a phase of `spec` compiles to: with none of `escape`, `trump_exempt`, `suit`, `until`,
        `must_beat`, `announcements` or rules written as conditions, a lean path (PlainTricksPhase, or
        FilteredTricksPhase with an `allowed`); with escape cards, `until` or announcements but printed suits and
        fixed rules that follow suit (no `suit`, `trump_exempt`, `must_beat` or rule written as a condition),
        LeanTricksPhase; else this one."""
        if cls is not TricksPhase or varying or spec.get("must_beat"):
            return cls
        if "trump_exempt" in spec or "suit" in spec:
            return cls
        if any(key in spec for key in ("escape", "until")) or announcements:
            return LeanTricksPhase if spec.get("follow", True) is True else cls
        return FilteredTricksPhase if "allowed" in spec else PlainTricksPhase

    # -- flow -----------------------------------------------------------------------------------------------------
    def start(self, st) -> None:
        players = list(self.players(st))
        leader = self.leader(st)
        if leader not in players:
            raise self.not_a_player(st, leader, players)
        trump = self.trump(st)
        escape = self.escape_cards(st)
        suits = self.suit_rule.values(st, trump) if self.suit_rule is not None else None
        st.ph = TrickProgress(players, leader, trump, self.count(st) if self.count else None, escape,
                              self.strength.values(st, trump, suits) if self.strength else None,
                              self.card_points.values(st, trump, suits) if self.card_points else None,
                              self.orders_for(players), suits)
        key = (trump, *escape)
        event = self.start_events.get(key)
        if event is None:
            if len(self.start_events) >= PER_CARD_MEMO:
                self.start_events.clear()
            event = self.start_events[key] = Event("tricks", None, tuple(escape), trump, phase=self.id)
        st.events.append(event)
        self.begin_trick(st)

    def not_a_player(self, st, leader, players: list) -> SpecRuntimeError:
        """The located error of a first `leader` who is not one of the phase's `players`."""
        return SpecRuntimeError(f"phase {self.id!r}: the leader ({st.game.seat_name(leader, st.n)}) is not one of the players "
                                f"({', '.join(st.game.seat_name(s, st.n) for s in players) or 'none'})",
                                self.location, "`leader` must give one of the seats of `players` (default: active)",
                                self.source_line)

    def progress_of(self, values: dict) -> "TrickProgress":
        """The phase's progress read back from a saved state's dict (`Phase.progress_of`)."""
        return TrickProgress.of(values)

    def begin_trick(self, st) -> None:
        ph = st.ph
        ph.trick = trick = []
        ph.by = by = []
        total = ph.total
        if total is not None and ph.no >= total:
            ph.over = True
            return
        if self.until is not None and self.until(st):
            ph.over = True
            return
        players = ph.players
        zones, hands = st.zones, st.zone_ids[self.hand]
        for seat in players:
            if zones[hands[seat]]:
                break
        else:  # no card left to play
            ph.over = True
            return
        leader = ph.leader
        lead_from = self.lead_from
        if lead_from is not None:  # an empty zone leads nothing: its `when` is not asked then
            zone = st.zones[st.zone_ids[lead_from.zone][0]]
            if zone and with_locals(st, {"trick_no": ph.no + 1}, lead_from.when):
                card = zone.pop()
                trick.append(card)
                by.append(ZONE_SEAT)
                st.events.append(Event("lead", None, (card,), lead_from.zone, phase=self.id))
                if lead_from.then is not None:
                    leader = lead_from.then(st)
        order = ph.order
        if not order or order[0] != leader:  # (a leader leading again keeps the order: it never changes in place)
            orders = ph.orders
            order = None if orders is None else orders.get(leader)
            if order is None:
                k = players.index(leader)
                order = players[k:] + players[:k]
                if orders is not None:
                    orders[leader] = order
            ph.order = order
        ph.turn = 0
        if self.varying:
            self.work_out_rules(st)

    def work_out_rules(self, st) -> None:
        """The follow rules of the trick about to start, when some are expressions; logged when they change."""
        ph = st.ph
        fixed = dict(zip(RULES, self.fixed_rules()))
        varying = self.varying

        def each(ctx) -> tuple:
            return tuple(bool(varying[key](ctx)) if key in varying else fixed[key] for key in RULES)
        rules = with_locals(st, {"trick_no": ph.no + 1}, each)
        if ph.rules is None or tuple(ph.rules) != rules:
            st.events.append(Event("rules", None, (), rules, phase=self.id))
        ph.rules = rules

    def orders_for(self, players: list) -> dict:
        """The orders of play by leader for `players` ({leader: the seats from the leader on}, filled as leaders
        come), shared by every deal with the same players: an order is a list never changed in place."""
        key = tuple(players)
        orders = self.rotations.get(key)
        if orders is None:
            if len(self.rotations) >= ORDERS_MEMO:
                self.rotations.clear()
            orders = self.rotations[key] = {}
        return orders

    def escape_cards(self, st) -> list:
        """The cards the `escape` condition marks, worked out once when the phase starts."""
        escape = self.escape
        if escape is None:
            return []

        def marked(ctx):
            loc = ctx.loc
            out = []
            for c in range(len(st.game.deck)):
                loc["card"] = c
                if escape(ctx):
                    out.append(c)
            return out
        def work() -> list:
            return with_locals(st, {"card": None}, marked)
        return work() if self.escape_memo is None else self.escape_memo.values(st, None, work)

    def actor(self, st) -> int | None:
        ph = st.ph
        return ph.order[ph.turn]

    def held(self, st) -> list:
        return st.ph.trick

    def done(self, st) -> bool:
        return st.ph.over

    # -- applying ---------------------------------------------------------------------------------------------------
    def apply(self, st, move: Move) -> bool:
        """Play the card (or make the announcement) of `move`; whether the phase is now done."""
        return self.play(st, move, [])  # (its log entry goes to a list nobody keeps: the caller logs moves)

    def play(self, st, move: Move, history: list) -> bool:
        """`Phase.play` in one body: log the move in `history`, then play the card (or make the announcement) of
        `move`; whether the phase is now done."""
        ph = st.ph
        order, turn = ph.order, ph.turn
        seat = order[turn]
        if self.announcements:  # the move may be one, and a card clears those said before it
            if move.kind == "option":
                history.append([st.deal_no, seat, self.notation(st, move)])
                self.announce(st, seat, move.value)
                if self.until is not None and not ph.trick and self.until(st):
                    ph.over = True  # (at a lead: nothing is left in play)
                elif self.varying:
                    self.work_out_rules(st)  # (what it did may change them: closing a stock)
                return ph.over
            if ph.said:
                ph.said = []
        card = move.value
        history.append([st.deal_no, seat, st.game.deck.codes[card]])  # (a card's notation: its code, as `notation`)
        st.zones[st.zone_ids[self.hand][seat]].remove(card)
        ph.trick.append(card)
        ph.by.append(seat)
        try:
            event = self.play_events[seat][card]
        except IndexError:  # the seat's first card with this phase: its row is built
            event = self.play_event(len(st.game.deck), seat, card)
        st.events.append(event)
        if ph.first:
            ph.first = False
            if self.after_first is not None:
                self.after_first(st)
        turn += 1
        ph.turn = turn
        if turn == len(order):
            self.end_trick(st)
            return ph.over
        return False

    def play_event(self, deck_size: int, seat: int, card: int) -> Event:
        """The event of `seat` playing `card`, from a table built with the seat's first card and then shared by every
        deal (an event is never changed once logged): a card played allocates no record."""
        rows = self.play_events
        while len(rows) <= seat:
            rows.append([Event("play", len(rows), (c,), None, None, self.id) for c in range(deck_size)])
        return rows[seat][card]

    def trick_event(self, winner: int | None, no: int) -> Event:
        """The event of trick `no` won by `winner` (None: nobody), built the first time and then shared by every
        deal, as `play_event`'s are."""
        row = self.trick_events.setdefault(winner, [])
        while len(row) <= no:
            row.append(Event("trick", winner, (), len(row), None, self.id))
        return row[no]

    def announce(self, st, seat: int, name: str) -> None:
        call, values = self.call_of(st.game.deck, name)
        st.ph.said.append(name)
        st.events.append(Event("call", seat, value=name, phase=self.id))
        if call.do is not None:
            with_locals(st, self.call_locals(st, seat, values), call.do)

    def call_locals(self, st, seat: int, values: dict) -> dict:
        """The locals an announcement's expressions see: `me`, `trick_no`, the trick's `cards`, its parameters."""
        ph = st.ph
        return {"me": seat, "trick_no": ph.no + 1, "cards": list(ph.trick), **values}

    def bot_score(self, st, seat: int, name: str):
        """How much the heuristic bot likes making an announcement (its `bots` expression; 0 without one)."""
        call, values = self.call_of(st.game.deck, name)
        return 0 if call.bots is None else with_locals(st, self.call_locals(st, seat, values), call.bots)

    def call_label(self, ctx, seat: int | None, name: str) -> str:
        """How announcement `name` reads (its label; with `for:` parameters, its label template filled in)."""
        call, values = self.call_of(ctx.game.deck, name)
        if call.template is None:
            return call.label if not call.params else name
        return with_locals(ctx, {"me": seat, **values}, lambda c: call.template.render(c, True))

    def end_trick(self, st) -> None:
        ph = st.ph
        winner = self.winner(st)
        no = ph.no = ph.no + 1
        trick = ph.trick
        lead_from = self.lead_from
        then = lead_from.then if lead_from is not None and ph.by[0] == ZONE_SEAT else None  # led from a zone
        if winner is not None:
            target = st.zones[st.zone_ids[self.won][winner]]
        elif self.unclaimed:
            target = st.zones[st.zone_ids[self.unclaimed][0]]
        else:
            target = st.zones[st.zone_ids[self.won][ph.order[0]]]
        target.extend(trick)
        try:
            event = self.trick_events[winner][no]
        except (KeyError, IndexError):
            event = self.trick_event(winner, no)
        st.events.append(event)
        on_trick = self.on_trick
        if on_trick is not None and winner is not None:
            loc = st.loc
            if loc:  # something is bound already: bind beside it and restore it afterwards
                with_locals(st, self.trick_values(st, winner), on_trick)
            else:  # the common case: bind the locals straight into the empty mapping, then clear it
                try:
                    if self.basic_locals:
                        loc["winner"], loc["trick_no"] = winner, no
                    else:
                        self.bind_trick_values(loc, st, winner)
                    on_trick(st)
                finally:
                    loc.clear()
        if then is not None:  # after a trick led from a zone, its `then` plays first
            ph.leader = then(st)
        elif winner is not None:
            ph.leader = winner
        self.begin_trick(st)

    def trick_values(self, st, winner: int) -> dict:
        """The locals `on_trick` sees for the trick just finished: those its text (and its defines) may read."""
        values: dict = {}
        self.bind_trick_values(values, st, winner)
        return values

    def bind_trick_values(self, values: dict, st, winner: int) -> None:
        """Put the `trick_values` into `values`."""
        ph = st.ph
        no = ph.no
        values["winner"], values["trick_no"] = winner, no
        if self.basic_locals:
            return
        need = self.trick_locals
        trick, by = ph.trick, ph.by
        if "players" in need or "leader" in need:
            players = list(by) if by[0] != ZONE_SEAT else [None] + by[1:]  # a zone's card can only lead
            values["players"], values["leader"] = players, players[0]
        if "cards" in need:
            values["cards"] = list(trick)
        if "last" in need:
            total = ph.total
            values["last"] = (total is not None and no >= total) or not self.any_cards(st)
        if "trick_points" in need:
            points = ph.points or st.game.deck.points
            values["trick_points"] = sum(points[c] for c in trick)

    def describe(self, st, move: Move) -> str:
        if move.kind == "option":
            ph = st.ph
            return self.call_label(st, ph.order[ph.turn] if ph.order else None, move.value)
        return super().describe(st, move)

    def prompt(self, st) -> str:
        ph = st.ph
        trump = f" (trumps: {st.game.suit_label(ph.trump)})" if ph.trump is not None else " (no trumps)"
        if not ph.trick:
            return f"trick {ph.no + 1}{trump}: your lead"
        return f"trick {ph.no + 1}{trump}: your card"


class LeanTricksPhase(TricksPhase):
    """A `tricks` phase with escape cards, `until` or announcements whose follow rules are fixed and read the
    printed suits (`follow`, and no `suit`, `trump_exempt`, `must_beat` or rule written as a condition; the choice
    is made when it compiles): the cards its rules allow in one pass with no checks for the others (`playable`),
    the winner by each card's power when it is of the deck's rank order. The tests compare it with the rules
    written out plainly at every card of seeded deals."""

    __slots__ = ()

    def winner(self, st) -> int | None:
        """`TricksPhase.winner`, by card powers (`by_power`) when a player's card that is no escape card leads in
        the deck's rank order."""
        ph = st.ph
        if ph.strength is None and ph.by[0] != ZONE_SEAT and not (ph.escape and ph.trick[0] in ph.escape):
            return self.by_power(st)
        return super().winner(st)

    def playable(self, st, hand: list) -> list:
        """`TrickLegality.playable` in card order for these rules: on a trick under way, the cards of the suit led
        (its first card not an escape card) or, void, the trumps if `must_trump` (`overtrump`: those above the
        best trump played, if any), else the whole hand; the escape cards in hand always."""
        ph = st.ph
        trick, esc = ph.trick, ph.escape
        if not trick:
            return sorted(hand)
        led = trick[0]
        free = None  # the escape cards in hand (None: none)
        if esc:
            if led in esc:
                for led in trick:
                    if led not in esc:
                        break
                else:  # only escape cards so far: a free lead
                    return sorted(hand)
            for card in esc:
                if card in hand:
                    free = [c for c in esc if c in hand]
                    break
        deck = st.game.deck
        same = (self.suit_mates or self.mates_table(deck))[led].intersection(hand)
        if free:
            same = same.difference(free)
        trump = ph.trump
        if same:
            cards = self.over_trumped(st, same) if deck.suit_of[led] == trump else same
        elif self.must_trump and trump is not None:
            cards = (self.by_suit or self.suit_cards(deck)).get(trump, NO_CARDS).intersection(hand)
            if free:
                cards = cards.difference(free)
            if not cards:
                return sorted(hand)
            cards = self.over_trumped(st, cards)
        else:
            return sorted(hand)
        return sorted([*cards, *free]) if free else sorted(cards)


class PlainTricksPhase(TricksPhase):
    """A `tricks` phase with no `escape`, `allowed`, `trump_exempt` or `announcements` (the choice is made when it
    compiles): its legal moves take a lean path with no checks for those, the rules of `playable` inlined. The
    tests compare it with the rules written out plainly at every card of seeded deals."""

    __slots__ = ()

    def legal(self, st) -> list:
        ph = st.ph
        trick = ph.trick
        hand = st.zones[st.zone_ids[self.hand][ph.order[ph.turn]]]
        if trick and self.follow:
            same = (self.suit_mates or self.mates_table(st.game.deck))[trick[0]].intersection(hand)
            if same:
                if self.overtrump and st.game.deck.suit_of[trick[0]] == ph.trump:
                    return self.listed(st, self.over_trumped(st, same))
                known = self.move_lists.get(same)  # (`listed`, its common case inlined)
                return list(known) if known is not None else self.listed(st, same)
            trump = ph.trump
            if self.must_trump and trump is not None:
                trumps = (self.by_suit or self.suit_cards(st.game.deck)).get(trump, NO_CARDS).intersection(hand)
                if trumps:
                    return self.listed(st, self.over_trumped(st, trumps))
        return list(map(st.game.card_moves.__getitem__, sorted(hand)))

    def listed(self, st, cards) -> list:
        """The moves playing `cards` (a set of them, or a list), in card order: for a set, remembered (a player
        following suit holds one of a few subsets of the suit, so the same sets come again and again)."""
        if type(cards) is not frozenset:
            moves = st.game.card_moves
            return [moves[c] for c in sorted(cards)]
        known = self.move_lists.get(cards)
        if known is None:
            if len(self.move_lists) >= MOVE_LIST_MEMO:
                self.move_lists.clear()
            moves = st.game.card_moves
            known = self.move_lists[cards] = tuple([moves[c] for c in sorted(cards)])
        return list(known)

    def winner(self, st) -> int | None:
        """`TricksPhase.winner` with no escape card to pass over."""
        ph = st.ph
        trick, by = ph.trick, ph.by
        if by[0] == ZONE_SEAT:
            return self.rare_winner(st)
        deck = st.game.deck
        if ph.strength is None:  # the deck's rank order: each card's power looked up (`by_power`, inlined)
            powers = self.powers.get((ph.trump, deck.suit_of[trick[0]])) or \
                self.power_table(deck, (ph.trump, deck.suit_of[trick[0]]))
            values = list(map(powers.__getitem__, trick))
            return by[values.index(max(values))]  # (the first of equal powers, as the loop below)
        suit_of, rank_of, trump = deck.suit_of, ph.strength, ph.trump
        card = trick[0]
        best, best_suit, best_rank = 0, suit_of[card], rank_of[card]
        i = 0
        for card in trick:  # (the first card is passed over: it does not beat itself)
            suit = suit_of[card]
            if suit == best_suit:
                rank = rank_of[card]
                if rank > best_rank:
                    best, best_rank = i, rank
            elif suit == trump:
                best, best_suit, best_rank = i, suit, rank_of[card]
            i += 1
        return by[best]


class FilteredTricksPhase(PlainTricksPhase):
    """A `tricks` phase with an `allowed` condition and no `escape`, `trump_exempt` or `announcements`: the cards
    the follow rules allow, then the spec's `allowed` filter over them (`permitted`, in one body); the trick won
    as PlainTricksPhase wins it."""

    __slots__ = ()

    def legal(self, st) -> list:
        ph = st.ph
        seat = ph.order[ph.turn]
        hand = st.zones[st.zone_ids[self.hand][seat]]
        cards = self.plain_followed(st, hand) if ph.trick and self.follow else sorted(hand)
        if self.allowed_args is not None and cards:  # the filter takes its locals as arguments: nothing to bind
            kept = self.allowed_args(st, seat, ph.no + 1, list(ph.trick), cards) or cards
            return list(map(st.game.card_moves.__getitem__, kept))
        loc, allowed = st.loc, self.allowed
        if loc or not cards or allowed is None:  # a caller's locals bound already, or no card: as `permitted` does
            kept = self.permitted(st, seat, cards)
        else:  # the common case: bound straight into the empty mapping, then cleared
            try:
                loc["me"], loc["trick_no"], loc["cards"], loc[ITEMS] = seat, ph.no + 1, list(ph.trick), cards
                kept = allowed(st) or cards  # (`permitted`: all of them when it allows none)
            finally:
                loc.clear()
        return list(map(st.game.card_moves.__getitem__, kept))

    def plain_followed(self, st, hand: list) -> list:
        """`playable` on a trick under way with `follow` and no escape card: PlainTricksPhase.legal's rules, as a
        sorted list of cards."""
        ph = st.ph
        led = ph.trick[0]
        same = (self.suit_mates or self.mates_table(st.game.deck))[led].intersection(hand)
        if same:
            if self.overtrump and st.game.deck.suit_of[led] == ph.trump:
                return sorted(self.over_trumped(st, same))
            return sorted(same)
        trump = ph.trump
        if self.must_trump and trump is not None:
            trumps = (self.by_suit or self.suit_cards(st.game.deck)).get(trump, NO_CARDS).intersection(hand)
            if trumps:
                return sorted(self.over_trumped(st, trumps))
        return sorted(hand)
