"""Seeing a game: the state as text (``ansi``), as an image (``rgb_array``) or in a window (``human``).

Every function reads a :class:`~mk_env.mountain_king.rules.GameState` and asks the engine for anything that is a
rule (scores, the networks that own tunnels); nothing here changes a state.

* :func:`render_ansi` -- the board (4 characters per square, legend below it), the horde, every
  trollsmoot with the tokens its trolls hold, storages, the spellbook, the pedestal track, scores and
  phase. ``color=True`` adds 24-bit ANSI colours (tier backgrounds, owner and clan colours).
* :func:`render_rgb` -- the same as an ``H x W x 3`` uint8 image drawn with Pillow: tier colours
  (dark gray, gray, brown, orange, yellow) on empty squares, tunnels and great halls filled with their
  owner's colour, statues and pedestals in their clan's colour.
* :func:`render_human` -- shows :func:`render_rgb` in a matplotlib window; on a headless machine it
  warns and does nothing else.
* :func:`write_gif` -- an animated GIF of a sequence of states.

Text board cell ``TKOX``: ``T`` tier 1-5; ``K`` what is dug there (``.`` nothing, ``#`` rubble,
``W`` workshop site, ``G`` gate, ``=`` tunnel, ``f``/``i``/``m`` tunnel with a pedestal of that clan,
``H`` great hall, ``@`` its altar); ``O`` owner seat (``-`` nobody) or the workshop's letter; ``X``
statue clan ``F``/``I``/``M``, or a buried resource (``s i h c a m r``, as in the board files).
The heart of the mountain is `` <> ``.

The image functions live in :mod:`mk_env.mountain_king.env.render_image` (Pillow and matplotlib are imported only
there); ``from mk_env.mountain_king.env.render import render_rgb`` still works (they are imported on first use).
"""

from __future__ import annotations

import numpy as np

from mk_env.core.text import printable
from mk_env.mountain_king.rules import GameState, SquareKind
from mk_env.mountain_king.rules.actions import HORDE_ROWS, TROLLSMOOT_ROWS, pyramid_slots
from mk_env.mountain_king.rules.content import CLANS, RESOURCES, TIER_NAMES

# the palette and the facts both pictures draw (named here as before)
from .picture import (BURIED_LETTERS, CLAN_COLOURS, CLAN_LETTERS, HEART_COLOUR, INK, PANEL,  # noqa: F401
                      PLAYER_COLOURS, RGB, TIER_COLOURS, TOKEN_ABBR, TOKEN_COLOURS, UNOWNED, _HORDE_SLOTS,
                      _SMOOT_SLOTS, altar_squares, card_name, card_symbols, counts_text, ink_on, scores,
                      square_owner, status_line, workshop_letter)

# ================================================================================================
# text
# ================================================================================================
def _fg(rgb: RGB) -> str:
    return "\x1b[38;2;%d;%d;%dm" % rgb


def _bg(rgb: RGB) -> str:
    return "\x1b[48;2;%d;%d;%dm" % rgb


_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def _board_cell(state: GameState, sq: int, owner: np.ndarray, altars: set[int]) -> tuple[str, RGB | None]:
    """The 4-character cell of a square and its background colour (None off the board)."""
    geo = state.game.geo
    if geo.heart[sq]:
        return " <> ", HEART_COLOUR
    if not geo.on_board[sq]:
        return "    ", None
    tier = str(int(geo.tier[sq]))
    kind = int(state.kind[sq])
    who = int(owner[sq])
    statue = int(state.statue[sq])
    extra = CLAN_LETTERS[statue] if statue >= 0 else " "
    site = int(geo.site_of[sq])
    if kind == SquareKind.EMPTY:
        if site >= 0:
            w = int(state.workshop[site])
            return f"{tier}W{workshop_letter(w) if w >= 0 else ' '}{extra}", TIER_COLOURS[int(geo.tier[sq])]
        mark = "#" if geo.rubble[sq] else "."
        if statue < 0 and state.buried[sq] >= 0:
            extra = BURIED_LETTERS[int(state.buried[sq])]
        return f"{tier}{mark} {extra}", TIER_COLOURS[int(geo.tier[sq])]
    if kind == SquareKind.GATE:
        mark = "G"
    elif kind == SquareKind.GREAT_HALL:
        mark = "@" if sq in altars else "H"
    else:
        ped = int(state.pedestal[sq])
        mark = "fim"[ped] if ped >= 0 else "="
    colour = PLAYER_COLOURS[who] if who >= 0 else UNOWNED
    if kind == SquareKind.GREAT_HALL:
        colour = tuple(int(0.72 * c) for c in colour)
    return f"{tier}{mark}{who if who >= 0 else '-'}{extra}", colour


def board_text(state: GameState, color: bool = False) -> list[str]:
    """The board, one line per row, with column numbers above and row numbers on the left."""
    geo = state.game.geo
    owner = square_owner(state)
    altars = altar_squares(state)
    lines = ["    " + "".join(f"{c:<4d}" for c in range(geo.width)).rstrip()]
    for r in range(geo.height):
        row = [f"{r:>3d} "]
        for c in range(geo.width):
            sq = geo.sq(r, c)
            text, colour = _board_cell(state, sq, owner, altars)
            if color and colour is not None:
                ink = ink_on(colour)
                statue = int(state.statue[sq])
                if statue >= 0:  # the statue letter in its clan colour, bold
                    text = (_bg(colour) + _fg(ink) + text[:3] + _BOLD + _fg(CLAN_COLOURS[statue])
                            + _bg(INK) + text[3] + _RESET)
                else:
                    text = _bg(colour) + _fg(ink) + text + _RESET
            row.append(text)
        lines.append("".join(row))
    return lines


def _legend(state: GameState) -> list[str]:
    game = state.game
    geo = game.geo
    lines = ["cell TKOX: T tier 1-5 (" + ", ".join(f"{i + 1} {n}" for i, n in enumerate(TIER_NAMES))
             + "); K . empty  # rubble  W workshop site  G gate  = tunnel  f/i/m pedestal (fire/ice/moon)",
             "  H great hall  @ altar; O owner seat (- nobody) or workshop letter; X statue F/I/M, or buried "
             + " ".join(f"{BURIED_LETTERS[i]}={RESOURCES[i]}" for i in range(len(RESOURCES)))]
    shops = [f"{workshop_letter(int(w))} {printable(game.pack.workshops[int(w)].name)} "
             f"{geo.rc(geo.site_squares[s])}"
             for s, w in enumerate(state.workshop) if w >= 0]
    lines.append("workshops: " + ("; ".join(shops) if shops else "none established"))
    return lines


def _pyramid_lines(rows: tuple[int, ...], cell, indent: str = "  ") -> list[str]:
    """One line per pyramid row, top row first; ``cell(slot)`` gives a slot's text."""
    slots = pyramid_slots(rows)
    out = []
    for r in reversed(range(len(rows))):
        parts = [f"[{s}] {cell(s)}" for s, (row, _) in enumerate(slots) if row == r]
        out.append(f"{indent}row {r + 1}: " + " | ".join(parts))
    return out


def _horde_cell(state: GameState, h: int) -> str:
    card = int(state.horde[h])
    if card < 0:
        return "empty"
    text = f"{card_name(state, card)} ({card_symbols(state, card)})"
    if state.horde_bribes[h].any():
        text += f" bribes {counts_text(state.horde_bribes[h], TOKEN_ABBR[:7])}"
    if state.horde_pedestal[h] >= 0:
        text += f" +{CLANS[int(state.horde_pedestal[h])]} pedestal"
    return text


def _smoot_cell(state: GameState, p: int, s: int) -> str:
    card = int(state.smoot[p, s])
    if card < 0:
        return "."
    held = counts_text(state.tokens[p, s])
    return f"{card_name(state, card)} ({card_symbols(state, card)}) holds {held}"


def render_ansi(state: GameState, color: bool = False) -> str:
    """The whole public state as text; ``color=True`` adds ANSI colour codes for a terminal."""
    game = state.game
    pack = game.pack
    title = "In the Hall of the Mountain King -- " + status_line(state)
    out = [(_BOLD + title + _RESET) if color else title, ""]
    out += board_text(state, color)
    out += _legend(state)
    out += ["", "Scores (as if the game ended now):"]
    for p, sb in enumerate(scores(state)):
        name = f"seat {p}"
        if color:
            name = _fg(PLAYER_COLOURS[p]) + _BOLD + name + _RESET
        parts = ", ".join(f"{k} {v}" for k, v in sb.items() if k != "total")
        out.append(f"  {name}: {sb['total']:3d}  ({parts})")
    out += ["", f"Horde (decks left: {', '.join(str(len(d)) for d in state.decks)}):"]
    out += _pyramid_lines(HORDE_ROWS, lambda h: _horde_cell(state, h))
    out.append("")
    for p in range(game.num_players):
        name = f"seat {p}"
        if color:
            name = _fg(PLAYER_COLOURS[p]) + _BOLD + name + _RESET
        out.append(f"Trollsmoot of {name}:")
        out += _pyramid_lines(TROLLSMOOT_ROWS, lambda s, p=p: _smoot_cell(state, p, s))
    out.append("Storages:")
    for s in range(game.n_storages):
        seats = [p for p in range(game.num_players) if game.storage_of[p] == s]
        peds = counts_text(state.storage_pedestals[s], CLANS)
        out.append(f"  seat {'+'.join(map(str, seats))}: {counts_text(state.storage[s], TOKEN_ABBR[:7])}"
                   f"; pedestals {peds}")
    book = []
    for i, spell in enumerate(state.spellbook):
        if spell >= 0:
            book.append(f"[{i}] {printable(pack.spells[int(spell)].name)} ({int(state.spell_runes[i])} runes)")
    out.append("Spellbook: " + ("; ".join(book) if book else "empty"))
    track = []
    for t in range(len(TIER_NAMES)):
        cells = []
        for c in range(len(CLANS)):
            who = int(state.track_taken[t, c])
            cells.append(f"{CLANS[c]} {int(state.track_value[t, c])}" + (f" (seat {who})" if who >= 0 else ""))
        track.append(f"  tier {t + 1}: " + ", ".join(cells))
    out += ["Pedestal track:"] + track
    out.append(f"Supply: {counts_text(state.supply, TOKEN_ABBR[:7])}; pedestals in the bag: "
               f"{counts_text(state.bag, CLANS)}; tunnels left: "
               + ", ".join(f"{printable(t.name)} {int(n)}" for t, n in zip(pack.tunnels, state.tunnel_supply)))
    return "\n".join(out) + "\n"


#: the image functions, defined in :mod:`mk_env.mountain_king.env.render_image` and imported on first use
_IMAGE_NAMES = ("render_rgb", "render_human", "close_human", "downscale", "write_gif")


def __getattr__(name: str) -> object:
    if name in _IMAGE_NAMES:
        from . import render_image
        return getattr(render_image, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
