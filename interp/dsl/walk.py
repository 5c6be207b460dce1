"""The expression compiler's walk over a parse tree, which its parts (operators, calls, loops) extend:
dispatch by rule name within the limits (limits), located failures and hints for unknown names, type
expectations, and the joining of compiled parts' code (fuse). `expr.Compiler` puts the parts together."""
from __future__ import annotations

import difflib
from contextlib import contextmanager
from typing import NoReturn

from interp.dsl import types as T
from interp.dsl.fuse import code_of, fits, namespace
from interp.dsl.limits import MAX_NESTING, MAX_PARTS, _Nesting
from interp.dsl.nodes import Tree
from interp.dsl.parse import SourceRef
from interp.dsl.runtime import MAX_LOOP_STEPS, Steady
from interp.dsl.scope import Compiled, Scope
from interp.errors import DSLNameError, DSLSyntaxError, SpecRuntimeError

_METHODS: dict = {}  # a tree node's rule name -> the Compiler method that compiles it


class TreeCompiler:
    """The walk shared by the expression compiler's parts: each parse-tree node goes to the method named after
    its rule (`e_<rule>`), counted against the nesting and parts limits; located failures, type expectations,
    and the joining of parts' code into one expression (fuse). Locals are tracked with their types."""

    def __init__(self, scope: Scope, source: SourceRef, locals_: dict | None = None, macro_stack: tuple = ()):
        self.scope = scope
        self.source = source
        self.locals: dict = dict(locals_ or {})
        self.macro_stack = macro_stack
        self.steady: Steady | None = None  # inside a statement loop: what its body may assign (runtime.Steady)
        self.ns = namespace(scope.shared)  # where the functions joined from parts' code find their names (fuse)

    # -- helpers --------------------------------------------------------------------------------------------
    def fail(self, node, message: str, hint: str | None = None, cls=DSLNameError) -> NoReturn:
        raise self.error_at(node, message, hint, cls)()

    def error_at(self, node, message: str, hint: str | None = None, cls=SpecRuntimeError):
        """A factory of the located error for `node`, for closures that find the mistake at run time."""
        source, offset = self.source, _offset(node)
        return lambda: source.error(cls, message, offset, hint)

    def loop_limit(self, node):
        return self.error_at(node, f"this loop passed the limit of {MAX_LOOP_STEPS:,} steps in one evaluation",
                             "nested loops multiply: loop over fewer things, or compute in steps")

    def nested(self, node):
        """Count one level of nesting and one part against the limits (a located error past them)."""
        if _Nesting.depth == 0:
            _Nesting.parts = 0
        _Nesting.parts += 1
        if _Nesting.parts > MAX_PARTS:
            self.too_many_parts(node)
        if _Nesting.depth >= MAX_NESTING:
            self.too_deep(node)

    def too_many_parts(self, node) -> NoReturn:
        through = f" (through the defines {', '.join(self.macro_stack)})" if self.macro_stack else ""
        self.fail(node, f"this expression has more than {MAX_PARTS:,} parts once defines are inlined"
                  f"{through}", "a define used twice in each of many defines doubles each time: "
                  "compute the value once, in a var")

    def too_deep(self, node) -> NoReturn:
        self.fail(node, f"this expression nests more than {MAX_NESTING} levels deep",
                  "split it into defines, or use a flat chain (a + b + c, if … else if …)")

    def expect(self, node, compiled: Compiled, wanted: str, what: str) -> Compiled:
        if not T.assignable(compiled.type, wanted):
            self.fail(node, f"{what} must be {_a(wanted)}, not {_a(compiled.type)}")
        return compiled

    @contextmanager
    def level(self, node):
        """One level deeper into the tree, within the nesting and parts limits."""
        self.nested(node)
        _Nesting.depth += 1
        try:
            yield
        finally:
            _Nesting.depth -= 1

    def expr(self, node) -> Compiled:
        if isinstance(node, str):  # a token
            self.fail(node, f"unexpected token {node}", cls=DSLSyntaxError)
        self.nested(node)  # what `level` does, inline: this runs for every node of every expression
        _Nesting.depth += 1
        if _Nesting.depth > _Nesting.peak:
            _Nesting.peak = _Nesting.depth
        try:
            name = _METHODS.get(node.data)
            if name is None:
                name = _METHODS[node.data] = "e_" + node.data.rstrip("_")
            method = getattr(self, name, None)
            if method is None:
                if len(node.children) == 1:
                    return self.expr(node.children[0])
                self.fail(node, f"unsupported construct {node.data}", cls=DSLSyntaxError)
            return method(node)
        finally:
            _Nesting.depth -= 1

    def joined(self, code: str, t: str, domain: frozenset | None = None, requires: tuple = (),
               zone: bool = False) -> Compiled | None:
        """An expression made of its parts' code (fuse), or None when the source would be too big for one
        function (the caller then joins the parts' closures)."""
        if not fits(code):
            return None
        return Compiled(None, t, domain, zone, requires=requires, code=code, ns=self.ns)

    def code(self, part: Compiled) -> str:
        return code_of(part, self.ns)


    def compiler(self, source: SourceRef, locals_: dict, macro_stack: tuple) -> TreeCompiler:
        """A new expression compiler over this one's scope (for a define's text, say), always the whole
        expression compiler (`expr.Compiler`), also where this one compiles statements."""
        raise NotImplementedError  # expr.Compiler says which class that is

    def inner(self) -> TreeCompiler:
        """A compiler of an expression inside this one (a `with` body, a loop's body and filter): the same source
        and defines under way, and a copy of this one's locals for it to add to."""
        return self.compiler(self.source, self.locals, self.macro_stack)

    def unknown(self, node, name: str, what: str = "name") -> NoReturn:
        """Fail for a name that is not in scope, saying why when the scope forbids it."""
        reason = self.scope.forbidden.get(name)
        if reason is not None:
            self.fail(node, reason, "declare it under facts:, or compute it from facts in a define")
        self.fail(node, f"unknown {what} '{name}'", self.suggest(name))

    def suggest(self, name: str) -> str:
        known = list(self.locals) + list(self.scope.symbols) + list(self.scope.macros) + list(self.scope.functions)
        close = difflib.get_close_matches(name, known, n=3)
        if close:
            return "did you mean " + " or ".join(f"'{c}'" for c in close) + "?"
        return "names come from the spec's vars, zones, sheet columns, options and defines, or the built-ins"



def _args(node) -> list:
    if node is None:
        return []
    return list(node.children) if isinstance(node, Tree) and node.data == "args" else [node]


def _offset(node) -> int:
    if isinstance(node, str):  # a token
        return node.start_pos or 0  # type: ignore[attr-defined]
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return meta.start_pos
    for child in getattr(node, "children", ()):
        if child is not None:
            return _offset(child)
    return 0


def _a(t: str) -> str:
    article = "an" if t[0] in "aeiou" else "a"
    return f"{article} {t}"
