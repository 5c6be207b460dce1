"""One error root, one subclass per stage; each carries a source location when it has one.

>>> e = SpecError("unknown phase type 'tricky'", Location("g.yaml", 4, 9), hint="one of: deal, auction")
>>> print(e.format())
g.yaml:4:9: unknown phase type 'tricky'
  hint: one of: deal, auction
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Location:
    """A 1-based line and column in a source file."""

    file: str
    line: int
    column: int

    def shifted(self, text: str, offset: int) -> "Location":
        """The location of character `offset` of `text`, a scalar that starts at self."""
        before = text[:offset]
        newlines = before.count("\n")
        if newlines == 0:
            return Location(self.file, self.line, self.column + offset)
        return Location(self.file, self.line + newlines, offset - before.rfind("\n"))

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


class InterpError(Exception):
    """The root of every error interp reports to a person."""

    def __init__(self, message: str, location: Location | None = None, hint: str | None = None,
                 source_line: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = location
        self.hint = hint
        self.source_line = source_line

    def format(self) -> str:
        """`file:line:col: message`, the offending line with a caret, and the hint."""
        head = f"{self.location}: {self.message}" if self.location else self.message
        lines = [head]
        if self.source_line is not None and self.location is not None:
            lines.append("    " + self.source_line.rstrip("\n"))
            lines.append("    " + " " * (self.location.column - 1) + "^")
        if self.hint:
            lines.append(f"  hint: {self.hint}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def __reduce__(self):
        """Pickled whole (from a worker process, say), location and hint included."""
        return type(self), (self.message, self.location, self.hint, self.source_line)


class SpecError(InterpError):
    """A spec file is malformed: YAML, schema or semantic check."""


class DSLSyntaxError(SpecError):
    """A DSL expression does not parse."""


class DSLNameError(SpecError):
    """A DSL expression names something that does not exist, or misuses a type."""


class SpecRuntimeError(SpecError):
    """A spec's expression went wrong while a game ran (a none where a seat was needed, a run-time limit
    passed); located at the expression, so the author sees which one."""


class IllegalMoveError(InterpError):
    """A move that is not legal in the current state."""


class ScenarioError(InterpError):
    """A scenario or score-keeper input file is malformed."""


class SaveError(InterpError):
    """A save file cannot be resumed: unreadable, malformed, or its moves do not replay to what it records."""


class OutputError(InterpError):
    """A file of results cannot be written (a full disk, a folder that vanished): it keeps the whole records
    written before."""


class WorkerDied(InterpError):
    """A worker process of a run ended before its work was done (killed, out of memory): not the input's fault,
    so the command exits 1."""

    exit_code = 1
