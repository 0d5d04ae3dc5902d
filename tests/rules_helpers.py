"""Helpers for rules tests: a small ASCII test board, setting up positions, finding actions."""

from __future__ import annotations

import dataclasses

import numpy as np

from mk_env.mountain_king.rules import Game, load_pack
from mk_env.mountain_king.rules.board import place_tile
from mk_env.mountain_king.rules.content import RESOURCES, TOKEN_KINDS
from mk_env.mountain_king.rules.economy import as_resources
from mk_env.mountain_king.rules.pack import parse_board

# An 11 x 11 mountain: tier by ring distance from the heart at (5, 5). Start points marked 4 at the
# middle of each edge; workshop sites near the corners; rubble at (1, 6), (1, 7), (1, 8).
FEATURES = [
    ".....4.....",
    "...........",
    "..W.....W..",
    "...........",
    "..W........",
    "4.........4",
    "........W..",
    "...........",
    "..W.....W..",
    "...........",
    ".....4.....",
]
RUBBLE = ["." * 11] * 11
RUBBLE[1] = "......###.."


def _tier_row(r: int) -> str:
    out = ""
    for c in range(11):
        d = max(abs(r - 5), abs(c - 5))
        out += "H" if d == 0 else str(6 - d)
    return out


BOARD_TEXT = "\n".join(
    ["name: test", "players: 2,4", "[tiers]"] + [_tier_row(r) for r in range(11)]
    + ["[features]"] + FEATURES + ["[rubble]"] + RUBBLE)


def make_test_game(num_players: int = 2, **options) -> Game:
    """A game on the small test board (default content otherwise)."""
    pack = load_pack()
    board = parse_board(BOARD_TEXT, "test")
    pack = dataclasses.replace(pack, boards={"test": board})
    return Game(num_players, board_side="test", pack=pack, **options)


def after_setup(game: Game, seed: int = 0, gates: list[int] | None = None):
    """A state at the start player's first turn: gates on the given start points (default: first
    legal), starting trolls by the first legal draft choices."""
    st = game.new_initial_state(seed)
    k = 0
    while st.decision_kind() in ("setup_gate", "setup_draft"):
        legal = st.legal_actions()
        a = int(legal[0])
        if st.decision_kind() == "setup_gate" and gates is not None:
            a = game.layout.index("gate", gates[k])
            k += 1
        st.apply(a)
    return st


def empty_handed(game: Game, seed: int = 3):
    """A 2-player state on the test board at player 0's first turn (gate at (0, 5); player 1's at
    (10, 5)), both players' storages and trolls emptied into the supply."""
    st = after_setup(game, seed=seed, gates=[0, 3])
    for p in range(game.num_players):
        clear_resources(st, p)
    st.invalidate_caches()
    return st


def sq(game: Game, r: int, c: int) -> int:
    return game.geo.sq(r, c)


def clear_resources(st, p: int) -> None:
    """Empty p's storage and trolls into the supply."""
    s = st.game.storage_of[p]
    st.supply += st.storage[s]
    st.storage[s] = 0
    st.supply += as_resources(st.tokens[p].sum(axis=0)).astype(st.supply.dtype)  # clan carts as carts
    st.tokens[p] = 0


def give(st, p: int, **amounts: int) -> None:
    """Move resources from the supply into p's storage."""
    s = st.game.storage_of[p]
    for name, n in amounts.items():
        r = RESOURCES.index(name)
        st.supply[r] -= n
        st.storage[s, r] += n


def hold(st, p: int, slot: int, **amounts: int) -> None:
    """Put tokens (token kinds, e.g. cart_fire=1) from the supply onto p's troll in ``slot``."""
    for name, n in amounts.items():
        k = TOKEN_KINDS.index(name)
        st.supply[4 if k >= 7 else k] -= n
        st.tokens[p, slot, k] += n


def place_tunnel(st, cells: list[tuple[int, int]], shape: int = 0) -> None:
    """Lay a tunnel tile on the board directly (to build a position), updating the networks."""
    place_tile(st, np.array([st.game.geo.sq(r, c) for r, c in cells]), 2, shape)
    st.invalidate_caches()


def placement(game: Game, shape_name: str, cells: list[tuple[int, int]], halls: bool = False) -> int:
    """The placement index of a tunnel shape (or great hall) covering exactly ``cells``."""
    table = game.geo.hall_placements if halls else game.geo.tunnel_placements
    names = [h.name for h in game.pack.great_halls] if halls else [t.name for t in game.pack.tunnels]
    piece = names.index(shape_name)
    want = sorted(game.geo.sq(r, c) for r, c in cells)
    for i in np.flatnonzero(table.piece == piece):
        if sorted(table.cells[i, : table.size[i]].tolist()) == want:
            return int(i)
    raise KeyError(f"no placement of {shape_name} covers {cells}")


def act(st, block: str, arg: int = 0) -> None:
    st.apply(st.game.layout.index(block, arg))


def blocks(st) -> set[str]:
    return {st.game.layout.decode(int(a))[0] for a in st.legal_actions()}


def to_phase(st, phase: str) -> None:
    """Pass until the current player's turn reaches ``phase``."""
    while st.decision_kind() != phase:
        act(st, "pass")


def json_trace(st, actions: list[int]) -> list[str]:
    """Apply ``actions`` to ``st`` and return the state's JSON after each one."""
    out = []
    for a in actions:
        st.apply(a)
        out.append(st.to_json())
    return out


def play_random(st, rng: np.random.Generator, steps: int | None = None):
    """Apply up to ``steps`` random legal actions (all of the game if None); returns ``st``."""
    while not st.is_terminal() and (steps is None or steps > 0):
        legal = st.legal_actions()
        st.apply(int(legal[rng.integers(len(legal))]))
        steps = None if steps is None else steps - 1
    return st


def draw_card(st, level: int) -> int:
    """Take the top card of the Level-``level`` horde deck (to build a position; an unseen card is seen)."""
    if st.deck_unseen[level - 1] > 0:
        st.deck_unseen[level - 1] -= 1
    return st.decks[level - 1].pop(0)


def swap_into_horde(st, h: int, level: int) -> int:
    """Put the top card of the Level-``level`` deck into horde slot ``h`` (its card to the bottom of its own
    deck; the slot's bribes and pedestal stay), as a refill does once a deck runs out; returns the card."""
    old = int(st.horde[h])
    st.decks[st.game.card_level[old] - 1].append(old)
    st.horde[h] = draw_card(st, level)
    st.invalidate_caches()
    return int(st.horde[h])


def spell_in_book(st, effect: str) -> int:
    """Put the pack's spell with ``effect`` into the spellbook (swapped with position 0's card if it lies
    in the spell deck); returns its spellbook position."""
    spell = [s.effect for s in st.game.pack.spells].index(effect)
    if spell not in st.spellbook.tolist():
        st.spell_deck[st.spell_deck.index(spell)] = int(st.spellbook[0])
        st.spellbook[0] = spell
    st.invalidate_caches()
    return st.spellbook.tolist().index(spell)


def random_action(rng: np.random.Generator, legal: np.ndarray, trade: tuple[int, int]) -> int:
    """Mostly not a trade (so that games dig, recruit, cast and build), else any legal action."""
    non_trade = legal[(legal < trade[0]) | (legal >= trade[1])]
    pool = non_trade if len(non_trade) and rng.random() < 0.85 else legal
    return int(pool[rng.integers(len(pool))])
