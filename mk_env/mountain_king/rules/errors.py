"""The engine's errors about decisions: an illegal one, one that is not an action number at all, and a
game that cannot go on; and :func:`action_number`, which reads an action the way the engine does."""

from __future__ import annotations

import numpy as np


class IllegalActionError(ValueError):
    """An illegal decision: says which, why, and what is allowed. The state is left unchanged."""


class ActionTypeError(IllegalActionError, TypeError):
    """Not an action number at all (a float, a bool, a string, an array of another shape); both an
    :class:`IllegalActionError` and a ``TypeError``."""


class StalledGameError(RuntimeError):
    """The game cannot go on: a whole round of turns passed with only forced passes while the end is not
    triggered, so the same round would repeat forever. A valid pack never gets here (the loader refuses
    packs whose games cannot end); the error names the turn and the pack."""


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
