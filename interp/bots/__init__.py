"""What a seat may know and how bots decide.

Owns what a view implies about hidden cards (`knowledge`), sampling complete worlds consistent with a view
(`worlds`: a view's deal sketched once (`sketch`), its never-seen cards dealt anew by exact counting (`layouts`);
the repairing search of earlier releases, `probe` with `repair`, as the fallback), the built-in agents
(`agents`: random and heuristic; `search`: search over sampled worlds) and agents
by name (`registry`).

May import: `interp.engine`, `interp.dsl`, `interp.errors`. Bots see views, never a full state.
"""
