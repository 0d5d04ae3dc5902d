"""Load and validate a content pack (``mk_env/mountain_king/data/<pack>/``) into a :class:`ContentPack`.

A pack is a folder with a manifest ``pack.json`` that names the other files (board maps in a text format,
tunnels, trolls, spells, workshops and great halls in JSON) and holds the charts and component counts.
Everything is checked once, here; every error is a :class:`PackError` whose message names the file and
the field, e.g. ``spells.json: spells[3].effect: unknown effect 'foo'; allowed: ...``.

Public API:

* :func:`load_pack` -- the whole pack (``None`` = the default pack), cached by content: a pack edited on
  disk is loaded again (each call compares the files' sizes and modification times, and a changed file
  is read and hashed; identical content gives the very same :class:`ContentPack` object).
* :data:`LIMITS`, :data:`RULE_RANGES` and :data:`FIXED_RULES` -- the bounds on every number of a pack, the
  editable rule numbers' ranges, and the rule numbers the engine's geometry fixes (a pack may restate
  them, not change them).
* :func:`parse_board` -- one board side from its text map (tests build small ASCII boards with it).
* :class:`PackError` -- a ``ValueError`` raised for any problem in a pack.

The modules, one per part of a pack: :mod:`.fields` (reading files and JSON values with limits),
:mod:`.boards` (the board maps), :mod:`.cards` (tunnels, trolls, workshops, great halls), :mod:`.spells`,
:mod:`.numbers` (the rule numbers, coronation tokens, the action-space bound), :mod:`.manifest` (the
manifest and the whole pack's cross-checks) and :mod:`.cache` (:func:`load_pack`).

Only the standard library, numpy and :mod:`mk_env.mountain_king.rules.content` are imported, so the rules layer stays
free of anything heavier.
"""

from .boards import parse_board
from .cache import load_pack
from .fields import DEFAULT_PACK_DIR, LIMITS, PackError, short_repr
from .numbers import FIXED_RULES, RULE_RANGES
from .spells import SPELL_EFFECTS

__all__ = ["PackError", "load_pack", "parse_board", "DEFAULT_PACK_DIR", "SPELL_EFFECTS", "LIMITS", "RULE_RANGES",
           "FIXED_RULES", "short_repr"]
