"""The rules engine: a compiled game and a match in play.

Owns cards and decks (`cards`), seeded chance (`chance`), the mutable match state and its records
(`state`: `State`, `Move`, `Event`), the compiled game (`game`), the phase types (`phases/`), the functions the DSL
calls on a state (`builtins`), fact limits (`facts`), the match flow (`match`: new match, legal moves, apply,
deal end, the sheet), event records read back (`events`), moves as integers (`actions`) and how a move is worded
and read back from text (`wording`).

May import: `interp.dsl` and `interp.errors`. Nothing here loads files or plays for a seat.
"""
