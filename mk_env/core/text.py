"""Text from files, safe to print, in every game and command of the suite."""

from __future__ import annotations

#: control characters (C0, DEL, C1), line/paragraph separators and bidirectional overrides, each
#: written as its escape (``\x1b``, ``\u202e``) so a name cannot move the cursor or recolour the terminal
_UNPRINTABLE = {c: f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
                for c in [*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, 0x200E, 0x200F,
                          *range(0x202A, 0x202F), *range(0x2066, 0x206A)]}


def printable(text: str) -> str:
    """``text`` with every control character shown as its escape (ESC ``[2J`` becomes the text
    ``\\x1b[2J``): names from data packs, game records and command lines pass through this before
    they reach a terminal, so escape codes in a file stay text."""
    return str(text).translate(_UNPRINTABLE)
