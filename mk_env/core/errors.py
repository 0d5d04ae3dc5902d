"""The errors every game's engine raises, shared so that code above the rules catches one class whatever
the game: an illegal decision, one that is not an action number at all, a bad game option, a bad content
pack, a saved state that cannot be loaded; and :func:`action_number`, which reads an action the way every
engine does."""

from __future__ import annotations

import numpy as np


class IllegalActionError(ValueError):
    """An illegal decision: says which, why, and what is allowed. The state is left unchanged."""


class ActionTypeError(IllegalActionError, TypeError):
    """Not an action number at all (a float, a bool, a string, an array of another shape); both an
    :class:`IllegalActionError` and a ``TypeError``."""


class ConfigError(ValueError):
    """A bad game option: names the option, the value given and what is allowed."""


class StateError(ValueError):
    """A saved state that cannot be loaded: corrupt, truncated, from another pack or format, or impossible
    (a fact no game could reach); the message names the field and what is allowed."""


class ResetNeededError(RuntimeError):
    """An environment used before its first ``reset()``: it has no game yet; says which call was made."""

    def __init__(self, call: str) -> None:
        super().__init__(f"reset() needs to be called before {call}: the environment has no game yet "
                         f"(call env.reset(seed=...) first)")


def require_reset(game_state: object, call: str) -> None:
    """Raise :class:`ResetNeededError` naming ``call`` when ``game_state`` is None (no ``reset()`` yet)."""
    if game_state is None:
        raise ResetNeededError(call)


class RetiredVersionError(ImportError):
    """An environment version this mk_env no longer provides; names the version to use instead."""


class PackError(ValueError):
    """A content pack is missing, unreadable or inconsistent; the message names the file and the field."""

    def __init__(self, file: str, field: str, message: str) -> None:
        self.file = file
        self.field = field
        super().__init__(f"{file}: {field}: {message}" if field else f"{file}: {message}")


def action_number(action: object, size: int | None = None) -> int:
    """``action`` as a Python int. A Python int, a numpy integer and a 0-d integer array (what
    Stable-Baselines3's ``model.predict`` returns) are the same action; anything else raises
    :class:`ActionTypeError` naming its type and what is allowed (``size``: the action-space size)."""
    if type(action) is int:
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        return int(action)
    if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
        return int(action)
    what = f"{type(action).__name__}" + (f" of shape {action.shape} and dtype {action.dtype}"
                                         if isinstance(action, np.ndarray) else "")
    space = "" if size is None else f" in 0..{size - 1}"
    raise ActionTypeError(f"an action must be an integer action number{space} (a Python int, a numpy "
                          f"integer or a 0-d integer array), got {action!r} of type {what}")
