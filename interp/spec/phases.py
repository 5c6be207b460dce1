"""The phases of a spec, each compiled by its phase type, their `goto:` jumps, and the bots' expressions (which
name choose phases)."""
from __future__ import annotations

from interp.dsl import types as T
from interp.engine.phases.auction import AuctionPhase
from interp.engine.phases.choose import ChoosePhase
from interp.engine.phases.context import PhaseContext
from interp.engine.phases.deal import DealPhase
from interp.engine.phases.declare import DeclarePhase
from interp.engine.phases.discard import DiscardPhase
from interp.engine.phases.effects import EffectsPhase
from interp.engine.phases.tricks import TricksPhase
from interp.engine.phases.turns import TurnsPhase
from interp.spec.texts import SpecDSL

PHASE_TYPES = {cls.type_name: cls for cls in (DealPhase, AuctionPhase, ChoosePhase, DiscardPhase, EffectsPhase,
                                              DeclarePhase, TricksPhase, TurnsPhase)}


def compile_phases(c: SpecDSL) -> list:
    phases, ids = [], set()
    for i, spec in enumerate(c.data.get("phases", [])):
        path = ("phases", i)
        kind = spec.get("type")
        if kind not in PHASE_TYPES:
            raise c.error(f"unknown phase type {kind!r}", path + ("type",),
                             "phase types: " + ", ".join(sorted(PHASE_TYPES)))
        if spec["id"] in ids:
            raise c.error(f"two phases have the id {spec['id']!r}", path + ("id",), "ids must be unique")
        ids.add(spec["id"])
        phase = PHASE_TYPES[kind].compile(spec, PhaseContext(c, path))
        location = c.doc.where(path)
        phase.location, phase.source_line = location, c.doc.line_of(location)
        phases.append(phase)
    if not phases:
        raise c.error("a game needs at least one phase", ("phases",))
    c.gotos = phase_gotos(c, phases)
    return phases


def phase_gotos(c: SpecDSL, phases: list) -> dict:
    """`goto: {phase: id, when: cond}` loops back (or jumps) after a phase when the condition holds."""
    index = {p.id: i for i, p in enumerate(phases)}
    gotos = {}
    for i, spec in enumerate(c.data.get("phases", [])):
        if "goto" not in spec:
            continue
        path = ("phases", i, "goto")
        target = spec["goto"]["phase"]
        if target not in index:
            raise c.error(f"goto names no phase {target!r}", path + ("phase",),
                             "phase ids: " + ", ".join(index))
        when = c.expr(path + ("when",), "bool") if "when" in spec["goto"] else (lambda ctx: True)
        gotos[spec["id"]] = (index[target], when)
    return gotos


def bot_expressions(c: SpecDSL, phases: list) -> dict:
    """Compile the bots' spec expressions: a bid limit, trick wish, team, and option preferences."""
    bots = c.data.get("bots", {}) or {}
    me = {"me": (T.SEAT, None)}
    out = {}
    for key, want in (("bid_limit", T.BID), ("wants_tricks", T.BOOL), ("team", T.SEAT)):
        if key in bots:
            out[key] = c.expr(("bots", key), want, me)
    if "card_value" in bots:
        out["card_value"] = c.expr(("bots", "card_value"), T.NUM, dict(me, card=(T.CARD, None)))
    by_id = {p.id: p for p in phases}
    prefs = {}
    for phase_id, options in (bots.get("choose", {}) or {}).items():
        phase = by_id.get(phase_id)
        if phase is None or phase.type_name != "choose":
            raise c.error(f"no choose phase with id {phase_id!r}", ("bots", "choose", phase_id),
                             "bot preferences are keyed by the id of a choose phase")
        local = dict(me, choice=getattr(phase, "choice_type", (T.ANY, None)))
        known = [o[0] for o in phase.options] + (["choice"] if phase.source is not None else [])
        for opt in options:
            if opt not in known:
                raise c.error(f"phase {phase_id!r} has no option {opt!r}", ("bots", "choose", phase_id, opt),
                                 "options: " + ", ".join(known))
        prefs[phase_id] = {opt: c.expr(("bots", "choose", phase_id, opt), T.NUM, local)
                           for opt in options}
    out["choose"] = prefs
    return out
