"""The single-seat Gymnasium view of every game of the suite, for single-agent learners (Stable-Baselines3,
sb3-contrib): :class:`SingleSeatEnv` over a game's AEC environment (its subclass names ``aec_class``).

The learner plays one seat (fixed, or drawn at each reset); the other seats are played by opponents
inside :meth:`SingleSeatEnv.step`. An opponent is either

* a callable ``f(observation_dict, rng) -> action``, where ``observation_dict`` is exactly what the
  PettingZoo agent of that seat would see in this env's observation style (``{"observation": ...,
  "action_mask": ...}``, see :meth:`SingleSeatEnv.observe`), or
* an agent object with ``.act(view, rng)`` (the protocol of ``agents/``), which receives a
  :class:`SeatView` of its seat (a :class:`~mk_env.core.view.PlayerView` whose ``observation()``
  gives the dict style).

The default opponent plays uniformly at random among legal actions. An action is a Python int, a
numpy integer or a 0-d integer array (what ``model.predict`` returns); any other type raises the
engine's ``ActionTypeError``.

Observation space (``observation=``): ``"dict"`` (default), the ``Dict`` of ``Box``es of the
PettingZoo observation (its inner ``observation`` dict, no ``action_mask`` key), or ``"flat"``, one
``Box(0, 1, (D,), float32)`` (the same arrays in one vector, see ``observation_slices()``). The mask is
served by :meth:`SingleSeatEnv.action_masks` (sb3-contrib's ``MaskablePPO`` hook); once the episode
is over it marks only action 0 (pass), so that a masked policy on a vector env's autoreset step has
a valid choice (the vector env resets instead of stepping it). The reward is the learner's:
everything the AEC env gives its agent between two of its decisions, so the terminal reward reaches
the learner even when an opponent's move ends the game. An illegal action by the learner ends the
episode as a loss (``illegal_reward``; ``info["illegal_action"]`` says why, the attribute ``illegal_actions``
counts such episodes, and the first one is reported by PettingZoo's illegal-move warning); an
illegal action by an opponent raises.

Each game registers its view with Gymnasium on ``import mk_env`` as ``mk_env/<Name>-v<N>`` (the game
card's ``gymnasium_id()``): ``gymnasium.make(game_entry("cave_troll").gymnasium_id(), num_players=3)``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from mk_env.core.env.masks import random_legal_action
from mk_env.core.env.safety import warn_illegal_action
from mk_env.core.env.wrappers import check_style
from mk_env.core.errors import ActionTypeError, IllegalActionError, action_number, require_reset
from mk_env.core.view import PlayerView

Opponent = Callable[[dict, np.random.Generator], int] | Any


class SeatView(PlayerView):
    """The :class:`PlayerView` an agent opponent receives: also ``observation()``, its seat's
    PettingZoo observation in this env's style (the rules' view knows nothing of encoders)."""

    __slots__ = ("_env",)

    def __init__(self, env: SingleSeatEnv, seat: int):
        super().__init__(env.aec.game_state, seat)
        self._env = env

    def observation(self) -> dict[str, np.ndarray]:
        """``{"observation": ..., "action_mask": ...}`` of this seat now."""
        return self._env.aec.observe_seat(self.seat, "dict")


def random_opponent(observation: dict, rng: np.random.Generator) -> int:
    """Uniformly random among the legal actions of ``observation["action_mask"]``."""
    return random_legal_action(observation["action_mask"], rng)


class SingleSeatEnv(gymnasium.Env):
    """One learner seat against opponents; see the module docstring."""

    metadata = {"render_modes": [], "render_fps": 1}
    aec_class: type  # the game's AEC environment (a :class:`~mk_env.core.env.aec.GameEnv`), set by its subclass

    def __init__(self, num_players: int = 2, seat: int | None = None,
                 opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                 render_mode: str | None = None, illegal_reward: float = -1.0, observation: str = "dict",
                 **game_options: Any):
        check_style(observation, ("dict", "flat"))  # "rllib" is for the AEC env (RLlib's multi-agent API)
        if "max_cycles" in game_options:
            raise ValueError("max_cycles is the AEC env's; the single-seat view's episodes are cut by Gymnasium's "
                             "TimeLimit: gymnasium.make(id, max_episode_steps=N)")
        self.aec = self.aec_class(num_players, render_mode=render_mode, reward=reward, strict=True,
                           observation=observation, **game_options)
        n = self.aec.game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < n):
            raise ValueError(f"seat={seat!r} is not allowed; use None (random each episode) or "
                             f"0..{n - 1}")
        self.fixed_seat = None if seat is None else int(seat)
        self.opponents = self._check_opponents(opponents, n)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self._flat = observation == "flat"
        self.observation_space = self.aec.observer.flat_space if self._flat else self.aec.observer.space
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])
        self.seat = self.fixed_seat if self.fixed_seat is not None else 0
        self.illegal_actions = 0  # episodes the learner lost by an illegal action
        self._kwargs = dict(num_players=num_players, seat=seat, opponents=opponents, reward=reward,
                            render_mode=render_mode, illegal_reward=illegal_reward,
                            observation=observation, **game_options)

    @staticmethod
    def _check_opponents(opponents: Any, n: int) -> list[Opponent]:
        if opponents is None:
            return [random_opponent] * (n - 1)
        if callable(opponents) or hasattr(opponents, "act"):
            return [opponents] * (n - 1)
        opponents = list(opponents)
        if len(opponents) != n - 1:
            raise ValueError(f"opponents: give one opponent for all seats or a list of {n - 1} "
                             f"(one per other seat, in turn order after the learner); got {len(opponents)}")
        for i, o in enumerate(opponents):
            if not (callable(o) or hasattr(o, "act")):
                raise ValueError(f"opponents[{i}]={o!r} is neither a callable f(observation, rng) "
                                 "nor an agent with .act(view, rng)")
        return opponents

    # -- the Gymnasium cycle ------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        n = self.aec.game.num_players
        self.seat = self.fixed_seat if self.fixed_seat is not None else int(self.np_random.integers(n))
        self.aec.reset(seed=int(self.np_random.integers(2**63)))
        self._play_opponents()
        return self._observation(), self._info()

    def step(self, action: int):
        aec = self.aec
        require_reset(aec.game_state, "step()")
        me = aec.possible_agents[self.seat]
        if aec.terminations[me]:
            raise RuntimeError("step() called after the episode ended; call reset()")
        action = action_number(action, aec.game.layout.size)  # another type raises ActionTypeError
        if not aec.game_state.is_legal(action):
            return self._lose(action)
        aec.step(action)
        self._play_opponents()
        reward = float(aec._cumulative_rewards[me])
        terminated = aec.terminations[me]
        return self._observation(), reward, terminated, False, self._info()

    def _play_opponents(self) -> None:
        """Let the other seats act until it is the learner's decision or the game is over."""
        aec, n = self.aec, self.aec.game.num_players
        st = aec.game_state
        while not st.is_terminal() and st.current_player() != self.seat:
            seat = st.current_player()
            opponent = self.opponents[(seat - self.seat - 1) % n]
            if hasattr(opponent, "act"):
                view = SeatView(self, seat)
                act = opponent.act(view, self.np_random)
            else:
                act = opponent(self.observe(seat), self.np_random)
            try:
                act = action_number(act, aec.game.layout.size)
            except ActionTypeError as err:
                raise ActionTypeError(f"opponent of seat {seat}: {err}") from None
            if not st.is_legal(act):
                named = aec.describe_action(act) if 0 <= act < aec.game.layout.size else "not an action number"
                raise ValueError(f"opponent of seat {seat} chose an illegal action {act}: {named}; "
                                 f"legal now: {st.legal_actions()[:10].tolist()}...")
            aec.step(act)

    def _lose(self, action: int):
        st = self.aec.game_state
        try:
            st.apply(action)  # raises: the engine explains what is wrong
            raise AssertionError("unreachable: the action was found illegal")
        except IllegalActionError as err:
            message = str(err)
        self.aec.terminations = dict.fromkeys(self.aec.agents, True)
        self.illegal_actions += 1
        me = self.aec.possible_agents[self.seat]
        if self.illegal_actions == 1:
            warn_illegal_action(me, action, message, self.illegal_reward, str(self.aec))
        info = self._info()
        info["illegal_action"] = {"seat": self.seat, "action": action, "message": message}
        return self._observation(), self.illegal_reward, True, False, info

    # -- what the learner and the opponents see -----------------------------------------------------
    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """What the PettingZoo agent of ``seat`` sees now, in this env's observation style:
        ``{"observation", "action_mask"}``."""
        require_reset(self.aec.game_state, "observe()")
        return self.aec.observe(self.aec.possible_agents[seat])

    def _observation(self) -> dict[str, np.ndarray] | np.ndarray:
        observer, st = self.aec.observer, self.aec.game_state
        return observer.encode_flat(st, self.seat) if self._flat else observer.encode(st, self.seat)

    def observation_slices(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        """``{key: (start, stop, shape)}``: where each array lies in the ``"flat"`` observation."""
        return self.aec.observation_slices()

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool mask. Once the episode is over: only action 0 (pass),
        never an empty mask (a vector env's autoreset step asks its policy for an action there)."""
        st = self.aec.game_state
        require_reset(st, "action_masks()")
        if self.aec.terminations.get(self.aec.possible_agents[self.seat]) or st.is_terminal():
            mask = np.zeros(self.aec.game.layout.size, bool)
            mask[0] = True
            return mask
        if st.current_player() != self.seat:
            return np.zeros(self.aec.game.layout.size, bool)
        return st.legal_mask().astype(bool)

    def _info(self) -> dict:
        info = dict(self.aec.infos.get(self.aec.possible_agents[self.seat], {}))
        info["seat"] = self.seat
        return info

    def describe_action(self, action: int) -> str:
        return self.aec.describe_action(action)

    def render(self):
        return self.aec.render()

    # -- pickling (SubprocVecEnv and friends) -------------------------------------------------------
    def __getstate__(self) -> dict:
        return {"kwargs": self._kwargs, "seat": self.seat, "illegal_actions": self.illegal_actions,
                "np_random": None if self._np_random is None else self._np_random.bit_generator.state,
                "aec": self.aec.__getstate__()}

    def __setstate__(self, data: dict) -> None:
        self.__init__(**data["kwargs"])
        self.seat = data["seat"]
        self.illegal_actions = data["illegal_actions"]
        if data["np_random"] is not None:
            bg = np.random.PCG64()
            bg.state = data["np_random"]
            self._np_random = np.random.Generator(bg)
        self.aec._restore(data["aec"])

