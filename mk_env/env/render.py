"""Seeing a game: the state as text (``ansi``), as an image (``rgb_array``) or in a window (``human``).

Every function reads a :class:`~mk_env.rules.GameState` and asks the engine for anything that is a
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
"""

from __future__ import annotations

import functools
import os
import warnings
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from mk_env.rules import GameState
from mk_env.rules.actions import HORDE_ROWS, TROLLSMOOT_ROWS, pyramid_slots
from mk_env.rules.content import CLANS, RESOURCES, TIER_NAMES, TOKEN_KINDS

RGB = tuple[int, int, int]

#: tier 1..5 (index 0 unused): dark gray, gray, brown, orange, yellow
TIER_COLOURS: tuple[RGB, ...] = ((0, 0, 0), (64, 64, 70), (128, 128, 134), (139, 94, 52), (232, 137, 43),
                                 (242, 210, 74))
HEART_COLOUR: RGB = (150, 22, 40)
PANEL: RGB = (236, 233, 226)
OFF_BOARD: RGB = PANEL
INK: RGB = (20, 20, 24)
UNOWNED: RGB = (150, 160, 175)
PLAYER_COLOURS: tuple[RGB, ...] = ((47, 91, 234), (46, 158, 62), (142, 58, 214), (224, 64, 154),
                                   (238, 238, 238))
CLAN_COLOURS: tuple[RGB, ...] = ((255, 74, 26), (95, 211, 255), (201, 194, 255))  # fire, ice, moon
TOKEN_COLOURS: tuple[RGB, ...] = ((184, 184, 176), (111, 143, 168), (224, 79, 111), (240, 192, 32),
                                  (160, 112, 60), (48, 48, 48), (143, 95, 208)) + CLAN_COLOURS
#: short names of token kinds (resources, then the clan carts)
TOKEN_ABBR = ("st", "ir", "hs", "co", "ca", "hm", "ru", "cF", "cI", "cM")
#: buried-resource letters, as in the board files
BURIED_LETTERS = "sihcamr"
CLAN_LETTERS = "FIM"
_SMOOT_SLOTS = pyramid_slots(TROLLSMOOT_ROWS)
_HORDE_SLOTS = pyramid_slots(HORDE_ROWS)


# ================================================================================================
# names from files, safe to print
# ================================================================================================
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


# ================================================================================================
# facts shared by the text and the image
# ================================================================================================
def square_owner(state: GameState) -> np.ndarray:
    """Per square (no sentinel): the seat whose network holds it (the lowest seat when teammates
    share it), -1 for nobody."""
    reach = state.reach[:, :-1]
    return np.where(reach.any(axis=0), reach.argmax(axis=0), -1)


def altar_squares(state: GameState) -> set[int]:
    return {int(a) for a in state.hall_altar if a >= 0}


def card_name(state: GameState, card: int) -> str:
    name = printable(state.game.cards[card].name)
    return name[:-len(" Troll")] if name.endswith(" Troll") else name


def card_symbols(state: GameState, card: int) -> str:
    """What a troll generates, e.g. ``"2ir ru"``."""
    counts = state.game.card_symbols[card]
    return " ".join(f"{int(n)}{TOKEN_ABBR[k]}" if n > 1 else TOKEN_ABBR[k] for k, n in enumerate(counts) if n)


def counts_text(counts: Sequence[int], names: Sequence[str] = TOKEN_ABBR) -> str:
    """``"2st 1ir"`` for a count vector; ``"-"`` when empty."""
    parts = [f"{int(n)}{names[i]}" for i, n in enumerate(counts) if n]
    return " ".join(parts) if parts else "-"


def scores(state: GameState) -> list[dict[str, int]]:
    """The engine's score breakdown of every seat."""
    return [state.score_breakdown(p) for p in range(state.num_players)]


def status_line(state: GameState) -> str:
    game = state.game
    head = f"{game.num_players} players, {printable(game.board_side)} side, turn {state.turn}"
    if state.is_terminal():
        ranks = state.ranks()
        winners = [str(p) for p in range(state.num_players) if ranks[p] == 0]
        return f"{head}: game over, winner seat {' & '.join(winners)}"
    tail = f", final round ({state.final_turns_left} turns left)" if state.final_turns_left >= 0 else ""
    return f"{head}: seat {state.current} to decide ({state.decision_kind()}){tail}"


def workshop_letter(kind: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[kind]


# ================================================================================================
# text
# ================================================================================================
def _fg(rgb: RGB) -> str:
    return "\x1b[38;2;%d;%d;%dm" % rgb


def _bg(rgb: RGB) -> str:
    return "\x1b[48;2;%d;%d;%dm" % rgb


_RESET = "\x1b[0m"
_BOLD = "\x1b[1m"


def _ink_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on ``rgb``."""
    return INK if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 140 else (250, 250, 250)


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
    if kind == 0:
        if site >= 0:
            w = int(state.workshop[site])
            return f"{tier}W{workshop_letter(w) if w >= 0 else ' '}{extra}", TIER_COLOURS[int(geo.tier[sq])]
        mark = "#" if geo.rubble[sq] else "."
        if statue < 0 and state.buried[sq] >= 0:
            extra = BURIED_LETTERS[int(state.buried[sq])]
        return f"{tier}{mark} {extra}", TIER_COLOURS[int(geo.tier[sq])]
    if kind == 1:
        mark = "G"
    elif kind == 3:
        mark = "@" if sq in altars else "H"
    else:
        ped = int(state.pedestal[sq])
        mark = "fim"[ped] if ped >= 0 else "="
    colour = PLAYER_COLOURS[who] if who >= 0 else UNOWNED
    if kind == 3:
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
                ink = _ink_on(colour)
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


# ================================================================================================
# image
# ================================================================================================
CELL = 36  # pixels per board square
SMOOT_BOX = (64, 36)  # pixels per trollsmoot slot
MARGIN = 22  # room for coordinates


@functools.lru_cache(maxsize=8)
def _font(size: int, bold: bool = False):
    """DejaVu Sans from matplotlib's data when available, else Pillow's default font."""
    from PIL import ImageFont

    try:
        import matplotlib

        name = "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf"
        path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / name
        return ImageFont.truetype(str(path), size)
    except Exception:  # noqa: BLE001 - any failure: fall back to Pillow's own font
        return ImageFont.load_default(size=size)


def _fit(draw, text: str, font, width: int) -> str:
    """``text`` shortened with an ellipsis to fit ``width`` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def _draw_board(draw, state: GameState, x0: int, y0: int) -> None:
    game = state.game
    geo = game.geo
    owner = square_owner(state)
    altars = altar_squares(state)
    small = _font(10)
    bold = _font(13, bold=True)
    for c in range(geo.width):
        draw.text((x0 + c * CELL + CELL // 2, y0 - 4), str(c), fill=INK, font=small, anchor="ms")
    for r in range(geo.height):
        draw.text((x0 - 5, y0 + r * CELL + CELL // 2), str(r), fill=INK, font=small, anchor="rm")
    for sq in range(geo.n_squares):
        r, c = geo.rc(sq)
        x, y = x0 + c * CELL, y0 + r * CELL
        box = [x, y, x + CELL - 1, y + CELL - 1]
        if geo.heart[sq]:
            draw.rectangle(box, fill=HEART_COLOUR)
            continue
        if not geo.on_board[sq]:
            continue
        tier = int(geo.tier[sq])
        draw.rectangle(box, fill=TIER_COLOURS[tier], outline=(30, 30, 30))
        kind = int(state.kind[sq])
        if kind:
            who = int(owner[sq])
            colour = PLAYER_COLOURS[who] if who >= 0 else UNOWNED
            draw.rectangle([x + 3, y + 3, x + CELL - 4, y + CELL - 4], fill=colour)
            if kind == 3:  # great hall: hatched
                for k in range(-CELL, CELL, 8):
                    draw.line([x + 3 + max(k, 0), y + 3 + max(-k, 0),
                               x + 3 + min(CELL - 7, k + CELL - 7), y + 3 + min(CELL - 7, CELL - 7 - k)],
                              fill=_ink_on(colour), width=1)
            if kind == 1:  # gate: a doorway
                draw.rounded_rectangle([x + 11, y + 9, x + CELL - 12, y + CELL - 5], radius=6, fill=INK)
            if sq in altars:
                draw.rectangle([x + 8, y + 8, x + CELL - 9, y + CELL - 9], fill=(250, 250, 240), outline=INK,
                               width=2)
            ped = int(state.pedestal[sq])
            if ped >= 0:
                draw.rectangle([x + 6, y + CELL - 12, x + CELL - 7, y + CELL - 5], fill=CLAN_COLOURS[ped],
                               outline=INK, width=2)
        else:
            site = int(geo.site_of[sq])
            if site >= 0:
                w = int(state.workshop[site])
                draw.rounded_rectangle([x + 4, y + 6, x + CELL - 5, y + CELL - 7], radius=4,
                                       fill=(250, 248, 240), outline=INK, width=2)
                label = game.pack.workshops[w].name[:3] if w >= 0 else "W"
                draw.text((x + CELL // 2, y + CELL // 2), label, fill=INK, font=_font(11, bold=True),
                          anchor="mm")
            elif geo.rubble[sq]:
                for dx, dy, rad in ((9, 24, 5), (18, 20, 6), (26, 25, 5), (14, 13, 4)):
                    draw.ellipse([x + dx - rad, y + dy - rad, x + dx + rad, y + dy + rad], fill=(70, 58, 48),
                                 outline=(25, 20, 16))
            res = int(state.buried[sq])
            if res >= 0:
                draw.rounded_rectangle([x + 9, y + 9, x + CELL - 10, y + CELL - 10], radius=3,
                                       fill=TOKEN_COLOURS[res], outline=INK)
                draw.text((x + CELL // 2, y + CELL // 2), BURIED_LETTERS[res], font=_font(11, bold=True),
                          fill=_ink_on(TOKEN_COLOURS[res]), anchor="mm")
        statue = int(state.statue[sq])
        if statue >= 0:
            cx, cy = x + CELL // 2, y + CELL // 2 - 2
            draw.ellipse([cx - 10, cy - 10, cx + 10, cy + 10], fill=CLAN_COLOURS[statue], outline=INK, width=3)
            draw.text((cx, cy), CLAN_LETTERS[statue], fill=INK, font=bold, anchor="mm")
    _draw_tile_edges(draw, state, x0, y0)


def _draw_tile_edges(draw, state: GameState, x0: int, y0: int) -> None:
    """Thick dark lines where one tile meets another or the rock, so tunnel shapes read clearly."""
    geo = state.game.geo
    tile = state.tile
    for sq in np.flatnonzero(state.kind[:-1] > 0):
        r, c = geo.rc(sq)
        x, y = x0 + c * CELL, y0 + r * CELL
        edges = ((x, y, x + CELL, y), (x + CELL, y, x + CELL, y + CELL), (x, y + CELL, x + CELL, y + CELL),
                 (x, y, x, y + CELL))
        for k, nb in enumerate(geo.neighbours[sq]):
            if nb == geo.sentinel or tile[nb] != tile[sq]:
                draw.line(edges[k], fill=INK, width=3)


def _draw_legend(draw, x: int, y: int) -> None:
    """Statue clans, marks and token colours, under the board."""
    font = _font(10)
    for c, clan in enumerate(CLANS):
        draw.ellipse([x, y, x + 10, y + 10], fill=CLAN_COLOURS[c], outline=INK)
        draw.text((x + 13, y - 1), clan, font=font, fill=INK)
        x += 22 + int(draw.textlength(clan, font=font))
    for label in ("bar: pedestal", "hatched: great hall", "white box: altar", "dark arch: gate"):
        draw.text((x, y - 1), label, font=font, fill=INK)
        x += 14 + int(draw.textlength(label, font=font))
    x, y = MARGIN, y + 15
    draw.text((x, y - 1), "tokens:", font=font, fill=INK)
    x += 44
    for k, name in enumerate(TOKEN_KINDS):
        draw.ellipse([x, y, x + 8, y + 8], fill=TOKEN_COLOURS[k], outline=INK)
        draw.text((x + 11, y - 2), name.replace("_", " "), font=font, fill=INK)
        x += 20 + int(draw.textlength(name, font=font))


def _token_dots(draw, counts: Sequence[int], x: int, y: int, width: int) -> None:
    """One small disc per token (coloured by kind), wrapping at ``width``."""
    cx = x
    for kind, n in enumerate(counts):
        for _ in range(int(n)):
            if cx + 8 > x + width:
                cx, y = x, y + 9
            draw.ellipse([cx, y, cx + 7, y + 7], fill=TOKEN_COLOURS[kind], outline=INK)
            cx += 9


def _draw_card_box(draw, state: GameState, card: int, box: list[int], held: Sequence[int] | None,
                   pedestal: int = -1) -> None:
    x, y, x1, y1 = box
    if card < 0:
        draw.rectangle(box, outline=(170, 165, 155))
        return
    level = int(state.game.card_level[card])
    fill = ((250, 246, 232), (226, 236, 250), (236, 226, 250), (250, 228, 220))[min(level, 3)]
    draw.rectangle(box, fill=fill, outline=INK)
    font = _font(10)
    draw.text((x + 3, y + 2), _fit(draw, card_name(state, card), font, x1 - x - 6), fill=INK, font=font)
    draw.text((x + 3, y + 13), card_symbols(state, card), fill=(90, 90, 90), font=_font(9))
    if held is not None:
        _token_dots(draw, held, x + 3, y + 25, x1 - x - 6)
    if pedestal >= 0:
        draw.rectangle([x1 - 12, y + 13, x1 - 3, y + 21], fill=CLAN_COLOURS[pedestal], outline=INK)


def _draw_pyramid(draw, state: GameState, rows: tuple[int, ...], x0: int, y0: int, w: int, h: int,
                  cell) -> int:
    """Slots as boxes, top row first, each row centred on the one below; returns the bottom y."""
    slots = pyramid_slots(rows)
    n_rows = len(rows)
    for s, (r, i) in enumerate(slots):
        x = x0 + (rows[0] - rows[r]) * (w + 4) // 2 + i * (w + 4)
        y = y0 + (n_rows - 1 - r) * (h + 4)
        cell(s, [x, y, x + w, y + h])
    return y0 + n_rows * (h + 4)


def _draw_scores(draw, state: GameState, x: int, y: int) -> int:
    head = _font(12, bold=True)
    font = _font(11)
    cols = ("tunnels", "coronation", "pedestal_tokens", "leftover_sets", "great_halls", "statues")
    short = ("tun", "cor", "ped", "sets", "halls", "stat")
    draw.text((x, y), "seat", font=head, fill=INK)
    for k, name in enumerate(short):
        draw.text((x + 70 + 42 * k, y), name, font=font, fill=INK)
    draw.text((x + 70 + 42 * len(short), y), "total", font=head, fill=INK)
    ranks = state.ranks() if state.is_terminal() else None
    for p, sb in enumerate(scores(state)):
        yy = y + 17 * (p + 1)
        draw.rectangle([x, yy + 1, x + 12, yy + 13], fill=PLAYER_COLOURS[p], outline=INK)
        label = f"{p}" + (" winner" if ranks is not None and ranks[p] == 0 else "")
        draw.text((x + 17, yy), label, font=font, fill=INK)
        for k, name in enumerate(cols):
            draw.text((x + 70 + 42 * k, yy), str(sb[name]), font=font, fill=INK)
        draw.text((x + 70 + 42 * len(cols), yy), str(sb["total"]), font=head, fill=INK)
    return y + 17 * (state.num_players + 1) + 6


def _draw_panel(draw, state: GameState, x: int, y: int) -> None:
    """Scores, horde, spellbook, pedestal track and supply, right of the board."""
    game, pack = state.game, state.game.pack
    head = _font(13, bold=True)
    font = _font(11)
    y = _draw_scores(draw, state, x, y)
    draw.text((x, y), f"Horde  (decks left {', '.join(str(len(d)) for d in state.decks)})", font=head, fill=INK)

    def horde_cell(h: int, box: list[int]) -> None:
        card = int(state.horde[h])
        _draw_card_box(draw, state, card, box, state.horde_bribes[h] if card >= 0 else None,
                       int(state.horde_pedestal[h]))

    y = _draw_pyramid(draw, state, HORDE_ROWS, x, y + 18, 84, 36, horde_cell) + 4
    draw.text((x, y), "Spellbook", font=head, fill=INK)
    for i, spell in enumerate(state.spellbook):
        if spell >= 0:
            yy = y + 17 + 15 * i
            draw.text((x, yy), f"[{i}] {pack.spells[int(spell)].name}", font=font, fill=INK)
            _token_dots(draw, [0] * 6 + [int(state.spell_runes[i])], x + 200, yy + 3, 80)
    y += 17 + 15 * len(state.spellbook) + 4
    draw.text((x, y), "Pedestal track (tier: fire ice moon)", font=head, fill=INK)
    for t in range(len(TIER_NAMES)):
        yy = y + 17 + 16 * t
        draw.rectangle([x, yy + 1, x + 12, yy + 13], fill=TIER_COLOURS[t + 1], outline=INK)
        for c in range(len(CLANS)):
            bx = x + 22 + 40 * c
            who = int(state.track_taken[t, c])
            fill = PLAYER_COLOURS[who] if who >= 0 else CLAN_COLOURS[c]
            draw.rectangle([bx, yy, bx + 34, yy + 14], fill=fill, outline=INK)
            draw.text((bx + 17, yy + 7), str(int(state.track_value[t, c])), font=font, fill=_ink_on(fill),
                      anchor="mm")
    y += 17 + 16 * len(TIER_NAMES) + 4
    draw.text((x, y), "Supply", font=head, fill=INK)
    draw.text((x + 60, y + 1), counts_text(state.supply, TOKEN_ABBR[:7]), font=font, fill=INK)
    draw.text((x, y + 16), "Bag: " + counts_text(state.bag, CLANS) + "   tunnels left: "
              + " ".join(str(int(n)) for n in state.tunnel_supply), font=font, fill=INK)
    del game


def _draw_smoots(draw, state: GameState, x0: int, y0: int, per_row: int) -> None:
    game = state.game
    head = _font(12, bold=True)
    font = _font(10)
    bw, bh = SMOOT_BOX
    block_w = TROLLSMOOT_ROWS[0] * (bw + 4) + 14
    block_h = len(TROLLSMOOT_ROWS) * (bh + 4) + 36
    for p in range(game.num_players):
        x = x0 + (p % per_row) * block_w
        y = y0 + (p // per_row) * block_h
        draw.rectangle([x, y + 2, x + 12, y + 14], fill=PLAYER_COLOURS[p], outline=INK)
        draw.text((x + 17, y), f"seat {p} trollsmoot", font=head, fill=INK)

        def smoot_cell(s: int, box: list[int], p: int = p) -> None:
            card = int(state.smoot[p, s])
            _draw_card_box(draw, state, card, box, state.tokens[p, s] if card >= 0 else None)

        yy = _draw_pyramid(draw, state, TROLLSMOOT_ROWS, x, y + 17, bw, bh, smoot_cell)
        s = game.storage_of[p]
        text = "storage " + counts_text(state.storage[s], TOKEN_ABBR[:7])
        if state.storage_pedestals[s].any():
            text += "  pedestals " + counts_text(state.storage_pedestals[s], CLANS)
        draw.text((x, yy), _fit(draw, text, font, block_w - 16), font=font, fill=INK)


def render_rgb(state: GameState) -> np.ndarray:
    """The state as an ``H x W x 3`` uint8 image (board, scores, horde, spellbook, pedestal track,
    supply, and every trollsmoot with its tokens and storage)."""
    from PIL import Image, ImageDraw

    geo = state.game.geo
    n = state.num_players
    board_w, board_h = geo.width * CELL, geo.height * CELL
    panel_x = MARGIN + board_w + 24
    width = max(panel_x + 440, 1200)
    block_w = TROLLSMOOT_ROWS[0] * (SMOOT_BOX[0] + 4) + 14
    per_row = max(1, (width - 2 * MARGIN) // block_w)
    smoot_rows = -(-n // per_row)
    smoot_y = MARGIN + max(board_h + 46, 540) + 10
    height = smoot_y + smoot_rows * (len(TROLLSMOOT_ROWS) * 40 + 36) + 8
    image = Image.new("RGB", (width, height), PANEL)
    draw = ImageDraw.Draw(image)
    draw.text((MARGIN, 6), "In the Hall of the Mountain King — " + status_line(state), font=_font(14, True),
              fill=INK)
    _draw_board(draw, state, MARGIN, MARGIN + 20)
    _draw_legend(draw, MARGIN, MARGIN + 26 + board_h)
    _draw_panel(draw, state, panel_x, MARGIN + 12)
    _draw_smoots(draw, state, MARGIN, smoot_y, per_row)
    return np.asarray(image, dtype=np.uint8).copy()


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")) or os.name == "nt" \
        or os.uname().sysname == "Darwin"


def render_human(state: GameState, pause: float = 0.001) -> bool:
    """Show the state in a matplotlib window (reusing it between calls). Without a display or an
    interactive matplotlib backend it warns and returns False instead of failing."""
    frame = render_rgb(state)
    if not _has_display():
        warnings.warn("render_mode='human' needs a display; none found (headless), nothing shown. "
                      "Use render_mode='rgb_array' or 'ansi' instead.", RuntimeWarning, stacklevel=2)
        return False
    try:
        import matplotlib.pyplot as plt

        if plt.get_backend().lower() in ("agg", "pdf", "svg", "ps", "cairo", "template"):
            raise RuntimeError(f"matplotlib backend {plt.get_backend()!r} is not interactive")
        fig = plt.figure("mk_env")
        fig.clf()
        ax = fig.add_axes((0, 0, 1, 1))
        ax.imshow(frame)
        ax.axis("off")
        plt.pause(pause)
        return True
    except Exception as e:  # noqa: BLE001 - no usable window system: warn, never crash
        warnings.warn(f"render_mode='human' could not open a window ({e}); nothing shown.", RuntimeWarning,
                      stacklevel=2)
        return False


def close_human() -> None:
    """Close the window :func:`render_human` opened, if any."""
    try:
        import matplotlib.pyplot as plt

        if plt.fignum_exists("mk_env"):
            plt.close("mk_env")
    except ImportError:
        pass


def downscale(frame: np.ndarray, scale: float):
    """A Pillow image of ``frame`` resized by ``scale`` (1.0: unchanged)."""
    from PIL import Image

    image = Image.fromarray(frame)
    if scale != 1.0:
        image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))),
                             Image.LANCZOS)
    return image


def write_gif(states: Iterable[GameState], path: str | os.PathLike, *, seconds_per_frame: float = 0.6,
              scale: float = 0.6) -> Path:
    """An animated GIF with one frame per state (the last frame is held three times as long)."""
    frames = [downscale(render_rgb(s), scale).quantize(colors=128, method=2) for s in states]
    if not frames:
        raise ValueError("write_gif needs at least one state")
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ms = int(seconds_per_frame * 1000)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=[ms] * (len(frames) - 1) + [3 * ms],
                   loop=0, optimize=True)
    return path
