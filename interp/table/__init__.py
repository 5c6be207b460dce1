"""Where people play: the terminal play screen (`play`), the rendering of cards, tables and the sheet (`render`),
a game's readable summary (`rules_text`) and the score keeper for games played with real cards (`scorekeeper`).

May import: `interp.runs`, `interp.bots`, `interp.spec`, `interp.engine`, `interp.dsl`, `interp.errors`.
"""
