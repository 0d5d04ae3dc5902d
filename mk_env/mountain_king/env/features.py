"""The observation's features, each declared once: what it is called, which state fields it reads,
when it is refilled and how its counts are scaled into ``[0, 1]``.

An observation array (a :class:`Part`: ``board``, ``players``, ...) is a run of features along its
last axis (the board: along its first, one channel per entry). From :data:`PARTS` the
:class:`~mk_env.mountain_king.env.observation.Observer` derives everything that used to be written by hand in
several places that had to agree: each array's shape and entry names (the docs tables and the layout
fingerprint), each feature's offset (``observer.at["players"].acting``: the index or slice its fill
function writes), the count scales, and each memo's key (:func:`memo_keys`: the bytes of exactly the
fields its features read, so a feature cannot be filled from a field its memo does not watch;
``tests/env/test_memo_keys.py`` records the fields each fill reads and checks them against these
declarations).

``memo`` says when a feature is refilled; each memo has fill functions (methods of the observer,
:data:`MEMO_FILLS`) and is keyed by the fields its features read:

* ``"static"``: filled once when the observer is built (the board's geometry);
* ``"seat"``: fixed per observing seat (the teammate flags);
* ``"call"``: refilled at every call (what changes at nearly every decision);
* any other name: a memoised group, refilled only when the state fields it reads change.

A read is a state field's name (``"storage"``), or ``"<field>:len"`` where only the length (of a list,
or of each list of a list) is read.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Union

from mk_env.mountain_king.rules import CLANS, PHASE_NAMES, RESOURCES, TOKEN_KINDS
from mk_env.mountain_king.rules.actions import N_HORDE, N_SMOOT, TROLLSMOOT_ROWS
from mk_env.mountain_king.rules.content import N_TIERS, TIER_NAMES, TROLL_CLANS
from mk_env.mountain_king.rules.fields import ARRAY, FIELDS, INTS, LISTS

if TYPE_CHECKING:
    from .observation import Observer

#: entry names (or a scale, a meaning...) that depend on the game: a function of the observer
Of = Union[tuple, Callable[["Observer"], Any]]

_DIRECTIONS = ("up", "right", "down", "left")  # the order of BoardGeometry.neighbours
#: troll card categories of the card features: starters, then the troll clans
CARD_CLANS = ("starter",) + TROLL_CLANS
TURN_CAP = 200  # the turn counter is encoded as min(turn, TURN_CAP) / TURN_CAP


@dataclass(frozen=True)
class Feature:
    """A run of entries of one observation array, filled together from the state fields it reads."""

    name: str  # its name in ``observer.at[part]`` (one entry: also the entry's name, unless entries say)
    reads: tuple[str, ...]  # the state fields it reads ("<field>:len": only the length(s))
    memo: str  # when it is refilled: "static", "seat", "call" or a memo group of MEMO_FILLS
    entries: Of = ()  # the entry names (empty: one entry called ``name``)
    scale: Of | float | None = None  # players, supply, counts: the multiplier(s) taking its counts into [0, 1]
    meaning: Of | str = ""  # board channels: what a 1 means (one string per entry, or one for all)
    #: how it is filled, when no fill method writes it by name: its counts (before ``scale``) from the
    #: state and the observer (one row per seat in the players part); any memo group of the players
    #: or the supply, or "call" outside the board
    count: Callable[[Any, Observer], Any] | None = None
    #: whether the game has this feature (None: every game); an absent feature has no entries
    present: Callable[[Observer], bool] | None = None

    def entry_names(self, ob: Observer) -> tuple[str, ...]:
        if self.present is not None and not self.present(ob):
            return ()
        names = resolve(self.entries, ob)
        return tuple(names) if names else (self.name,)


@dataclass(frozen=True)
class Part:
    """One array of the observation: its key, its leading axes, what it holds and its features."""

    key: str
    lead: Callable[[Observer], tuple[int, ...]]  # the axes before the features (the board: after)
    meaning: str
    features: tuple[Feature, ...]


def resolve(value: Any, ob: Observer) -> Any:
    """``value``, or ``value(ob)`` when it depends on the game."""
    return value(ob) if callable(value) else value


def _each(fmt: str, items: Of) -> Callable[[Observer], tuple[str, ...]]:
    """Entry names ``fmt.format(item)`` for each item (a tuple or a function of the observer)."""
    return lambda ob: tuple(fmt.format(x) for x in resolve(items, ob))


def _names(things: Callable[[Observer], Any]) -> Callable[[Observer], tuple[str, ...]]:
    return lambda ob: tuple(t.name for t in things(ob))


def card_entries(prefix: str = "") -> tuple[str, ...]:
    """The entries of a troll card's features: present, clan one-hot, level, symbols / most shown."""
    return tuple(prefix + x for x in (("present",) + tuple(f"clan_{c}" for c in CARD_CLANS) + ("level",)
                                      + tuple(f"symbol_{k}" for k in TOKEN_KINDS)))


def _choose_payment(ob: Observer) -> bool:
    """Games where the payer chooses the tokens (the payment features exist)."""
    return ob.game.choose_payment


def _who(k: int) -> str:
    return "me" if k == 0 else f"the player {k} seat(s) after me"


_tunnels = _names(lambda ob: ob.game.pack.tunnels)
_workshops = _names(lambda ob: ob.game.pack.workshops)


def _seats(ob: Observer) -> range:
    return range(ob.n)


def _clan_meaning(what: str) -> tuple[str, ...]:
    return tuple(f"{what} of the {c.capitalize()} clan" for c in CLANS)


_BOARD_SQUARES = ("kind", "statue", "pedestal", "buried")  # what the square-code lookup reads

BOARD = Part("board", lambda ob: (ob.h, ob.w), "board channels over the grid (see the channel table)", (
    Feature("on_board", (), "static", meaning="an ordinary square of the board (not the heart, not off the board)"),
    Feature("heart", (), "static", meaning="the mountain's heart"),
    Feature("tier", (), "static", tuple(f"tier_{t}" for t in range(1, N_TIERS + 1)),
            meaning=tuple(f"tier {t} square ({name})" for t, name in zip(range(1, N_TIERS + 1), TIER_NAMES))),
    Feature("workshop_site", (), "static", meaning="a workshop site"),
    # rubble .. great_hall: one table lookup by square code (Observer._board_common)
    Feature("rubble", _BOARD_SQUARES, "board", meaning="rubble not yet covered by a tile"),
    Feature("buried", _BOARD_SQUARES, "board", tuple(f"buried_{r}" for r in RESOURCES),
            meaning=tuple(f"a buried {r} still in the ground" for r in RESOURCES)),
    Feature("statue", _BOARD_SQUARES, "board", tuple(f"statue_{c}" for c in CLANS), meaning=_clan_meaning("a statue")),
    Feature("statue_buried", _BOARD_SQUARES, "board", meaning="a statue not yet unearthed (no tile on its square)"),
    Feature("pedestal", _BOARD_SQUARES, "board", tuple(f"pedestal_{c}" for c in CLANS),
            meaning=_clan_meaning("a pedestal")),
    Feature("gate", _BOARD_SQUARES, "board", meaning="a gate"),
    Feature("tunnel", _BOARD_SQUARES, "board", meaning="a tunnel tile"),
    Feature("great_hall", _BOARD_SQUARES, "board", meaning="a great hall"),
    Feature("altar", ("hall_altar",), "board", meaning="the altar square of a dedicated great hall"),
    Feature("network", ("reach",), "board", _each("network_{}", _seats),
            meaning=lambda ob: tuple("in the network of " + _who(k) for k in range(ob.n))),
    Feature("same_tunnel", ("region",), "board", tuple(f"same_tunnel_{d}" for d in _DIRECTIONS),
            meaning=tuple(f"the square {d} of it belongs to the same tunnel (region)" for d in _DIRECTIONS)),
    Feature("workshop", ("workshop",), "board", _each("workshop_{}", _workshops),
            meaning=lambda ob: tuple(f"the {w.name} is established here" for w in ob.game.pack.workshops)),
    Feature("pending_dig", ("pending",), "call",
            meaning="the tunnel just dug, awaiting its mineral, pedestal or workshops"),
    Feature("pending_statue", ("pending",), "call", meaning="the statue selected to move"),
    Feature("pending_sites", ("pending",), "call", meaning="workshop sites awaiting a workshop from the current dig"),
    Feature("active_workshop", ("active_site",), "call", meaning="the workshop being used now"),
    Feature("used_workshop", ("used_sites",), "call", meaning="a workshop site already activated this turn"),
))

HORDE = Part("horde", lambda ob: (N_HORDE,), "each horde slot (Level-1 row 0-4, Level-2 row 5-8, Level-3 row "
             "9-11): the card, its bribes / retire limit, its pedestal clan", (
    Feature("card", ("horde",), "horde", card_entries()),
    Feature("bribes", ("horde_bribes",), "horde", tuple(f"bribe_{r}" for r in RESOURCES)),
    Feature("pedestal", ("horde_pedestal",), "horde", tuple(f"pedestal_{c}" for c in CLANS)),
))

TROLLSMOOTS = Part("trollsmoots", lambda ob: (ob.n, N_SMOOT), "each player's trollsmoot (me first), each slot "
                   "(bottom row 0-3, 4-6, 7-8, 9): the card and the tokens it holds / the most any card shows", (
    Feature("card", ("smoot",), "smoot_cards", card_entries()),
    Feature("tokens", ("tokens",), "smoot_tokens", tuple(f"token_{k}" for k in TOKEN_KINDS)),
))

PLAYERS = Part("players", lambda ob: (ob.n,), "per player (me first): storage, pedestals, owned resources, "
               "scores so far, flags", (
    Feature("storage", ("storage",), "players", tuple(f"storage_{r}" for r in RESOURCES),
            scale=lambda ob: 1.0 / ob.res_total),
    Feature("pedestals", ("storage_pedestals",), "players_slow", tuple(f"pedestals_{c}" for c in CLANS),
            scale=lambda ob: [1.0 / ob.game.pack.pedestals_per_clan] * len(CLANS)),
    # what the trolls' tokens and the storage hold (clan carts count as carts)
    Feature("owned", ("tokens", "storage"), "players", tuple(f"owned_{r}" for r in RESOURCES),
            scale=lambda ob: 1.0 / ob.res_total),
    Feature("scores", ("honour", "coronation", "pedestal_points", "pedestal_tokens"), "players_slow",
            ("honour_tunnels", "coronation", "pedestal_points", "pedestal_tokens"),
            scale=lambda ob: [1.0 / ob.max_tunnel_honour, 1.0 / ob.max_coronation, 1.0 / ob.max_pedestal_points,
                              1.0 / ob.n_pedestal_tokens]),
    Feature("trolls", ("smoot",), "players_slow", ("trolls", "recruited_levels"),
            scale=lambda ob: [1.0 / N_SMOOT, 1.0 / ob.max_levels]),
    Feature("gate_placed", ("gate_sq",), "players_slow", scale=1.0),
    Feature("teammate", (), "seat", scale=1.0),
    Feature("acting", ("current", "phase"), "players", scale=1.0),
    Feature("draft_placed", ("draft_placed",), "players_slow", scale=1.0 / TROLLSMOOT_ROWS[0]),
))

SPELLBOOK = Part("spellbook", lambda ob: (ob.spellbook_size,), "each spellbook position: the spell (one-hot), "
                 "present, runes / runes to disintegrate", (
    Feature("spell", ("spellbook",), "spellbook", _each("spell_{}", _names(lambda ob: ob.game.pack.spells))),
    Feature("present", ("spellbook",), "spellbook"),
    Feature("runes", ("spell_runes",), "spellbook"),
))

SUPPLY = Part("supply", lambda ob: (), "the supplies: resources, tunnel stacks, great halls, workshop tiles, "
              "pedestal bag, deck sizes, coronation tokens left", (
    Feature("supply", ("supply",), "call", tuple(f"supply_{r}" for r in RESOURCES),
            scale=lambda ob: 1.0 / ob.res_total),
    Feature("tunnels", ("tunnel_supply",), "supply", _each("tunnels_{}", _tunnels),
            scale=lambda ob: 1.0 / ob.tunnel_counts),
    Feature("hall", ("hall_altar",), "supply", _each("hall_{}", _names(lambda ob: ob.game.pack.great_halls)),
            scale=lambda ob: [1.0] * ob.n_halls),
    Feature("workshop", ("workshop_supply",), "supply", _each("workshop_{}", _workshops),
            scale=lambda ob: 1.0 / ob.workshop_counts),
    Feature("bag", ("bag",), "supply", tuple(f"bag_{c}" for c in CLANS),
            scale=lambda ob: [1.0 / ob.game.pack.pedestals_per_clan] * len(CLANS)),
    Feature("deck", ("decks:len",), "supply", ("deck_level1", "deck_level2", "deck_level3"),
            scale=lambda ob: 1.0 / ob.deck_total),
    Feature("spell_deck", ("spell_deck:len",), "supply", scale=lambda ob: 1.0 / max(1, ob.n_spells)),
    Feature("coronation_tokens", ("coronation_left:len",), "supply",
            scale=lambda ob: 1.0 / max(1, len(ob.game.pack.coronation_tokens[ob.n]))),
))

PEDESTAL_TRACK = Part("pedestal_track", lambda ob: (N_TIERS, len(CLANS)), "the pedestal track by tier and clan: "
                      "token value, free, who took it (me first)", (
    Feature("value", ("track_value",), "track"),
    Feature("taken", ("track_taken",), "track", lambda ob: ("free",) + tuple(f"taken_by_{k}" for k in range(ob.n))),
))

TURN = Part("turn", lambda ob: (), "the phase (one-hot), this turn's flags and the endgame", (
    # the phase pay (the last) only in games with payment="choose": the default layout as before it
    Feature("phase", ("phase",), "call",
            lambda ob: tuple(f"phase_{p}" for p in PHASE_NAMES if p != "pay" or ob.game.choose_payment)),
    Feature("spell_cast", ("spell_cast",), "call"),
    Feature("workshops_left", ("workshops_left",), "call"),
    Feature("uses_left", ("uses_left",), "call"),
    Feature("bribe_any", ("bribe_any",), "call"),
    Feature("ignore_rubble", ("ignore_rubble",), "call"),
    Feature("free_moves", ("free_moves",), "call"),
    Feature("turn", ("turn",), "call"),
    Feature("coronation_complete", ("final_turns_left",), "call"),
    Feature("final_turns_left", ("final_turns_left",), "call"),
))

PENDING = Part("pending", lambda ob: (), "the sub-decision being resolved: spell position, trollsmoot and horde "
               "slots, bribes left, the troll being recruited, the tunnel being dug, a free statue move, "
               "workshop sites left", (
    Feature("spell", ("pending",), "call", lambda ob: tuple(f"spell_position_{i}" for i in range(ob.spellbook_size))),
    Feature("smoot_slot", ("pending",), "call", tuple(f"trollsmoot_slot_{i}" for i in range(N_SMOOT))),
    Feature("horde_slot", ("pending",), "call", tuple(f"horde_slot_{i}" for i in range(N_HORDE))),
    Feature("bribes_left", ("pending",), "call"),
    Feature("recruit_card", ("pending",), "call", card_entries("card_")),
    Feature("dig", ("pending",), "call", _each("dig_{}", _tunnels)),
    Feature("dig_for_spell", ("pending",), "call"),
    Feature("statue_move_free", ("pending",), "call"),
    Feature("sites_left", ("pending",), "call"),
    # payment="choose" only: the payment under way (phase pay): what is still owed, the tokens chosen so far
    Feature("pay_owed", ("pending",), "call", tuple(f"pay_owed_{r}" for r in RESOURCES), present=_choose_payment),
    Feature("pay_chosen", ("pending",), "call",
            tuple(f"pay_chosen_trollsmoot_slot_{i}" for i in range(N_SMOOT)) + ("pay_chosen_storage",),
            present=_choose_payment),
))

DRAFT = Part("draft", lambda ob: (), "my own starter hand during the draft (one-hot by starter) and my unseen "
             "starters / starters", (
    Feature("hand", ("draft_hand",), "call", _each("hand_{}", _names(lambda ob: ob.game.pack.starter_trolls))),
    Feature("deck_left", ("draft_deck",), "call"),
))

#: the observation's arrays, in the order of the docs tables (the flat vector sorts them by key)
PARTS: tuple[Part, ...] = (BOARD, HORDE, TROLLSMOOTS, PLAYERS, SPELLBOOK, SUPPLY, PEDESTAL_TRACK, TURN, PENDING,
                           DRAFT)

#: memo group -> the observer's methods that fill it, and the groups whose keys its key includes
MEMO_FILLS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "board": (("_board_common", "_board_networks"), ()),
    "horde": (("_horde",), ()),
    "smoot_cards": (("_trollsmoot_cards",), ()),
    "smoot_tokens": (("_trollsmoot_tokens",), ()),
    "players_slow": (("_players_slow",), ()),
    "players": (("_players",), ("players_slow",)),
    "spellbook": (("_spellbook",), ()),
    "supply": (("_supply",), ()),
    "track": (("_track",), ()),
    "call": (("_fill_per_call",), ()),
}



def own_reads(memo: str) -> tuple[str, ...]:
    """The state fields the features of memo group ``memo`` read, in declaration order (its key)."""
    out: list[str] = []
    for part in PARTS:
        for f in part.features:
            if f.memo == memo:
                out += [r for r in f.reads if r not in out]
    return tuple(out)


def memo_reads(memo: str) -> tuple[str, ...]:
    """What the fill functions of ``memo`` may read: its own reads and those of the groups it includes
    (whose keys are part of its key)."""
    out = list(own_reads(memo))
    for inner in MEMO_FILLS[memo][1]:
        out += [r for r in memo_reads(inner) if r not in out]
    return tuple(out)


def memo_keys(reads: dict[str, tuple[str, ...]], game: Any) -> Callable[[Any], tuple[tuple, ...]]:
    """A function of a state of ``game`` giving the key of each memo group of ``reads`` (group -> the
    fields it reads), in that order: an array field's bytes, a plain field's value (a list as a tuple),
    a ``"<field>:len"`` read its length(s). Built once per observer as the code one would write by hand,
    each field's bytes taken once however many keys hold them, so it costs no more than inline keys."""
    local: dict[str, str] = {}  # read -> the local variable holding its value
    lines = ["def memo_keys(st):"]
    for group_reads in reads.values():
        for read in group_reads:
            if read not in local:
                local[read] = f"k{len(local)}"
                lines.append(f"    {local[read]} = {_key_expression(read, game)}")
    keys = "".join("(" + "".join(local[r] + ", " for r in group_reads) + "), " for group_reads in reads.values())
    lines.append(f"    return ({keys})")
    namespace: dict[str, Any] = {}
    exec("\n".join(lines), namespace)  # noqa: S102 - built from checked field names only
    return namespace["memo_keys"]


def _key_expression(read: str, game: Any) -> str:
    """The expression of one read in a memo key, by the field's kind
    (:data:`mk_env.mountain_king.rules.fields.FIELDS`)."""
    name, _, how = read.partition(":")
    kind = _FIELDS[name].kind if name in _FIELDS else None
    if kind is None or how not in ("", "len") or (how and kind not in (INTS, LISTS)):
        raise ValueError(f"an observation feature reads {read!r}: not a field of the state "
                         "(mk_env.rules.fields.FIELDS), or ':len' of a field that is not a list")
    if kind == ARRAY:
        return f"st.{name}.tobytes()"
    if kind == INTS:
        return f"len(st.{name})" if how else f"tuple(st.{name})"
    if kind == LISTS and how:  # the game fixes the number of lists: one len() each, unrolled
        return "(" + "".join(f"len(st.{name}[{i}]), " for i in range(_FIELDS[name].shape(game)[0])) + ")"
    if kind == LISTS:
        return f"tuple(map(tuple, st.{name}))"
    return f"st.{name}"  # an int, a bool, the (immutable) Pending record


_FIELDS = {f.name: f for f in FIELDS}
