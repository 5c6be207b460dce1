"""The names a spec declares, stage by stage into the scope: players, options, the deck and its built-in names,
zones, vars, sheet columns and defines."""
from __future__ import annotations

import re
from fractions import Fraction

from interp.dsl import types as T
from interp.dsl.calls import closest
from interp.dsl.compile import Macro, SourceRef, Symbol, parse
from interp.dsl.expr import compile_define
from interp.engine.builtins import FUNCTIONS
from interp.engine.cards import Deck
from interp.engine.game import ColumnDecl, VarDecl, ZoneDecl
from interp.spec.symbols import capped_setter, column_symbol, option_getter, var_symbol, with_domain
from interp.spec.texts import SpecDSL, type_of

_DEFINE_KEY = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)?\s*\))?\s*$")

def player_counts(c: SpecDSL) -> tuple:
    spec = c.data.get("players", {"default": 2})
    allowed = tuple(spec.get("allowed", [spec["default"]]))
    if spec["default"] not in allowed:
        raise c.error(f"default player count {spec['default']} is not among allowed {list(allowed)}",
                         ("players", "default"), "add it to players.allowed")
    return spec["default"], allowed


def option_decls(c: SpecDSL) -> dict:
    options = c.data.get("options", {}) or {}
    for name, decl in options.items():
        if isinstance(decl["default"], float):
            decl = options[name] = dict(decl, default=Fraction(str(decl["default"])))
        values = decl.get("values")
        if values is not None:
            c.scalars(("options", name, "values"), type_of(decl["default"]))
        if values is not None and decl["default"] not in values:
            raise c.error(f"option {name}: default {decl['default']!r} is not one of its values {values}",
                             ("options", name, "default"))
        c.symbols[name] = Symbol(name, type_of(decl["default"]), get=option_getter(name),
                                    domain=frozenset(values) if values and isinstance(values[0], str) else None,
                                    doc=decl.get("doc", ""), code=f"ctx.options[{name!r}]")
    return options


def build_deck(c: SpecDSL) -> Deck:
    deck = Deck.build(c.data["deck"])
    seen = set()
    for i, code in enumerate(deck.codes):
        if code.upper() in seen:
            raise c.error(f"two cards have the code {code}", ("deck",), "card codes must be unique")
        seen.add(code.upper())
    points_keys(c, deck)
    return deck


def points_keys(c: SpecDSL, deck: Deck) -> None:
    """Every key of `deck.points` names a card code, a rank or `other`: a misspelt code (`DJ` for `JD`) would
    leave the rule unapplied, so it is refused at the key, with the nearest names."""
    names = {str(code) for code in deck.codes} | {str(rank) for rank in c.data["deck"].get("ranks", [])} | {"other"}
    for key in (c.data["deck"].get("points") or {}):
        if str(key) not in names:
            close = closest(str(key), names)
            raise c.doc.key_error(f"deck.points: no card or rank {str(key)!r} in the deck", ("deck", "points", key),
                                  ("did you mean " + " or ".join(close) + "?") if close else
                                  "keys are card codes (a rank and a suit code: QS), ranks, or other")


def base_symbols(c: SpecDSL, deck: Deck) -> None:
    def sym(name, t, get, doc, code=None):
        if name in c.symbols:
            raise c.doc.key_error(f"'{name}' is already a name (a built-in)", ("options", name),
                                     "give the option another name")
        c.symbols[name] = Symbol(name, t, get=get, doc=doc, code=code)
    sym("seats", T.list_of(T.SEAT), lambda ctx: list(range(ctx.n)), "every seat, in play order from seat 0")
    sym("n_players", T.INT, lambda ctx: ctx.n, "the number of players", "ctx.n")
    sym("dealer", T.SEAT, lambda ctx: ctx.dealer, "the dealer of this deal", "ctx.dealer")
    sym("active", T.list_of(T.SEAT), lambda ctx: ctx.active,
        "the seats dealt in, in play order from the dealer's left", "ctx.active")
    sym("deal_no", T.INT, lambda ctx: ctx.deal_no, "the number of this deal, from 1", "ctx.deal_no")
    sym("bids", T.list_of(T.BID), lambda ctx: ctx.game.bids, "the bid ladder, lowest first")
    suits = frozenset(deck.suits)
    # suit() also gives the suit codes of extra cards (trumps written as extras, say)
    c.scope.functions["suit"] = with_domain(FUNCTIONS["suit"], suits | frozenset(deck.suit_of))
    if "suits" in c.symbols:
        raise c.doc.key_error("'suits' is already a name (a built-in)", ("options", "suits"),
                                 "give the option another name")
    c.scope.domains[T.CARD] = frozenset(code.upper() for code in deck.codes)  # what card("…") may name
    c.symbols["suits"] = Symbol("suits", T.list_of(T.STR), get=lambda ctx: ctx.game.deck.suits,
                                   domain=suits, doc="the suit codes, in the deck's order")


def zone_decls(c: SpecDSL) -> list:
    zones = []
    for name, decl in (c.data.get("zones", {}) or {}).items():
        c.check_free(name, ("zones", name))
        zones.append(ZoneDecl(name, bool(decl.get("per_seat", False)), decl.get("visible", "none"),
                              decl.get("label", name)))
    return zones


def zone_shown(c: SpecDSL, zones: list) -> None:
    """`visible: top` zones show everyone their top card, or the cards a `shown` expression lists."""
    for zone in zones:
        decl = c.data["zones"][zone.name] or {}
        if "shown" in decl:
            if zone.visible != "top" or zone.per_seat:
                raise c.error("`shown` is for shared zones with visible: top", ("zones", zone.name, "shown"))
            zone.shown = c.expr(("zones", zone.name, "shown"), "list[card]")


def zone_symbol(c: SpecDSL, zone: ZoneDecl) -> None:
    name = zone.name
    if zone.per_seat:
        def get(ctx, seat):
            return ctx.zones[ctx.game._bases(ctx.n)[name] + seat]
        c.symbols[name] = Symbol(name, T.list_of(T.CARD), (T.SEAT,), get=get, zone=True,
                                 code=f"ctx.zones[ctx.zone_ids[{name!r}][{{}}]]")
    else:
        def get0(ctx):
            return ctx.zones[ctx.game._bases(ctx.n)[name]]
        c.symbols[name] = Symbol(name, T.list_of(T.CARD), get=get0, zone=True,
                                 code=f"ctx.zones[ctx.zone_ids[{name!r}][0]]")


def var_decls(c: SpecDSL) -> dict:
    decls = {}
    for name, spec in (c.data.get("vars", {}) or {}).items():
        path = ("vars", name)
        c.check_free(name, path)
        t = T.parse_type(str(spec["type"]))
        if t is None:
            raise c.error(f"unknown type {spec['type']!r}", path + ("type",),
                             "types: int, num, bool, str, seat, card, bid, list[…], list[list[…]]")
        values = frozenset(c.scalars(path + ("values",), t)) if "values" in spec else None
        default = spec.get("default", spec["values"][0] if "values" in spec else _zero(t))
        if "default" in spec and (isinstance(default, dict) or not T.assignable(type_of(default), t)):
            hint = f"a {t} var starts as none: leave out default" if t in T.NULLABLE else \
                f"write a default of type {t}"
            raise c.error(f"default {default!r} is not a {t}", path + ("default",), hint)
        if values is not None and not (all(x in values for x in default) if isinstance(default, list)
                                       else default in values):
            raise c.error(f"default {default!r} is not one of the values", path + ("default",))
        decl = VarDecl(name, t, bool(spec.get("per_seat", False)), values, default, spec.get("scope", "deal"),
                       spec.get("visible", "all"))
        decls[name] = decl
        c.symbols[name] = var_symbol(decl)
    return decls


def sheet_columns(c: SpecDSL) -> dict:
    columns = {}
    for name, spec in (c.data.get("sheet", {}) or {}).items():
        c.check_free(name, ("sheet", name))
        col = ColumnDecl(name, spec.get("per", "seat"), spec.get("label", name))
        columns[name] = col
        c.symbols[name] = column_symbol(col)
    for name, spec in (c.data.get("sheet", {}) or {}).items():
        col = columns[name]
        if "cap" in spec:
            if col.per != "seat":
                raise c.error("only per-seat columns can have a cap", ("sheet", name, "cap"))
            col.cap = c.expr(("sheet", name, "cap"), "num")
            c.symbols[name].set = capped_setter(col)
            c.symbols[name].only_itself = False
            over = spec.get("overflow", {}) or {}
            base = ("sheet", name, "overflow")
            wa = {"writer": ("seat", None), "amount": ("num", None)}
            col.overflow_to = c.expr(base + ("to",), "seat", wa) if "to" in over else None
            col.overflow_do = c.stmts(base + ("do",), dict(wa, receiver=("seat", None))) \
                if "do" in over else None
            col.overflow_else = c.stmts(base + ("else",), wa) if "else" in over else None
    return columns


def declare_defines(c: SpecDSL) -> None:
    """`define:` entries into the scope's macros (all of them first: a define may use one written below it), then
    each compiled once where it is declared, so that its mistakes surface even if it is unused."""
    defines = c.data.get("define", {}) or {}
    names = []
    for key in defines:
        m = _DEFINE_KEY.match(str(key))
        if not m:
            raise c.error(f"bad define name {key!r}", ("define", key), "write name or name(a, b)")
        name = m.group(1)
        c.check_free(name, ("define", key))
        params = tuple(p.strip() for p in m.group(2).split(",")) if m.group(2) else ()
        c.scope.macros[name] = Macro(name, params, str(defines[key]), SourceRef(c.doc, ("define", key)))
        names.append(name)
    for name in names:
        macro = c.scope.macros[name]
        if not macro.params:
            compile_define(name, c.scope, {"me": (T.SEAT, None)})
        else:
            parse(macro.text, "expr", macro.source)


def _zero(t: str):
    return {T.INT: 0, T.NUM: 0, T.BOOL: False}.get(t, [] if T.is_list(t) else None)
