"""Observation styles and the public :class:`FlattenObservation` wrapper, shared by the suite's games.

Every AEC environment of the suite observes in one of three styles (``observation=`` of
:func:`mk_env.mountain_king.env` and :class:`mk_env.raw_env`):

* ``"dict"`` (default): ``{"observation": Dict of float32 Boxes, "action_mask": int8[N]}``;
* ``"flat"``: ``{"observation": float32[D], "action_mask": int8[N]}``;
* ``"rllib"``: ``{"observations": float32[D], "action_mask": float32[N]}`` (the keys and the float
  mask of Ray RLlib's action-masking modules).

The flat vector is the dict's arrays, each flattened in C order, in the observation space's key
order (gymnasium's ``Dict`` sorts its keys), so it equals
``gymnasium.spaces.flatten(space["observation"], obs["observation"])``; each game's ``observation_slices()``
gives each array's ``(start, stop, shape)`` in it. The environment builds the dict as views onto one
flat buffer, so the flat styles cost no extra copy.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import BaseWrapper

OBSERVATION_STYLES = ("dict", "flat", "rllib")


def check_style(style: str, allowed: tuple[str, ...] = OBSERVATION_STYLES) -> str:
    """``style`` if it is one of ``allowed``, else a ``ValueError`` naming what is allowed."""
    if style not in allowed:
        raise ValueError(f"observation={style!r} is not allowed; use one of {', '.join(map(repr, allowed))}")
    return style


def style_space(style: str, observer: Any, n_actions: int) -> spaces.Dict:
    """The observation space of one agent in ``style``."""
    if style == "dict":
        return spaces.Dict({"observation": observer.space,
                            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
    if style == "flat":
        return spaces.Dict({"observation": observer.flat_space,
                            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8)})
    return spaces.Dict({"observations": observer.flat_space,
                        "action_mask": spaces.Box(0.0, 1.0, (n_actions,), np.float32)})


def styled(style: str, flat: np.ndarray, mask: np.ndarray) -> dict[str, np.ndarray]:
    """The observation of a flat style from the flat vector and the int8 mask."""
    if style == "flat":
        return {"observation": flat, "action_mask": mask}
    return {"observations": flat, "action_mask": mask.astype(np.float32)}


class StateMethod:
    """``env.state``: PettingZoo's ``state()`` method (call it). Old code that reads a game-state
    attribute from it (``env.state.legal_actions()``) gets an error saying where the game state went."""

    __slots__ = ("_call",)

    def __init__(self, call: Callable[[], np.ndarray]):
        self._call = call

    def __call__(self) -> np.ndarray:
        return self._call()

    def __getattr__(self, name: str) -> Any:
        raise AttributeError(f"`state` is now PettingZoo's state() method; the game state is `game_state` "
                             f"(env.unwrapped.game_state.{name})")

    def __repr__(self) -> str:
        return "<PettingZoo's state() method; the game state is env.unwrapped.game_state>"


def state_property(call: Callable[[Any], Callable[[], np.ndarray]]) -> property:
    """A ``state`` attribute for an environment class: a :class:`StateMethod` around ``call(env)``."""
    return property(lambda env: StateMethod(call(env)),
                    doc="PettingZoo's state(): the full-information global state (see state_space)")


class FlattenObservation(BaseWrapper):
    """Any AEC environment of the suite, observed in the ``"flat"`` or ``"rllib"`` style.

    >>> import mk_env
    >>> env = mk_env.env.FlattenObservation(mk_env.env(num_players=2), style="rllib")

    Wrapping an environment that already observes in a flat style converts between the two; the dict
    style is flattened without a copy when its arrays are the environment's own views.
    """

    def __init__(self, env: AECEnv, style: str = "flat"):
        super().__init__(env)
        self.style = check_style(style, ("flat", "rllib"))
        raw = env.unwrapped
        self._observer: Any = raw.observer
        self._space = style_space(self.style, self._observer, raw.game.layout.size)

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._space

    def observe(self, agent: str) -> dict[str, np.ndarray] | None:
        obs = self.env.observe(agent)
        if obs is None:
            return None
        inner = obs["observation"] if "observation" in obs else obs["observations"]
        flat = self._observer.flatten(inner) if isinstance(inner, dict) else inner
        mask = np.asarray(obs["action_mask"]).astype(np.int8, copy=False)
        return styled(self.style, flat, mask)

    state = state_property(lambda env: env.env.state)

    def __str__(self) -> str:
        return str(self.env)
