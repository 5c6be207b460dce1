"""The expression stage of the DSL compiler: parse trees to typed closures, names resolved and types checked at
compile time, within the limits that keep a compiled closure within what Python allows (limits).

`Compiler` is put together from its parts: the walk over the tree (walk), literals and operators
(operators), names, calls and defines (calls), aggregates and comprehensions (loops); here are the string
with `{expression}` holes, `with`, and the entry points. Statements are compiled in stmts."""
from __future__ import annotations

from typing import Callable

from interp.dsl import types as T
from interp.dsl.calls import CallCompiler
from interp.dsl.fuse import guarded_function
from interp.dsl.limits import _Nesting
from interp.dsl.loops import LoopCompiler
from interp.dsl.operators import OperatorCompiler
from interp.dsl.parse import HOLE, ShiftedSource, SourceRef, parse, word
from interp.dsl.runtime import LimitError, call1, display, guard
from interp.dsl.scope import Compiled, Fn, Scope
from interp.errors import SpecRuntimeError


class Compiler(OperatorCompiler, CallCompiler, LoopCompiler):
    """Compiles parse trees to closures against a Scope; locals are tracked with their types."""

    def compiler(self, source: SourceRef, locals_: dict, macro_stack: tuple) -> Compiler:
        return Compiler(self.scope, source, locals_, macro_stack)

    def e_string(self, node) -> Compiled:
        token = node.children[0]
        value = word(str(token)[1:-1])
        if "{" in value or "}" in value:
            return self.interpolated(token, value)
        return Compiled(lambda ctx: value, T.STR, const=True)

    def interpolated(self, token, text: str) -> Compiled:
        """A string with `{expression}` holes (`{{`, `}}` for braces): each hole is compiled here, with the same
        locals, and shown as players read it (cards with suit symbols, seats by name, lists space-separated)."""
        start = getattr(self.source, "offset", 0) + (token.start_pos or 0) + 1
        parts = compile_holes(text, self.scope, self.source.doc, self.source.path, start, self.locals,
                              self.macro_stack)

        def render(ctx):
            return "".join(p if isinstance(p, str) else display(ctx, p[0](ctx), p[1]) for p in parts)
        return Compiled(render, T.STR)

    def e_with(self, node) -> Compiled:
        """`with name = value: body` computes `value` once and names it inside `body`."""
        name, value_node, body_node = word(node.children[0]), node.children[1], node.children[2]
        value = self.expr(value_node)
        inner = self.inner()
        inner.locals[name] = (value.type, value.domain)
        body = inner.expr(body_node)
        fv, fb = value.fn, body.fn
        return Compiled(call1(name, fv, fb), body.type, body.domain)


def compile_holes(text: str, scope: Scope, doc, path: tuple, offset: int, locals_: dict,
                  macro_stack: tuple = ()) -> list:
    """Split text with `{expression}` holes (`{{`, `}}` for braces) into literal strings and compiled
    (closure, type) pairs; `offset` is where `text` starts in its YAML string, for located errors."""
    parts: list = []
    pos = 0
    for m in HOLE.finditer(text):
        if m.start() > pos:
            parts.append(text[pos:m.start()])
        pos = m.end()
        if m.group(1) is None:
            parts.append(m.group(0)[0])
            continue
        source = ShiftedSource(doc, path, offset + m.start(1))
        hole = Compiler(scope, source, locals_, macro_stack).expr(parse(m.group(1), "expr", source))
        parts.append((guarded(hole, source), hole.type))
    if pos < len(text):
        parts.append(text[pos:])
    return parts


def compile_define(name: str, scope: Scope, locals_: dict) -> Compiled:
    """Compile a define without parameters where it is declared (so its mistakes surface even if it is unused),
    seeing `locals_`; the compile is kept for the places that use it alike. A define built on itself is reported
    where it first uses itself again, as when a use of it is compiled."""
    macro = scope.macros[name]
    compiler = Compiler(scope, macro.source, locals_)
    outer = {n: t for n, t in locals_.items() if n in compiler.mentioned(name)}
    key = (name, tuple(sorted(outer.items())))
    if key not in scope.shared:
        _Nesting.parts = 0  # a top-level compile: its parts are counted from here
        scope.shared[key] = compiler.compile_shared(macro, outer, ())
    return scope.shared[key].compiled


def compile_tree(tree, scope: Scope, source: SourceRef, locals_: dict | None = None,
                 macro_stack: tuple = ()) -> Compiled:
    return Compiler(scope, source, locals_, macro_stack).expr(tree)


def located_error(source: SourceRef) -> Callable[[Exception], Exception]:
    """The error `guarded` raises for a Python error while the expression at `source` ran: a SpecRuntimeError
    naming the expression (a LimitError with its own message and hint)."""
    def error(exc: Exception) -> Exception:
        if isinstance(exc, LimitError):
            return source.error(SpecRuntimeError, f"while the game ran, {exc}", 0, exc.hint)
        return source.error(SpecRuntimeError, f"this expression failed while the game ran ({type(exc).__name__}: "
                            f"{exc})", 0, "a value here may be none (an empty min/max/first, no such seat): test it "
                            "first")
    return error


def guarded(fn: Fn | Compiled, source: SourceRef) -> Fn:
    """A top-level closure that reports a Python error inside it as a located SpecRuntimeError naming the
    expression (a none where a number was needed, say), and starts a fresh loop budget. Given a compiled
    expression with code (fuse), the guard is written into its function."""
    error = located_error(source)
    if isinstance(fn, Compiled):
        if fn.code is not None and fn.ns is not None:
            return guarded_function(fn.code, fn.ns, error)
        fn = fn.fn
    return guard(fn, error)
