"""What code above the rules may ask of a state, in the game's words.

Agents, records, renderers and invariant checks read a :class:`~mk_env.mountain_king.rules.state.GameState` through
these functions (and the state's own methods: ``legal_actions``, ``score_breakdown``, ...), never
through the turn machinery (``turn``) or the layout of the sub-decision under way (``state.pending``):
when the engine changes how it keeps a decision in progress, only this module follows.

>>> from mk_env.mountain_king.rules import Game, Phase, queries
>>> st = Game(2).new_initial_state(0)
>>> queries.phase(st) == Phase.GATE, queries.in_final_round(st)
(True, False)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import spells
from .economy import owned as resources_owned
from .statues import statue_destinations

if TYPE_CHECKING:
    from .content import Spell
    from .state import GameState

__all__ = ["phase", "in_final_round", "spell_being_cast", "tunnel_being_dug",
           "statue_being_moved", "statue_destinations", "resources_owned"]


def phase(st: GameState) -> int:
    """The kind of decision awaited (a :class:`~mk_env.mountain_king.rules.vocabulary.Phase` number;
    ``st.decision_kind()`` is its name)."""
    return st.phase


def in_final_round(st: GameState) -> bool:
    """True once the coronation is complete: the last turns are being played (rulebook, "End of the
    game")."""
    return st.final_turns_left >= 0


def spell_being_cast(st: GameState) -> Spell:
    """The spell whose choices are awaited (in the ``SPELL_*`` phases and the dig or statue move a
    spell opened)."""
    _under_way(st, st.pending.spell, "spell being cast")
    return spells.spell_being_cast(st)


def tunnel_being_dug(st: GameState) -> int:
    """The tunnel placement (``geo.tunnel_placements`` index) of the dig under way, in the phases that
    finish a dig (mineral, pedestal, workshop)."""
    return _under_way(st, st.pending.dig, "dig under way")


def statue_being_moved(st: GameState) -> int:
    """The board square of the statue selected to move (``STATUE_DEST``)."""
    return _under_way(st, st.pending.statue_square, "statue selected to move")


def _under_way(st: GameState, value: int | None, what: str) -> int:
    """``value`` (a field of the sub-decision under way); a ``LookupError`` naming the phase when the
    decision awaited has none."""
    if value is None:
        raise LookupError(f"no {what} in phase {st.decision_kind()!r}")
    return int(value)
