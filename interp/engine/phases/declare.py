"""`declare`: combination declarations compared between two players, with the protocol players speak.

For each category in turn (say a point, sequences, sets; trumps shown in a hand) the `leader` declares one of his
combinations or, when `sink` allows, none. A combination is compared by its key, a list of numbers given by the
category's `steps`, and it is declared one step at a time: each step says one number (`say`, a template). The
`follower` answers every step `good` (the leader's is best), `not good` (he holds a better one) or `equal` (the
same so far: the leader says the next step; after the last step the category is equal and nobody scores it). A
player need not declare or compare his best, but an `equal` commits the follower: a later `not good` wins with a
combination matching the numbers said so far, never a different one he did not compare. When the leader declares none, the follower may claim one of his.
The winner scores his combination and, by `extras`, his other ones: `none`, those that do not beat it (`weaker`),
or `all`. `won` statements record each result (locals `category`, `winner`, `points` — an int when every score
is —, `combo`, `combos`); when results are told, and how, is the spec's business (`announce`); with
`claims_public: false` a claim is logged to the claimer only, for the spec to tell later. Without a `follower`
nobody answers: what the leader declares scores at once.

Moves: a step's value (written as its `say` text), a claim (written as the category's `name` text), and the
options `good`, `not good`, `equal` and `pass` (no combination). The phase keeps only public facts in
`state.ph`: the category, the stage, and the numbers said so far.
"""
from __future__ import annotations

from interp.dsl import types as T
from interp.engine.phases.base import Phase, either, with_locals
from interp.engine.phases.turns import Template
from interp.engine.state import Event, Move, others

GOOD, NOT_GOOD, EQUAL, PASS = (Move("option", w) for w in ("good", "not good", "equal", "pass"))
COMBOS = T.list_of(T.list_of(T.CARD))
MEMO = 4096  # remembered hands, at most (the memo is emptied when full)


class Category:
    """A compiled category: its combinations (per seat), the comparison steps, the score of one combination."""

    def __init__(self, cid, label, when, combos, steps, score, sink, extras, name, maxima: tuple = ()):
        self.id, self.label, self.when, self.combos, self.steps = cid, label, when, combos, steps
        self.score, self.sink, self.extras, self.name = score, sink, extras, name
        self.maxima = maxima or (None,) * len(steps)  # per step: its declared `max` (a Bound), or None


def _check_maxima(cat: Category, key: tuple) -> None:
    """A step's number outside its declared `max` is the spec's mistake: say which, where the max is written."""
    for j, (value, bound) in enumerate(zip(key, cat.maxima)):
        if bound is not None:
            bound.check(value, f"category {cat.id!r}: step {j + 1}'s key")


class DeclarePhase(Phase):
    type_name = "declare"

    def __init__(self, pid, when, label, leader, follower, categories, won, claims_public=True):
        super().__init__(pid, when, label)
        self.leader, self.follower, self.categories, self.won = leader, follower, categories, won
        self.claims_public = claims_public
        self.memo: dict = {}  # (category, seat, the state's cards and vars) -> `hand`'s answer

    # -- compiling ------------------------------------------------------------------------------------------------
    @classmethod
    def compile(cls, spec: dict, cc) -> "DeclarePhase":
        me = {"me": (T.SEAT, None)}
        combo = dict(me, combo=(T.list_of(T.CARD), None))
        categories, ids, whole = [], [], True
        for i, cat in enumerate(spec["categories"]):
            path = ("categories", i)
            cid = str(cat["id"])
            if cid in ids:
                raise cc.error(f"two categories have the id {cid!r}", path + ("id",), "category ids must be unique")
            ids.append(cid)
            combos, t, _ = cc.typed_expr(path + ("combos",), me)
            if not T.assignable(t, COMBOS):
                raise cc.error(f"'combos' must give a list of combinations (a list[list[card]]), not a {t}",
                               path + ("combos",), "e.g. runs(hand[me], 3), or [of_suit(hand[me], x) for x in suits]")
            steps = [(cc.expr(path + ("steps", j, "key"), T.NUM, combo),
                      Template.compile(cc, path + ("steps", j, "say"), combo), str(step.get("ask", "equal")))
                     for j, step in enumerate(cat["steps"])]
            score, score_type, _ = cc.typed_expr(path + ("score",), combo)
            if not T.is_number(score_type):
                raise cc.error(f"'score' must give a number, not a {score_type}", path + ("score",))
            whole = whole and score_type == T.INT
            categories.append(Category(
                cid, str(cat.get("label", cid)),
                cc.expr(path + ("when",), T.BOOL) if "when" in cat else None,
                combos, steps, score,
                cc.expr(path + ("sink",), T.BOOL, me) if "sink" in cat else None,
                str(cat.get("extras", "none")),
                Template.compile(cc, path + ("name",), combo) if "name" in cat else None,
                tuple(cc.bound(path + ("steps", j, "max")) for j in range(len(cat["steps"])))))
        won_local = {"category": (T.STR, frozenset(ids)), "winner": (T.SEAT, None),
                     "points": (T.INT if whole else T.NUM, None), "combo": (T.list_of(T.CARD), None),
                     "combos": (COMBOS, None)}
        return cls(spec["id"], cc.when(), spec.get("label", ""), cc.expr("leader", T.SEAT),
                   cc.expr("follower", T.SEAT) if "follower" in spec else None, categories,
                   cc.stmts("won", won_local) if "won" in spec else None, bool(spec.get("claims_public", True)))

    # -- combinations -----------------------------------------------------------------------------------------------
    def hand(self, st, cat: Category, seat: int) -> list:
        """`seat`'s combinations of `cat` as (key, cards), best first (ties keep the spec's order). A pure function
        of the state, asked many times a move: remembered by the state's cards, vars, options, dealer and seats."""
        memo_key = (cat.id, seat, st.dealer, tuple(st.active), tuple(map(tuple, st.zones)), repr(st.vars),
                    repr(st.options))
        found = self.memo.get(memo_key)
        if found is not None:
            return found

        def keyed(ctx) -> list:
            out = []
            for cards in cat.combos(ctx):
                ctx.loc["combo"] = cards
                key = tuple(step[0](ctx) for step in cat.steps)
                _check_maxima(cat, key)
                out.append((key, cards))
            return out
        combos = sorted(with_locals(st, {"me": seat, "combo": None}, keyed), key=lambda kc: kc[0], reverse=True)
        if len(self.memo) >= MEMO:
            self.memo.clear()
        self.memo[memo_key] = combos
        return combos

    def matching(self, st, cat: Category, seat: int, said: list) -> list:
        """`seat`'s combinations whose key starts with the numbers `said`, best first."""
        n, prefix = len(said), tuple(said)
        return [kc for kc in self.hand(st, cat, seat) if kc[0][:n] == prefix]

    def beating(self, st, cat: Category, seat: int) -> tuple:
        """The combination `seat` answers `not good` with: his best one that matches every step he called equal
        and beats the step in play. Having answered `equal` he is committed to those numbers ("Point of five." —
        "Making?" — "Forty-six." — "Not good." credits one of his five-card suits, never a longer one)."""
        ph = st.ph
        j, said = ph["step"], ph["said"]
        return next(kc for kc in self.matching(st, cat, seat, said[:j]) if kc[0][j] > said[j])

    def render(self, st, template, seat: int, cards: list, pretty: bool) -> str:
        return with_locals(st, {"me": seat, "combo": cards}, lambda ctx: template.render(ctx, pretty))

    # -- flow -------------------------------------------------------------------------------------------------------
    def start(self, st) -> None:
        follower = self.follower(st) if self.follower is not None else None
        st.ph = {"leader": self.leader(st), "follower": follower, "cat": -1, "stage": "", "step": 0, "said": [],
                 "text": "", "seat": None, "over": False}
        self.next_category(st)

    def next_category(self, st) -> None:
        """Open the next category that applies: the leader declares, or (holding none) the follower may claim."""
        ph = st.ph
        while True:
            ph["cat"] += 1
            ph["step"], ph["said"], ph["text"] = 0, [], ""
            if ph["cat"] >= len(self.categories):
                ph["over"], ph["seat"], ph["stage"] = True, None, ""
                return
            cat = self.categories[ph["cat"]]
            if cat.when is not None and not cat.when(st):
                continue
            if self.hand(st, cat, ph["leader"]):
                ph["stage"], ph["seat"] = "lead", ph["leader"]
                return
            st.events.append(Event("declare", ph["leader"], value=("none", ph["cat"]), phase=self.id))
            if self.open_claim(st, cat):
                return

    def open_claim(self, st, cat: Category) -> bool:
        ph = st.ph
        if ph["follower"] is None or not self.hand(st, cat, ph["follower"]):
            return False
        ph["stage"], ph["seat"] = "claim", ph["follower"]
        return True

    def actor(self, st) -> int | None:
        return st.ph["seat"]

    def done(self, st) -> bool:
        return st.ph["over"]

    def legal(self, st) -> list:
        ph = st.ph
        cat = self.categories[ph["cat"]]
        stage, j, said = ph["stage"], ph["step"], ph["said"]
        if stage == "lead":
            values = []
            for key, _ in self.matching(st, cat, ph["leader"], said):
                if key[j] not in values:
                    values.append(key[j])
            moves = [Move("say", v) for v in values]
            if j == 0 and (cat.sink is None or with_locals(st, {"me": ph["leader"]}, cat.sink)):
                moves.append(PASS)
            return moves
        if stage == "reply":
            mine = self.matching(st, cat, ph["follower"], said[:j])
            moves = [GOOD]
            if any(key[j] > said[j] for key, _ in mine):
                moves.append(NOT_GOOD)
            if any(key[j] == said[j] for key, _ in mine):
                moves.append(EQUAL)
            return moves
        keys = []
        for key, _ in self.hand(st, cat, ph["follower"]):
            if key not in keys:
                keys.append(key)
        return [Move("claim", k) for k in keys] + [PASS]

    def apply(self, st, move: Move) -> None:
        ph = st.ph
        cat = self.categories[ph["cat"]]
        seat, stage = ph["seat"], ph["stage"]
        self.log(st, seat, move)
        if move.kind == "say":
            ph["text"] = self.describe(st, move)  # what the follower is asked about
            ph["said"] = ph["said"] + [move.value]
            if ph["follower"] is None:
                self.resolve(st, cat, ph["leader"], self.matching(st, cat, ph["leader"], ph["said"])[0])
            else:
                ph["stage"], ph["seat"] = "reply", ph["follower"]
        elif move.kind == "claim":
            self.resolve(st, cat, seat, next(kc for kc in self.hand(st, cat, seat) if kc[0] == move.value))
        elif move == PASS:
            if stage == "lead" and self.open_claim(st, cat):
                return
            self.resolve(st, cat, None, None)
        elif move == GOOD:
            self.resolve(st, cat, ph["leader"], self.matching(st, cat, ph["leader"], ph["said"])[0])
        elif move == NOT_GOOD:
            self.resolve(st, cat, seat, self.beating(st, cat, seat))
        elif ph["step"] + 1 < len(cat.steps):  # equal so far: the leader says the next step
            ph["step"] += 1
            ph["stage"], ph["seat"] = "lead", ph["leader"]
        else:
            self.resolve(st, cat, None, None)

    def resolve(self, st, cat: Category, winner: int | None, best: tuple | None) -> None:
        """`winner` scores `best` (key, cards) and the extras the category allows; then the next category."""
        if winner is not None and best is not None and self.won is not None:
            key, cards = best
            extras = [c for k, c in self.hand(st, cat, winner) if c != cards and
                      (cat.extras == "all" or (cat.extras == "weaker" and k <= key))]
            combos = [cards] + extras
            points = sum(with_locals(st, {"me": winner, "combo": c}, cat.score) for c in combos)
            with_locals(st, {"category": cat.id, "winner": winner, "points": points, "combo": cards,
                             "combos": combos}, self.won)
        self.next_category(st)

    def log(self, st, seat: int, move: Move) -> None:
        """The move's event: the move, its category and step, and the values its text needs; a claim that is not
        public is seen by the claimer only (the others see that a move was made, not which)."""
        ph = st.ph
        record = (move, ph["cat"], ph["step"], self.words_values(st, move))
        if self.claims_public or move.kind != "claim":
            st.events.append(Event("declare", seat, value=record, phase=self.id))
            return
        st.events.append(Event("declare", seat, value=record, audience=(seat,), phase=self.id))
        st.events.append(Event("declare", seat, audience=others(seat, st.n), phase=self.id))

    def words_values(self, st, move: Move):
        """What the text of a `say` or `claim` needs from the state now: its templates' values."""
        ph = st.ph
        cat = self.categories[ph["cat"]]
        if move.kind == "say":
            _, cards = self.matching(st, cat, ph["leader"], ph["said"] + [move.value])[0]
            return self.capture(st, cat.steps[ph["step"]][1], ph["leader"], cards)
        if move.kind == "claim":
            seat = ph["follower"]
            cards = next(c for k, c in self.hand(st, cat, seat) if k == move.value)
            if cat.name is not None:
                return self.capture(st, cat.name, seat, cards)
            return tuple(self.capture(st, step[1], seat, cards) for step in cat.steps)
        return None

    def capture(self, st, template, seat: int, cards: list) -> tuple:
        return with_locals(st, {"me": seat, "combo": cards}, template.capture)

    def event_text(self, ctx, event) -> str | None:
        """`Anne: point of 5`, `Anne: no sequence` (None for the masked side of a private claim)."""
        if event.value is None:
            return None
        who = ctx.game.seat_name(event.seat, ctx.n)
        if event.value[0] == "none":
            return f"{who}: no {self.categories[event.value[1]].label}"
        move, ci, j, values = event.value
        cat = self.categories[ci]
        if move.kind == "say":
            text = cat.steps[j][1].format(ctx, values, True)
        elif move.kind == "claim":
            text = (cat.name.format(ctx, values, True) if cat.name is not None else
                    ", ".join(step[1].format(ctx, v, True) for step, v in zip(cat.steps, values)))
        elif move == EQUAL and j + 1 < len(cat.steps):
            text = cat.steps[j][2]
        elif move == PASS:
            text = f"no {cat.label}"
        else:
            text = move.value
        return f"{who}: {text}"

    # -- text -------------------------------------------------------------------------------------------------------
    def notation(self, st, move: Move) -> str:
        return self.words(st, move, False)

    def describe(self, st, move: Move) -> str:
        return self.words(st, move, True)

    def words(self, st, move: Move, pretty: bool) -> str:
        ph = st.ph
        cat = self.categories[ph["cat"]]
        if move.kind == "say":
            j = ph["step"]
            _, cards = self.matching(st, cat, ph["leader"], ph["said"] + [move.value])[0]
            return self.render(st, cat.steps[j][1], ph["leader"], cards, pretty)
        if move.kind == "claim":
            seat = ph["follower"]
            cards = next(c for k, c in self.hand(st, cat, seat) if k == move.value)
            if cat.name is not None:
                return self.render(st, cat.name, seat, cards, pretty)
            return ", ".join(self.render(st, step[1], seat, cards, pretty) for step in cat.steps)
        if pretty and move == EQUAL and ph["step"] + 1 < len(cat.steps):
            return cat.steps[ph["step"]][2]
        if pretty and move == PASS:
            return f"no {cat.label}"
        return move.value

    def prompt(self, st) -> str:
        ph = st.ph
        cat = self.categories[ph["cat"]]
        if ph["stage"] == "lead":
            return f"{cat.label}: your declaration"
        leader = st.game.seat_name(ph["leader"], st.n)
        if ph["stage"] == "reply":
            return f"{cat.label}: {leader} says “{ph['text']}” — {either([m.value for m in self.legal(st)])}?"
        return f"{cat.label}: {leader} declared none — claim yours?"

    # -- bots -------------------------------------------------------------------------------------------------------
    def bot_choice(self, view, seat: int, moves: list) -> Move:
        """Declare and claim the best, never sink; answer `not good` when better, else `equal` when equal."""
        mine = [m for m in moves if m.kind in ("say", "claim")]
        if mine:
            return max(mine, key=lambda m: m.value)
        for move in (NOT_GOOD, EQUAL, GOOD):
            if move in moves:
                return move
        return moves[0]
