"""The DSL's parse trees in classes of interp's own, so that compiling them needs no lark.

interp's own parser (interp.dsl.lalr) builds these trees, with the shapes and names lark's parser of the grammar
gives them, and so does lark itself when it parses (its `tree_class` option, interp.dsl.tables: a text interp's
parser refuses, to word the error); a spec's trees read back from the load cache (interp.dsl.cache) are made of
them too. So a load imports no lark (with what it imports, about a third of importing interp's compiler) unless
a text has a syntax error. A node's children are `Tree`s, tokens (`str`s with a `type`, the terminal's name, and
a `start_pos`: `Token` here, or lark's when lark parsed) and None for an optional part left out.
Only what interp reads of a tree is here: `data`, `children`, `meta.start_pos` (where the node starts, to locate
an error) and two walks.

>>> tree = Tree("neg", [Token("NAME", "x", 1)])
>>> tree.meta.empty, [str(v) for v in tree.scan_values(is_name)], [t.data for t in tree.iter_subtrees()]
(True, ['x'], ['neg'])
"""
from __future__ import annotations

from typing import Any, Callable, Iterator


class Meta:
    """Where a node starts in its text (`start_pos`, and `container_start_pos` for a node inlined from a bracket);
    `empty` while unknown."""

    start_pos: int
    container_start_pos: int

    def __init__(self) -> None:
        self.empty = True


class Tree:
    """A rule's node: its name (`data`, as the grammar's alias or rule names it) and its children."""

    __slots__ = ("data", "children", "_meta")

    def __init__(self, data: str, children: list, meta: Meta | None = None) -> None:
        self.data = data
        self.children = children
        self._meta = meta

    @property
    def meta(self) -> Meta:
        if self._meta is None:
            self._meta = Meta()
        return self._meta

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tree) and self.data == other.data and self.children == other.children

    def __hash__(self) -> int:
        return hash((self.data, tuple(self.children)))

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def iter_subtrees(self) -> Iterator[Tree]:
        """This node and every node under it (each once; in no particular order)."""
        todo = [self]
        while todo:
            node = todo.pop()
            yield node
            todo.extend(child for child in node.children if isinstance(child, Tree))

    def scan_values(self, pred: Callable[[Any], bool]) -> Iterator[Any]:
        """The children under this node that are no Tree (tokens, None) and satisfy `pred`, left to right."""
        todo: list = [self]
        while todo:
            node = todo.pop()
            if isinstance(node, Tree):
                todo.extend(reversed(node.children))
            elif pred(node):
                yield node


class Token(str):
    """A token read back from the load cache: its text, the terminal's name (`type`) and where it starts, as lark's
    Token has them."""

    type: str
    start_pos: int | None

    def __new__(cls, type: str, value: str, start_pos: int | None = None) -> Token:
        token = super().__new__(cls, value)
        token.type, token.start_pos = type, start_pos
        return token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {str(self)!r})"


def place(node: Any, children: list) -> Any:
    """`node`, just built by a rule from `children` (all of them, the tokens it drops too), with where it starts
    (`meta.start_pos`, and `meta.empty` False): the start of its first child, or of the container it was inlined
    from (`(a + b) * c` starts at the bracket), as lark's position tracking (`propagate_positions`) computes it.
    A one-operand level returns its child unchanged.

    >>> bracket, inner = Token("LPAR", "(", 0), place(Tree("name", [Token("NAME", "a", 1)]), [Token("NAME", "a", 1)])
    >>> node = place(inner, [bracket, inner, Token("RPAR", ")", 2)])
    >>> node.meta.start_pos, node.meta.container_start_pos
    (1, 0)
    """
    if len(children) == 1 and node is children[0]:  # a one-operand level, inlined: its start is the child's
        return node
    if isinstance(node, Tree):
        for child in children:
            if isinstance(child, Tree):
                meta = child._meta
                if meta is None or meta.empty:
                    continue
                start = getattr(meta, "container_start_pos", meta.start_pos)
            elif child is None:
                continue
            else:
                start = child.start_pos
            meta = node.meta
            if meta.empty:  # a node inlined from a `?rule` keeps its own start and gets a container's
                meta.start_pos, meta.empty = start, False
            meta.container_start_pos = start
            break
    return node


def is_name(value: Any) -> bool:
    """Whether a child is a NAME token."""
    return isinstance(value, str) and getattr(value, "type", None) == "NAME"
