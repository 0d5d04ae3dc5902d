"""The Cave Troll observation encoder: one player's view of a game as a dict of float32 arrays in [0, 1].

Each array is declared once in :data:`PARTS` (its key, shape, meaning and entry names); the shapes, the
:class:`gymnasium.spaces.Dict`, the offsets in the flat vector (:attr:`CaveTrollObserver.slices`) and the
docs tables derive from there. The arrays are views onto one flat float32 buffer laid out in the space's
key order (gymnasium's ``Dict`` sorts its keys), so the ``"flat"`` style costs no copy and equals
``gymnasium.spaces.flatten(space, encode(...))``.

Egocentric: wherever an array has a player axis, row 0 is the observer, then the others in turn order
(row ``k``: the seat ``k`` places after the observer). The action space counts seats absolutely (a
counter id is ``seat * slots + slot``), so ``game["seat"]`` says which seat row 0 is.

Only public information and the observer's own hand are encoded: where every played counter is, each
pile's composition (what is left in it, never its order), the observer's own artifacts by kind, the
other players' artifacts as a count, the artifacts played, the size of the artifact stack (never its
order or contents). A drawn counter awaiting its place is face up (it is shown as it is played).
"""

from __future__ import annotations

import numpy as np

from mk_env.cave_troll.rules import PHASE_NAMES, Game, Kind, Phase
from mk_env.cave_troll.rules.fields import CATEGORIES
from mk_env.cave_troll.rules.vocabulary import PLAYED, STACK
from mk_env.core.env.observation_parts import DeclaredObserver, Field, Part

_F32 = np.float32
#: the kinds of counter that can stand in the lair (every adventurer and monster, and Treasure)
BOARD_KINDS = tuple(Kind)[:Kind.TREASURE + 1]
#: the places of a counter off the board, after the locations in ``counters`` (``state.loc`` -1, -2, -3)
OFF_BOARD = ("pile", "discarded", "hand")
#: gold is encoded as min(gold, GOLD_SCALE) / GOLD_SCALE (random 4-player games score at most ~75)
GOLD_SCALE = 200.0
#: the turn counter is encoded as min(turn, TURN_CAP) / TURN_CAP
TURN_CAP = 100


def _who(k: int) -> str:
    return "me" if k == 0 else f"+{k}"


def _lair_entries(ob: CaveTrollObserver) -> tuple[str, ...]:
    counts = tuple(f"{_who(k)}_{kind.name.lower()}" for k in range(ob.n) for kind in BOARD_KINDS)
    return ("room", "entrance", "pit", "gold") + counts + ("idol", "cloak")


def _player_entries(ob: CaveTrollObserver) -> tuple[str, ...]:
    pile = tuple(f"pile_{kind.name.lower()}" for kind in Kind)
    return (("score",) + tuple(f"gold_{c}" for c in CATEGORIES) + ("pile_left",) + pile
            + ("artifacts_held", "turn_player", "deciding", "first_player", "ended_game"))


def _pending_entries(ob: CaveTrollObserver) -> tuple[str, ...]:
    names = ob.game.pack.lair.names
    return (tuple(f"phase_{p}" for p in PHASE_NAMES) + tuple(f"counter_{k.name.lower()}" for k in Kind)
            + tuple(f"counter_of_{_who(k)}" for k in range(ob.n)) + tuple(f"counter_at_{x}" for x in names)
            + tuple(f"room_{x}" for x in names) + tuple(f"to_escape_{_who(k)}" for k in range(ob.n))
            + ("steps_left", "stepped", "travellers"))


#: every array of the observation, in the space's (sorted) key order
PARTS: tuple[Part, ...] = (
    Part("adjacency", lambda ob: (ob.n_loc, ob.n_loc), "the lair's doorways: 1 where two locations are joined "
         "(static; an entrance also reaches every other entrance in one move)", lambda ob: ob.game.pack.lair.names),
    Part("artifacts", lambda ob: (2, ob.n_art), "row 0: the artifacts I hold, by kind; row 1: the artifacts "
         "played (public)", lambda ob: tuple(a.kind.name.lower() for a in ob.game.pack.artifacts)),
    Part("counters", lambda ob: (ob.n, ob.slots, ob.n_loc + len(OFF_BOARD)), "each counter's place, one-hot "
         "(player row egocentric, then slot: the MOVE block's slot; the locations, then pile, discarded, hand)",
         lambda ob: ob.game.pack.lair.names + OFF_BOARD),
    Part("game", lambda ob: (ob.n + 6,), "whose decision, my seat (one-hot, absolute), actions left, turn, "
         "the artifact stack's size, the Idol",
         lambda ob: ("my_decision",) + tuple(f"seat_{p}" for p in range(ob.n))
         + ("actions_left", "turn", "first_round", "stack_left", "idol_mine")),
    Part("lair", lambda ob: (ob.n_loc, len(_lair_entries(ob))), "per location: kind, printed gold / 5, counters by "
         "player (egocentric) and kind / that kind's number per colour, the Idol, the Cloak's wearer (who controls "
         "a room follows from the counts: most adventurers, the Barbarian counting two, ties nobody)",
         _lair_entries),
    Part("pending", lambda ob: (len(_pending_entries(ob)),), "the decision awaited (phase) and its sub-decision: "
         "the counter placed, pushed or moved (kind, owner, where), the room, the players still to escape the "
         "Cave Troll, the Helm's or the Cloak's steps left, the Chalice's travellers left", _pending_entries),
    Part("players", lambda ob: (ob.n, len(_player_entries(ob))), "per player (egocentric): gold (score and by "
         "category, / 200 capped), the pile's size and composition (counts left by kind, never the order), artifacts "
         "held (a count), whose turn, who decides, first player, who ended",
         _player_entries),
)


class CaveTrollObserver(DeclaredObserver):
    """Encodes states of one :class:`~mk_env.cave_troll.rules.Game` for any of its players (the same
    surface as :class:`mk_env.mountain_king.env.observation.Observer`: ``space``, ``flat_space``, ``slices``,
    ``encode``,
    ``encode_flat``, ``flatten``, ``encode_state``, ``state_space``, ``state_slices``)."""

    def __init__(self, game: Game):
        self.game = game
        pack = game.pack
        lair = pack.lair
        self.n, self.slots, self.n_loc, self.n_art = game.num_players, pack.slots, lair.size, len(pack.artifacts)
        self.n_rooms = lair.n_rooms
        self.lay_out([p.build(self) for p in PARTS])
        self._init_tables()
        self._init_templates()
        self._init_global_state()

    def __reduce__(self) -> tuple:
        return CaveTrollObserver, (self.game,)

    # -- precomputed tables ----------------------------------------------------------------------------
    def _init_tables(self) -> None:
        """Per observing seat, index tables that turn ``state.loc`` into flat-buffer positions."""
        g, n, k, L = self.game, self.n, self.slots, self.n_loc
        rules = g.pack.rules
        self._n_ids = n * k
        ids = np.arange(n * k)
        owner, slot = ids // k, ids % k
        kind = np.array(g.kind_of)
        nb, nk = len(BOARD_KINDS), len(Kind)
        per_colour = np.bincount(np.array(g.pack.slot_kinds, int), minlength=nk).astype(_F32)
        self._kind = kind
        self._kind_scale = (1.0 / np.maximum(per_colour, 1)).astype(_F32)  # a count / that kind's number
        self._ego = [(owner - s) % n for s in range(n)]  # each counter's egocentric player row, per seat
        # a counter's column in ``counters`` by its place (negative indices: pile -1, discarded -2, hand -3)
        self._column = np.array(list(range(L)) + [L + 2, L + 1, L], np.intp)
        # its row in the lair counts: its location, or a spare row past the last when off the board
        self._lair_row = np.array(list(range(L)) + [L, L, L], np.intp)
        c0 = self.slices["counters"][0]
        self._counter_base = [c0 + (self._ego[s] * k + slot) * (L + len(OFF_BOARD)) for s in range(n)]
        self._cells = n * nb
        self._board_cell = [np.where(kind < nb, self._ego[s] * nb + kind, 0) for s in range(n)]
        lc = self.col["lair"]
        first = lc[f"me_{BOARD_KINDS[0].name.lower()}"]
        self._lair_counts = slice(first, first + n * nb)
        self._lair_idol, self._lair_cloak = lc["idol"], lc["cloak"]
        self._count_weight = self._kind_scale[kind].astype(np.float64)
        pc = self.col["players"]
        # a player's pile row of the counters part times this matrix: its size / slots, then its counts by kind
        self._pile_cols = slice(pc["pile_left"], pc["pile_left"] + 1 + nk)
        assert pc["pile_" + Kind(0).name.lower()] == pc["pile_left"] + 1, "pile_left must precede the pile counts"
        self._pile_matrix = np.zeros((k, 1 + nk))  # float64: 20 x 1/20 rounds to 1.0 exactly in float32
        self._pile_matrix[:, 0] = 1.0 / k
        self._pile_matrix[np.arange(k), 1 + kind[:k]] = self._kind_scale[kind[:k]]
        self._col_turn, self._col_deciding = pc["turn_player"], pc["deciding"]
        self._col_first, self._col_ender = pc["first_player"], pc["ended_game"]
        names = g.pack.lair.names
        self._pending_at = self.col["pending"]["counter_at_" + names[0]]
        self._pending_room = self.col["pending"]["room_" + names[0]]
        self._most_steps = max(rules.helm_steps, rules.cloak_steps)
        self._actions_per_turn = rules.actions_per_turn
        self._slow: list[tuple] = [((), None)] * n  # per seat: (key, template) of _slow_template

    def _init_templates(self) -> None:
        """Per seat a flat template holding the static parts (the lair's geometry, the seat)."""
        lair = self.game.pack.lair
        base = np.zeros(self.size, _F32)
        views = self.views(base)
        adj = views["adjacency"]
        for x, doors in enumerate(lair.doors):
            adj[x, list(doors)] = 1.0
        lc, tab = self.col["lair"], views["lair"]
        tab[:self.n_rooms, lc["room"]] = 1.0
        tab[list(lair.entrances), lc["entrance"]] = 1.0
        tab[lair.pit, lc["pit"]] = 1.0
        tab[:, lc["gold"]] = np.array(lair.gold, _F32) / max(max(lair.gold), 1)
        self._templates = []
        for s in range(self.n):
            t = base.copy()
            self.views(t)["game"][self.col["game"][f"seat_{s}"]] = 1.0
            self._templates.append(t)

    # -- encoding ---------------------------------------------------------------------------------------
    def encode_flat(self, st, player: int) -> np.ndarray:
        """The observation of ``player`` as one fresh float32 vector of :attr:`size` entries."""
        key = (tuple(st.score), tuple(map(tuple, st.gold)), tuple(st.art_at), st.idol_owner)
        memo = self._slow[player]
        if memo[0] != key:  # gold or artifacts changed (a scoring, an artifact drawn or played)
            memo = self._slow[player] = (key, self._slow_template(st, player))
        flat = memo[1].copy()
        loc = np.fromiter(st.loc, np.intp, self._n_ids)
        flat[self._counter_base[player] + self._column[loc]] = 1.0
        self._fill_lair(st, player, loc, flat)
        self._fill_players(st, player, flat)
        self._fill_pending(st, player, flat)
        return flat

    def _fill_lair(self, st, player: int, loc: np.ndarray, flat: np.ndarray) -> None:
        """Counters by player and kind, the Idol and the Cloak."""
        L = self.n_loc
        a, b, shape = self.slices["lair"]
        tab = flat[a:b].reshape(shape)
        row = self._lair_row[loc]  # off the board: a spare row past the last location
        counts = np.bincount(row * self._cells + self._board_cell[player], self._count_weight,
                             minlength=(L + 1) * self._cells)  # each count / that kind's number per colour
        tab[:, self._lair_counts] = counts[:L * self._cells].reshape(L, self._cells)
        if st.idol_room >= 0:
            tab[st.idol_room, self._lair_idol] = 1.0
        if st.cloaked >= 0 and loc[st.cloaked] >= 0:
            tab[loc[st.cloaked], self._lair_cloak] = 1.0

    def _fill_players(self, st, player: int, flat: np.ndarray) -> None:
        """The players' piles and the turn's flags, and the game's scalars (the gold and the artifacts are
        in the template: :meth:`_slow_template`)."""
        a, b, shape = self.slices["players"]
        rows = flat[a:b].reshape(shape)
        # the piles' size and composition: the counters part's "pile" column (its rows are egocentric already)
        c0, c1, cshape = self.slices["counters"]
        rows[:, self._pile_cols] = flat[c0:c1].reshape(cshape)[:, :, self.n_loc] @ self._pile_matrix
        n = self.n
        rows[(st.turn_player - player) % n, self._col_turn] = 1.0
        if st.phase != Phase.GAME_OVER:
            rows[(st.current - player) % n, self._col_deciding] = 1.0
        rows[(st.first_player - player) % n, self._col_first] = 1.0
        if st.ender >= 0:
            rows[(st.ender - player) % n, self._col_ender] = 1.0
        g = self.slices["game"][0]
        gc = self.col["game"]
        flat[g + gc["my_decision"]] = float(st.current == player and st.phase != Phase.GAME_OVER)
        flat[g + gc["actions_left"]] = st.actions_left / self._actions_per_turn
        flat[g + gc["turn"]] = min(st.turn, TURN_CAP) / TURN_CAP
        flat[g + gc["first_round"]] = float(st.turn < n)

    def _slow_template(self, st, player: int) -> np.ndarray:
        """The seat's template with what changes only at scorings and artifact moves filled in: the players'
        gold and artifact counts, the artifacts part, the stack's size and the Idol's ownership."""
        flat = self._templates[player].copy()
        n = self.n
        a, b, shape = self.slices["players"]
        rows = flat[a:b].reshape(shape)
        pc = self.col["players"]
        held = [0] * n
        for holder in st.art_at:
            if holder >= 0:
                held[holder] += 1
        for p in range(n):
            r = rows[(p - player) % n]
            r[pc["score"]] = min(st.score[p], GOLD_SCALE) / GOLD_SCALE
            for i, gold in enumerate(st.gold[p]):
                r[pc["score"] + 1 + i] = min(gold, GOLD_SCALE) / GOLD_SCALE
            r[pc["artifacts_held"]] = held[p] / self.n_art
        a, b, shape = self.slices["artifacts"]
        arts = flat[a:b].reshape(shape)
        for i, holder in enumerate(st.art_at):
            if holder == player:
                arts[0, i] = 1.0
            elif holder == PLAYED:
                arts[1, i] = 1.0
        g, gc = self.slices["game"][0], self.col["game"]
        flat[g + gc["stack_left"]] = sum(1 for holder in st.art_at if holder == STACK) / self.n_art
        flat[g + gc["idol_mine"]] = float(st.idol_owner == player)
        return flat

    def _fill_pending(self, st, player: int, flat: np.ndarray) -> None:
        """The phase and the sub-decision under way (:class:`~mk_env.cave_troll.rules.Pending`)."""
        a = self.slices["pending"][0]
        flat[a + int(st.phase)] = 1.0
        pend = st.pending
        if not pend:
            return
        pc = self.col["pending"]
        if pend.counter is not None:
            c = pend.counter
            flat[a + pc["counter_" + Kind(self._kind[c]).name.lower()]] = 1.0
            flat[a + pc["counter_of_me"] + int(self._ego[player][c])] = 1.0
            if st.loc[c] >= 0:
                flat[a + self._pending_at + st.loc[c]] = 1.0
        if pend.room is not None:
            flat[a + self._pending_room + pend.room] = 1.0
        for seat in pend.seats or ():
            flat[a + pc["to_escape_me"] + (seat - player) % self.n] = 1.0
        if pend.steps_left is not None:
            flat[a + pc["steps_left"]] = pend.steps_left / self._most_steps
        flat[a + pc["stepped"]] = float(bool(pend.stepped))
        if pend.travellers is not None:
            flat[a + pc["travellers"]] = len(pend.travellers) / self.slots

    # -- PettingZoo's global state ------------------------------------------------------------------------
    def _init_global_state(self) -> None:
        """``state()``: seat 0's observation, then every hidden part."""
        n, k, A = self.n, self.slots, self.n_art
        self.lay_out_state([
            Field("observation", (self.size,), "seat 0's observation (the flat vector)", ()),
            Field("pile_order", (n, k), "per seat and slot: the counter's depth in its pile, (depth + 1) / slots "
                  "(1/slots: drawn next), 0 when not in the pile", ()),
            Field("artifact_holder", (A, n + 1), "per artifact: who holds it (seat one-hot, absolute), or the "
                  "stack (last column)", ()),
            Field("stack_order", (A,), "per artifact: its depth in the stack, (depth + 1) / artifacts, 0 when not "
                  "in the stack", ()),
        ])

    def encode_state(self, st) -> np.ndarray:
        """PettingZoo's ``state()``: the full-information vector of :attr:`state_slices`."""
        out = np.zeros(self.state_size, _F32)
        out[:self.size] = self.encode_flat(st, 0)
        a, b, shape = self.state_slices["pile_order"]
        order = out[a:b].reshape(shape)
        for seat, pile in enumerate(st.piles):
            for depth, c in enumerate(reversed(pile)):  # the next drawn is last
                order[seat, c % self.slots] = (depth + 1) / self.slots
        a, b, shape = self.state_slices["artifact_holder"]
        holder = out[a:b].reshape(shape)
        for i, at in enumerate(st.art_at):
            if at >= 0:
                holder[i, at] = 1.0
            elif at == STACK:
                holder[i, self.n] = 1.0
        a, _, _ = self.state_slices["stack_order"]
        for depth, i in enumerate(reversed(st.stack)):
            out[a + i] = (depth + 1) / self.n_art
        return out


__all__ = ["BOARD_KINDS", "CaveTrollObserver", "GOLD_SCALE", "OFF_BOARD", "PARTS", "TURN_CAP"]
