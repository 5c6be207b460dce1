"""What a DSL compile runs against and produces: the names in scope (symbols, built-in functions, defines,
record fields) and a compiled expression (closure, type, domain)."""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Callable

from interp.dsl.fuse import function

Fn = Callable[[Any], Any]


@dataclass
class Symbol:
    """A name a spec can read (and maybe assign): a variable, a zone, a sheet column, a constant."""

    name: str
    type: str
    index: tuple = ()
    _: KW_ONLY
    get: Callable[..., Any]  # get(ctx, *indices)
    set: Callable[..., Any] | None = None  # set(ctx, value, *indices)
    domain: frozenset | None = None
    zone: bool = False
    doc: str = ""
    only_itself: bool = True  # assigning it writes this name only (a capped column's overflow may write others)
    # Python source reading it (fuse): `ctx.vars['taker']`, or with `{}` for each index (`ctx.vars['call'][{}]`)
    code: str | None = None


@dataclass
class Function:
    """A whitelisted built-in: parameter types, a result type (or a rule for it) and an implementation."""

    name: str
    params: tuple
    returns: Any  # a type, or a callable(arg_types) -> type
    impl: Callable  # impl(ctx, *args)
    min_args: int | None = None
    effect: bool = False  # statement-only (changes the state)
    doc: str = ""
    domain: Any = None  # callable(arg_domains) -> domain, for str results
    zone_args: tuple = ()  # positions of arguments that must be zones (effects move cards there)
    static: bool = False  # the result depends on the game and the arguments only, never on the state of play
    at_id: Callable | None = None  # `impl` taking the zone arguments' ids in place of the zones, for joined code
    # that knows them (a zone read as `ctx.zones[id]`): no search of the zones for the one given
    names: str | None = None  # a type whose names (scope.domains) a string argument must be: `card` takes a card
    # code, checked at compile time when the argument is a literal or has known values (letter case aside)
    python: str | None = None  # a Python built-in computing the same from the arguments alone (`len`): the joined
    # code calls it in place of `impl` (fuse.HELPERS has it under this name)
    table: tuple | None = None  # (the deck's per-card table `impl` reads, its value for none): the joined code
    # reads the table in place of calling `impl` when the card is a name (`suit(c)`: `deck.suit_of[c]`)

    def result(self, arg_types: list) -> str:
        return self.returns(arg_types) if callable(self.returns) else self.returns


@dataclass
class Macro:
    """A spec-level `define`: a named expression, maybe with parameters, inlined per call site."""

    name: str
    params: tuple
    text: str
    source: Any  # a SourceRef for errors


@dataclass
class Scope:
    symbols: dict
    functions: dict = field(default_factory=dict)
    macros: dict = field(default_factory=dict)
    records: dict = field(default_factory=dict)  # type -> {field: (type, domain)}
    domains: dict = field(default_factory=dict)  # type -> names a string literal may compare to (e.g. bid)
    forbidden: dict = field(default_factory=dict)  # name -> why it may not be used here
    # defines compiled once for the places that use them alike: (name, local and argument types) -> SharedDefine;
    # ("names", name) -> the names its text mentions, following the defines it uses
    shared: dict = field(default_factory=dict)


@dataclass(frozen=True)
class SharedDefine:
    """A define compiled once for the places that use it alike (the same argument types and local types), and
    what its compile counted against the limits, charged again at every place that uses it."""

    compiled: "Compiled"
    parts: int
    depth: int


class Compiled:
    """A compiled expression: its closure `fn` (ctx -> value), its type and domain, and what later stages may
    use: `zone` (it is a zone, not a computed list), `const`, `local` (the local name it only reads, e.g.
    `trick_no`), `requires` ((local, value) pairs that must all hold for this condition to be true:
    `trick_no == 1 and x` requires trick_no == 1; a phase may skip the condition where one fails) and `card_of` (a
    card-tabled define's use on a local, `is_trump(c)`: that local, the define's table and how a value missing
    from it is worked out, runtime.card_lookup; a filter on the local may look the table up in place).

    `code`: the same expression as Python source over `ctx`, its names bound in `ns` (fuse). A parent joins
    its parts' code into its own, so that `a and b == c` runs as one function, not one closure per part; `fn` is
    made from the code (by `eval`, once) only when something calls this expression on its own."""

    __slots__ = ("_fn", "type", "domain", "zone", "const", "local", "requires", "card_of", "code", "ns")

    def __init__(self, fn: Fn | None, type: str, domain: frozenset | None = None, zone: bool = False,
                 const: bool = False, local: str | None = None, requires: tuple = (), card_of: tuple | None = None,
                 *, code: str | None = None, ns: dict | None = None):
        self._fn = fn
        self.type, self.domain, self.zone, self.const, self.local = type, domain, zone, const, local
        self.requires, self.card_of = requires, card_of
        self.code, self.ns = code, ns

    @property
    def fn(self) -> Fn:
        if self._fn is None:
            assert self.code is not None and self.ns is not None
            self._fn = function(self.code, self.ns)
        return self._fn
