"""The AEC cycle every game of the suite runs: :class:`GameEnv`, a PettingZoo ``AECEnv`` over any engine
of the engine protocol (:mod:`mk_env.core.protocol`) and an observer of the observation surface (``space``,
``flat_space``, ``slices``, ``encode``, ``encode_flat``, ``encode_state``, ``state_space``, ``state_slices``).

A game's env subclasses :class:`GameEnv` and sets what is its own: ``game_class``, ``observer_class``,
``game_over_phase`` (the engine's phase number at the end, read on the hot path), ``rendering_module`` (the
module with ``render_ansi``/``render_rgb``/``render_human``) and ``metadata`` (its PettingZoo name and render
modes); a game with teams overrides :meth:`GameEnv._teams`. Everything else is here once: the seeding, the
observation styles (``"dict"``, ``"flat"``, ``"rllib"``, :mod:`mk_env.core.env.wrappers`), the reward
schemes (:mod:`mk_env.core.env.rewards`), strict and lenient illegal actions, the final infos, rendering,
misuse before ``reset()`` (:class:`~mk_env.core.errors.ResetNeededError`) and pickling (the engine's exact
JSON, so worker processes, Ray and TorchRL's ``ParallelEnv`` carry a game mid-way).
"""

from __future__ import annotations

import importlib
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from mk_env.core.env.rewards import SCALE, check_scheme, final_rewards, totals
from mk_env.core.env.safety import safety_wrappers, warn_illegal_action
from mk_env.core.env.wrappers import check_style, state_property, style_space, styled
from mk_env.core.errors import ActionTypeError, IllegalActionError, ResetNeededError, action_number, require_reset

#: the AEC bookkeeping a pickled environment carries beside its options and the game's JSON
AEC_FIELDS = ("agents", "rewards", "_cumulative_rewards", "terminations", "truncations", "infos",
              "agent_selection", "_last_totals", "_rewards_cleared", "_illegal_counts", "_warned", "_decisions")


def wrapped_env(raw_env: type[GameEnv], num_players: int, render_mode: str | None, **kwargs: Any) -> AECEnv:
    """``raw_env`` (lenient: ``strict=False`` unless given) under the suite's safety wrappers: an illegal
    action ends the game with the offending agent losing (reward -1, others 0, ``infos[agent]
    ["illegal_action"]`` says why; the first time, a warning)."""
    kwargs.setdefault("strict", False)
    return safety_wrappers(raw_env(num_players, render_mode=render_mode, **kwargs))


class GameEnv(AECEnv):
    """A game of the suite as a PettingZoo AEC environment (see the module docstring).

    ``strict=True``: an illegal action raises the engine's :class:`~mk_env.core.errors.IllegalActionError`
    (what was chosen, why it is illegal, what is allowed) and changes nothing. ``strict=False``: the
    offending agent loses (``illegal_reward``, others 0). ``observation``: ``"dict"``, ``"flat"`` or
    ``"rllib"``; ``reward``: ``"win"``, ``"margin"`` or ``"dense"``; ``max_cycles``: the game is truncated
    (every agent's ``truncations`` True, ``infos[agent]["truncated"]`` the decisions taken, no final reward)
    once this many decisions were taken in all (None, the default: a game ends by its rules only);
    ``game_options``: the game's own. The game itself is ``game_state``; ``state()`` is PettingZoo's global
    state."""

    metadata: dict[str, Any] = {"name": "game", "render_modes": [], "is_parallelizable": False, "render_fps": 1}
    #: the game's engine (``Game(num_players, **options)``) and observation encoder (``Observer(game)``)
    game_class: type
    observer_class: type
    #: the engine's phase number once the game is over
    game_over_phase: int
    #: the module with ``render_ansi(state)``, ``render_rgb(state)`` (and ``render_human`` for "human")
    rendering_module: str = ""
    #: decisions in all before the game is truncated (None: no limit), and those taken so far under a limit
    max_cycles: int | None = None
    _decisions: int = 0

    def __init__(self, num_players: int = 4, render_mode: str | None = None, *, reward: str = "win",
                 strict: bool = True, illegal_reward: float = -1.0, observation: str = "dict",
                 max_cycles: int | None = None, **game_options: Any):
        super().__init__()
        if max_cycles is not None and (isinstance(max_cycles, bool) or not isinstance(max_cycles, int)
                                       or max_cycles < 1):
            raise ValueError(f"max_cycles={max_cycles!r} is not allowed; use None (no limit) or a whole number "
                             f">= 1 (decisions in all before the game is truncated)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode={render_mode!r} is not allowed; use None or one of "
                             f"{', '.join(self.metadata['render_modes'])}")
        self.game = self.game_class(num_players, **game_options)  # bad options raise the engine's ConfigError
        self._options = dict(num_players=num_players, render_mode=render_mode, reward=reward,
                             strict=strict, illegal_reward=illegal_reward, observation=observation,
                             max_cycles=max_cycles, **game_options)
        if max_cycles is not None:  # (else the class's None: no instance attribute on the hot path)
            self.max_cycles = max_cycles
        self.render_mode = render_mode
        self.reward_scheme = check_scheme(reward)
        self.strict = bool(strict)
        self.illegal_reward = float(illegal_reward)
        self.observation_style = check_style(observation)
        self.observer = self.observer_class(self.game)
        self.possible_agents = [f"player_{p}" for p in range(self.game.num_players)]
        self.agent_seat = {a: p for p, a in enumerate(self.possible_agents)}
        n_actions = self.game.layout.size
        self._observation_space = style_space(self.observation_style, self.observer, n_actions)
        self._action_space = spaces.Discrete(n_actions)
        self.state_space = self.observer.state_space
        self._seeder = np.random.default_rng()
        self.game_state: Any = None
        self._last_totals: list[int] = []
        self._rewards_cleared = False  # every entry of self.rewards is 0 since the last clear
        self._game_over = int(self.game_over_phase)
        self._illegal_counts = dict.fromkeys(self.possible_agents, 0)  # games lost by an illegal action
        self._warned = False  # the first illegal action has been reported by a warning
        self._team_info = self._teams()

    def _teams(self) -> dict[str, dict[str, Any]]:
        """Per agent, what its final infos say of its team (a game without teams: nothing)."""
        return {a: {} for a in self.possible_agents}

    # -- spaces -------------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def observation_slices(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        """``{key: (start, stop, shape)}``: where each observation array lies in the flat vector."""
        return dict(self.observer.slices)

    # -- PettingZoo's global state -----------------------------------------------------------------
    state = state_property(lambda env: env._global_state)

    def _global_state(self) -> np.ndarray:
        require_reset(self.game_state, "state()")
        return self.observer.encode_state(self.game_state)

    def state_slices(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        """``{part: (start, stop, shape)}``: where each part lies in ``state()``."""
        return dict(self.observer.state_slices)

    # -- the AEC cycle ------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._seeder = np.random.default_rng(seed)
        self.game_state = self.game.new_initial_state(int(self._seeder.integers(2**63)))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._last_totals = totals(self.game_state) if self.reward_scheme == "dense" else []
        self.agent_selection = self.possible_agents[self.game_state.current_player()]
        self._rewards_cleared = False  # the first step clears them (PettingZoo's int 0s)
        if self.max_cycles is not None:
            self._decisions = 0

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The observation of ``agent`` in this environment's style (the mask is all zeros when it is
        not that agent's decision)."""
        return self.observe_seat(self.agent_seat[agent], self.observation_style)

    def observe_seat(self, seat: int, style: str) -> dict[str, np.ndarray]:
        """The observation of ``seat`` in ``style`` (``"dict"``, ``"flat"`` or ``"rllib"``)."""
        st = self.game_state
        if st is None:  # inline: the hot path (require_reset says the same)
            raise ResetNeededError("observe()")
        if st.current_player() == seat and st.phase != self._game_over:
            mask = st.legal_mask()
        else:
            mask = np.zeros(self.game.layout.size, np.int8)
        if style == "dict":
            return {"observation": self.observer.encode(st, seat), "action_mask": mask}
        return styled(style, self.observer.encode_flat(st, seat), mask)

    def last(self, observe: bool = True) -> tuple:
        """PettingZoo's ``last()``; before ``reset()`` a :class:`~mk_env.core.errors.ResetNeededError`."""
        require_reset(self.game_state, "last()")
        return super().last(observe)

    def step(self, action: int | None) -> None:
        if self.game_state is None:  # inline: the hot path
            raise ResetNeededError("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is alive and must act; None is only for finished agents")
        self._cumulative_rewards[agent] = 0.0
        if not self._rewards_cleared:  # rewards left from the previous step: clear them
            self._clear_rewards()
            self._rewards_cleared = True
        try:
            self.game_state.apply(action)
        except ActionTypeError:  # not an action number at all: the caller's bug, never a move
            raise
        except IllegalActionError as err:
            if self.strict:
                raise
            self._rewards_cleared = False
            self._lose_by_illegal_action(agent, action, str(err))
            return
        st = self.game_state
        if self.reward_scheme == "dense":
            self._rewards_cleared = False
            now = totals(st)
            for p, a in enumerate(self.possible_agents):
                self.rewards[a] = (now[p] - self._last_totals[p]) / SCALE
            self._last_totals = now
        if st.phase == self._game_over:
            self._rewards_cleared = False
            self._finish()
        else:
            self.agent_selection = self.possible_agents[st.current_player()]
            if self.max_cycles is not None:  # (decisions are counted only under a limit: the hot path)
                self._decisions += 1
                if self._decisions >= self.max_cycles:
                    self._truncate()
        if not self._rewards_cleared:  # (adding cleared rewards, all 0, would change nothing)
            self._accumulate_rewards()

    def _ranks_and_returns(self, final_totals: list[int]) -> tuple[list[int], list[float]]:
        """The engine's ranks (0 = winner; ties share) and returns at the end (a game may reuse the totals)."""
        st = self.game_state
        return st.ranks(), st.returns()

    def _finish(self) -> None:
        """The end: each agent's reward, ``score_breakdown``, ``rank``, ``illegal_actions`` (and its team)."""
        st = self.game_state
        breakdowns = [st.score_breakdown(p) for p in range(st.num_players)]
        final_totals = [b["total"] for b in breakdowns]
        ranks, returns = self._ranks_and_returns(final_totals)
        final = final_rewards(st, self.reward_scheme, final_totals, returns)
        for p, a in enumerate(self.possible_agents):
            self.rewards[a] += final[p]
            self.terminations[a] = True
            self.infos[a] = {"score_breakdown": breakdowns[p], "rank": int(ranks[p]),
                             "illegal_actions": self._illegal_counts[a], **self._team_info[a]}

    def _truncate(self) -> None:
        """``max_cycles`` reached: every agent truncated, the game left as it stands (no final reward)."""
        for a in self.agents:
            self.truncations[a] = True
            self.infos[a] = {"truncated": self._decisions, "illegal_actions": self._illegal_counts[a],
                             **self._team_info[a]}

    def _lose_by_illegal_action(self, agent: str, action: Any, message: str) -> None:
        self._illegal_counts[agent] += 1
        if not self._warned:
            self._warned = True
            warn_illegal_action(agent, action, message, self.illegal_reward, str(self))
        report = {"agent": agent, "action": action, "message": message}
        for a in self.agents:
            self.rewards[a] = self.illegal_reward if a == agent else 0.0
            self.terminations[a] = True
            self.infos[a] = {"illegal_action": report, "illegal_actions": self._illegal_counts[a],
                             **self._team_info[a]}
        self._accumulate_rewards()

    # -- helpers ------------------------------------------------------------------------------------
    def describe_action(self, action: int) -> str:
        """The engine's sentence for an action number."""
        return self.game.layout.describe(action_number(action, self.game.layout.size))

    def _rendering(self) -> Any:
        try:
            return importlib.import_module(self.rendering_module)
        except ModuleNotFoundError as err:
            raise RuntimeError(f"rendering needs {self.rendering_module} (render_ansi, render_rgb), which is not "
                               f"installed: {err}") from err

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            modes = " or ".join(repr(m) for m in self.metadata["render_modes"])
            gymnasium.logger.warn(f"render() called without a render_mode; pass render_mode={modes} when "
                                  "creating the environment")
            return None
        require_reset(self.game_state, "render()")
        rendering = self._rendering()
        if self.render_mode == "ansi":
            return rendering.render_ansi(self.game_state)
        if self.render_mode == "rgb_array":
            return rendering.render_rgb(self.game_state)
        rendering.render_human(self.game_state)
        return None

    def close(self) -> None:
        """Closes the window of the "human" render mode, if one was opened."""
        if self.render_mode != "human":
            return
        try:
            close_human = getattr(importlib.import_module(self.rendering_module), "close_human", None)
        except ImportError:
            return
        if close_human is not None:
            close_human()

    def __str__(self) -> str:
        return self.metadata["name"]

    # -- pickling (worker processes, Ray, TorchRL's ParallelEnv): the engine's exact JSON -------------
    def __getstate__(self) -> dict[str, Any]:
        st = self.game_state
        return {"options": self._options, "game_state": None if st is None else st.to_json(),
                "seeder": self._seeder.bit_generator.state,
                "aec": {k: getattr(self, k) for k in AEC_FIELDS if k in vars(self)}}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.__init__(**data["options"])
        self._restore(data)

    def _restore(self, data: dict[str, Any]) -> None:
        """Continue the game of a :meth:`__getstate__` snapshot (an environment with its options)."""
        self._seeder.bit_generator.state = data["seeder"]
        if data["game_state"] is not None:
            self.game_state = self.game.state_from_json(data["game_state"])
        for k, v in data["aec"].items():
            setattr(self, k, v)
