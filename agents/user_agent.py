"""A user's own agent named ``module:Name`` (``mypkg.mine:MyAgent``), wherever a spec string goes.

``Name`` is looked up in ``module`` (imported with the current folder on the path, as a script's own modules
are). A class is built with no arguments; the object (or ``Name`` itself, when it is not a class) is then:

* an agent of the suite's protocol (it has ``act(view, rng)``, :mod:`agents.base`): used as it is;
* else a *policy*, any callable ``policy(observation, action_mask) -> action``: ``observation`` is the game's
  own observation dict for the seat (what the game's PettingZoo env gives that agent under
  ``"observation"``), ``action_mask`` its int8 mask over the game's flat action space. A forced decision (one
  legal action) is taken without asking it.

An action that is not legal is refused with an error naming the agent, the action and how many were legal;
it never reaches the game. The few lines of a policy::

    import numpy as np

    class FirstLegal:
        def __call__(self, observation, action_mask):
            return int(np.flatnonzero(action_mask)[0])

``mk-env evaluate mine:FirstLegal --game cave_troll --players 3`` then gives its benchmark card.
"""

from __future__ import annotations

import importlib
import inspect
import os
import sys
from typing import Any

import numpy as np

from mk_env.core.errors import IllegalActionError
from mk_env.core.view import PlayerView
from mk_env.games import game_name

from .base import BaseAgent
from .policy_description import env_module

def user_agent(spec: str) -> Any:
    """The agent named by ``module:Name`` (see the module docstring)."""
    module_name, _, attr_path = spec.partition(":")
    obj = _import(spec, module_name)
    for attr in attr_path.split("."):
        try:
            obj = getattr(obj, attr)
        except AttributeError:
            raise ValueError(f"agent spec {spec!r}: module {module_name!r} has no {attr_path!r}") from None
    if inspect.isclass(obj):
        try:
            obj = obj()
        except TypeError as e:
            raise ValueError(f"agent spec {spec!r}: {attr_path}() must build with no arguments: {e}") from None
    if callable(getattr(obj, "act", None)):
        if not callable(getattr(obj, "reset", None)):
            obj = ProtocolAgent(obj)
        return obj
    if callable(obj):
        return PolicyAgent(obj, spec)
    raise ValueError(f"agent spec {spec!r}: {attr_path} is neither an agent (act(view, rng)) nor a policy "
                     f"(policy(observation, action_mask) -> action), but a {type(obj).__name__}")


def _import(spec: str, module_name: str) -> Any:
    """``module_name`` imported, the current folder on the path (a module that is not there: ValueError)."""
    here = os.getcwd()
    if here not in sys.path:
        sys.path.append(here)
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is None or not (module_name == e.name or module_name.startswith(e.name + ".")):
            raise  # the module is there; something it imports is not
        raise ValueError(f"agent spec {spec!r}: no module {module_name!r} here or installed (a module:Name "
                         f"spec names a module on the path or in the current folder)") from None


class ProtocolAgent(BaseAgent):
    """A user's agent with ``act`` but no ``reset``: given the suite's no-op one."""

    def __init__(self, inner: Any):
        self.inner = inner

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        return self.inner.act(view, rng)


class PolicyAgent(BaseAgent):
    """A ``policy(observation, action_mask) -> action`` on the game's own observation of the seat."""

    def __init__(self, policy: Any, spec: str):
        self.policy, self.name = policy, spec
        self._game: Any = None
        self._observer: Any = None

    def act(self, view: PlayerView, rng: np.random.Generator) -> int:
        legal = view.legal_actions()
        if len(legal) == 1:
            return int(legal[0])
        mask = view.legal_mask()
        action = self.policy(self.observation(view), mask)
        try:
            number = int(action)
        except (TypeError, ValueError):
            raise IllegalActionError(f"agent {self.name!r} returned {action!r}, not an action number "
                                     f"(a legal one of its action_mask)") from None
        if number != action or not 0 <= number < len(mask) or not mask[number]:
            raise IllegalActionError(f"agent {self.name!r} chose action {action!r}, which is not legal here "
                                     f"({len(legal)} legal actions: those where action_mask is 1)")
        return number

    def observation(self, view: PlayerView) -> dict[str, np.ndarray]:
        """The seat's observation dict, as its game's env shows it (encoded from the view's public facts)."""
        if view.game is not self._game:
            observer_class = env_module(game_name(view.game)).raw_env.observer_class
            self._game, self._observer = view.game, observer_class(view.game)
        return self._observer.encode(view.public_state(), view.seat)
