"""What the first game's text and image pictures share: the palette, the letters, and the facts both draw
(who owns a square, the altars, a card's name and symbols, the scores, the status line). Neither picture module
imports the other: :mod:`.render` (text) and :mod:`.render_image` (Pillow) both read this one."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from mk_env.core.text import printable
from mk_env.mountain_king.rules import GameState
from mk_env.mountain_king.rules.actions import HORDE_ROWS, TROLLSMOOT_ROWS, describe_token, pyramid_slots
from mk_env.mountain_king.rules.payment import payment_owed

RGB = tuple[int, int, int]

#: tier 1..5 (index 0 unused): dark gray, gray, brown, orange, yellow
TIER_COLOURS: tuple[RGB, ...] = ((0, 0, 0), (64, 64, 70), (128, 128, 134), (139, 94, 52), (232, 137, 43),
                                 (242, 210, 74))
HEART_COLOUR: RGB = (150, 22, 40)
PANEL: RGB = (236, 233, 226)
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
    pend = state.pending
    if pend.paid is not None:  # payment="choose": the decision held while its tokens are chosen
        chosen = "; ".join(describe_token(a) for a in pend.paid) or "none yet"
        tail += (f"; paying for: {state.describe_action(pend.pay_action)}; still owed "
                 f"{counts_text(payment_owed(state).astype(int))}; chosen: {chosen}")
    return f"{head}: seat {state.current} to decide ({state.decision_kind()}){tail}"


def workshop_letter(kind: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[kind]


def ink_on(rgb: RGB) -> RGB:
    """Black or white, whichever reads better on ``rgb``."""
    return INK if 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] > 140 else (250, 250, 250)
