"""What a DSL compile runs against and produces: the names in scope (symbols, built-in functions, defines,
record fields) and a compiled expression (closure, type, domain)."""
from __future__ import annotations

from dataclasses import KW_ONLY, dataclass, field
from typing import Any, Callable

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


@dataclass
class Compiled:
    fn: Fn
    type: str
    domain: frozenset | None = None
    zone: bool = False
    const: bool = False
    local: str | None = None  # the local name this expression only reads (e.g. `trick_no`)
    # (local name, value) pairs that must all hold for this condition to be true: `trick_no == 1 and x`
    # requires trick_no == 1. A phase may skip evaluating the condition where one fails (tricks' announcements).
    requires: tuple = ()
    # a card-tabled define's use on a local (`is_trump(c)`): that local, the define's table and how a value missing
    # from it is worked out (dslruntime.card_lookup); a filter on the local may look the table up in place
    card_of: tuple | None = None

