"""The content pack loader's public names, kept importable from here for existing users; the loader
itself lives in :mod:`mk_env.mountain_king.rules.pack` (one module per part of a pack)."""

from .pack import (
    DEFAULT_PACK_DIR,
    FIXED_RULES,
    LIMITS,
    RULE_RANGES,
    SPELL_EFFECTS,
    PackError,
    load_pack,
    parse_board,
    short_repr,
)

__all__ = ["PackError", "load_pack", "parse_board", "DEFAULT_PACK_DIR", "SPELL_EFFECTS", "LIMITS", "RULE_RANGES",
           "FIXED_RULES", "short_repr"]
