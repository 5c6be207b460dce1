"""Compile a loaded, schema-checked spec into an immutable Game, checking every name, type and reference.

>>> game = load_game("docs/examples/tiny.yaml")
>>> game.name, len(game.deck), game.players, [p.type_name for p in game.phases]
('Tiny Tricks', 24, (2,), ['deal', 'tricks', 'effects'])
"""
from __future__ import annotations

import itertools
import math
import re
from fractions import Fraction
from typing import Any

from . import dsltypes as T
from .builtins import FUNCTIONS
from .cards import Deck
from .dsl import (Compiler, Macro, Scope, ShiftedSource, SourceRef, Symbol, compile_expr, compile_stmts, guarded,
                  parse)
from .dslruntime import counted
from .errors import SpecError
from .factchecks import compile_fact_limits
from .game import Bid, ColumnDecl, DisplayItem, FactDecl, Game, VarDecl, ZoneDecl
from .loader import Document, load_spec
from .resources import spec_path
from .symbols import capped_setter, column_symbol, option_getter, var_symbol, with_domain
from .phases.auction import AuctionPhase
from .phases.context import PhaseContext
from .phases.choose import ChoosePhase
from .phases.deal import DealPhase
from .phases.declare import DeclarePhase
from .phases.discard import DiscardPhase
from .phases.effects import EffectsPhase
from .phases.tricks import TricksPhase
from .phases.turns import TurnsPhase

PHASE_TYPES = {cls.type_name: cls for cls in (DealPhase, AuctionPhase, ChoosePhase, DiscardPhase, EffectsPhase,
                                              DeclarePhase, TricksPhase, TurnsPhase)}
MAX_BIDS = 1000
_DEFINE_KEY = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)?\s*\))?\s*$")


def load_game(path: str) -> Game:
    """Load, schema-check and compile a spec file, or a shipped game by name (`resources.spec_path`); raises
    SpecError with a location on any mistake."""
    from .schema import check_schema
    doc = load_spec(spec_path(path))
    check_schema(doc)
    return compile_spec(doc)


def load_referenced_game(doc: Document, key: tuple) -> Game:
    """The game another file names at `key` (a scenario's `spec:`), resolved relative to that file and checked
    like `extends:` (a regular spec file of bounded size; a file that is not a spec is never quoted)."""
    from .loader import load_referenced
    from .schema import check_schema
    spec = load_referenced(doc, key)
    check_schema(spec)
    return compile_spec(spec)


class SpecCompiler:
    """Builds the scope (names a spec may use) section by section, then compiles the phases against it."""

    def __init__(self, doc: Document):
        self.doc = doc
        self.data = doc.data
        self.symbols: dict = {}
        self.scope = Scope(self.symbols, dict(FUNCTIONS), {}, {}, {})
        self.bid_names: list = []
        self.gotos: dict = {}

    def error(self, message: str, path, hint: str | None = None) -> SpecError:
        return self.doc.error(message, tuple(path), hint)

    # -- DSL helpers ------------------------------------------------------------------------------------------------
    def expr(self, path: tuple, want: str | None = None, locals_: dict | None = None, scope: Scope | None = None):
        text = self.doc.get(path)
        if isinstance(text, bool) or text is None:
            text = str(text).lower()
        fn, _ = compile_expr(str(text), scope or self.scope, want, SourceRef(self.doc, path), locals_)
        return fn

    def typed_expr(self, path: tuple, locals_: dict | None = None, scope: Scope | None = None):
        text = str(self.doc.get(path))
        source = SourceRef(self.doc, path)
        compiled = Compiler(scope or self.scope, source, locals_).expr(parse(text, "expr", source))
        return guarded(compiled.fn, source), compiled.type, compiled.domain

    def stmts(self, path: tuple, locals_: dict | None = None, scope: Scope | None = None):
        """A statement block: a string (`;`-separated), or a list of strings and {if/then/else} or {for/do}."""
        value = self.doc.get(path)
        scope = scope or self.scope
        locals_ = dict(locals_ or {})
        if isinstance(value, str):
            return compile_stmts(value, scope, SourceRef(self.doc, path), locals_)
        if not isinstance(value, list):
            raise self.error("statements are a string or a list of strings", path)
        parts = [self.block(path + (i,), locals_, scope) for i in range(len(value))]

        def run(ctx):
            for part in parts:
                part(ctx)
        return guarded(parts[0] if len(parts) == 1 else run, SourceRef(self.doc, path))

    def block(self, path: tuple, locals_: dict, scope: Scope):
        item = self.doc.get(path)
        if isinstance(item, str):
            return compile_stmts(item, scope, SourceRef(self.doc, path), locals_)
        if isinstance(item, dict) and "if" in item:
            test = self.expr(path + ("if",), "bool", locals_, scope)
            then = self.stmts(path + ("then",), locals_, scope) if "then" in item else (lambda ctx: None)
            other = self.stmts(path + ("else",), locals_, scope) if "else" in item else None
            if other is None:
                return lambda ctx: then(ctx) if test(ctx) else None
            return lambda ctx: then(ctx) if test(ctx) else other(ctx)
        if isinstance(item, dict) and "for" in item:
            return self.for_block(path, item, locals_, scope)
        if isinstance(item, dict) and "do" in item:  # a named block: {name: …, do: […]} (variants merge by name)
            return self.stmts(path + ("do",), locals_, scope)
        raise self.error("a statement is a string, {if: …, then: […]}, {for: 'x in list', do: […]} or "
                         "{name: …, do: […]}", path)

    def for_block(self, path: tuple, item: dict, locals_: dict, scope: Scope):
        m = re.match(r"^\s*([A-Za-z_]\w*)\s+in\s+(.+)$", str(item["for"]), re.S)
        if not m:
            raise self.error("write for: 'name in list'", path + ("for",))
        var, coll_text = m.group(1), m.group(2)
        offset = m.start(2)
        shifted = ShiftedSource(self.doc, path + ("for",), offset)
        compiled = Compiler(scope, shifted, locals_).expr(parse(coll_text, "expr", shifted))
        if not T.is_list(compiled.type):
            raise self.doc.error(f"'for' needs a list, not {compiled.type}", path + ("for",), offset=offset)
        inner = dict(locals_, **{var: (T.element(compiled.type), compiled.domain)})
        body = self.stmts(path + ("do",), inner, scope)
        coll = counted(guarded(compiled.fn, shifted), Compiler(scope, shifted).loop_limit(None))

        def loop(ctx):
            loc = ctx.loc
            saved = loc.get(var)
            for v in coll(ctx):
                loc[var] = v
                body(ctx)
            loc[var] = saved
        return loop

    def number(self, path: tuple, value: Any):
        """An int given literally or as a DSL expression."""
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise self.error("expected a whole number or an expression", path)
        if isinstance(value, int):
            return lambda ctx: value
        return self.expr(path, "int")

    def scalars(self, path: tuple, t: str) -> list:
        """The list at `path`, checked to hold plain values of type `t` (a var's or option's `values`)."""
        values = self.doc.get(path)
        for i, value in enumerate(values):
            if isinstance(value, (list, dict)) or not T.assignable(_type_of(value), t):
                raise self.error(f"{value!r} is not {'an' if t[0] in 'aeiou' else 'a'} {t}", path + (i,),
                                 f"list the {t} values this may take")
        return values

    # -- sections ----------------------------------------------------------------------------------------------------
    def compile(self) -> Game:
        data = self.data
        players = self.players()
        options = self.options()
        deck = self.deck()
        self.base_symbols(deck)
        zones = self.zones()
        for zone in zones:
            self.zone_symbol(zone)
        var_decls = self.vars()
        bids = self.bids(deck)
        columns = self.columns()
        self.defines()
        self.zone_shown(zones)
        phases = self.phases()
        facts = self.facts(var_decls)
        scoring = self.scoring(facts) if "scoring" in data else None
        match = data.get("match", {}) or {}
        match_end = self.expr(("match", "end"), "bool") if "end" in match else None
        result = self.expr(("match", "result"), "num", {"s": ("seat", None)}) if "result" in match else None
        standing = self.expr(("match", "standing"), "num", {"s": ("seat", None)}) if "standing" in match else None
        bots = self.bots_check(phases)
        sit_out = self.expr(("sit_out",), "list[seat]") if "sit_out" in data else None
        game = Game(
            path=self.doc.path, name=str(data.get("name", self.doc.path)), players=players[1],
            default_players=players[0], options=options, deck=deck, zones=zones, vars=var_decls, bids=bids,
            columns=columns, phases=phases, scoring=scoring, facts=facts, match_end=match_end, result=result,
            standing=standing,
            result_label=str(match.get("result_label", "result")), sit_out=sit_out,
            first_dealer=match.get("first_dealer", 0), seat_names=list(data.get("seat_names", [])),
            bots=bots, defines=self.scope.macros, scope=self.scope,
            description=str(data.get("description", "")),
            stats={name: self.expr(("stats", name)) for name in (data.get("stats") or {})},
            gotos=self.gotos, zero_sum=bool(match.get("zero_sum", False)), status=self.status(),
            running=self.status("running"),
            end_now=self.expr(("match", "end_now"), "bool") if "end_now" in match else None,
            agreed_end=self.stmts(("match", "agreed_end")) if "agreed_end" in match else None,
            breakdown=self.breakdown(facts))
        return game

    def status(self, key: str = "status", scope: Scope | None = None) -> list:
        """`display.<key>`: each label's expression, or mapping {value, when, visible}, as a DisplayItem."""
        out = []
        for label, entry in ((self.data.get("display") or {}).get(key) or {}).items():
            path = ("display", key, label)
            value = path + ("value",) if isinstance(entry, dict) else path
            fn, type_, _ = self.typed_expr(value, None, scope)
            if key == "running" and not T.is_list(type_):
                raise self.error(f"a running count has one value per seat (a list, e.g. a per-seat var), not "
                                 f"{type_}", value, "write a per-seat var, or [expression for s in seats]")
            if not isinstance(entry, dict):
                out.append(DisplayItem(label, fn, type_))
                continue
            when = self.expr(path + ("when",), "bool", scope=scope) if "when" in entry else None
            out.append(DisplayItem(label, fn, type_, when, str(entry.get("visible", "all"))))
        return out

    def breakdown(self, facts: list) -> list:
        """`display.result`: labelled expressions shown with each deal's result; like scoring, they read facts."""
        return self.status("result", self.fact_scope(facts, "display.result"))

    def players(self) -> tuple:
        spec = self.data.get("players", {"default": 2})
        allowed = tuple(spec.get("allowed", [spec["default"]]))
        if spec["default"] not in allowed:
            raise self.error(f"default player count {spec['default']} is not among allowed {list(allowed)}",
                             ("players", "default"), "add it to players.allowed")
        return spec["default"], allowed

    def options(self) -> dict:
        options = self.data.get("options", {}) or {}
        for name, decl in options.items():
            if isinstance(decl["default"], float):
                decl = options[name] = dict(decl, default=Fraction(str(decl["default"])))
            values = decl.get("values")
            if values is not None:
                self.scalars(("options", name, "values"), _type_of(decl["default"]))
            if values is not None and decl["default"] not in values:
                raise self.error(f"option {name}: default {decl['default']!r} is not one of its values {values}",
                                 ("options", name, "default"))
            self.symbols[name] = Symbol(name, _type_of(decl["default"]), get=option_getter(name),
                                        domain=frozenset(values) if values and isinstance(values[0], str) else None,
                                        doc=decl.get("doc", ""))
        return options

    def deck(self) -> Deck:
        deck = Deck.build(self.data["deck"])
        seen = set()
        for i, code in enumerate(deck.codes):
            if code.upper() in seen:
                raise self.error(f"two cards have the code {code}", ("deck",), "card codes must be unique")
            seen.add(code.upper())
        return deck

    def base_symbols(self, deck: Deck) -> None:
        def sym(name, t, get, doc):
            if name in self.symbols:
                raise self.doc.key_error(f"'{name}' is already a name (a built-in)", ("options", name),
                                         "give the option another name")
            self.symbols[name] = Symbol(name, t, get=get, doc=doc)
        sym("seats", T.list_of(T.SEAT), lambda ctx: list(range(ctx.n)), "every seat, in play order from seat 0")
        sym("n_players", T.INT, lambda ctx: ctx.n, "the number of players")
        sym("dealer", T.SEAT, lambda ctx: ctx.dealer, "the dealer of this deal")
        sym("active", T.list_of(T.SEAT), lambda ctx: ctx.active,
            "the seats dealt in, in play order from the dealer's left")
        sym("deal_no", T.INT, lambda ctx: ctx.deal_no, "the number of this deal, from 1")
        sym("bids", T.list_of(T.BID), lambda ctx: ctx.game.bids, "the bid ladder, lowest first")
        suits = frozenset(deck.suits)
        # suit() also gives the suit codes of extra cards (trumps written as extras, say)
        self.scope.functions["suit"] = with_domain(FUNCTIONS["suit"], suits | frozenset(deck.suit_of))
        if "suits" in self.symbols:
            raise self.doc.key_error("'suits' is already a name (a built-in)", ("options", "suits"),
                                     "give the option another name")
        self.symbols["suits"] = Symbol("suits", T.list_of(T.STR), get=lambda ctx: ctx.game.deck.suits,
                                       domain=suits, doc="the suit codes, in the deck's order")

    def zones(self) -> list:
        zones = []
        for name, decl in (self.data.get("zones", {}) or {}).items():
            self.check_free(name, ("zones", name))
            zones.append(ZoneDecl(name, bool(decl.get("per_seat", False)), decl.get("visible", "none"),
                                  decl.get("label", name)))
        return zones

    def zone_shown(self, zones: list) -> None:
        """`visible: top` zones show everyone their top card, or the cards a `shown` expression lists."""
        for zone in zones:
            decl = self.data["zones"][zone.name] or {}
            if "shown" in decl:
                if zone.visible != "top" or zone.per_seat:
                    raise self.error("`shown` is for shared zones with visible: top", ("zones", zone.name, "shown"))
                zone.shown = self.expr(("zones", zone.name, "shown"), "list[card]")

    def zone_symbol(self, zone: ZoneDecl) -> None:
        name = zone.name
        if zone.per_seat:
            def get(ctx, seat):
                return ctx.zones[ctx.game._bases(ctx.n)[name] + seat]
            self.symbols[name] = Symbol(name, T.list_of(T.CARD), (T.SEAT,), get, zone=True)
        else:
            def get0(ctx):
                return ctx.zones[ctx.game._bases(ctx.n)[name]]
            self.symbols[name] = Symbol(name, T.list_of(T.CARD), (), get0, zone=True)

    def check_free(self, name: str, path: tuple) -> None:
        if name in self.symbols or name in self.scope.macros:
            raise self.doc.key_error(f"'{name}' is already a name (built-in or declared earlier)", path,
                                     "choose another name")

    def vars(self) -> dict:
        decls = {}
        for name, spec in (self.data.get("vars", {}) or {}).items():
            path = ("vars", name)
            self.check_free(name, path)
            t = T.parse_type(str(spec["type"]))
            if t is None:
                raise self.error(f"unknown type {spec['type']!r}", path + ("type",),
                                 "types: int, num, bool, str, seat, card, bid, list[…]")
            values = frozenset(self.scalars(path + ("values",), t)) if "values" in spec else None
            default = spec.get("default", spec["values"][0] if "values" in spec else _zero(t))
            if "default" in spec and (isinstance(default, dict) or not T.assignable(_type_of(default), t)):
                hint = f"a {t} var starts as none: leave out default" if t in T.NULLABLE else \
                    f"write a default of type {t}"
                raise self.error(f"default {default!r} is not a {t}", path + ("default",), hint)
            if values is not None and not (all(x in values for x in default) if isinstance(default, list)
                                           else default in values):
                raise self.error(f"default {default!r} is not one of the values", path + ("default",))
            decl = VarDecl(name, t, bool(spec.get("per_seat", False)), values, default, spec.get("scope", "deal"),
                           spec.get("visible", "all"))
            decls[name] = decl
            self.symbols[name] = var_symbol(decl)
        return decls

    def bids(self, deck: Deck) -> list:
        spec = self.data.get("bids")
        if not spec:
            return []
        fields = {k: T.parse_type(str(v)) for k, v in (spec.get("fields", {}) or {}).items()}
        for k, t in fields.items():
            if t is None:
                raise self.error(f"unknown type for bid field {k}", ("bids", "fields", k))
        entries = []
        for i, entry in enumerate(spec["ladder"]):
            entries.extend(self.ladder_entries(("bids", "ladder", i), entry, fields, deck))
            if len(entries) > MAX_BIDS:
                raise self.error(f"the ladder has more than {MAX_BIDS:,} bids", ("bids", "ladder", i),
                                 "a ladder lists each bid a player may make")
        bids, names = [], set()
        for index, (name, label, values, path) in enumerate(entries):
            if name in names:
                raise self.error(f"bid {name} appears twice in the ladder", path, "each rung needs its own name")
            names.add(name)
            bids.append(Bid(index, name, label, {**values, "name": name}))
        self.bid_names = [b.name for b in bids]
        self.scope.records[T.BID] = {"name": (T.STR, frozenset(names)), **{k: (t, None) for k, t in fields.items()}}
        self.scope.domains[T.BID] = frozenset(names)
        return bids

    def ladder_entries(self, path: tuple, entry: dict, fields: dict, deck: Deck) -> list:
        combos = [{}]
        if "each" in entry:
            keys = list(entry["each"])
            size = math.prod(len(entry["each"][k]) for k in keys)
            if size > MAX_BIDS:
                raise self.error(f"this rung's `each` makes {size:,} bids (at most {MAX_BIDS:,} in a ladder)",
                                 path + ("each",), "a ladder lists each bid a player may make")
            combos = [dict(zip(keys, vals)) for vals in itertools.product(*(entry["each"][k] for k in keys))]
        out = []
        for combo in combos:
            values = {k: v for k, v in entry.items() if k not in ("each", "name", "label")}
            values.update(combo)
            missing = [k for k in fields if k not in values]
            extra = [k for k in values if k not in fields]
            if missing or extra:
                raise self.error(f"bid fields {'missing: ' + ', '.join(missing) if missing else ''}"
                                 f"{' unknown: ' + ', '.join(extra) if extra else ''}".strip(), path,
                                 "declare every field in bids.fields and give each rung all of them")
            for k, t in fields.items():
                if not T.assignable(_type_of(values[k]), t):
                    raise self.error(f"bid field {k} must be {t}, got {values[k]!r}", path)
            default_name = "".join(str(combo[k]) for k in combo) if combo else None
            try:
                name = str(entry["name"]).format(**values) if "name" in entry else default_name
            except (KeyError, IndexError, ValueError) as exc:
                raise self.error(f"the name template {entry['name']!r} uses an unknown field {exc}", path + ("name",),
                                 "templates use the rung's fields, e.g. \"{level}{strain}\"") from None
            if name is None:
                raise self.error("a ladder rung needs a name", path)
            label = _label(str(entry.get("label", name)), values, deck)
            out.append((name, label, values, path))
        return out

    def columns(self) -> dict:
        columns = {}
        for name, spec in (self.data.get("sheet", {}) or {}).items():
            self.check_free(name, ("sheet", name))
            col = ColumnDecl(name, spec.get("per", "seat"), spec.get("label", name))
            columns[name] = col
            self.symbols[name] = column_symbol(col)
        for name, spec in (self.data.get("sheet", {}) or {}).items():
            col = columns[name]
            if "cap" in spec:
                if col.per != "seat":
                    raise self.error("only per-seat columns can have a cap", ("sheet", name, "cap"))
                col.cap = self.expr(("sheet", name, "cap"), "num")
                self.symbols[name].set = capped_setter(col)
                over = spec.get("overflow", {}) or {}
                base = ("sheet", name, "overflow")
                wa = {"writer": ("seat", None), "amount": ("num", None)}
                col.overflow_to = self.expr(base + ("to",), "seat", wa) if "to" in over else None
                col.overflow_do = self.stmts(base + ("do",), dict(wa, receiver=("seat", None))) \
                    if "do" in over else None
                col.overflow_else = self.stmts(base + ("else",), wa) if "else" in over else None
        return columns

    def defines(self) -> None:
        defines = self.data.get("define", {}) or {}
        for key in defines:
            m = _DEFINE_KEY.match(str(key))
            if not m:
                raise self.error(f"bad define name {key!r}", ("define", key), "write name or name(a, b)")
            name = m.group(1)
            self.check_free(name, ("define", key))
            params = tuple(p.strip() for p in m.group(2).split(",")) if m.group(2) else ()
            self.scope.macros[name] = Macro(name, params, str(defines[key]), SourceRef(self.doc, ("define", key)))
        for key in defines:  # compile each once so mistakes surface even if unused
            name = _DEFINE_KEY.match(str(key)).group(1)
            macro = self.scope.macros[name]
            if not macro.params:
                compile_expr(macro.text, self.scope, None, macro.source, {"me": (T.SEAT, None)})
            else:
                parse(macro.text, "expr", macro.source)

    def phases(self) -> list:
        phases, ids = [], set()
        for i, spec in enumerate(self.data.get("phases", [])):
            path = ("phases", i)
            kind = spec.get("type")
            if kind not in PHASE_TYPES:
                raise self.error(f"unknown phase type {kind!r}", path + ("type",),
                                 "phase types: " + ", ".join(sorted(PHASE_TYPES)))
            if spec["id"] in ids:
                raise self.error(f"two phases have the id {spec['id']!r}", path + ("id",), "ids must be unique")
            ids.add(spec["id"])
            phase = PHASE_TYPES[kind].compile(spec, PhaseContext(self, path))
            phase.location = self.doc.where(path)
            phase.source_line = self.doc.line_of(phase.location)
            phases.append(phase)
        if not phases:
            raise self.error("a game needs at least one phase", ("phases",))
        self.gotos = self.phase_gotos(phases)
        return phases

    def phase_gotos(self, phases: list) -> dict:
        """`goto: {phase: id, when: cond}` loops back (or jumps) after a phase when the condition holds."""
        index = {p.id: i for i, p in enumerate(phases)}
        gotos = {}
        for i, spec in enumerate(self.data.get("phases", [])):
            if "goto" not in spec:
                continue
            path = ("phases", i, "goto")
            target = spec["goto"]["phase"]
            if target not in index:
                raise self.error(f"goto names no phase {target!r}", path + ("phase",),
                                 "phase ids: " + ", ".join(index))
            when = self.expr(path + ("when",), "bool") if "when" in spec["goto"] else (lambda ctx: True)
            gotos[spec["id"]] = (index[target], when)
        return gotos

    def facts(self, var_decls: dict) -> list:
        out = []
        for name, spec in (self.data.get("facts", {}) or {}).items():
            path = ("facts", name)
            if name not in var_decls:
                raise self.error(f"fact '{name}' is not a declared var", path, "declare it under vars:")
            spec = spec or {}
            if var_decls[name].per_seat and "seats" not in spec:
                raise self.error(f"fact '{name}' is per seat: say whose values are asked with seats:", path,
                                 "e.g. seats: active")
            when = self.expr(path + ("when",), "bool") if "when" in spec else None
            seats = self.expr(path + ("seats",), "list[seat]") if "seats" in spec else None
            out.append(FactDecl(name, str(spec.get("ask", name)), when, seats))
        compile_fact_limits(self, out)
        return out

    def scoring(self, facts: list):
        """Scoring may read only facts (so the score keeper can run it), the sheet, options and built-ins."""
        return self.stmts(("scoring",), None, self.fact_scope(facts))

    def fact_scope(self, facts: list, what: str = "scoring") -> Scope:
        """The names scoring may read: facts (no other vars, no zones), the sheet, options, built-ins."""
        if not facts:
            return self.scope
        fact_names = {f.name for f in facts}
        forbidden = {n: f"{what} may read only facts, and '{n}' is a var that is not one"
                     for n in (self.data.get("vars", {}) or {}) if n not in fact_names}
        forbidden.update({z: f"{what} may read only facts, and '{z}' is a zone (cards are not facts)"
                          for z in (self.data.get("zones", {}) or {})})
        return Scope({k: v for k, v in self.symbols.items() if k not in forbidden}, self.scope.functions,
                     self.scope.macros, self.scope.records, self.scope.domains, forbidden)

    def bots_check(self, phases: list) -> dict:
        """Compile the bots' spec expressions: a bid limit, trick wish, team, and option preferences."""
        bots = self.data.get("bots", {}) or {}
        me = {"me": (T.SEAT, None)}
        out = {}
        for key, want in (("bid_limit", T.BID), ("wants_tricks", T.BOOL), ("team", T.SEAT)):
            if key in bots:
                out[key] = self.expr(("bots", key), want, me)
        if "card_value" in bots:
            out["card_value"] = self.expr(("bots", "card_value"), T.NUM, dict(me, card=(T.CARD, None)))
        by_id = {p.id: p for p in phases}
        prefs = {}
        for phase_id, options in (bots.get("choose", {}) or {}).items():
            phase = by_id.get(phase_id)
            if phase is None or phase.type_name != "choose":
                raise self.error(f"no choose phase with id {phase_id!r}", ("bots", "choose", phase_id),
                                 "bot preferences are keyed by the id of a choose phase")
            local = dict(me, choice=getattr(phase, "choice_type", (T.ANY, None)))
            known = [o[0] for o in phase.options] + (["choice"] if phase.source is not None else [])
            for opt in options:
                if opt not in known:
                    raise self.error(f"phase {phase_id!r} has no option {opt!r}", ("bots", "choose", phase_id, opt),
                                     "options: " + ", ".join(known))
            prefs[phase_id] = {opt: self.expr(("bots", "choose", phase_id, opt), T.NUM, local)
                               for opt in options}
        out["choose"] = prefs
        return out


def compile_spec(doc: Document) -> Game:
    return SpecCompiler(doc).compile()


# -- symbol factories ------------------------------------------------------------------------------------------------
def _type_of(value) -> str:
    if value is None:
        return T.NONE
    if isinstance(value, bool):
        return T.BOOL
    if isinstance(value, int):
        return T.INT
    if isinstance(value, float):
        return T.NUM
    if isinstance(value, str):
        return T.STR
    return T.ANY


def _zero(t: str):
    return {T.INT: 0, T.NUM: 0, T.BOOL: False}.get(t, [] if T.is_list(t) else None)


def _label(template: str, values: dict, deck: Deck) -> str:
    def sub(m):
        key, sym = m.group(1), m.group(2)
        value = str(values.get(key, m.group(0)))
        return deck.symbols.get(value, value) if sym else value
    return re.sub(r"\{(\w+)(\.symbol)?\}", sub, template)
