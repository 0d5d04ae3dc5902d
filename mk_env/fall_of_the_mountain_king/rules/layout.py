"""The flat action space: named blocks (:class:`~.vocabulary.Block`) laid end to end, each action number a
block and an argument; :meth:`ActionLayout.describe` says in words what any action number does."""

from __future__ import annotations

from mk_env.core.flat_engine import BlockLayout

from .content import FallPack, MapSide
from .vocabulary import ACTIONS, SYMBOL_NAMES, Block


class ActionLayout(BlockLayout):
    """The blocks of the action space for a pack, a map side and a number of players."""

    def __init__(self, pack: FallPack, side: MapSide, num_players: int, cells: int, cols: int):
        self.pack, self.side, self.num_players, self.cells, self.cols = pack, side, num_players, cells, cols
        champs, size = len(pack.champions), side.size
        symbol_cells = cells + champs
        sizes: dict[Block, int] = {
            Block.DONE: 1, Block.END_TURN: 1, Block.KEEP: 2, Block.LAIR_PAIR: len(side.lair_pairs),
            Block.LAIR_TROLL: size, Block.PAWN_SETUP: 2, Block.PLACE: pack.rules.hand * cells, Block.WILD: cells,
            Block.WEAK: len(ACTIONS) * symbol_cells, Block.STRONG: len(ACTIONS) * symbol_cells,
            Block.ADD: symbol_cells, Block.BOOST: pack.rules.max_boost + 1, Block.DEST: size, Block.TROLL: size,
            Block.CHAMPION: champs, Block.INFLUENCE: max(pack.rules.display), Block.WHEEL: len(pack.wheel.spaces),
            Block.GATE: max(pack.rules.invasion_cards), Block.GNOME: sum(pack.rules.gnomes), Block.SWARM: 5,
            Block.SHOVE_FROM: size, Block.SHOVE: (num_players + champs) * size, Block.ROUTE: size,
            Block.FALL: 1 + champs, Block.LAIR: 2, Block.CLAN: len(pack.clans), Block.VOTE_OR_HONOR: 2,
            Block.HALL: len(side.halls), Block.COUNT: pack.rules.trolls,
        }
        self.symbol_cells = symbol_cells
        super().__init__(Block, sizes)

    def weak(self, action: int, cell: int) -> int:
        """The action number of a weak ``action`` (a Symbol) on symbol cell ``cell``."""
        return self.offset[Block.WEAK] + int(action) * self.symbol_cells + cell

    def strong(self, action: int, cell: int) -> int:
        return self.offset[Block.STRONG] + int(action) * self.symbol_cells + cell

    def cell_name(self, cell: int) -> str:
        """A grid cell as row/column of the canvas, or a champion card's symbol."""
        if cell >= self.cells:
            return f"the symbol of champion {self.pack.champions[cell - self.cells].name}"
        r, c = divmod(cell, self.cols)
        return f"cell r{r}c{c}"

    def describe(self, action: int) -> str:
        """A readable sentence for an action number, e.g. "weak advance with cell r4c3"."""
        block, a = self.decode(action)
        names = self.side.names
        champs = self.pack.champions
        size = self.side.size
        if block in (Block.WEAK, Block.STRONG):
            act, cell = divmod(a, self.symbol_cells)
            how = "with" if block == Block.WEAK else "starting with"
            return f"{block} {SYMBOL_NAMES[act]} action {how} {self.cell_name(cell)}"
        if block == Block.PLACE:
            slot, anchor = divmod(a, self.cells)
            return f"add the ancestry card of hand slot {slot} with its top left on {self.cell_name(anchor)}"
        if block == Block.SHOVE:
            piece, dest = divmod(a, size)
            what = f"a troll of seat {piece}" if piece < self.num_players else \
                f"champion {champs[piece - self.num_players].name}"
            return f"move {what} to {names[dest]}"
        loc = names[a] if a < size else ""
        return _WORDS[block].format(a=a, loc=loc, cell=self.cell_name(a) if a < self.symbol_cells else "",
                                    champ=champs[a].name if a < len(champs) else "",
                                    fallen=("a regular troll" if a == 0 else
                                            f"champion {champs[a - 1].name}" if a - 1 < len(champs) else ""),
                                    clan=self.pack.clans[a] if a < len(self.pack.clans) else "",
                                    m=a + 1, swarm=a - 2, count=a + 1,
                                    hall=self.side.hall_names[a] if a < len(self.side.halls) else "")


#: the words of each block's actions
_WORDS = {
    Block.DONE: "done (no more)",
    Block.END_TURN: "end the turn",
    Block.KEEP: "keep dealt champion {a}",
    Block.LAIR_PAIR: "put your lairs on lair pair {a}",
    Block.LAIR_TROLL: "put the lair's troll in {loc}",
    Block.PAWN_SETUP: "put the champion pawn with the troll by lair {a}",
    Block.WILD: "cover the wild at {cell} (wild pair for supply)",
    Block.ADD: "add {cell} to the strong action",
    Block.BOOST: "boost by {a}",
    Block.DEST: "choose {loc}",
    Block.TROLL: "move a troll from {loc}",
    Block.CHAMPION: "move champion {champ}",
    Block.INFLUENCE: "add influence to the champion at display position {a}",
    Block.WHEEL: "move the wheel pawn {m} spaces",
    Block.GATE: "peek at facedown gate card {a}",
    Block.GNOME: "peek at gnome {a}",
    Block.SWARM: "move the swarm {swarm} swarm points",
    Block.SHOVE_FROM: "move trolls out of {loc}",
    Block.ROUTE: "send the gnome to {loc}",
    Block.FALL: "{fallen} falls",
    Block.LAIR: "your lair {a}",
    Block.CLAN: "votes in the {clan} clan",
    Block.VOTE_OR_HONOR: "take {a} (0: a vote, 1: honor)",
    Block.HALL: "put the starburst tile in {hall}",
    Block.COUNT: "add {count} trolls from your supply",
}
