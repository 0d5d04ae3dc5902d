"""The engine's errors about decisions: an illegal one, one that is not an action number at all (both
shared by the suite's games, :mod:`mk_env.core.errors`), and a game that cannot go on; and
:func:`action_number`, which reads an action the way the engine does."""

from __future__ import annotations

from mk_env.core.errors import ActionTypeError, IllegalActionError, action_number

__all__ = ["ActionTypeError", "IllegalActionError", "StalledGameError", "action_number"]


class StalledGameError(RuntimeError):
    """The game cannot go on: a whole round of turns passed with only forced passes while the end is not
    triggered, so the same round would repeat forever. A valid pack never gets here (the loader refuses
    packs whose games cannot end); the error names the turn and the pack."""
