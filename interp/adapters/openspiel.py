"""Every spec as an OpenSpiel Python game (the `openspiel` extra: pip install 'interp[openspiel]').

`register(game)` registers one compiled spec under the short name `interp_<file name>` (dashes become
underscores: `my-game.yaml` is `interp_my_game`); `register_all()` registers every shipped game. Then
OpenSpiel's own API works as for any game: `pyspiel.load_game("interp_my_game", {"players": 4})`.

One OpenSpiel episode is one deal of a fresh match:

- **chance**: the first node is a chance node choosing the deal among `deals` seeded deals (a game
  parameter, default 1000), uniformly: outcome k is the deal `engine.new_match(game, players, seed=k)` makes.
  The shuffle itself is not enumerated card by card (that tree is astronomically wide); this is the
  sampled-chance reading of the deal, and `deals` sets its size.
- **players** are the seats; the player to move is `engine.to_move` (whoever controls the hand that plays).
- **actions** are `interp.engine.actions.ActionSpace` ids, the same in every deal; legal actions are the ids of
  `engine.legal_moves`. A move carrying a list (a `turns` action such as `take` with the set of cards taken) is
  chosen in several actions by the same player — its head, each element, `end` — as OpenSpiel's own games
  choose multi-card moves; legal actions are then the next ids of the legal moves that begin with the ids chosen
  so far (`ActionSpace.legal_ids(st, pending)`), and the move is made when its last id is chosen.
- **information** comes from views only (`State.view(seat)`), see `interp.adapters.encoding`: the
  information-state string is what the seat sees now and every event of the deal it saw, in order; the
  observation string what it sees now. Both tensors are the encoding's flat lists. The ids chosen so far of a
  move being made in steps are part of the choosing seat's information only.
- **returns** are `engine.deal_values` at the end of the deal (general-sum: a spec need not be zero-sum),
  terminal reward only.
- `resample_from_infostate(player, sampler)` is a state whose hidden part is drawn by `sample_world`
  from the player's view (seeded from one draw of OpenSpiel's probability sampler); it has the same
  information-state string for that player (a move the player is making in steps stays pending in it; another
  seat's pending steps, which the player does not see, are not). The resampled state is built, not replayed, so
  its `history()` is empty. `sample_world` raises `SamplingError` when no consistent world is found.

>>> import pyspiel
>>> from interp.spec.compiler import load_game
>>> name = register(load_game("docs/examples/tiny.yaml"))
>>> name
'interp_tiny'
>>> game = pyspiel.load_game(name)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)
"""
from __future__ import annotations

import os
import random
from typing import Any

import numpy as np
import pyspiel

from interp.engine import match as engine
from interp.bots.worlds import sample_world
from interp.engine.actions import ActionSpace, has_action_space
from interp.spec.compiler import load_game
from interp.spec.resources import shipped_paths
from interp.adapters.encoding import Encoding

DEALS = 1000
"""Chance outcomes of the deal by default: the seeds 0 … DEALS - 1."""
UTILITY_BOUND = 1e6
"""The utility range declared to OpenSpiel, ±: a spec states no bound on a deal's value; none ships near it."""

_registered: dict[str, type[InterpGame]] = {}  # short name -> its InterpGame subclass


def short_name(game) -> str:
    """The OpenSpiel short name of a spec: `interp_` + its file name, dashes as underscores."""
    stem = os.path.splitext(os.path.basename(game.path or game.name))[0]
    return "interp_" + "".join(c if c.isalnum() else "_" for c in stem)


def register(game) -> str:
    """Register compiled `game` with OpenSpiel (once); returns its short name for `pyspiel.load_game`."""
    name = short_name(game)
    if name in _registered:
        return name
    game_type = pyspiel.GameType(
        short_name=name, long_name=f"interp: {game.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game.players), min_num_players=min(game.players),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": game.default_players, "deals": DEALS})
    # A class per spec, not a closure: OpenSpiel keeps the factory until the process exits, and a class (unlike a
    # function) is still alive then, so it is not freed after the interpreter has shut down.
    _registered[name] = type(f"InterpGame_{name}", (InterpGame,), {"spec": game, "game_type": game_type})
    pyspiel.register_game(game_type, _registered[name])
    return name


def register_all() -> list[str]:
    """Register every shipped game whose moves can be numbered (`actions.has_action_space`); their short names."""
    games = (load_game(path) for path in shipped_paths())
    return [register(game) for game in games if has_action_space(game)]


class InterpGame(pyspiel.Game):
    """A spec at one player count, as an OpenSpiel game (`register` makes a subclass per spec)."""

    spec: Any = None  # the compiled spec (set on the subclass `register` makes)
    game_type: Any = None  # its pyspiel.GameType

    def __init__(self, params: dict | None = None):
        game, params = self.spec, params or {}
        players = int(params.get("players", game.default_players))
        if players not in game.players:
            raise ValueError(f"{game.name} is for {', '.join(map(str, game.players))} players, not {players}")
        self.players, self.deals = players, int(params.get("deals", DEALS))
        self.space = ActionSpace(game, players)
        self.encoding = Encoding(game, players, self.space)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_actions, max_chance_outcomes=self.deals, num_players=players,
            min_utility=-UTILITY_BOUND, max_utility=UTILITY_BOUND, utility_sum=None,
            max_game_length=engine.MAX_DEAL_MOVES * self.space.max_ids)
        super().__init__(self.game_type, info, {"players": players, "deals": self.deals})

    def new_initial_state(self) -> "InterpState":
        return InterpState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoding, perfect_recall)


class _Match:
    """Holds the interp State and its legal moves (worked out once per decision, not once per call);
    OpenSpiel clones a Python state by deep-copying its attributes, and this makes that copy `State.copy()` (the
    compiled game is shared, never copied)."""

    __slots__ = ("st", "_moves")

    def __init__(self, st, moves: list | None = None):
        self.st, self._moves = st, moves

    @property
    def moves(self) -> list:
        """`engine.legal_moves(st)` now."""
        if self._moves is None:
            self._moves = engine.legal_moves(self.st)
        return self._moves

    def apply(self, move) -> None:
        engine.apply(self.st, move, check=False)
        self._moves = None

    def __deepcopy__(self, memo) -> "_Match":
        return _Match(None if self.st is None else self.st.copy(), self._moves)


class InterpState(pyspiel.State):
    """One deal: a chance node, then the seats' decisions until the deal is over."""

    def __init__(self, game: InterpGame):
        super().__init__(game)
        self.match = _Match(None)
        self.pending: tuple[int, ...] = ()  # the ids chosen so far of a move made in steps

    @property
    def st(self):
        return self.match.st

    def current_player(self) -> int:
        if self.st is None:
            return pyspiel.PlayerId.CHANCE
        seat = None if self.st.deal_over else engine.to_move(self.st)
        return pyspiel.PlayerId.TERMINAL if seat is None else seat

    def _legal_actions(self, player: int) -> list:
        return self.get_game().space.legal_ids(self.st, self.pending, self.match.moves)

    def chance_outcomes(self) -> list:
        deals = self.get_game().deals
        return [(k, 1.0 / deals) for k in range(deals)]

    def _apply_action(self, action: int) -> None:
        game = self.get_game()
        if self.st is None:
            self.match = _Match(engine.new_match(game.spec, game.players, seed=action))
            return
        step = game.space.choose(self.st, self.pending, action, self.match.moves)
        self.pending = step.pending
        if step.move is not None:
            self.match.apply(step.move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal seed {action}"
        space = self.get_game().space
        if not space.is_whole(action):
            return space.step_text(action)
        move = space.move_of(action)
        if self.st is not None and not self.st.deal_over and move in self.match.moves:
            return engine.notation(self.st, move)
        return f"{move.kind} {move.value}" if move.value is not None else move.kind

    def is_terminal(self) -> bool:
        return self.st is not None and self.st.deal_over

    def returns(self) -> list:
        if not self.is_terminal():
            return [0.0] * self.get_game().players
        return [float(v) for v in engine.deal_values(self.st)]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> "InterpState":
        """A state the player cannot tell from this one, its hidden cards drawn by `sample_world`."""
        state = self.get_game().new_initial_state()
        if self.st is None:
            return state
        rng = random.Random(int(probability_sampler() * (1 << 53)))
        state.match = _Match(sample_world(self.st.view(player_id), rng))
        if player_id == self.current_player():
            state.pending = self.pending
        return state

    def __str__(self) -> str:
        if self.st is None:
            return "before the deal"
        return "\n".join(f"{self.st.game.zone_name(z, self.st.n)}: "
                         + " ".join(self.st.game.deck.pretty(c) for c in cards)
                         for z, cards in enumerate(self.st.zones) if cards)


class Observer:
    """OpenSpiel's observer interface (`tensor`, `dict`, `set_from`, `string_from`) over views."""

    def __init__(self, encoding: Encoding, perfect_recall: bool):
        self.encoding, self.perfect_recall = encoding, perfect_recall
        size = encoding.information_size if perfect_recall else encoding.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict: dict[str, Any] = {}
        index = 0
        for piece in ("player", "zones", "to_move", "pending", "moves"):
            if piece == "moves" and not perfect_recall:
                break
            shape = encoding.shapes[piece]
            length = int(np.prod(shape))
            self.dict[piece] = self.tensor[index:index + length].reshape(shape)
            index += length

    def set_from(self, state: InterpState, player: int) -> None:
        view = None if state.st is None else state.st.view(player)
        encode = self.encoding.information if self.perfect_recall else self.encoding.observation
        self.tensor[:] = encode(view, player, state.pending)

    def string_from(self, state: InterpState, player: int) -> str:
        view = None if state.st is None else state.st.view(player)
        text = self.encoding.information_text if self.perfect_recall else self.encoding.observation_text
        return text(view, player, state.pending)
