"""`interp validate` and `interp rules`: a spec file checked (a sample deal per player count) or summarised."""
from __future__ import annotations

from typing import TYPE_CHECKING

from interp.cli import common
from interp.cli.common import EXIT_SPEC, say_error

if TYPE_CHECKING:
    from rich.console import Console



def cmd_validate(args, console: Console) -> int:
    from interp.errors import InterpError
    failed = 0
    for path in args.files:
        try:
            game = common.load_game(path)
            sample_deals(game)
        except InterpError as exc:
            failed += 1
            say_error(exc.format())
            continue
        counts = "/".join(map(str, game.players))
        console.print(f"ok  {path}: {game.name} — {counts} players, {len(game.deck)} cards, "
                      f"{len(game.phases)} phases, {len(game.options)} options")
    return EXIT_SPEC if failed else 0


def sample_deals(game) -> None:
    """Play one random deal per allowed player count, so runtime mistakes surface in `validate`."""
    import random

    from interp.engine import match as engine
    from interp.errors import InterpError, SpecError
    for n in game.players:
        st = engine.new_match(game, n, 0)
        rng = random.Random(0)
        steps = 0
        while not st.deal_over:
            moves = engine.legal_moves(st)
            if not moves:
                phase = engine.current_phase(st)
                raise SpecError(f"with {n} players a sample deal reached phase {phase.id!r} with no legal move",
                                phase.location, "check the phase's counts and conditions", phase.source_line)
            engine.apply(st, rng.choice(moves), check=False)
            steps += 1
            if steps > 100000:
                raise InterpError(f"{game.path}: a sample deal with {n} players never ends")
        check_facts(st, n)


def check_facts(st, n: int) -> None:
    """The facts of a sample deal (not a void one) must meet their limits: a SpecError at the limit broken."""
    from interp.engine.facts import broken_limit
    from interp.errors import SpecError
    if st.deals and st.deals[-1].get("redeal"):
        return
    broken = broken_limit(st)
    if broken is None:
        return
    decl, message, key = broken
    where, line = decl.limits.places.get(key, (None, None))
    limit = f"facts.{decl.name}." + (key if isinstance(key, str) else f"check[{key}]")
    raise SpecError(f"with {n} players a sample deal broke a limit of fact '{decl.name}': {message}", where,
                    f"the deal was played by the rules: if they allow it, change {limit} (a variant may)", line)


def cmd_rules(args, console: Console) -> int:
    from interp.table import rules_text
    game = common.load_game(args.file)
    for line in rules_text.summary(game):
        console.print(line)
    if game.facts:
        asked = ", ".join(f.name for f in game.facts)
        console.print(f"Facts (what `interp score` asks): {asked}")
    return 0
