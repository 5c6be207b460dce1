"""Every spec as an OpenSpiel Python game (the `openspiel` extra: pip install 'interp[openspiel]').

Importing this module registers every shipped game under the short name `interp_<file name>` (dashes become
underscores: `my-game.yaml` is `interp_my_game`) without compiling any: registering reads each spec's header
(name, player counts, options, `match.zero_sum`), and a spec is compiled the first time `pyspiel.load_game`
asks for it. `register(game)` registers a spec of your own (a compiled Game) the same way. Then OpenSpiel's own
API works as for any game: `pyspiel.load_game("interp_my_game", {"players": 4, "target": 500})`.

- **parameters**: `players` (one of the spec's player counts), `deals` (the chance node's outcomes, below) and
  every option the spec declares, by its name, with the spec's default (an option whose default is a
  fraction is a float parameter).
- **chance**: the first node is a chance node choosing the deal among `deals` seeded deals (default 1000),
  uniformly: outcome k is the deal `engine.new_match(game, players, seed=k, options=...)` makes. The shuffle
  itself is not enumerated card by card (that tree is astronomically wide); this is the sampled-chance reading
  of the deal, and `deals` sets its size.
- **players** are the seats; the player to move is `engine.to_move` (whoever controls the hand that plays).
- **actions** are `interp.engine.actions.ActionSpace` ids, the same in every deal; legal actions are the ids of
  `engine.legal_moves`. A move carrying a list (a `turns` action such as `take` with the set of cards taken) is
  chosen in several actions by the same player — its head, each element, `end` — as OpenSpiel's own games
  choose multi-card moves; legal actions are then the next ids of the legal moves that begin with the ids chosen
  so far (`ActionSpace.legal_ids(st, pending)`), and the move is made when its last id is chosen.
- **information** comes from views only (`State.view(seat)`), see `interp.adapters.encoding`: the
  information-state string is what the seat sees now (its hand sorted, so one information set has one string)
  and every event of the deal it saw, in order; the observation string what it sees now. Both tensors are the
  encoding's flat lists. The ids chosen so far of a move being made in steps are part of the choosing seat's
  information only.
- **returns** are `engine.deal_values` at the end of the deal, terminal reward only. The game is declared
  zero-sum where the spec declares `match.zero_sum: true` (its results always sum to zero, which the suite
  checks over bot matches; a deal's values are the changes of the results, so they sum to zero too), else
  general-sum. The utility bounds are the spec's `match.value_range` where it declares one, else ±UTILITY_BOUND.
- `resample_from_infostate(player, sampler)` is a state whose hidden part is drawn by `sample_world`
  from the player's view (seeded from one draw of OpenSpiel's probability sampler); it has the same
  information-state string for that player (a move the player is making in steps stays pending in it; another
  seat's pending steps, which the player does not see, are not). The resampled state is built, not replayed, so
  its `history()` is empty.
- **pickling**: games and states pickle (`pickle.dumps(state)`) and serialise
  (`pyspiel.serialize_game_and_state`) as OpenSpiel's own Python games do. A state carries its match whole, the
  compiled spec by its short name only; the process that reads it back must have the game registered (shipped
  games are, on import; a spec of your own: `register` it first).

>>> import pyspiel
>>> from interp.spec.compiler import load_game
>>> name = register(load_game("docs/examples/tiny.yaml"))
>>> name
'interp_tiny'
>>> game = pyspiel.load_game(name, {"target": 100})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 1000)
>>> state.apply_action(7)
>>> state.current_player() in (0, 1), len(state.legal_actions()) > 0
(True, True)
>>> state.st.options["target"]
100
"""
from __future__ import annotations

import io
import os
import pickle
import random
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from interp.adapters.encoding import Encoding
from interp.bots.worlds import sample_world
from interp.engine import match as engine
from interp.engine.actions import ActionSpace, has_action_space
from interp.engine.game import Game
from interp.spec.compiler import load_game
from interp.spec.loader import load_spec
from interp.spec.resources import shipped_paths

DEALS = 1000
"""Chance outcomes of the deal by default: the seeds 0 … DEALS - 1."""
UTILITY_BOUND = 1e6
"""The utility range declared to OpenSpiel, ±, for a spec that declares no `match.value_range`."""

_registered: dict[str, type[InterpGame]] = {}  # short name -> its InterpGame subclass


def short_name(path: str) -> str:
    """The OpenSpiel short name of a spec file: `interp_` + its file name, dashes as underscores.

    >>> short_name("games/my-game.yaml")
    'interp_my_game'
    """
    stem = os.path.splitext(os.path.basename(path))[0]
    return "interp_" + "".join(c if c.isalnum() else "_" for c in stem)


def register(game: Game) -> str:
    """Register compiled `game` with OpenSpiel (once); returns its short name for `pyspiel.load_game`."""
    name = short_name(game.path or game.name)
    if name in _registered:
        _registered[name].compiled = _registered[name].compiled or game
        return name
    _register(name, game.path,
              game_type(name, game.name, game.players, game.default_players, game.options, game.zero_sum), game)
    return name


def register_shipped() -> list[str]:
    """Register every shipped game by its header alone (no spec is compiled until it is loaded); their short
    names. Runs on import."""
    names = []
    for path in shipped_paths():
        name = short_name(path)
        if name not in _registered:
            data = load_spec(path).data
            players = data.get("players", {"default": 2})
            zero_sum = bool((data.get("match") or {}).get("zero_sum", False))
            _register(name, path, game_type(name, data["name"], tuple(players.get("allowed", [players["default"]])),
                                            players["default"], data.get("options") or {}, zero_sum))
        names.append(name)
    return names


def register_all() -> list[str]:
    """Compile every shipped game and return the short names of those whose moves can be numbered
    (`actions.has_action_space`): the others are registered too, but `load_game` refuses them."""
    return [name for name in register_shipped() if has_action_space(_registered[name].spec())]


def game_type(name: str, long_name: str, players: tuple, default_players: int, options: dict,
              zero_sum: bool) -> pyspiel.GameType:
    """The pyspiel.GameType of a spec from its header: its player counts, its options as parameters, zero-sum
    where `match.zero_sum` says so."""
    parameters: dict[str, Any] = {"players": default_players, "deals": DEALS}
    for option, decl in options.items():
        default = decl["default"]
        parameters[option] = float(default) if isinstance(default, (float, Fraction)) else default
    utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
    return pyspiel.GameType(
        short_name=name, long_name=f"interp: {long_name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(players), min_num_players=min(players),
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameters)


def _register(name: str, path: str, type_: pyspiel.GameType, compiled: Game | None = None) -> None:
    # A class per spec, not a closure: OpenSpiel keeps the factory until the process exits, and a class (unlike a
    # function) is still alive then, so it is not freed after the interpreter has shut down. Pickle finds the class
    # by its name in this module (`__getattr__` below).
    cls = type(_class_name(name), (InterpGame,), {"path": path, "compiled": compiled, "game_type": type_})
    cls.__module__ = __name__
    _registered[name] = cls
    pyspiel.register_game(type_, cls)


def _class_name(name: str) -> str:
    return f"InterpGame_{name}"


def __getattr__(attr: str) -> Any:
    """The per-spec game classes by name, for pickle (`InterpGame_interp_my_game`)."""
    for name, cls in _registered.items():
        if attr == _class_name(name):
            return cls
    raise AttributeError(f"module {__name__!r} has no attribute {attr!r}")


class InterpGame(pyspiel.Game):
    """A spec at one player count, as an OpenSpiel game (`register` makes a subclass per spec)."""

    path: str = ""  # the spec file (set on the subclass `register` makes)
    compiled: Game | None = None  # the compiled spec, once compiled
    game_type: Any = None  # its pyspiel.GameType

    @classmethod
    def spec(cls) -> Game:
        """The compiled spec (compiled on first use)."""
        if cls.compiled is None:
            cls.compiled = load_game(cls.path)
        return cls.compiled

    def __init__(self, params: dict | None = None):
        game, params = self.spec(), dict(params or {})
        if not has_action_space(game):
            raise ValueError(f"{game.name}: its moves cannot be numbered (a move carries a value with no bounded "
                             "set of values), so it is no OpenSpiel game")
        players = int(params.pop("players", game.default_players))
        if players not in game.players:
            raise ValueError(f"{game.name} is for {', '.join(map(str, game.players))} players, not {players}")
        self.players, self.deals = players, int(params.pop("deals", DEALS))
        self.options = engine.resolve_options(game, params)
        self.space = ActionSpace(game, players)
        self.encoding = Encoding(game, players, self.space)
        low, high = game.value_range or (-UTILITY_BOUND, UTILITY_BOUND)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.space.num_actions, max_chance_outcomes=self.deals, num_players=players,
            min_utility=float(low), max_utility=float(high), utility_sum=0.0 if game.zero_sum else None,
            max_game_length=engine.MAX_DEAL_MOVES * self.space.max_ids)
        given = {k: float(v) if isinstance(v, Fraction) else v for k, v in self.options.items()}
        super().__init__(self.game_type, info, {"players": players, "deals": self.deals, **given})

    def new_initial_state(self) -> "InterpState":
        return InterpState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "Observer":
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return Observer(self.encoding, perfect_recall)


class _Match:
    """Holds the interp State and its legal moves (worked out once per decision, not once per call);
    OpenSpiel clones a Python state by deep-copying its attributes, and this makes that copy `State.copy()` (the
    compiled game is shared, never copied). It pickles whole, the compiled game by its short name."""

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

    def __reduce__(self) -> tuple:
        if self.st is None:
            return _Match, (None,)
        name = short_name(self.st.game.path or self.st.game.name)
        out = io.BytesIO()
        _StatePickler(out, self.st.game, name).dump(self.st)
        return _unpickled_match, (out.getvalue(),)


class _StatePickler(pickle.Pickler):
    """Pickles a State with its compiled game as a reference (its short name)."""

    def __init__(self, file, game: Game, name: str):
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self.game, self.name = game, name

    def persistent_id(self, obj: Any) -> str | None:
        return self.name if obj is self.game else None


class _StateUnpickler(pickle.Unpickler):
    def persistent_load(self, pid: Any) -> Game:
        if pid not in _registered:
            raise pickle.UnpicklingError(f"{pid} is not registered here: register(load_game(its spec)) first")
        return _registered[pid].spec()


def _unpickled_match(data: bytes) -> _Match:
    return _Match(_StateUnpickler(io.BytesIO(data)).load())


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
            self.match = _Match(engine.new_match(game.spec(), game.players, seed=action, options=game.options))
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


register_shipped()
