"""Fall of the Mountain King's vocabulary: the symbols of the ancestry cards, the actions, the decisions
awaited (:class:`Phase`) and the blocks of the flat action space (:class:`Block`).

Each name is a small typed value that compares like the int or string the state holds, so the state stays
plain JSON data.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class Symbol(IntEnum):
    """The seven ancestry symbols ("the first four of which are for actions")."""

    ADVANCE = 0  # green axes
    BOLSTER = 1  # blue shield
    INFLUENCE = 2  # white hand
    GNOME = 3  # red gnome
    WILD = 4  # purple spiral: serves as any action symbol
    SUPPLY = 5  # brown barrel
    ELDER = 6  # gold glyphs


#: the four action symbols
ACTIONS = (Symbol.ADVANCE, Symbol.BOLSTER, Symbol.INFLUENCE, Symbol.GNOME)
SYMBOL_NAMES = tuple(s.name.lower() for s in Symbol)


class Space(IntEnum):
    """A space of the gnome wheel, by its effect (``m``: the spaces the pawn moved)."""

    STAR = 0  # the start space: no effect
    BOLSTER = 1  # Bolster at m power
    INFLUENCE = 2  # Influence at m power
    HONOR = 3  # m honor plus the current honor boost
    TROLL = 4  # move up to m trolls from a single cavern into adjacent gnome-free caverns


SPACE_NAMES = tuple(s.name.lower() for s in Space)


class Ability(StrEnum):
    """The kinds of champion abilities of the designed champions (the vocabulary of the pack)."""

    SYMBOL = "symbol"  # an ancestry symbol usable in your grid, neglecting adjacency; claws: uses per wave
    AVALANCHE = "avalanche"  # Firragh: counts as two trolls when attacking gnomes
    HAMMERHELM = "hammerhelm"  # Argren: a weak action after a strong Advance she took part in
    SUPPLY = "supply"  # +amount supply when supplies are marked (up to the maximum)
    DESPERATION = "desperation"  # +amount desperation tokens each wave
    HONOR = "honor"  # gain amount honor
    VOTES = "votes"  # gain amount more votes in the champion's clan (an outsider's: any single clan)
    ELDER = "elder"  # amount more elder symbols at the end
    DOMAIN_HONOR = "domain_honor"  # 1 honor per cavern you control in the champion clan's domain


class Timing(StrEnum):
    """When an ability applies."""

    PASSIVE = "passive"  # whenever its rule applies
    INSTANT = "instant"  # lightning bolt: once, when the champion is won
    END_OF_WAVE = "end_of_wave"  # red sunset: after awarding champions, each wave


class Phase(IntEnum):
    """The decision awaited (``state.phase``); ``state.decider`` is the seat deciding."""

    KEEP_CHAMPION = 0  # setup: which of the 2 dealt 0-deck champions to keep
    LAIR_PAIR = 1  # setup: the pair of lair spaces
    LAIR_TROLL = 2  # setup: the gnome-free cavern by the lair for its troll
    PAWN_SETUP = 3  # setup: which of the two lair-adjacent caverns gets the champion pawn
    PLACE_CARD = 4  # build your ancestry: a card of the hand and where it goes
    WILD_PAIR = 5  # supplies: cover wild symbols in pairs for +1 supply, or done
    TURN = 6  # the battle: a weak or a strong action (or, after a weak one, another or end the turn)
    GATHER = 7  # a strong action: add a connected symbol of the same action, or done
    BOOST = 8  # the boost by desperation tokens (weak) or supplies (strong)
    ADVANCE_DEST = 9  # Advance: the destination cavern
    ADVANCE_TROLL = 10  # Advance: the next troll to move there, or done
    BOLSTER_DEST = 11  # Bolster: the dominated cavern
    BOLSTER_COUNT = 12  # Bolster: how many trolls from the supply (up to p)
    BOLSTER_FROM = 13  # Bolster with an empty supply: a troll or champion pawn from the map, or done
    INFLUENCE = 14  # Influence: the champion of the display
    WHEEL = 15  # Gnome action: how many spaces the wheel pawn moves
    SCOUT_GATE = 16  # Gnome action: the facedown gate card to peek at, or none
    SCOUT_GNOME = 17  # Gnome action: the gnome on the map to peek at, or none
    SWARM = 18  # breach: where the active player moves the swarm (up to 2 points either way)
    SHOVE_FROM = 19  # grey troll space: the single cavern trolls leave
    SHOVE = 20  # grey troll space: the next troll and its adjacent gnome-free cavern, or done
    ROUTE = 21  # a gnome's tie between equally easy caverns (breach: active player; invasion: vote leader)
    FALL = 22  # the troll that falls (its owner chooses among their trolls in the cavern)
    LAIR_CHOICE = 23  # which of your lairs (a repulse's trolls, a falling champion)
    OUTSIDER = 24  # an outsider champion's wild votes: the clan
    VOTE_OR_HONOR = 25  # a non-victor with influence: a vote in the champion's clan or honor
    PAWN_PLACE = 26  # a won champion's pawn: the cavern you dominate
    STARBURST = 27  # a wave III champion's starburst tile: the empty Great Hall
    GAME_OVER = 28


PHASE_NAMES = tuple(p.name.lower() for p in Phase)


class Block(StrEnum):
    """The blocks of the flat action space in layout order; the comment says what the argument means."""

    DONE = "done"  # 0: finish (no more wilds, symbols, trolls; no peek)
    END_TURN = "end_turn"  # 0: end the turn (after one weak action, or with no action possible)
    KEEP = "keep"  # which of the two dealt champions (0, 1)
    LAIR_PAIR = "lair_pair"  # lair pair index
    LAIR_TROLL = "lair_troll"  # location
    PAWN_SETUP = "pawn_setup"  # 0: by the first lair, 1: by the second
    PLACE = "place"  # hand slot * anchors + anchor cell
    WILD = "wild"  # grid cell of a wild symbol to cover
    WEAK = "weak"  # action * cells + cell (cells: grid cells, then champion cards)
    STRONG = "strong"  # action * cells + cell: the first symbol of a strong action
    ADD = "add"  # cell: the next connected symbol of the strong action
    BOOST = "boost"  # the number of tokens or supplies spent (0..max)
    COUNT = "count"  # how many (Bolster's trolls from the supply) minus 1
    DEST = "dest"  # location: Advance's destination, Bolster's dominated cavern, a pawn's cavern
    TROLL = "troll"  # location a regular troll is taken from (Advance; Bolster with an empty supply)
    CHAMPION = "champion"  # champion card whose pawn moves (Advance; Bolster from the map)
    INFLUENCE = "influence"  # display position of the champion
    WHEEL = "wheel"  # spaces moved minus 1
    GATE = "gate"  # position of the facedown gate card peeked at
    GNOME = "gnome"  # gnome id peeked at
    SWARM = "swarm"  # swarm move + 2 (0..4: two back .. two on)
    SHOVE_FROM = "shove_from"  # location
    SHOVE = "shove"  # piece * locations + destination (piece: seats' regular trolls, then champion cards)
    ROUTE = "route"  # location the gnome runs to
    FALL = "fall"  # 0: a regular troll, 1 + card: that champion pawn
    LAIR = "lair"  # 0 or 1: which of your lairs
    CLAN = "clan"  # clan board index
    VOTE_OR_HONOR = "vote_or_honor"  # 0: a vote, 1: honor
    HALL = "hall"  # Great Hall index


#: the blocks whose actions may be legal in each phase
PHASE_BLOCKS: dict[Phase, frozenset[Block]] = {
    Phase.KEEP_CHAMPION: frozenset((Block.KEEP,)),
    Phase.LAIR_PAIR: frozenset((Block.LAIR_PAIR,)),
    Phase.LAIR_TROLL: frozenset((Block.LAIR_TROLL,)),
    Phase.PAWN_SETUP: frozenset((Block.PAWN_SETUP,)),
    Phase.PLACE_CARD: frozenset((Block.PLACE,)),
    Phase.WILD_PAIR: frozenset((Block.WILD, Block.DONE)),
    Phase.TURN: frozenset((Block.WEAK, Block.STRONG, Block.END_TURN)),
    Phase.GATHER: frozenset((Block.ADD, Block.DONE)),
    Phase.BOOST: frozenset((Block.BOOST,)),
    Phase.ADVANCE_DEST: frozenset((Block.DEST,)),
    Phase.ADVANCE_TROLL: frozenset((Block.TROLL, Block.CHAMPION, Block.DONE)),
    Phase.BOLSTER_DEST: frozenset((Block.DEST,)),
    Phase.BOLSTER_FROM: frozenset((Block.TROLL, Block.CHAMPION, Block.DONE)),
    Phase.INFLUENCE: frozenset((Block.INFLUENCE,)),
    Phase.WHEEL: frozenset((Block.WHEEL,)),
    Phase.SCOUT_GATE: frozenset((Block.GATE, Block.DONE)),
    Phase.SCOUT_GNOME: frozenset((Block.GNOME, Block.DONE)),
    Phase.SWARM: frozenset((Block.SWARM,)),
    Phase.SHOVE_FROM: frozenset((Block.SHOVE_FROM,)),
    Phase.SHOVE: frozenset((Block.SHOVE, Block.DONE)),
    Phase.ROUTE: frozenset((Block.ROUTE,)),
    Phase.FALL: frozenset((Block.FALL,)),
    Phase.LAIR_CHOICE: frozenset((Block.LAIR,)),
    Phase.OUTSIDER: frozenset((Block.CLAN,)),
    Phase.VOTE_OR_HONOR: frozenset((Block.VOTE_OR_HONOR,)),
    Phase.PAWN_PLACE: frozenset((Block.DEST,)),
    Phase.STARBURST: frozenset((Block.HALL,)),
    Phase.GAME_OVER: frozenset(),
    Phase.BOLSTER_COUNT: frozenset((Block.COUNT,)),
}

#: the scoring categories of each player's honor (``state.honor_by[p]``), in order
CATEGORIES = ("battle", "falls", "wheel", "champions", "domains", "great_halls", "elder", "votes")
