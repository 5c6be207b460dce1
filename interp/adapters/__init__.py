"""Adapters to research frameworks, each an optional extra: `openspiel` (pip install 'interp[openspiel]') and
`pettingzoo` (pip install 'interp[pettingzoo]'). Both see the game through views (`State.view`), never the full
state, and number moves with `interp.engine.actions.ActionSpace`; `encoding` is their shared tensor layout.

May import: `interp.bots`, `interp.spec`, `interp.engine`, `interp.dsl`, `interp.errors`.
"""
