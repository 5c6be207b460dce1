"""Where people play: what a seat sees as plain data (`present`, read by the terminal and the browser alike), the
terminal play screen (`play`), the rendering of cards, tables and the sheet (`render`), a game's readable summary
(`rules_text`), the score keeper for games played with real cards (`scorekeeper`), and the table server
(`server`: the Starlette app and its page in `static/`; `tables`: seats, moves and bots; `store`: SQLite).

May import: `interp.runs`, `interp.bots`, `interp.spec`, `interp.engine`, `interp.dsl`, `interp.errors`.
"""
