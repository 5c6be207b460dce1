"""The rules language: DSL text compiled once into typed closures and generated Python.

Owns the grammar (`grammar.lark`), parsing (`parse`, run by `lalr` from tables `tables` derives from lark's), the names in scope (`scope`), the expression compiler
(`expr`, put together from `walk` over the tree, `operators`, `calls` and `loops`, within `limits`), the
statement compiler (`stmts`), joining parts into one generated function (`fuse`), what compiled
code calls at run time (`runtime`, `types`), what an expression reads (`reads`) and the on-disk load cache of parse
trees, code objects and the grammar's parser tables (`cache`), and what it trusts on disk (`cachedir`). `compile` is
the entry point.

May import: `interp.errors` only. It knows nothing of cards, states or games: the engine's built-in functions
are handed to it as `Function` records by the spec compiler.
"""
