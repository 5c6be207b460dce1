"""interp: a rules-as-data card-game interpreter.

Load a spec with `interpreter.compiler.load_game(path)`, play it with the functions of `interpreter.engine`
(`new_match`, `to_move`, `legal_moves`, `apply`, `results`), give bots `state.view(seat)`
(`interpreter.agents`), and rebuild a match from its seed and move log with `interpreter.replay.replay`.
"""
__version__ = "0.1.0"
