"""The Fall of the Mountain King observation encoder: one player's view of a game as a dict of float32
arrays in [0, 1].

Each array is declared once in :data:`PARTS` (its key, shape, meaning and entry names); the shapes, the
:class:`gymnasium.spaces.Dict`, the offsets in the flat vector (:attr:`FallObserver.slices`) and the docs
tables derive from there. The arrays are views onto one flat float32 buffer in the space's (sorted) key
order, so the ``"flat"`` style equals ``gymnasium.spaces.flatten(space, encode(...))``.

Egocentric: wherever an array has a player axis, row 0 is the observer, then the others in turn order
(row ``k``: the seat ``k`` places clockwise after the observer). The action space counts seats absolutely,
so ``game["seat_*"]`` says which seat row 0 is.

Only what the observer may know is encoded, asked of :mod:`mk_env.fall_of_the_mountain_king.rules.knowledge`:
every ancestry grid (face up; on the observer's own, the wilds it has chosen to cover in the wild pairs
under way), the map (trolls, champion pawns, lairs, how many gnomes stand where and the
strength of those revealed in a battle or scouted by the observer), the gate cards revealed or scouted by the
observer, the observer's own draft hand (the others': their size), the champion cards on display, held or
removed, the 0-deck champions dealt to the observer, the clan board and the gnome wheel. Never a gnome's id
(ids follow strength), another's hand or dealt champions, the decks' order, nor another's choice in a
simultaneous decision before every seat has chosen (the champion kept, the card added, the wild pairs:
:mod:`mk_env.fall_of_the_mountain_king.rules.simultaneous`).
"""

from __future__ import annotations

from itertools import chain

import numpy as np

from mk_env.core.env.observation_parts import DeclaredObserver, Part  # the suite's declaration of an observation array

from mk_env.fall_of_the_mountain_king.rules import CATEGORIES, PHASE_NAMES, Ability, Game, Symbol
from mk_env.fall_of_the_mountain_king.rules import knowledge
from mk_env.fall_of_the_mountain_king.rules.fields import BY_SWARM, BY_WHEEL, DISPLAY, HELD, REMOVED, SUPPLY

from . import observation_tables as tables
from .observation_tables import COUNT_SCALE, NUMBER_SCALE
from .global_state import encode_state, state_fields

_F32 = np.float32
SYMBOLS = tuple(s.name.lower() for s in Symbol)
#: honor is encoded as min(honor, HONOR_SCALE) / HONOR_SCALE
HONOR_SCALE = 200.0
#: the most encoded parts (ancestry grids, champion cards, map) :class:`FallObserver` remembers of each kind
MEMO_SIZE = 256
#: the pending decision's numbers, as named in ``state.pending``
PENDING_NUMBERS = ("power", "strong", "weak", "bonus", "numbered", "left", "moved", "most", "m", "covered",
                   "amount", "lair")


def _who(k: int) -> str:
    return "me" if k == 0 else f"+{k}"


def _seats(ob: FallObserver, what: str) -> tuple[str, ...]:
    return tuple(f"{what}_{_who(k)}" for k in range(ob.n))


def _cell_entries(ob: FallObserver) -> tuple[str, ...]:
    return ("card", "blank") + SYMBOLS + ("strength", "covered")


def _map_entries(ob: FallObserver) -> tuple[str, ...]:
    return (("cavern", "lair_space") + tuple(f"clan_{c.lower()}" for c in ob.game.pack.clans) + ("gate",)
            + _seats(ob, "trolls") + _seats(ob, "pawns") + _seats(ob, "lair_of")
            + ("gnomes", "gnomes_1", "gnomes_2", "gnomes_3", "gnomes_unknown"))


def _champion_entries(ob: FallObserver) -> tuple[str, ...]:
    pack = ob.game.pack
    return (("on_display", "display_slot", "dealt_to_me", "removed") + _seats(ob, "held_by")
            + _seats(ob, "influence") + ("claws_used", "pawn_on_map", "deck_0", "deck_1_2", "deck_3")
            + tuple(f"clan_{c.lower()}" for c in pack.clans) + ("outsider", "votes")
            + tuple(f"ability_{a.value}" for a in Ability) + ("amount",))


def _game_entries(ob: FallObserver) -> tuple[str, ...]:
    return (("my_decision",) + tuple(f"seat_{p}" for p in range(ob.n)) + ("wave_1", "wave_2", "wave_3")
            + tuple(f"wheel_{i}_{s.name.lower()}" for i, s in enumerate(ob.game.pack.wheel.spaces))
            + ("gnomes_supply", "gnomes_wheel", "gnomes_swarm", "deck_left", "gates_revealed"))


def _player_entries(ob: FallObserver) -> tuple[str, ...]:
    return (("honor",) + tuple(f"honor_{c}" for c in CATEGORIES)
            + ("supply", "desperation", "troll_supply", "boost", "elder_bonus", "hand_size", "champions_held",
               "turn_player", "deciding", "start_player"))


def _pending_entries(ob: FallObserver) -> tuple[str, ...]:
    names = ob.game.side.names
    return (tuple(f"phase_{p}" for p in PHASE_NAMES) + tuple(f"action_{s}" for s in SYMBOLS[:4]) + PENDING_NUMBERS
            + tuple(f"dest_{x}" for x in names) + tuple(f"loc_{x}" for x in names)
            + tuple(f"option_{x}" for x in names) + tuple(f"card_{c.name}" for c in ob.game.pack.champions)
            + tuple(f"cell_{i}" for i in range(ob.symbol_cells)))


#: every array of the observation
PARTS: tuple[Part, ...] = (
    Part("adjacency", lambda ob: (ob.n_loc, ob.n_loc), "the map side's adjacency (static; a lair space touches "
         "its caverns)", lambda ob: ob.game.side.names),
    Part("ancestry", lambda ob: (ob.n, ob.game.cells, len(_cell_entries(ob))), "each player's ancestry grid "
         "(egocentric) on the canvas, row-major: a card there, a blank cell, the symbol (one-hot), its strength / 3, "
         "an ancestry marker on it", _cell_entries),
    Part("champions", lambda ob: (ob.n_champ, len(_champion_entries(ob))), "per champion card: on display (and its "
         "slot), dealt to me at setup, removed, its holder and each player's influence (egocentric, / 10), claws "
         "covered, its pawn on the map; printed: deck, clan (or outsider), votes, ability, amount",
         _champion_entries),
    Part("clans", lambda ob: (ob.n_clans, ob.n + 5), "per clan (board order): each player's votes (egocentric, "
         "/ 10), the vote tile's three values / 10, the swarm at its swarm point, its invasion gate card revealed",
         lambda ob: _seats(ob, "votes") + ("tile_1st", "tile_2nd", "tile_3rd", "swarm", "invaded")),
    Part("game", lambda ob: (len(_game_entries(ob)),), "my decision, my seat (one-hot, absolute), the wave "
         "(one-hot), the wheel pawn's space (one-hot), gnomes in the supply, by the wheel and by the swarm (/ all), "
         "the ancestry deck's size, the gate cards revealed", lambda ob: _game_entries(ob)),
    Part("gates", lambda ob: (ob.n_gates, ob.n_clans + 3), "per gate card by the board, left to right: dealt, "
         "revealed, its clan when I know it (revealed or scouted), unknown",
         lambda ob: ("dealt", "revealed") + tuple(f"clan_{c.lower()}" for c in ob.game.pack.clans) + ("unknown",)),
    Part("halls", lambda ob: (ob.n_halls, ob.n_loc + 2), "per Great Hall space: its token's value / 10, a "
         "starburst tile in it, the caverns it touches (static)",
         lambda ob: ("value", "starburst") + ob.game.side.names),
    Part("hand", lambda ob: (ob.hand, 4, len(_cell_entries(ob))), "my draft hand: per card slot, its 2x2 cells "
         "(row-major) as in the ancestry grid", _cell_entries),
    Part("map", lambda ob: (ob.n_loc, len(_map_entries(ob))), "per location: cavern or lair space, its clan, a gate "
         "cavern, each player's trolls and champion pawns and whose lair (egocentric; counts / 10), the gnomes there "
         "(/ 10) by the strength I know (revealed or scouted) and unknown", _map_entries),
    Part("pending", lambda ob: (len(_pending_entries(ob)),), "the decision awaited (phase), the strong or weak "
         "action's symbol and numbers, the destination and location in question, the caverns a gnome may run to, "
         "the champion card in question, the symbol cells a strong action has gathered", _pending_entries),
    Part("players", lambda ob: (ob.n, len(_player_entries(ob))), "per player (egocentric): honor (total and by "
         "category, / 200 capped), supplies / 8, desperation tokens / 8, trolls in the supply / 25, honor boost, "
         "elder symbols from champions, hand size, champions held, whose turn, who decides, start player",
         _player_entries),
)


class FallObserver(DeclaredObserver):
    """Encodes states of one :class:`~mk_env.fall_of_the_mountain_king.rules.Game` for any of its players
    (the suite's observer surface: ``space``, ``flat_space``, ``slices``, ``encode``, ``encode_flat``,
    ``flatten``, ``views``, ``encode_state``, ``state_space``, ``state_slices``)."""

    def __init__(self, game: Game):
        self.game = game
        pack, side = game.pack, game.side
        self.n, self.n_loc = game.num_players, side.size
        self.n_champ, self.n_clans = len(pack.champions), len(pack.clans)
        self.n_spaces, self.n_gates = len(pack.wheel.spaces), max(pack.rules.invasion_cards)
        self.n_halls = len(side.halls)
        self.hand, self.symbol_cells = pack.rules.hand, game.layout.symbol_cells
        self.lay_out([p.build(self) for p in PARTS])
        rules = game.pack.rules
        self._player_scale = np.array([1 / HONOR_SCALE] + [1 / 100.0] * len(CATEGORIES) + [
            1 / rules.supply_max, 1 / 8.0, 1 / rules.trolls, 1 / max(pack.wheel.boost_track, 1), 1 / NUMBER_SCALE,
            1 / self.hand, 1 / NUMBER_SCALE, 1.0, 1.0, 1.0], _F32)
        self.cell_width = len(_cell_entries(self))
        self._wheel0 = self.col["game"]["wave_3"] + 1  # the wheel's first space follows the waves
        self._grid_codes = tables.code_table(self)
        self._template = tables.static_template(self)
        self._tiles = np.array([np.asarray(t, _F32) / 10.0 for t in pack.vote_tiles], _F32).reshape(-1, 3)
        self._cards = tables.card_table(self)
        self._grids: dict[tuple, np.ndarray] = {}  # (cells, markers) of a grid -> its rows
        self._champion_rows: dict[tuple, np.ndarray] = {}  # what they read -> the champion rows but influence
        self._map_rows: dict[tuple, np.ndarray] = {}  # what they read -> the map rows but trolls
        self.lay_out_state(state_fields(self))

    def __reduce__(self) -> tuple:
        return FallObserver, (self.game,)

    # -- encoding ---------------------------------------------------------------------------------------
    def encode(self, st, player: int) -> dict[str, np.ndarray]:
        """The observation of ``player`` (fresh arrays): views onto :meth:`encode_flat`'s vector."""
        return self._encode(st, player)[1]

    def encode_flat(self, st, player: int) -> np.ndarray:
        """The observation of ``player`` as one fresh float32 vector of :attr:`size` entries."""
        return self._encode(st, player)[0]

    def _encode(self, st, player: int) -> tuple[np.ndarray, dict[str, np.ndarray]]:
        """The flat vector of ``player``'s observation and its :meth:`views`."""
        flat = self._template.copy()
        v = self.views(flat)
        order = [(player + k) % self.n for k in range(self.n)]  # egocentric row k -> seat
        self._fill_ancestry(st, player, order, v["ancestry"])
        self._fill_map(st, player, order, v["map"])
        self._fill_champions(st, player, order, v["champions"])
        self._fill_board(st, player, order, v)
        self._fill_players(st, order, v["players"])
        self._fill_pending(st, v["pending"])
        return flat, v

    def _fill_ancestry(self, st, player: int, order: list[int], out: np.ndarray) -> None:
        """Each grid's rows, looked up by its cells and markers as ``player`` knows them (a grid changes only
        when a card or a marker is placed; see :meth:`_remember`)."""
        memo, grid = self._grids, st.grid
        for k, seat in enumerate(order):
            covered = knowledge.markers(st, player, seat)
            key = (tuple(grid[seat]), tuple(covered))
            rows = memo.get(key)
            if rows is None:
                rows = self._grid_codes[np.array(grid[seat], np.intp) + 1]
                rows[:, -1] = covered
                self._remember(memo, key, rows)
            out[k] = rows

    def _fill_map(self, st, player: int, order: list[int], m: np.ndarray) -> None:
        """The map; all but the trolls looked up by what they read (see :meth:`_remember`)."""
        mc, n = self.col["map"], self.n
        key = (player, tuple(st.champ_loc), tuple(st.champ_owner), tuple(map(tuple, st.lairs)), tuple(st.gnome_at),
               tuple(st.gnome_public), tuple(st.known_gnomes[player]), tuple(st.strength))
        known = self._map_rows.get(key)
        if known is None:
            self._fill_pieces(st, player, m)
            self._remember(self._map_rows, key, m.copy())
        else:
            m[:] = known
        trolls = np.fromiter(chain.from_iterable(st.trolls), _F32, self.n_loc * n).reshape(self.n_loc, n)[:, order]
        m[:, mc["trolls_me"]:mc["trolls_me"] + n] = np.minimum(trolls, COUNT_SCALE) / COUNT_SCALE  # (<= 1)

    def _fill_pieces(self, st, player: int, m: np.ndarray) -> None:
        """Champion pawns, lairs and gnomes on the map (capped at 1 with the static entries)."""
        mc, n = self.col["map"], self.n
        pawns, owner = mc["pawns_me"], st.champ_owner
        for c, x in enumerate(st.champ_loc):
            if x >= 0:
                m[x, pawns + (owner[c] - player) % n] += 1.0 / COUNT_SCALE
        for seat, lairs in enumerate(st.lairs):
            for x in lairs:
                m[x, mc["lair_of_me"] + (seat - player) % n] = 1.0
        col = mc["gnomes"]
        strength, public, known = st.strength, st.gnome_public, st.known_gnomes[player]
        for gnome, x in enumerate(st.gnome_at):
            if x >= 0:  # knowledge.gnome_strength, inlined
                s = strength[gnome] if public[gnome] or gnome in known else knowledge.UNKNOWN
                m[x, col] += 1.0 / COUNT_SCALE
                m[x, col + (s if s > 0 else 4)] += 1.0 / COUNT_SCALE
        np.minimum(m, 1.0, out=m)

    def _fill_champions(self, st, player: int, order: list[int], ch: np.ndarray) -> None:
        """The champion cards; all but the influence looked up by what they read (see :meth:`_remember`)."""
        cc, n = self.col["champions"], self.n
        dealt = knowledge.dealt_champions(st, player, player)
        key = (player, tuple(st.display), tuple(dealt), tuple(st.champ_state), tuple(st.champ_owner),
               tuple(st.claws_used), tuple(st.champ_loc))
        known = self._champion_rows.get(key)
        if known is None:
            self._fill_champion_cards(st, player, order, dealt, ch)
            self._remember(self._champion_rows, key, ch.copy())
        else:
            ch[:] = known
        infl = np.fromiter(chain.from_iterable(st.influence), _F32, self.n_champ * n).reshape(self.n_champ, n)
        ch[:, cc["influence_me"]:cc["influence_me"] + n] = np.minimum(infl[:, order], COUNT_SCALE) / COUNT_SCALE

    @staticmethod
    def _remember(memo: dict, key: tuple, value: np.ndarray) -> None:
        """Keep ``value`` under ``key`` in ``memo`` (emptied first when it holds :data:`MEMO_SIZE` entries)."""
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = value

    def _fill_champion_cards(self, st, player: int, order: list[int], dealt: list[int], ch: np.ndarray) -> None:
        """Display, dealt, holder, removed, claws and pawn of each champion card."""
        cc = self.col["champions"]
        for slot, c in enumerate(st.display):
            ch[c, cc["on_display"]] = 1.0
            ch[c, cc["display_slot"]] = (slot + 1) / len(st.display)
        for c in dealt:
            ch[c, cc["dealt_to_me"]] = 1.0
        ego = {seat: k for k, seat in enumerate(order)}
        for c, state in enumerate(st.champ_state):
            if state == HELD:
                ch[c, cc["held_by_me"] + ego[st.champ_owner[c]]] = 1.0
            elif state == REMOVED:
                ch[c, cc["removed"]] = 1.0
            elif state != DISPLAY:
                continue
            ch[c, cc["claws_used"]] = min(st.claws_used[c], 3) / 3.0
            ch[c, cc["pawn_on_map"]] = float(st.champ_loc[c] >= 0)

    def _fill_board(self, st, player: int, order: list[int], v: dict[str, np.ndarray]) -> None:
        """The clan board, the gate cards, the halls, my hand and the game's scalars."""
        n, cl = self.n, v["clans"]
        votes = np.fromiter(chain.from_iterable(st.votes), _F32, self.n_clans * n).reshape(self.n_clans, n)
        cl[:, :n] = np.minimum(votes[:, order], COUNT_SCALE) / COUNT_SCALE
        cl[:, n:n + 3] = self._tiles[st.vote_tiles]
        cl[st.swarm, n + 3] = 1.0
        gates = v["gates"]
        for pos in range(len(st.invasion)):
            gates[pos, 0] = 1.0
            gates[pos, 1] = float(pos < st.revealed)
            clan = knowledge.gate_card(st, player, pos)
            gates[pos, -1 if clan < 0 else 2 + clan] = 1.0
            if pos < st.revealed:
                cl[st.invasion[pos], n + 4] = 1.0
        halls = v["halls"]
        halls[:, 0] = np.asarray(st.hall_value, _F32) / 10.0
        halls[:, 1] = np.asarray(st.starburst) >= 0
        mine = knowledge.hand(st, player, player)[:self.hand]
        if mine:
            v["hand"][:len(mine)] = self._cards[mine]
        g, gc = v["game"], self.col["game"]
        g[gc["my_decision"]] = float(st.current_player() == player)
        g[gc["seat_0"] + player] = 1.0
        g[gc["wave_1"] + min(st.wave, 3) - 1] = 1.0
        g[self._wheel0 + st.wheel] = 1.0
        where = st.gnome_at
        total = len(where)
        g[gc["gnomes_supply"]] = where.count(SUPPLY) / total
        g[gc["gnomes_wheel"]] = where.count(BY_WHEEL) / total
        g[gc["gnomes_swarm"]] = where.count(BY_SWARM) / total
        g[gc["deck_left"]] = len(st.deck) / len(self.game.pack.cards)
        g[gc["gates_revealed"]] = st.revealed / self.n_gates

    def _fill_players(self, st, order: list[int], rows: np.ndarray) -> None:
        """One row of raw numbers per seat (the columns of :func:`_player_entries`), scaled and capped at 1."""
        n = self.n
        decider = st.current_player()
        held = [0] * n
        for owner, state in zip(st.champ_owner, st.champ_state):
            if state == HELD:
                held[owner] += 1
        raw = np.array([[st.honor[p], *st.honor_by[p], st.supply[p], st.desperation[p], st.troll_supply[p],
                         st.boost[p], st.elder_bonus[p], len(st.hands[p]), held[p], st.turn_player == p,
                         decider == p, st.start_player == p] for p in order], np.int64)
        rows[:] = np.minimum(raw * self._player_scale, 1.0)

    def _fill_pending(self, st, out: np.ndarray) -> None:
        """The phase and the context of the decision awaited (``state.pending``; never a gnome's id)."""
        pc = self.col["pending"]
        if 0 <= st.phase < len(PHASE_NAMES):
            out[st.phase] = 1.0
        p = st.pending
        if not p:
            return
        if "action" in p:
            out[pc["action_advance"] + int(p["action"])] = 1.0
        for name in PENDING_NUMBERS:
            if name in p:
                out[pc[name]] = min(int(p[name]), NUMBER_SCALE) / NUMBER_SCALE
        names = self.game.side.names
        if "dest" in p:
            out[pc["dest_" + names[0]] + p["dest"]] = 1.0
        for key in ("loc", "src"):
            if key in p:
                out[pc["loc_" + names[0]] + p[key]] = 1.0
        for x in p.get("chosen", ()):
            out[pc["loc_" + names[0]] + x] = 1.0
        for x in p.get("options", ()):
            out[pc["option_" + names[0]] + x] = 1.0
        if "card" in p and p["card"] >= 0:
            out[pc["card_" + self.game.pack.champions[0].name] + p["card"]] = 1.0
        for cell in p.get("cells", ()):
            out[pc["cell_0"] + cell] = 1.0

    # -- PettingZoo's global state (:mod:`.global_state`) ----------------------------------------------------
    def encode_state(self, st) -> np.ndarray:
        """PettingZoo's ``state()``: seat 0's observation, then every hidden part (:attr:`state_slices`)."""
        return encode_state(self, st)


__all__ = ["COUNT_SCALE", "FallObserver", "HONOR_SCALE", "PARTS"]

