"""The agent protocol and the registry of agent spec strings.

Every agent implements ``act(view, rng) -> int``: given a :class:`~mk_env.rules.view.PlayerView` (the
legal decisions and public facts of one seat, plus determinized copies) it returns one legal action
number. ``reset(seat, num_players)`` is called before each game. Agents never see the true state.

Spec strings name agents on the command line: ``random``, ``heuristic``, ``mcts``, ``mcts:400``
(simulations per decision), ``mcts:2s`` (seconds per decision), ``ppo:PATH`` (a trained policy).
"""

from __future__ import annotations

from typing import Callable, Protocol, runtime_checkable

import numpy as np

from mk_env.rules.view import PlayerView


@runtime_checkable
class Agent(Protocol):
    """One seat's decision maker."""

    name: str

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        """A legal action number for the seat of ``view``."""
        ...

    def reset(self, seat: int, num_players: int) -> None:
        """Forget the previous game (optional)."""
        ...


class BaseAgent:
    """Convenience base: a name and a no-op :meth:`reset`."""

    name = "agent"

    def reset(self, seat: int, num_players: int) -> None:  # noqa: D401 - protocol hook
        self.seat, self.num_players = seat, num_players

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:  # pragma: no cover
        raise NotImplementedError


#: kind -> factory taking the text after the colon ("" when absent)
_FACTORIES: dict[str, Callable[[str], Agent]] = {}
_HELP: dict[str, str] = {}


def register_agent(kind: str, factory: Callable[[str], Agent], help_text: str) -> None:
    """Make ``kind`` (and ``kind:ARG``) a valid spec string."""
    _FACTORIES[kind] = factory
    _HELP[kind] = help_text


def agent_kinds() -> dict[str, str]:
    """Spec kinds with a one-line description each."""
    _load_builtins()
    return dict(_HELP)


def make_agent(spec: str) -> Agent:
    """Build the agent named by a spec string, e.g. ``"heuristic"`` or ``"mcts:400"``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}; "
                         f"allowed: {', '.join(_allowed())}")
    _load_builtins()
    kind, _, arg = spec.strip().partition(":")
    factory = _FACTORIES.get(kind)
    if factory is None:
        raise ValueError(f"unknown agent spec {spec!r}: kind {kind!r} is not one of "
                         f"{', '.join(_allowed())}")
    agent = factory(arg)
    agent.name = spec.strip()
    return agent


def _allowed() -> list[str]:
    _load_builtins()
    return [f"{k} ({h})" for k, h in _HELP.items()]


def _load_builtins() -> None:
    """Import the built-in agent modules (each registers its kind on import)."""
    from . import heuristic, mcts, ppo, random_agent  # noqa: F401
