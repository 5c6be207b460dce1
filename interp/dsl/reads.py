"""What a DSL expression reads: the names it mentions, following the defines it uses, and from them whether its
value depends on nothing but the score sheet (and the options and the player count), so that the engine may
reuse a value it worked out for the same sheet.

>>> from interp.spec.compiler import load_game
>>> game = load_game("docs/examples/tiny.yaml")
>>> sorted(read_names(parse("score[s] - score[opponent(s)]", "expr"), game.defines))
['s', 'score']
>>> from_sheet_only("score[s] - score[opponent(s)]", game)
True
>>> from_sheet_only("score[s] + taken[s]", game)
False
"""
from __future__ import annotations

import re

from interp.dsl.nodes import Tree, is_name
from interp.dsl.parse import parse

WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
GAME_CONSTANTS = frozenset({"seats", "n_players", "bids", "suits"})  # fixed for a game and a player count


def names_in(tree, macros: dict, seen: set | None = None) -> set:
    """Every name a parse tree mentions, following defines (which see the locals where they are used)."""
    seen = set() if seen is None else seen
    names = {str(t) for t in tree.scan_values(is_name)} \
        if isinstance(tree, Tree) else ({str(tree)} if is_name(tree) else set())
    for name in list(names):
        if name in macros and name not in seen:
            seen.add(name)
            names |= names_in(parse(macros[name].text, "expr", macros[name].source), macros, seen)
    return names


def words_in(value, macros: dict) -> set:
    """Every word of a spec value (its strings at any depth: a statement block with its if/for parts) and of the
    defines those words name, and theirs: a superset of the names the value may read, string literals included.

    >>> sorted(words_in(["x += 1", {"if": "f(y)", "then": "z = 'w'"}], {}))
    ['f', 'w', 'x', 'y', 'z']
    """
    words: set = set()
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif item is not None:
            found = set(WORD.findall(str(item))) - words
            words |= found
            todo.extend(macros[w].text for w in found if w in macros)
    return words


def read_names(tree, macros: dict) -> set:
    """The names an expression reads as values (not the functions it calls), following the defines it reads or
    calls into their bodies."""
    return _names_and_calls(tree, macros)[0] - set(macros)


def _names_and_calls(tree, macros: dict, seen: set | None = None) -> tuple[set, set]:
    """The names an expression reads and the functions and aggregates it calls, with those of every define it
    reads or calls (each define followed once)."""
    seen = set() if seen is None else seen
    names: set = set()
    called: set = set()
    for node in tree.iter_subtrees() if isinstance(tree, Tree) else ():
        if node.data == "name":
            names.add(str(node.children[0]))
        elif node.data in ("call", "aggregate"):
            called.add(str(node.children[0]))
    for name in (names | called) & set(macros):
        if name not in seen:
            seen.add(name)
            more_names, more_called = _names_and_calls(parse(macros[name].text, "expr", macros[name].source),
                                                       macros, seen)
            names |= more_names
            called |= more_called
    return names, called


def free_names(tree, macros: dict, bound: frozenset = frozenset()) -> set:
    """The names an expression reads that none of its own parts bind (a loop's variable, a `with` name, a
    define's parameters), following the defines it uses: those see the locals of the place they are used, so
    a name bound around a define's use is not free in it either.

    >>> sorted(free_names(parse("sum(x + y for x in xs) + (with z = 1: z + w)", "expr"), {}))
    ['w', 'xs', 'y']
    """
    if not isinstance(tree, Tree):
        return set()
    kind, children = tree.data, tree.children
    if kind == "name":
        name = str(children[0])
        if name in bound:
            return set()
        if name in macros:
            return free_names(parse(macros[name].text, "expr", macros[name].source), macros, bound)
        return {name}
    if kind in ("comprehension", "aggregate"):
        body, var, coll, cond = children[-4:]
        inner = bound | {str(var)}
        return free_names(coll, macros, bound) | free_names(body, macros, inner) | free_names(cond, macros, inner)
    if kind == "with_":
        bound_name, value, body = children
        return free_names(value, macros, bound) | free_names(body, macros, bound | {str(bound_name)})
    names: set = set()
    if kind == "call":
        called = str(children[0])
        if called in macros and called not in bound:
            macro = macros[called]
            names = free_names(parse(macro.text, "expr", macro.source), macros, bound | set(macro.params))
    for child in children:
        names |= free_names(child, macros, bound)
    return names


def calls_in(tree, macros: dict) -> set:
    """The built-in functions and aggregates an expression calls, following the defines it uses.

    >>> sorted(calls_in(parse("sum(rank(c) for c in cs) + abs(x)", "expr"), {}))
    ['abs', 'rank', 'sum']
    """
    return _names_and_calls(tree, macros)[1] - set(macros)


def from_sheet_only(text: str, game) -> bool:
    """Whether the expression `text` (already compiled for `game`) reads no state of play but the score sheet:
    every name it reads is a sheet column, an option, a game constant, or none of the spec's symbols (a local such
    as a loop variable or a define's parameter). A local that shares a symbol's name counts as that symbol. A game
    built without its scope of names gives False (nothing is known of what the text reads)."""
    if game.scope is None:
        return False
    symbols = game.scope.symbols
    safe = GAME_CONSTANTS | set(game.columns) | set(game.options)
    return all(name in safe or name not in symbols for name in read_names(parse(text, "expr"), game.defines))
