"""Spec files to compiled games: load, validate, compile.

Owns reading YAML with source positions (`located`) and following `extends:` (`loader`, merging with `merge`),
the JSON Schema check (`schema`, `schemacheck`), compiling a spec into an `interp.engine.game.Game` (`compiler`,
with `names`, `texts`, `bids`, `phases`, `scoring`, `symbols`), the shipped games and schema (`resources`), and
the checks shared by the other files people write by hand (`inputfile`, `values`).

May import: `interp.engine`, `interp.dsl`, `interp.errors`.
"""
