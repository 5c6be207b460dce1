"""Whole runs of matches: replay from a seed and a move log (`replay`, saves), stacked deals and their expected
results (`scenario`, `expect`), bot-only simulations (`simulate`, `plot`), agents against each other (`arena`) and
the speed benchmark (`bench`).

May import: `interp.bots`, `interp.spec`, `interp.engine`, `interp.dsl`, `interp.errors`.
"""
