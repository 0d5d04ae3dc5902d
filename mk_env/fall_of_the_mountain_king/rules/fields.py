"""Every field of a Fall of the Mountain King state, declared once with its kind and meaning; setup,
``clone`` and the JSON save derive from :data:`FIELDS`. The state is ints, lists of ints and lists of
lists (the task stack's entries are lists whose first item is the task's name)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .game import Game

#: field kinds: an int (shared by clones), a flat list (copied), a list of lists (each copied), a dict
INT, INTS, LISTS, DICT = "int", "ints", "lists", "dict"

#: where a gnome is when it is not on the map (``state.gnome_at``)
SUPPLY, BY_WHEEL, BY_SWARM = -1, -2, -3
#: where a champion card is (``state.champ_state``)
IN_DECK, DEALT, DISPLAY, HELD, REMOVED = 0, 1, 2, 3, 4
#: ``state.phase`` while the engine runs its task stack (no decision awaited)
RUNNING = -1

FIELDS: tuple[tuple[str, str, str], ...] = (
    ("phase", INT, "the decision awaited (Phase), RUNNING between decisions"),
    ("decider", INT, "the seat deciding now (not always the seat whose turn it is)"),
    ("wave", INT, "the wave, 1..3"),
    ("start_player", INT, "the seat holding the start player marker (hammer)"),
    ("turn_player", INT, "the seat whose battle turn it is (-1 outside the battle)"),
    ("turn", INT, "battle turns begun so far minus one, all waves together (-1 before the first; as the suite's "
                  "other games count: the game lasted turn + 1 turns)"),
    ("wheel", INT, "the wheel pawn's space"),
    ("swarm", INT, "the clan whose swarm point holds the swarm token"),
    ("stamp", INT, "a counter ordering every influence and vote marker placed (bottom of a stack first)"),
    ("falls", INT, "trolls fallen so far in the invasion under way (its first scores more)"),
    ("pending", DICT, "the decision's context (the cells of a strong action, the Advance's destination, ...)"),
    ("tasks", LISTS, "the stack of work left to do, the next last: [name, args...]"),
    ("supply", INTS, "each seat's supplies (the barrel's space)"),
    ("desperation", INTS, "each seat's desperation tokens"),
    ("honor", INTS, "each seat's honor"),
    ("honor_by", LISTS, "each seat's honor by scoring category (CATEGORIES)"),
    ("boost", INTS, "each seat's honor boost (the boost track on the gnome wheel)"),
    ("troll_supply", INTS, "each seat's trolls not on the map"),
    ("trolls", LISTS, "regular trolls per location, per seat"),
    ("lairs", LISTS, "each seat's two lair locations (empty before setup places them)"),
    ("gnome_at", INTS, "each gnome's place by id: location, SUPPLY, BY_WHEEL or BY_SWARM"),
    ("strength", INTS, "each gnome's strength by id, shuffled at setup (an id tells nothing of its strength)"),
    ("gnome_public", INTS, "1 for a gnome whose strength every player has seen (revealed in a battle)"),
    ("invasion", INTS, "the gate cards dealt facedown by the board, left to right (clan of each)"),
    ("revealed", INT, "how many of them are revealed (the invasions processed, from the left)"),
    ("gates_aside", INTS, "the gate cards put aside (clan of each)"),
    ("known_gates", LISTS, "per seat: the positions in ``invasion`` it has peeked at"),
    ("known_gnomes", LISTS, "per seat: the gnome ids it has peeked at"),
    ("deck", INTS, "the facedown ancestry cards, the next dealt last"),
    ("hands", LISTS, "each seat's draft hand of ancestry card ids"),
    ("seen", LISTS, "per seat: the ancestry cards it has held in its hand this wave (it knows where they went)"),
    ("grid", LISTS, "each seat's ancestry grid by canvas cell: -1 no card, 0 blank, 1 + symbol * 3 + strength - 1"),
    ("covered", LISTS, "each seat's ancestry markers by canvas cell (1: covered)"),
    ("placed", LISTS, "each seat's ancestry cards in the order added: card id, anchor cell"),
    ("committed", LISTS, "per seat: its choice in the simultaneous decision under way (the dealt champion kept, the "
                         "place argument of the card added, the wild cells covered), hidden from the others and "
                         "carried out when every seat has chosen"),
    ("champ_decks", LISTS, "the three champion decks (0, I/II, III), the next dealt last"),
    ("champ_state", INTS, "each champion card: IN_DECK, DEALT, DISPLAY, HELD or REMOVED"),
    ("champ_owner", INTS, "each champion card's holder (or the seat it was dealt to), -1"),
    ("champ_loc", INTS, "each champion pawn's location, -1 off the map"),
    ("claws_used", INTS, "each champion card's claws covered this wave"),
    ("dealt", LISTS, "per seat: the two 0-deck champions dealt facedown (setup)"),
    ("display", INTS, "the champion cards face-up by the board, left to right"),
    ("influence", LISTS, "per champion card, per seat: influence"),
    ("influence_stamp", LISTS, "per champion card, per seat: when its marker reached its place (lower: below)"),
    ("votes", LISTS, "per clan, per seat: votes"),
    ("vote_stamp", LISTS, "per clan, per seat: when its marker reached its place (lower: below)"),
    ("vote_tiles", INTS, "the vote tile on each clan's plank"),
    ("hall_value", INTS, "the Great Hall token on each Great Hall space"),
    ("starburst", INTS, "the champion whose starburst tile is in each Great Hall, -1"),
    ("elder_bonus", INTS, "elder symbols each seat gained from champions"),
)
FIELD_NAMES = tuple(name for name, _, _ in FIELDS)
SHARED = tuple(n for n, k, _ in FIELDS if k == INT)
COPIED = tuple(n for n, k, _ in FIELDS if k == INTS)
NESTED = tuple(n for n, k, _ in FIELDS if k == LISTS)


def blank(st: object, game: Game) -> None:
    """Every field at its empty value for ``game``."""
    n = game.num_players
    pack = game.pack
    side = game.side
    champs = len(pack.champions)
    clans = len(pack.clans)
    values = {
        "phase": RUNNING, "decider": 0, "wave": 1, "start_player": 0, "turn_player": -1, "turn": -1, "wheel": 0,
        "swarm": 0,
        "stamp": 0, "falls": 0, "revealed": 0, "pending": {}, "tasks": [], "supply": [0] * n, "desperation": [0] * n,
        "honor": [0] * n, "honor_by": [[0] * 8 for _ in range(n)], "boost": [0] * n,
        "troll_supply": [pack.rules.trolls] * n, "trolls": [[0] * n for _ in range(side.size)],
        "lairs": [[] for _ in range(n)], "gnome_at": [SUPPLY] * sum(pack.rules.gnomes),
        "strength": list(game.gnome_strength),
        "gnome_public": [0] * sum(pack.rules.gnomes), "invasion": [], "gates_aside": [],
        "known_gates": [[] for _ in range(n)], "known_gnomes": [[] for _ in range(n)], "deck": [],
        "hands": [[] for _ in range(n)], "seen": [[] for _ in range(n)], "grid": [[-1] * game.cells for _ in range(n)],
        "covered": [[0] * game.cells for _ in range(n)], "placed": [[] for _ in range(n)],
        "committed": [[] for _ in range(n)],
        "champ_decks": [[], [], []], "champ_state": [IN_DECK] * champs, "champ_owner": [-1] * champs,
        "champ_loc": [-1] * champs, "claws_used": [0] * champs, "dealt": [[] for _ in range(n)], "display": [],
        "influence": [[0] * n for _ in range(champs)], "influence_stamp": [[0] * n for _ in range(champs)],
        "votes": [[0] * n for _ in range(clans)], "vote_stamp": [[0] * n for _ in range(clans)],
        "vote_tiles": [0] * clans, "hall_value": [0] * len(side.halls), "starburst": [-1] * len(side.halls),
        "elder_bonus": [0] * n,
    }
    for name in FIELD_NAMES:
        setattr(st, name, values[name])
