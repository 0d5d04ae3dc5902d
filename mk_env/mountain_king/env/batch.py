"""The batch API: N games of *In the Hall of the Mountain King* stepped in one call, for learners that want
arrays, not agents (Pgx's ``step`` over a batch, OpenSpiel's vectorised environments).

:class:`GameBatch` holds ``num_games`` games of one configuration and its own preallocated arrays, rewritten in
place by every :meth:`~GameBatch.reset` and :meth:`~GameBatch.step` (copy what you keep):

* ``observations`` ``[N, size]`` float32: the flat observation (``Observer.encode_flat``'s layout) of the seat
  to act in each game; ``action_masks`` ``[N, actions]`` bool: its legal actions; ``seats`` ``[N]`` int32: that
  seat;
* ``rewards`` ``[N, players]`` float32: every seat's reward from the step (the env's schemes, ``"win"``,
  ``"margin"`` or ``"dense"``: :mod:`mk_env.core.env.rewards`);
* ``terminated`` ``[N]`` bool: the game ended at this step, and ``final_points`` ``[N, players]`` int32 its
  final points (0 elsewhere).

A game that ends is replaced at once by the next one (auto-reset in the same step, Gymnasium's ``SAME_STEP``):
its row then holds the new game's first observation, and its rewards and points are the finished game's.
Game ``k`` begun by a batch (counting from its reset, in the order they begin) is the game
``Game(...).new_initial_state(seed + k)`` makes, on either backend.

``opponents=None`` (self-play): every decision of every seat is an action of :meth:`~GameBatch.step`.
``opponents="random"``: one learner seat per game (``seat``, or ``None``: seat ``k % players`` in game ``k``);
the other seats play uniformly random legal actions inside the step, drawn from ``default_rng([seed, 1])``, so
each row is the learner's turn and its reward is ``rewards[i, learner]`` (the dense shaping counts from the
learner's first decision).

It runs compiled (``mk_env/mountain_king/native/batch.cpp``; the whole step in C++, the GIL released, one step of
a batch at a time however many threads call it) wherever
the compiled engine and observation writer serve the game, else in Python with the same games, arrays and
draws (``tests/native/test_native_batch.py`` holds the two together). Actions are checked before any is
applied: an illegal one raises :class:`~mk_env.core.errors.IllegalActionError` naming the game and why, and no
game moves.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from mk_env.core.env.rewards import check_scheme, final_rewards, totals
from mk_env.core.errors import ConfigError, IllegalActionError
from mk_env.mountain_king.rules import Game, GameState, StalledGameError
from mk_env.mountain_king.rules import native as native_rules

from .native_observation import compiled_writer
from .observation import Observer

OPPONENTS = (None, "random")
_REWARD_CODES = {"win": 0, "margin": 1, "dense": 2}


class GameBatch:
    """``num_games`` games stepped together (see the module docstring)."""

    def __init__(self, num_games: int, num_players: int = 2, *, seed: int = 0, reward: str = "win",
                 opponents: str | None = None, seat: int | None = None, backend: str | None = None,
                 **game_options: Any) -> None:
        if type(num_games) is not int or num_games < 1:
            raise ConfigError(f"num_games={num_games!r}: a batch holds a whole number of games, at least 1")
        if opponents not in OPPONENTS:
            raise ConfigError(f"opponents={opponents!r} is not allowed; use None (self-play) or 'random'")
        self.game = Game(num_players, backend=backend, **game_options)
        n = self.game.num_players
        if seat is not None and (type(seat) is not int or not 0 <= seat < n):
            raise ConfigError(f"seat={seat!r}: a seat of this {n}-player game (0..{n - 1}) or None")
        if seat is not None and opponents is None:
            raise ConfigError("seat is the learner's seat against opponents: give opponents='random' too")
        self.reward, self.opponents, self.seat = check_scheme(reward), opponents, seat
        self.seed = _seed(seed)
        self.observer = Observer(self.game)
        self.num_games, self.num_players, self.num_actions = num_games, n, self.game.layout.size
        self.observations = np.zeros((num_games, self.observer.size), np.float32)
        self.action_masks = np.zeros((num_games, self.num_actions), bool)
        self.rewards = np.zeros((num_games, n), np.float32)
        self.terminated = np.zeros(num_games, bool)
        self.seats = np.zeros(num_games, np.int32)
        self.final_points = np.zeros((num_games, n), np.int32)
        self._rows = np.arange(num_games)
        self._native = None
        self._started = 0
        writer = compiled_writer(self.observer) if self.game.backend == "native" else None
        if writer is not None:
            self._native = native_rules._native.Batch(native_rules.rules_of(self.game), writer, num_games, self.seed,
                                                      _REWARD_CODES[reward], opponents == "random",
                                                      -1 if seat is None else seat)
        self._ready = False

    @property
    def compiled(self) -> bool:
        """Whether the steps run compiled (else the Python twin serves)."""
        return self._native is not None

    def _arrays(self) -> tuple[np.ndarray, ...]:
        return (self.observations, self.action_masks, self.rewards, self.terminated, self.seats, self.final_points)

    def reset(self, seed: int | None = None) -> np.ndarray:
        """Begin every game afresh (game ``k`` from ``seed + k``; ``seed``: the batch's, or a new one);
        returns ``observations``."""
        if seed is not None:
            self.seed = _seed(seed)
        if self._native is not None:
            self._native.reset(self.seed, *self._arrays())
        else:
            self._python_reset()
        self._ready = True
        return self.observations

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Apply ``actions[i]`` (a legal action of ``seats[i]``) in each game i; returns ``(observations,
        rewards, terminated, seats)``, the batch's own arrays (``action_masks`` and ``final_points`` too)."""
        if not self._ready:
            raise RuntimeError("GameBatch.step before reset(): call batch.reset() first")
        acts = self._check(actions)
        if self._native is not None:
            try:
                self._native.step(acts, *self._arrays())
            except native_rules._native.Illegal as e:  # another thread stepped the batch since the check
                raise IllegalActionError(f"{e}; no game was changed") from None
            except native_rules._native.Stalled as e:  # an engine fault (the stall guard): the batch is spent
                self._ready = False
                raise StalledGameError(f"{e}; the batch needs reset()") from None
        else:
            try:
                self._python_step(acts)
            except StalledGameError:
                self._ready = False  # some games moved, others not: the batch is spent
                raise
        return self.observations, self.rewards, self.terminated, self.seats

    def random_actions(self) -> np.ndarray:
        """A uniformly random legal action of each game (from the opponents' generator): a baseline, and the
        benchmark's player."""
        if not self._ready:
            raise RuntimeError("GameBatch.random_actions before reset(): call batch.reset() first")
        out = np.empty(self.num_games, np.int64)
        if self._native is not None:
            self._native.random_actions(out)
        else:
            for i, st in enumerate(self._states):
                out[i] = self._random_action(st)
        return out

    def state(self, i: int) -> GameState:
        """A copy of game ``i`` (to inspect, render or save; changing it does not change the batch)."""
        if type(i) is not int or not 0 <= i < self.num_games:
            raise IndexError(f"game {i!r}: the batch's games are 0..{self.num_games - 1}")
        if not self._ready:
            raise RuntimeError("GameBatch.state before reset(): call batch.reset() first")
        if self._native is not None:
            return native_rules.NativeGameState._wrap(self.game, self._native.state(i))
        return self._states[i].clone()

    def learner_seat(self, i: int) -> int | None:
        """The learner's seat in game ``i`` against opponents (None in self-play)."""
        if type(i) is not int or not 0 <= i < self.num_games:
            raise IndexError(f"game {i!r}: the batch's games are 0..{self.num_games - 1}")
        if not self._ready:
            raise RuntimeError("GameBatch.learner_seat before reset(): call batch.reset() first")
        if self.opponents is None:
            return None
        return self._native.learner(i) if self._native is not None else self._learners[i]

    @property
    def games_started(self) -> int:
        """Games begun since the last reset (finished ones included)."""
        return self._native.started if self._native is not None else self._started

    def _check(self, actions: Any) -> np.ndarray:
        """``actions`` as int64 ``[N]``, every one legal in its game (else an error naming the first that is not)."""
        acts = np.asarray(actions)
        if acts.shape != (self.num_games,) or acts.dtype.kind not in "iu":
            raise IllegalActionError(f"actions must be {self.num_games} integers (one per game), not "
                                     f"{acts.dtype} of shape {acts.shape}")
        acts = np.ascontiguousarray(acts, np.int64)
        inside = (acts >= 0) & (acts < self.num_actions)
        legal = inside.copy()
        legal[inside] = self.action_masks[self._rows[inside], acts[inside]]
        if not legal.all():
            i = int(np.argmin(legal))
            why = (f"action {acts[i]} is outside the action space 0..{self.num_actions - 1}" if not inside[i]
                   else _explain(self.state(i), int(acts[i])))
            raise IllegalActionError(f"game {i} (seat {self.seats[i]}): {why}; no game was changed")
        return acts

    # -- the Python twin (no compiled engine): the same games, arrays and draws ------------------------
    def _python_reset(self) -> None:
        self._started = 0
        self._opponent_rng = np.random.default_rng([self.seed, 1])
        self._states: list[GameState] = [None] * self.num_games  # type: ignore[list-item]
        self._learners: list[int | None] = [None] * self.num_games
        self._points: list[list[int]] = [[0] * self.num_players for _ in range(self.num_games)]
        for i in range(self.num_games):
            self._start(i)
            self._write_row(i)
        self.rewards[:] = 0
        self.terminated[:] = False
        self.final_points[:] = 0

    def _start(self, i: int) -> None:
        k = self._started
        self._started += 1
        st = self._states[i] = self.game.new_initial_state(self.seed + k)
        if self.opponents == "random":
            self._learners[i] = self.seat if self.seat is not None else k % self.num_players
            self._play_opponents(i, None)
        self._points[i] = totals(st) if self.reward == "dense" else [0] * self.num_players

    def _random_action(self, st: GameState) -> int:
        legal = st.legal_actions()
        return int(legal[self._opponent_rng.integers(len(legal))])

    def _apply(self, i: int, action: int, rewards: np.ndarray | None) -> None:
        st = self._states[i]
        st.apply(action)
        if self.reward == "dense" and rewards is not None:
            now = totals(st)
            for p in range(self.num_players):
                rewards[p] += (now[p] - self._points[i][p]) / 100.0
            self._points[i] = now

    def _play_opponents(self, i: int, rewards: np.ndarray | None) -> None:
        st = self._states[i]
        while not st.is_terminal() and st.current_player() != self._learners[i]:
            self._apply(i, self._random_action(st), rewards)

    def _python_step(self, acts: np.ndarray) -> None:
        self.rewards[:] = 0
        self.final_points[:] = 0
        for i in range(self.num_games):
            rewards = self.rewards[i]
            self._apply(i, int(acts[i]), rewards)
            if self.opponents == "random":
                self._play_opponents(i, rewards)
            st = self._states[i]
            self.terminated[i] = st.is_terminal()
            if self.terminated[i]:
                points = totals(st)
                self.final_points[i] = points
                rewards += np.asarray(final_rewards(st, self.reward, points), np.float32)
                self._start(i)
            self._write_row(i)

    def _write_row(self, i: int) -> None:
        st = self._states[i]
        seat = st.current_player()
        self.observer.encode_into(st, seat, self.observations[i])
        self.action_masks[i] = False
        self.action_masks[i, st.legal_actions()] = True
        self.seats[i] = seat


def _seed(seed: Any) -> int:
    if type(seed) is not int or seed < 0 or seed >= 2**63:
        raise ConfigError(f"seed={seed!r}: a batch's seed is a non-negative integer below 2**63")
    return seed


def _explain(st: GameState, action: int) -> str:
    """Why ``action`` is illegal in ``st`` (the engine's own words; ``st`` is a copy)."""
    try:
        st.apply(action)
    except IllegalActionError as e:
        return str(e)
    return f"action {action} is not legal here"
