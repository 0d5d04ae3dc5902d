"""PettingZoo's safety wrappers for every AEC environment of the suite, made fast, and the illegal-action
warning. :func:`safety_wrappers` is what each game's ``env()`` puts around its ``raw_env``: the action
bounds check (with a fast path for a plain int inside the action space) and the call-order checks (reading
the environment directly once it is reset). A raw environment needs ``game.layout.size`` (its number of
actions), ``agents`` and ``agent_selection``."""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from mk_env.core.errors import action_number

from .wrappers import state_property


def safety_wrappers(raw: AECEnv) -> AECEnv:
    """``raw`` inside the bounds check and the order checks (PettingZoo's ``env()`` convention)."""
    return _OrderWrapper(_BoundsWrapper(raw))


class _BoundsWrapper(wrappers.AssertOutOfBoundsWrapper):
    """PettingZoo's ``AssertOutOfBoundsWrapper`` with a fast path for the usual action (a plain int
    inside the action space), which its check accepts anyway; anything else takes its check."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._n_actions = env.unwrapped.game.layout.size

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._n_actions:
            self.env.step(action)
        else:  # a numpy integer or a 0-d integer array is the same action; other types raise
            super().step(None if action is None else action_number(action, self._n_actions))

    state = state_property(lambda env: env.env.state)


class _OrderWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper`` whose ``last()``, ``step()`` and ``agent_iter()`` reach
    the environment directly once it has been reset: the same checks, without a chain of
    ``__getattr__`` calls per attribute read."""

    def __init__(self, env: AECEnv):
        super().__init__(env)
        self._raw = env.unwrapped

    def last(self, observe: bool = True) -> tuple:
        if not self._has_reset:
            return super().last(observe)
        return self._raw.last(observe)

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            return super().agent_iter(max_iter)
        return _OrderIterable(self, max_iter)

    state = state_property(lambda env: lambda: wrappers.OrderEnforcingWrapper.state(env))

    def __str__(self) -> str:
        return str(self.env)


class _OrderIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> AECOrderEnforcingIterator:
        return _OrderIterator(self.env, self.max_iter)


class _OrderIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the environment's attributes directly."""

    def __next__(self) -> str:
        raw = self.env._raw
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert self.env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        self.env._has_updated = False
        return raw.agent_selection


def warn_illegal_action(agent: str, action: Any, message: str, reward: float, name: str) -> None:
    """PettingZoo's illegal-move warning, naming the environment, the agent, the action and why it is illegal."""
    from pettingzoo.utils.env_logger import EnvLogger

    EnvLogger._generic_warning(
        f"[WARNING]: {name}: {agent} chose an illegal action, {action!r}: {message}. The game ends "
        f"with {agent} losing (reward {reward:g}); choose actions where obs['action_mask'] is 1. Later "
        "illegal actions of this environment are counted in infos[agent]['illegal_actions'] without a "
        "warning.")
