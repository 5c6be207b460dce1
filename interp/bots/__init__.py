"""What a seat may know and how bots decide.

Owns what a view implies about hidden cards (`knowledge`), sampling complete worlds consistent with a view
(`worlds`, repairing a drawn world with `repair`), the built-in agents (`agents`: random and heuristic; `search`: search over sampled worlds) and agents
by name (`registry`).

May import: `interp.engine`, `interp.dsl`, `interp.errors`. Bots see views, never a full state.
"""
