"""Adapters to research frameworks, each an optional extra: `openspiel` (pip install 'interp[openspiel]'),
`pettingzoo` (pip install 'interp[pettingzoo]') and `gymnasium` (one seat as a single-agent environment, the other
seats played by agents; gymnasium comes with the pettingzoo extra). All see the game through views (`State.view`),
never the full state, and number moves with `interp.engine.actions.ActionSpace`; `encoding` is their shared
tensor layout.

May import: `interp.bots`, `interp.spec`, `interp.engine`, `interp.dsl`, `interp.errors`.
"""
