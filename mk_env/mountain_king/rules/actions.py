"""One flat numbering of every decision of the game.

A decision is an ``int`` in ``range(ActionLayout.size)``; the number means the same decision in every
state of a game (same content pack and board side). The layout is a sequence of *blocks*, each a
contiguous range of indices; :meth:`ActionLayout.decode` turns an index into ``(block, args)`` and
:meth:`ActionLayout.describe` into a sentence.

Pyramid slots: the trollsmoot has 10 slots numbered bottom row first (0-3), then 4-6, 7-8 and 9; slot
``(row, i)`` rests on ``(row-1, i)`` and ``(row-1, i+1)``. The horde has 12 slots: Level-1 row 0-4,
Level-2 row 5-8, Level-3 row 9-11, with the same resting rule.
"""

from __future__ import annotations

import itertools
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .content import CLANS, MINERALS, N_RESOURCES, N_TOKEN_KINDS, RESOURCES, TOKEN_KINDS, ContentPack
from .geometry import BoardGeometry
from .vocabulary import Block

TROLLSMOOT_ROWS = (4, 3, 2, 1)
HORDE_ROWS = (5, 4, 3)


def pyramid_slots(rows: tuple[int, ...]) -> list[tuple[int, int]]:
    """(row, index-in-row) of each slot, numbered bottom row first."""
    return [(r, i) for r, width in enumerate(rows) for i in range(width)]


def pyramid_support(rows: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each slot, the two slots it rests on (empty for the bottom row)."""
    starts = list(itertools.accumulate((0,) + rows[:-1]))
    out: list[tuple[int, ...]] = []
    for r, i in pyramid_slots(rows):
        out.append(() if r == 0 else (starts[r - 1] + i, starts[r - 1] + i + 1))
    return out


def pyramid_cone(rows: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each slot, itself and every slot beneath it (the downward cascade), top to bottom."""
    support = pyramid_support(rows)
    out: list[tuple[int, ...]] = []
    for s in range(len(support)):
        cone, frontier = [s], [s]
        while frontier:
            nxt = sorted({b for f in frontier for b in support[f]})
            cone.extend(x for x in nxt if x not in cone)
            frontier = nxt
        out.append(tuple(cone))
    return out


SMOOT_SUPPORT = pyramid_support(TROLLSMOOT_ROWS)
SMOOT_CONE = pyramid_cone(TROLLSMOOT_ROWS)
SMOOT_ROW = [r for r, _ in pyramid_slots(TROLLSMOOT_ROWS)]
HORDE_ROW = [r for r, _ in pyramid_slots(HORDE_ROWS)]
#: the horde trolls beneath each horde slot (who must be bribed to recruit it)
HORDE_BENEATH = [tuple(x for x in cone if x != s) for s, cone in enumerate(pyramid_cone(HORDE_ROWS))]
N_SMOOT = len(SMOOT_ROW)
N_HORDE = len(HORDE_ROW)
RECRUIT_SLOTS = tuple(s for s in range(N_SMOOT) if SMOOT_ROW[s] > 0)
#: where a paying token lies (payment="choose"): trollsmoot slots 0-9, then the storage
STORAGE_SOURCE = N_SMOOT
PAY_SOURCES = N_SMOOT + 1


def describe_token(arg: int) -> str:
    """A ``pay_token`` argument in words, e.g. "1 stone held by the troll in trollsmoot slot 3"."""
    source, kind = divmod(arg, N_TOKEN_KINDS)
    where = "from your storage" if source == STORAGE_SOURCE else f"held by the troll in trollsmoot slot {source}"
    name = TOKEN_KINDS[kind].replace("cart_", "") + " cart" if kind >= N_RESOURCES else TOKEN_KINDS[kind]
    if kind == RESOURCES.index("cart"):
        name = "wild cart"
    return f"1 {name} {where}"


@dataclass(frozen=True)
class Conversion:
    """One workshop use: ``give`` resource counts (or None for the Quartermaster), ``gain`` counts,
    ``move`` = (trollsmoot slot, token kind) for the Quartermaster."""

    workshop: int
    give: tuple[int, ...] | None
    gain: tuple[int, ...]
    move: tuple[int, int] | None = None


def _multisets(k: int) -> list[tuple[int, ...]]:
    """Every multiset of k resources as a count vector over RESOURCES."""
    out = []
    for combo in itertools.combinations_with_replacement(range(N_RESOURCES), k):
        v = [0] * N_RESOURCES
        for x in combo:
            v[x] += 1
        out.append(tuple(v))
    return out


def _vec(pairs: tuple[tuple[str, int], ...]) -> tuple[int, ...]:
    v = [0] * N_RESOURCES
    for name, n in pairs:
        v[RESOURCES.index(name)] += n
    return tuple(v)


class ActionLayout:
    """The blocks of the flat action space for one content pack and board side."""

    #: the blocks' names in layout order (:class:`mk_env.mountain_king.rules.vocabulary.Block` says what each
    #: argument means); an instance's ``BLOCKS`` are its own: ``pay_token`` only with ``payment="choose"``
    BLOCKS: tuple[str, ...] = tuple(b.value for b in Block)

    def __init__(self, pack: ContentPack, geo: BoardGeometry, payment: str = "auto"):
        self.pack, self.geo, self.payment = pack, geo, payment
        if payment != "choose":  # the default layout (and its fingerprint) as before the option
            self.BLOCKS = tuple(b for b in ActionLayout.BLOCKS if b != Block.PAY_TOKEN)
        rate = int(pack.rules.get("trade_rate", 4))
        self.trade_gives = np.array(_multisets(rate), dtype=np.int16)  # [T, 7]
        self.trade_gives_by_kind = np.ascontiguousarray(self.trade_gives.T)  # [7, T]
        self.conversions = self._conversions(pack)
        self.conv_give = np.array([c.give if c.give else (0,) * N_RESOURCES for c in self.conversions],
                                  dtype=np.int16)
        self.conv_workshop = np.array([c.workshop for c in self.conversions], dtype=np.int16)
        max_options = max([len(s.params.get("options", ())) for s in pack.spells] + [1])
        sizes = {
            "pass": 1,
            "gate": len(geo.start_points),
            "draft": len(pack.starter_trolls) * TROLLSMOOT_ROWS[0],
            "cast": int(pack.rules.get("spellbook_size", 3)),
            "spell_option": max_options,
            "activate_workshop": len(geo.site_squares),
            "workshop_use": len(self.conversions),
            "trade": len(self.trade_gives) * N_RESOURCES,
            "recruit": N_HORDE * len(RECRUIT_SLOTS),
            "bribe": N_RESOURCES,
            "pedestal": len(CLANS),
            "dig": len(geo.tunnel_placements),
            "mineral": len(MINERALS),
            "establish": len(pack.workshops),
            "hall": len(geo.hall_placements),
            "select_statue": geo.n_squares,
            "move_statue": geo.n_squares,
            "smoot_slot": N_SMOOT,
            "horde_slot": N_HORDE,
            "pay_token": PAY_SOURCES * N_TOKEN_KINDS,
        }
        self.sizes = sizes
        self.offset: dict[str, int] = {}
        start = 0
        for b in self.BLOCKS:
            self.offset[b] = start
            start += sizes[b]
        self.size = start
        #: the trade block as a table: give multiset g, gain r -> action number (by give, then by gain)
        self.trade_rows = (self.offset["trade"] + np.arange(len(self.trade_gives), dtype=np.int32)[:, None]
                           * N_RESOURCES + np.arange(N_RESOURCES, dtype=np.int32)).astype(np.int32)
        #: legal trades by owned counts (capped at the trade rate), shared by every game of this layout;
        #: bounded (least recently used first out), see ``legal._trade_actions``
        self.trade_memo: OrderedDict[bytes, np.ndarray] = OrderedDict()
        self._starts = np.array([self.offset[b] for b in self.BLOCKS])
        self._start_list = self._starts.tolist()
        #: the block of each action number (a list: one index per decode, no search)
        self._block_of = [b for b, name in enumerate(self.BLOCKS) for _ in range(sizes[name])]

    def __getstate__(self) -> dict:
        """The layout without its trade memo (a cache, rebuilt on use)."""
        return {**self.__dict__, "trade_memo": OrderedDict()}

    @staticmethod
    def _conversions(pack: ContentPack) -> list[Conversion]:
        out: list[Conversion] = []
        for w, shop in enumerate(pack.workshops):
            for t in shop.trades:
                if t.move_from_troll:
                    out += [Conversion(w, None, (0,) * N_RESOURCES, (slot, kind))
                            for slot in range(N_SMOOT) for kind in range(N_TOKEN_KINDS)]
                elif t.give_any:
                    out += [Conversion(w, g, _vec(t.gain)) for g in _multisets(t.give_any)]
                else:
                    out.append(Conversion(w, _vec(t.give), _vec(t.gain)))
        return out

    def index(self, block: str, arg: int = 0) -> int:
        """The action number of argument ``arg`` in ``block``."""
        if not 0 <= arg < self.sizes[block]:
            raise ValueError(f"{block} argument {arg} out of range 0..{self.sizes[block] - 1}")
        return self.offset[block] + arg

    def decode(self, action: int) -> tuple[str, int]:
        """(block name, argument within the block)."""
        if not 0 <= action < self.size:
            raise ValueError(f"action {action} is outside the action space 0..{self.size - 1}")
        b = self._block_of[action]
        return self.BLOCKS[b], action - self._start_list[b]

    # -- argument helpers -------------------------------------------------------------------------
    def trade_args(self, arg: int) -> tuple[np.ndarray, int]:
        """(count vector given, resource gained) of a trade argument."""
        return self.trade_gives[arg // N_RESOURCES], arg % N_RESOURCES

    def recruit_args(self, arg: int) -> tuple[int, int]:
        """(horde slot, trollsmoot slot) of a recruit argument."""
        return arg // len(RECRUIT_SLOTS), RECRUIT_SLOTS[arg % len(RECRUIT_SLOTS)]

    def recruit_index(self, horde_slot: int, smoot_slot: int) -> int:
        return self.index("recruit", horde_slot * len(RECRUIT_SLOTS) + RECRUIT_SLOTS.index(smoot_slot))

    def draft_args(self, arg: int) -> tuple[int, int]:
        """(starter troll type, trollsmoot slot) of a draft argument."""
        return arg // TROLLSMOOT_ROWS[0], arg % TROLLSMOOT_ROWS[0]

    # -- words ------------------------------------------------------------------------------------
    def describe(self, action: int) -> str:
        """A readable sentence for an action number, e.g. "dig L-tetromino rot90 flipped at (4, 7)"."""
        block, a = self.decode(action)
        pack, geo = self.pack, self.geo
        if block == "pass":
            return "pass (end this step, or decline the current option)"
        if block == "gate":
            sq, mark = geo.start_points[a]
            return f"place your gate on start point {a} (marked {mark}) at {geo.rc(sq)}"
        if block == "draft":
            t, slot = self.draft_args(a)
            return f"keep starter troll {pack.starter_trolls[t].name} in starting slot {slot}"
        if block == "cast":
            return f"cast the spell in spellbook position {a}"
        if block == "spell_option":
            return f"choose option {a} of the spell"
        if block == "activate_workshop":
            return f"activate the workshop on site {a} at {geo.rc(geo.site_squares[a])}"
        if block == "workshop_use":
            return self.describe_conversion(a)
        if block == "trade":
            give, gain = self.trade_args(a)
            return f"trade {_words(give)} to the supply for 1 {RESOURCES[gain]}"
        if block == "recruit":
            h, s = self.recruit_args(a)
            return f"recruit the horde troll in slot {h} (row {HORDE_ROW[h] + 1}) into trollsmoot slot {s}"
        if block == "bribe":
            return f"pay the next bribe with 1 {RESOURCES[a]}"
        if block == "pedestal":
            return f"choose a {CLANS[a].capitalize()} pedestal"
        if block == "dig":
            t = geo.tunnel_placements
            shape = pack.tunnels[t.piece[a]]
            return (f"dig {shape.name} {t.orient_names[t.piece[a]][t.orient[a]]} "
                    f"at {geo.rc(t.origin[a])}")
        if block == "mineral":
            return f"pay for the tunnel with {MINERALS[a]}"
        if block == "establish":
            return f"establish the {pack.workshops[a].name} on the workshop site"
        if block == "hall":
            t = geo.hall_placements
            return (f"dedicate {pack.great_halls[t.piece[a]].name} "
                    f"{t.orient_names[t.piece[a]][t.orient[a]]} at {geo.rc(t.origin[a])}")
        if block == "select_statue":
            return f"select the statue at {geo.rc(a)} to move"
        if block == "move_statue":
            return f"move the selected statue to {geo.rc(a)}"
        if block == "smoot_slot":
            return f"choose trollsmoot slot {a}"
        if block == "pay_token":
            return f"pay with {describe_token(a)}"
        return f"choose horde slot {a}"

    def describe_conversion(self, a: int) -> str:
        conv = self.conversions[a]
        name = self.pack.workshops[conv.workshop].name
        if conv.move is not None:
            slot, kind = conv.move
            return f"{name}: move 1 {TOKEN_KINDS[kind]} from trollsmoot slot {slot} to storage"
        return f"{name}: spend {_words(conv.give)} to gain {_words(conv.gain)}"


def _words(vec) -> str:
    parts = [f"{int(n)} {RESOURCES[i]}" for i, n in enumerate(vec) if n]
    return ", ".join(parts) if parts else "nothing"
