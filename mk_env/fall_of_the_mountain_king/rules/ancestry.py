"""Build Your Ancestry: the ancestry grid (a canvas around the starting card, the cards kept inside a 6x6
grid), the draft of 4 cards, the placement rules, the supplies with wild pairs and desperation tokens, and
the symbols a player may use (connected through ancestry markers for a strong action). A pick's placements
and the wild pairs are simultaneous decisions: asked one seat at a time, each choice hidden until every seat
has chosen (:mod:`.simultaneous`).

Canvas cells are numbered row by row; the starting card (2x3) lies so that the 6x6 grid may grow from it
in every direction.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .board import has_ability
from .fields import HELD
from .flow import ask, order_from, push, resume, task
from .vocabulary import Ability, Phase, Symbol

if TYPE_CHECKING:
    from .content import Card
    from .state import FallState

NO_CARD, BLANK = -1, 0


def code(symbol: Symbol, strength: int) -> int:
    """A grid cell's code for ``symbol`` of ``strength``."""
    return 1 + int(symbol) * 3 + strength - 1


def decode(value: int) -> tuple[Symbol, int] | None:
    """(symbol, strength) of a grid cell's code, None for no card or a blank cell."""
    if value <= 0:
        return None
    return Symbol((value - 1) // 3), (value - 1) % 3 + 1


def write_card(st: FallState, seat: int, card: Card, anchor: int) -> None:
    """Lay ``card`` with its top-left cell on canvas cell ``anchor``."""
    cols = st.game.canvas_cols
    grid = st.grid[seat]
    for i, cell in enumerate(card.cells):
        r, c = divmod(i, card.cols)
        grid[anchor + r * cols + c] = code(*cell) if cell else BLANK


#: the grid codes of elder symbols (never covered by a card)
ELDER_CODES = frozenset(1 + int(Symbol.ELDER) * 3 + k for k in range(3))


def _window(st: FallState, seat: int) -> tuple[range, range]:
    """The canvas rows and columns a 2x2 card's top left may take and keep ``seat``'s whole ancestry inside
    a side x side grid (and on the canvas)."""
    g = st.game
    rows, cols, side = g.canvas_rows, g.canvas_cols, g.pack.grid
    filled = [i for i, v in enumerate(st.grid[seat]) if v != NO_CARD]
    r0, r1 = min(i // cols for i in filled), max(i // cols for i in filled)
    c0, c1 = min(i % cols for i in filled), max(i % cols for i in filled)
    return (range(max(0, r1 - side + 1), min(rows - 2, r0 + side - 2) + 1),
            range(max(0, c1 - side + 1), min(cols - 2, c0 + side - 2) + 1))


def anchors(st: FallState, seat: int) -> list[int]:
    """The canvas cells where a 2x2 card may go: "covering at least one cell of a prior card, not covering
    any elder symbol (gold glyphs), and staying inside a 6x6 grid" (every card has the same rotation)."""
    cols = st.game.canvas_cols
    grid = st.grid[seat]
    rows_in, cols_in = _window(st, seat)
    out = []
    for r in rows_in:
        for c in cols_in:
            a = r * cols + c
            under = (grid[a], grid[a + 1], grid[a + cols], grid[a + cols + 1])
            if any(v != NO_CARD for v in under) and not any(v in ELDER_CODES for v in under):
                out.append(a)
    return out


def why_not_anchor(st: FallState, seat: int, anchor: int) -> str:
    """Which placement rule a card with its top left on ``anchor`` breaks (the rules of :func:`anchors`)."""
    g = st.game
    cols, side = g.canvas_cols, g.pack.grid
    r, c = divmod(anchor, cols)
    rows_in, cols_in = _window(st, seat)
    if r not in rows_in or c not in cols_in:
        return f"the card must stay inside a {side}x{side} grid with the rest of your ancestry"
    grid = st.grid[seat]
    under = (grid[anchor], grid[anchor + 1], grid[anchor + cols], grid[anchor + cols + 1])
    if any(v in ELDER_CODES for v in under):
        return "the card may never cover an elder symbol (gold glyph)"
    return "the card must cover at least one cell of a prior card (every card has the same rotation)"


def count_symbols(st: FallState, seat: int, symbol: Symbol) -> int:
    """How many ``symbol`` symbols ``seat``'s grid shows (covered by a marker or not)."""
    return sum(1 for v in st.grid[seat] if (s := decode(v)) and s[0] == symbol)


# -- the draft -------------------------------------------------------------------------------------------
@task("wave_start")
def wave_start(st: FallState) -> None:
    """"At the start of each wave, deal each player 4 ancestry cards", then the three picks."""
    for seat in order_from(st, st.start_player):
        st.hands[seat] = [st.deck.pop() for _ in range(min(st.game.pack.rules.hand, len(st.deck)))]
        st.seen[seat] = st.hands[seat][:]
    push(st, ["draft", 0, 0])


@task("draft")
def draft(st: FallState, pick: int, i: int) -> None:
    """Pick ``pick``: each player in turn from the start player chooses a card and where it goes (the real
    game does this at once: the choices stay hidden), then the cards are added together and the hands pass."""
    n = st.num_players
    if i < n:
        seat = (st.start_player + i) % n
        push(st, ["draft", pick, i + 1])
        if st.hands[seat] and anchors(st, seat):
            ask(st, Phase.PLACE_CARD, seat)
        return
    reveal_placements(st)
    if pick + 1 < st.game.pack.rules.picks:
        # "Passes the remaining cards left/right/left in wave 1/2/3": left is the next seat clockwise
        step = -1 if st.wave == 2 else 1
        st.hands = [st.hands[(p - step) % n] for p in range(n)]
        for p in range(n):
            st.seen[p] += [c for c in st.hands[p] if c not in st.seen[p]]
        push(st, ["draft", pick + 1, 0])
    else:  # "when only one is left, discards it"
        st.hands = [[] for _ in range(n)]
        push(st, ["supplies", 0])


def apply_place(st: FallState, arg: int) -> None:
    """Choose the card of hand slot ``arg // cells`` with its top-left on canvas cell ``arg % cells``: added
    with the others' (:func:`reveal_placements`)."""
    st.committed[st.decider] = [arg]
    resume(st)


def reveal_placements(st: FallState) -> None:
    """Every card chosen in the pick is added to its player's ancestry (and leaves the hand)."""
    cells = st.game.cells
    for seat, chosen in enumerate(st.committed):
        for arg in chosen:
            slot, anchor = divmod(arg, cells)
            card = st.hands[seat].pop(slot)
            write_card(st, seat, st.game.pack.cards[card], anchor)
            st.placed[seat] += [card, anchor]
        st.committed[seat] = []


def why_not_place(st: FallState, arg: int) -> str:
    """Why PLACE ``arg`` is refused: no card in that hand slot, or the placement rule the anchor breaks."""
    seat = st.decider
    slot, anchor = divmod(arg, st.game.cells)
    if slot >= len(st.hands[seat]):
        return f"your hand has no card in slot {slot} (it holds {len(st.hands[seat])})"
    return why_not_anchor(st, seat, anchor)


def place_actions(st: FallState, seat: int) -> list[int]:
    """``seat``'s PLACE arguments: every hand slot on every legal anchor."""
    cells = st.game.cells
    spots = anchors(st, seat)
    return [slot * cells + a for slot in range(len(st.hands[seat])) for a in spots]


# -- supplies ---------------------------------------------------------------------------------------------
@task("supplies")
def supplies(st: FallState, i: int) -> None:
    """"In wave 1/2/3, each player marks their supplies at 6/5/4 plus 1 for each barrel in their ancestry
    (to a maximum of 8)" (every player at once, from what the table shows); then each player's wild pairs,
    from the start player (hidden until all have chosen); then they are revealed with the desperation tokens."""
    n = st.num_players
    if i == 0:
        for seat in range(n):
            mark_supplies(st, seat)
    if i == n:
        push(st, ["reveal_wild_pairs"], ["battle_turn", st.start_player])
        return
    seat = (st.start_player + i) % n
    push(st, ["supplies", i + 1])
    if can_cover_wild(st, seat, 0):
        ask(st, Phase.WILD_PAIR, seat, covered=0)


def mark_supplies(st: FallState, seat: int) -> None:
    """``seat``'s supplies for the wave: 6/5/4 plus its barrels and its champions' supplies, up to 8."""
    rules = st.game.pack.rules
    extra = sum(st.game.pack.champions[c].amount for c in has_ability(st, seat, Ability.SUPPLY))
    st.supply[seat] = min(rules.supply_max, rules.supply_by_wave[st.wave - 1]
                          + count_symbols(st, seat, Symbol.SUPPLY) + extra)


def can_cover_wild(st: FallState, seat: int, covered: int) -> bool:
    """Whether another wild may be covered: mid-pair, or a whole pair left and the supply (with the pairs
    chosen so far) below 8."""
    left = len(wild_cells(st, seat))
    supply = st.supply[seat] + len(st.committed[seat]) // 2
    return left >= 1 if covered else (left >= 2 and supply < st.game.pack.rules.supply_max)


def uncovered_wilds(st: FallState, seat: int) -> list[int]:
    """The canvas cells of ``seat``'s wild symbols without an ancestry marker."""
    return [i for i, (v, m) in enumerate(zip(st.grid[seat], st.covered[seat]))
            if not m and (s := decode(v)) and s[0] == Symbol.WILD]


def wild_cells(st: FallState, seat: int) -> list[int]:
    """``seat``'s WILD arguments: its uncovered wild symbols not yet chosen in the wild pairs under way."""
    chosen = st.committed[seat]
    return [i for i in uncovered_wilds(st, seat) if i not in chosen]


def why_not_wild(st: FallState, cell: int) -> str:
    """Why covering ``cell`` for a wild pair is refused (the rules of :func:`wild_cells`)."""
    seat = st.decider
    if cell >= st.game.cells:
        return "only a wild symbol of your ancestry grid may be covered for a wild pair"
    sym = decode(st.grid[seat][cell])
    if not sym or sym[0] != Symbol.WILD:
        return "that cell shows no wild symbol"
    if st.covered[seat][cell]:
        return "that wild symbol is already covered by an ancestry marker"
    return "that wild symbol is already chosen in this wild pair"


def apply_wild(st: FallState, cell: int) -> None:
    """Choose to cover the wild at ``cell`` (covered, with the supply it brings, when every player has
    chosen: :func:`reveal_wild_pairs`)."""
    seat = st.decider
    st.committed[seat].append(cell)
    covered = len(st.committed[seat]) % 2
    if can_cover_wild(st, seat, covered):
        ask(st, Phase.WILD_PAIR, seat, covered=covered)
    else:
        resume(st)


@task("reveal_wild_pairs")
def reveal_wild_pairs(st: FallState) -> None:
    """"For each 2 wild symbols the player covers with ancestry markers, they increase their supply by 1 (up
    to 8)": every player's chosen wilds are covered at once; then each player's desperation tokens."""
    cap = st.game.pack.rules.supply_max
    for seat, chosen in enumerate(st.committed):
        for cell in chosen:
            st.covered[seat][cell] = 1
        st.supply[seat] = min(cap, st.supply[seat] + len(chosen) // 2)
        st.committed[seat] = []
        desperation(st, seat)


def desperation(st: FallState, seat: int) -> None:
    """"Give each player 1 desperation token for each desperation symbol to the right of their supply
    counter" (the mat's spaces above the supply), plus the champions' tokens."""
    spaces = st.game.pack.rules.desperation_spaces
    extra = sum(st.game.pack.champions[c].amount for c in has_ability(st, seat, Ability.DESPERATION))
    st.desperation[seat] = sum(1 for s in spaces if s > st.supply[seat]) + extra


# -- symbols for actions ---------------------------------------------------------------------------------
def symbol_of(st: FallState, seat: int, cell: int) -> tuple[Symbol, int] | None:
    """The usable symbol at ``cell`` (a canvas cell without a marker, or ``cells + card``: a held champion's
    symbol with a claw left), None if none."""
    g = st.game
    if cell < g.cells:
        return None if st.covered[seat][cell] else decode(st.grid[seat][cell])
    card = cell - g.cells
    ch = g.pack.champions[card]
    if st.champ_owner[card] != seat or st.champ_state[card] != HELD or ch.ability != Ability.SYMBOL:
        return None
    return (ch.symbol, ch.strength) if st.claws_used[card] < ch.claws else None


def serves(sym: tuple[Symbol, int] | None, action: Symbol) -> bool:
    """Whether a symbol may be used for ``action`` ("Wild symbols ... serve as any action symbol")."""
    return sym is not None and (sym[0] == action or sym[0] == Symbol.WILD)


def use_symbol(st: FallState, seat: int, cell: int) -> int:
    """Cover the symbol at ``cell`` with an ancestry marker (a champion's: cover a claw); its power."""
    sym = symbol_of(st, seat, cell)
    if cell < st.game.cells:
        st.covered[seat][cell] = 1
    else:
        st.claws_used[cell - st.game.cells] += 1
    return sym[1]


def champion_cells(st: FallState, seat: int) -> list[int]:
    """The champion symbol cells ``seat`` may use now."""
    cells = st.game.cells
    return [cells + c for c in has_ability(st, seat, Ability.SYMBOL) if symbol_of(st, seat, cells + c)]


def connected_candidates(st: FallState, seat: int, action: Symbol) -> list[int]:
    """The symbols a strong action under way may add: uncovered symbols serving ``action`` orthogonally
    adjacent to the region of ancestry markers reached from the symbols already covered for it
    ("connected through orthogonally adjacent ancestry markers"); and champion symbols, "neglecting
    adjacency requirements" (so after champion symbols alone, any symbol of the grid)."""
    g = st.game
    cols, cells = g.canvas_cols, g.cells
    covered = st.covered[seat]
    todo = [c for c in st.pending["cells"] if c < cells]
    out = set()
    if not todo:  # only champion symbols so far: they join any symbol of the grid
        out.update(c for c in range(cells) if serves(symbol_of(st, seat, c), action))
    seen = set(todo)
    while todo:
        x = todo.pop()
        r, c = divmod(x, cols)
        for y, ok in ((x - cols, r > 0), (x + cols, r < g.canvas_rows - 1), (x - 1, c > 0), (x + 1, c < cols - 1)):
            if not ok or y in seen:
                continue
            if covered[y]:
                seen.add(y)
                todo.append(y)
            elif serves(symbol_of(st, seat, y), action):
                out.add(y)
    out.update(c for c in champion_cells(st, seat) if serves(symbol_of(st, seat, c), action))
    return sorted(out)
