"""A single-seat Gymnasium view of the game, for single-agent learners (Stable-Baselines3, sb3-contrib).

The learner plays one seat (fixed, or drawn at each reset); the other seats are played by opponents
inside :meth:`SingleSeatEnv.step`. An opponent is either

* a callable ``f(observation_dict, rng) -> action``, where ``observation_dict`` is exactly what the
  PettingZoo agent of that seat would see (``{"observation": ..., "action_mask": ...}``, see
  :meth:`SingleSeatEnv.observe`), or
* an agent object with ``.act(view, rng)`` (the protocol of ``agents/``), which receives a
  :class:`~mk_env.rules.view.PlayerView` of its seat (``view.observation()`` gives the same dict).

The default opponent plays uniformly at random among legal actions.

Observation space: the flat ``Dict`` of ``Box``es of the PettingZoo observation (its inner
``observation`` dict, no ``action_mask`` key); the mask is served by :meth:`SingleSeatEnv.action_masks`
(sb3-contrib's ``MaskablePPO`` hook). The reward is the learner's: everything the AEC env gives its
agent between two of its decisions, so the terminal reward reaches the learner even when an
opponent's move ends the game. An illegal action by the learner ends the episode as a loss
(``illegal_reward``, ``info["illegal_action"]`` says why); an illegal action by an opponent raises.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium
import numpy as np

from mk_env.rules.view import PlayerView

from .aec import raw_env
from .masks import random_legal_action

Opponent = Callable[[dict, np.random.Generator], int] | Any


def random_opponent(observation: dict, rng: np.random.Generator) -> int:
    """Uniformly random among the legal actions of ``observation["action_mask"]``."""
    return random_legal_action(observation["action_mask"], rng)


class SingleSeatEnv(gymnasium.Env):
    """One learner seat against opponents; see the module docstring."""

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 1}

    def __init__(self, num_players: int = 2, seat: int | None = None,
                 opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                 render_mode: str | None = None, illegal_reward: float = -1.0, **game_options: Any):
        self.aec = raw_env(num_players, render_mode=render_mode, reward=reward, strict=True,
                           **game_options)
        n = self.aec.game.num_players
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, (int, np.integer))
                                 or not 0 <= seat < n):
            raise ValueError(f"seat={seat!r} is not allowed; use None (random each episode) or "
                             f"0..{n - 1}")
        self.fixed_seat = None if seat is None else int(seat)
        self.opponents = self._check_opponents(opponents, n)
        self.render_mode = render_mode
        self.illegal_reward = float(illegal_reward)
        self.observation_space = self.aec.observer.space
        self.action_space = self.aec.action_space(self.aec.possible_agents[0])
        self.seat = self.fixed_seat if self.fixed_seat is not None else 0
        self._kwargs = dict(num_players=num_players, seat=seat, opponents=opponents, reward=reward,
                            render_mode=render_mode, illegal_reward=illegal_reward, **game_options)

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
        me = aec.possible_agents[self.seat]
        if aec.terminations[me]:
            raise RuntimeError("step() called after the episode ended; call reset()")
        if isinstance(action, np.ndarray) and action.ndim == 0:
            action = action.item()
        if not (_is_int(action) and aec.state.is_legal(int(action))):
            return self._lose(action)
        aec.step(int(action))
        self._play_opponents()
        reward = float(aec._cumulative_rewards[me])
        terminated = aec.terminations[me]
        return self._observation(), reward, terminated, False, self._info()

    def _play_opponents(self) -> None:
        """Let the other seats act until it is the learner's decision or the game is over."""
        aec, n = self.aec, self.aec.game.num_players
        while not aec.state.is_terminal() and aec.state.current_player() != self.seat:
            seat = aec.state.current_player()
            opponent = self.opponents[(seat - self.seat - 1) % n]
            obs = self.observe(seat)
            if hasattr(opponent, "act"):
                view = PlayerView(aec.state, seat, observe=lambda s=seat: self.observe(s))
                act = opponent.act(view, self.np_random)
            else:
                act = opponent(obs, self.np_random)
            if not _is_int(act) or not obs["action_mask"][int(act)]:
                raise ValueError(f"opponent of seat {seat} chose an illegal action {act!r}: "
                                 f"{aec.describe_action(act) if _is_int(act) and 0 <= int(act) < len(obs['action_mask']) else 'not an action number'}; "
                                 f"legal now: {np.flatnonzero(obs['action_mask'])[:10].tolist()}...")
            aec.step(int(act))

    def _lose(self, action: Any):
        st = self.aec.state
        try:
            st.apply(action)  # raises: the engine explains what is wrong
            raise AssertionError("unreachable: the action was found illegal")
        except Exception as err:  # noqa: BLE001 - IllegalActionError, or a bad type
            message = str(err)
        self.aec.terminations = dict.fromkeys(self.aec.agents, True)
        info = self._info()
        info["illegal_action"] = {"seat": self.seat, "action": action, "message": message}
        return self._observation(), self.illegal_reward, True, False, info

    # -- what the learner and the opponents see -----------------------------------------------------
    def observe(self, seat: int) -> dict[str, np.ndarray]:
        """What the PettingZoo agent of ``seat`` sees now: ``{"observation", "action_mask"}``."""
        return self.aec.observe(self.aec.possible_agents[seat])

    def _observation(self) -> dict[str, np.ndarray]:
        return self.aec.observer.encode(self.aec.state, self.seat)

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a bool mask (all False once the game is over)."""
        st = self.aec.state
        if st.is_terminal() or st.current_player() != self.seat:
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
        st = self.aec.state
        return {"kwargs": self._kwargs, "seat": self.seat,
                "state": None if st is None else st.to_json(),
                "np_random": None if self._np_random is None else self._np_random.bit_generator.state,
                "aec": {k: getattr(self.aec, k, None) for k in (
                    "agents", "rewards", "_cumulative_rewards", "terminations", "truncations",
                    "infos", "agent_selection", "_last_totals")},
                "seeder": self.aec._seeder.bit_generator.state}

    def __setstate__(self, data: dict) -> None:
        self.__init__(**data["kwargs"])
        self.seat = data["seat"]
        if data["np_random"] is not None:
            bg = np.random.PCG64()
            bg.state = data["np_random"]
            self._np_random = np.random.Generator(bg)
        self.aec._seeder.bit_generator.state = data["seeder"]
        if data["state"] is not None:
            self.aec.state = self.aec.game.state_from_json(data["state"])
            for k, v in data["aec"].items():
                setattr(self.aec, k, v)


def _is_int(x: Any) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def single_seat_env(num_players: int = 2, seat: int | None = None,
                    opponents: Opponent | Sequence[Opponent] | None = None, reward: str = "win",
                    **game_options: Any) -> SingleSeatEnv:
    """A :class:`SingleSeatEnv` (a ``gymnasium.Env``) for one learner seat; see its module."""
    return SingleSeatEnv(num_players, seat=seat, opponents=opponents, reward=reward, **game_options)
