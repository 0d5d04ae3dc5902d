"""How the observation's features are filled: the lookup tables built once per game and one fill
method per memo group of :data:`mk_env.mountain_king.env.features.MEMO_FILLS`.

:class:`FeatureFills` is a base of :class:`~mk_env.mountain_king.env.observation.Observer`; its methods write into
the arrays of one observation at the offsets the declarations give (``self.at[part].<feature>``: an
index for a one-entry feature, else a slice), and read only the state fields their features declare
(``tests/env/test_memo_keys.py`` checks it).
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from mk_env.mountain_king.rules import CLANS, RESOURCES, GameState, Phase, SquareKind
from mk_env.mountain_king.rules.actions import N_SMOOT
from mk_env.mountain_king.rules.content import N_TIERS, N_TOKEN_KINDS, TOKEN_RESOURCE
from mk_env.mountain_king.rules.payment import payment_owed

from .features import CARD_CLANS, TURN_CAP, resolve

_F32 = np.float32
_GAME_OVER = int(Phase.GAME_OVER)


class FeatureFills:
    """The tables and fill methods of the observer (attributes set by ``Observer.__init__``)."""

    at: dict[str, SimpleNamespace]
    ch: dict[str, int]

    # -- tables built once ----------------------------------------------------------------------------
    def _init_tables(self) -> None:
        game, geo, n, hw = self.game, self.game.geo, self.n, self.hw
        # card features: one row per card, and a zero row at index -1 for "no card"
        cf = np.zeros((len(game.cards) + 1, 2 + len(CARD_CLANS) + game.card_symbols.shape[1]), _F32)
        for i, card in enumerate(game.cards):
            cf[i, 0] = 1.0
            cf[i, 1 + CARD_CLANS.index(card.clan if card.level > 0 else "starter")] = 1.0
            cf[i, 1 + len(CARD_CLANS)] = card.level / 3.0
            cf[i, 2 + len(CARD_CLANS):] = game.card_symbols[i] / self.sym_max
        self.card_features = cf
        self.clan_onehot = np.vstack([np.eye(len(CLANS), dtype=_F32), np.zeros((1, len(CLANS)), _F32)])
        # the board: static channels once, dynamic ones per encode
        at = self.at["board"]
        self.static = np.zeros((len(self.channels), hw), _F32)
        self.static[at.on_board] = geo.on_board[:hw]
        self.static[at.heart] = geo.heart[:hw]
        self.static[at.tier] = geo.tier[:hw][None, :] == np.arange(1, N_TIERS + 1)[:, None]
        self.static[at.workshop_site, geo.site_squares] = 1.0
        self.nbr_rows = np.ascontiguousarray(geo.neighbours[:hw].T)  # [4, hw]: one row per direction
        self.site_squares = geo.site_squares
        self.site_list = geo.site_squares.tolist()
        self.dig_cells = geo.tunnel_placements.cells
        self.dig_piece = geo.tunnel_placements.piece
        self.orders = [np.array([(p + k) % n for k in range(n)]) for p in range(n)]
        self._init_square_codes(geo.rubble[:hw])
        self._init_player_tables()

    def _init_square_codes(self, rubble: np.ndarray) -> None:
        """One table lookup fills the channels "rubble" .. "great_hall": each square gets a code
        from (kind, statue, pedestal, buried, static rubble) and ``square_table[:, code]`` holds its
        channel values."""
        n_res, n_cl = len(RESOURCES), len(CLANS)
        # code = rubble + 2 * (buried + 1) + 16 * (pedestal + 1) + 64 * (statue + 1) + 256 * kind
        weights = {"buried": 2, "pedestal": 16, "statue": 64, "kind": 256}
        self.code_parts = {  # index -1 (none) is the last entry
            "buried": np.array([weights["buried"] * (v + 1) for v in list(range(n_res)) + [-1]], np.int32),
            "pedestal": np.array([weights["pedestal"] * (v + 1) for v in list(range(n_cl)) + [-1]], np.int32),
            "statue": np.array([weights["statue"] * (v + 1) for v in list(range(n_cl)) + [-1]], np.int32),
            "kind": np.array([weights["kind"] * v for v in SquareKind], np.int32),
        }
        ch = self.ch
        lo, hi = ch["rubble"], ch["great_hall"] + 1
        table = np.zeros((hi - lo, len(SquareKind) * 256), _F32)
        for kind in SquareKind:
            for statue in range(-1, n_cl):
                for ped in range(-1, n_cl):
                    for bur in range(-1, n_res):
                        for rub in (0, 1):
                            code = rub + 2 * (bur + 1) + 16 * (ped + 1) + 64 * (statue + 1) + 256 * kind
                            col = table[:, code]
                            col[ch["rubble"] - lo] = rub and kind == SquareKind.EMPTY
                            if bur >= 0:
                                col[ch["buried_" + RESOURCES[bur]] - lo] = 1
                            if statue >= 0:
                                col[ch["statue_" + CLANS[statue]] - lo] = 1
                                col[ch["statue_buried"] - lo] = kind == SquareKind.EMPTY
                            if ped >= 0:
                                col[ch["pedestal_" + CLANS[ped]] - lo] = 1
                            if kind != SquareKind.EMPTY:  # the channels gate, tunnel, great_hall
                                col[ch["gate"] - lo + kind - SquareKind.GATE] = 1
        self.square_table, self.square_lo, self.square_hi = table, lo, hi
        self.rubble_code = rubble.astype(np.int32)
        self._code = np.zeros(self.hw, np.int32)  # scratch of _board_common: each square's code
        self._code_part = np.zeros(self.hw, np.int32)

    def _init_player_tables(self) -> None:
        game, n = self.game, self.n
        self.mate_flags = [np.array([q in game.teammates[p] for q in self.orders[p]], _F32) for p in range(n)]
        self.storage_of = np.asarray(game.storage_of)
        self._own_storage = bool(np.array_equal(self.storage_of, np.arange(n)))  # no shared team storage
        # per card (index -1: no card): [is a troll, its level]
        level_of = np.append(game.card_level, 0).astype(np.int32)
        self.troll_count_level = np.stack([np.append(np.ones(len(game.cards), np.int32), 0), level_of], axis=1)
        # tokens of all slots (slot * kinds + kind) -> the resource they count as (clan carts are carts)
        kinds = game.card_symbols.shape[1]
        self.token_resource = np.zeros((N_SMOOT * kinds, len(RESOURCES)), _F32)
        for slot in range(N_SMOOT):
            for k in range(kinds):
                self.token_resource[slot * kinds + k, TOKEN_RESOURCE[k]] = 1
        # taken-by value (-1 free, else a seat) -> [free, taken by me, by the next player, ...], per me
        self.track_taker = []
        for p in range(n):
            t = np.zeros((n + 1, n + 1), _F32)
            t[-1, 0] = 1.0
            for q in range(n):
                t[q, 1 + (q - p) % n] = 1.0
            self.track_taker.append(t)
        self._player_counts = np.zeros((n, len(self.player_scale)), _F32)  # scratch of _players
        self._owned = np.zeros((n, len(RESOURCES)), _F32)  # scratch: what each seat's trolls hold
        self._players_slow_key: tuple | None = None  # what its rarely changing columns were read from
        self._runes_scale = _F32(game.runes_to_disintegrate)
        self.track_scale = _F32(1.0 / max(game.pack.pedestal_tokens))
        self.bribe_scale = _F32(1.0 / game.retire_bribes)

    # -- memo groups -----------------------------------------------------------------------------------
    def _board_networks(self, st: GameState, order: np.ndarray, out: np.ndarray, common: np.ndarray) -> None:
        """``out`` = the seat-independent channels ``common`` with the networks in ``order``'s seats."""
        if out is not common:
            np.copyto(out, common)
        out.reshape(len(self.channels), self.hw)[self.at["board"].network] = st.reach[order, :self.hw]

    def _board_common(self, st: GameState, out: np.ndarray) -> None:
        """Fill the board channels that are the same for every observer into ``out``, a buffer that
        already holds the static channels (written once; never touched here) and zeros in the
        network and sub-decision rows (filled per observer and per call by others)."""
        at, hw = self.at["board"], self.hw
        b = out.reshape(len(self.channels), hw)
        b[at.altar] = 0.0
        b[at.workshop] = 0.0
        parts = self.code_parts
        code, part = self._code, self._code_part  # take(mode="wrap"): index -1 is the last entry
        parts["kind"].take(st.kind[:hw], mode="wrap", out=code)
        for name in ("statue", "pedestal", "buried"):
            parts[name].take(getattr(st, name)[:hw], mode="wrap", out=part)
            code += part
        code += self.rubble_code
        self.square_table.take(code, axis=1, out=b[self.square_lo:self.square_hi], mode="clip")
        for sq in st.hall_altar.tolist():
            if sq >= 0:
                b[at.altar, sq] = 1.0
        region = st.region
        own = region[:hw]
        same = region[self.nbr_rows] == own  # [4, hw]: the neighbour in each direction
        same &= own >= 0
        b[at.same_tunnel] = same
        w0 = at.workshop.start
        for site, kind in enumerate(st.workshop.tolist()):
            if kind >= 0:
                b[w0 + kind, self.site_list[site]] = 1.0

    def _horde(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out``: per horde slot the card features, bribes / retire limit, pedestal clan."""
        at = self.at["horde"]
        out[:, at.card] = self.card_features.take(st.horde, axis=0, mode="wrap")  # -1 (no card): the zero row
        np.multiply(st.horde_bribes, self.bribe_scale, out=out[:, at.bribes])
        out[:, at.pedestal] = self.clan_onehot.take(st.horde_pedestal, axis=0, mode="wrap")

    def _trollsmoot_cards(self, st: GameState, out: np.ndarray) -> None:
        """Fill the card columns of ``out`` (seat order): each trollsmoot slot's card features."""
        out[..., self.at["trollsmoots"].card] = self.card_features.take(st.smoot, axis=0, mode="wrap")

    def _trollsmoot_tokens(self, st: GameState, out: np.ndarray) -> None:
        """Fill the token columns of ``out`` (seat order): tokens held / the most any card shows."""
        np.divide(st.tokens, self.sym_max, out=out[..., self.at["trollsmoots"].tokens])

    def _players(self, st: GameState, slow_key: tuple, out: np.ndarray) -> None:
        """Fill ``out`` (seat order; the teammate column is the observer's, written by ``encode``):
        every column as a count (float32, exact) in one scratch matrix, times the column scales. The
        columns that change rarely are refilled only when ``slow_key`` changed."""
        c, at = self._player_counts, self._at_players
        if self._players_slow_key != slow_key:
            self._players_slow(st, c)
            self._players_slow_key = slow_key
        storage = c[:, at.storage]
        storage[...] = st.storage if self._own_storage else st.storage[self.storage_of]
        np.matmul(st.tokens.reshape(self.n, -1).astype(_F32), self.token_resource, out=self._owned)
        np.add(self._owned, storage, out=c[:, at.owned])  # float32 holds these small counts exactly
        c[:, at.acting] = 0
        if st.phase != _GAME_OVER:
            c[st.current, at.acting] = 1
        np.multiply(c, self.player_scale, out=out)

    def _players_slow(self, st: GameState, c: np.ndarray) -> None:
        """The columns of the scratch matrix ``c`` that change rarely: pedestals in storage, scores,
        trolls and levels, gate placed, draft placed."""
        at = self._at_players
        c[:, at.pedestals] = st.storage_pedestals if self._own_storage else st.storage_pedestals[self.storage_of]
        c.T[at.scores] = (st.honour, st.coronation, st.pedestal_points, st.pedestal_tokens)
        self.troll_count_level.take(st.smoot, axis=0, mode="wrap").sum(axis=1, out=c[:, at.trolls])
        np.greater_equal(st.gate_sq, 0, out=c[:, at.gate_placed])
        c[:, at.draft_placed] = st.draft_placed
        for _, column, count, _ in self._counted["players_slow"]:
            c[:, column] = count(st, self)

    def _players_and_counts(self, st: GameState, slow_key: tuple, out: np.ndarray) -> None:
        """:meth:`_players` with the columns of the players' features declared by a count."""
        for _, column, count, _ in self._counted["players"]:
            self._player_counts[:, column] = count(st, self)
        FeatureFills._players(self, st, slow_key, out)

    def _spellbook(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out``: per spellbook position the spell (one-hot), present, runes / runes to
        disintegrate."""
        at = self.at["spellbook"]
        out[...] = 0.0
        for position, spell in enumerate(st.spellbook.tolist()):
            if spell >= 0:
                out[position, at.spell.start + spell] = 1.0
                out[position, at.present] = 1.0
        np.divide(st.spell_runes, self._runes_scale, out=out[:, at.runes])

    def _supply(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out`` but the resource piles (per call): the supplies' counts times their scales."""
        at, d = self.at["supply"], st.decks
        out[at.tunnels] = st.tunnel_supply
        out[at.hall] = st.hall_altar < 0
        out[at.workshop] = st.workshop_supply
        out[at.bag] = st.bag
        out[at.deck] = (len(d[0]), len(d[1]), len(d[2]))
        out[at.spell_deck] = len(st.spell_deck)
        out[at.coronation_tokens] = len(st.coronation_left)
        for _, entries, count, _ in self._counted["supply"]:
            out[entries] = count(st, self)
        out *= self.supply_scale

    def _track(self, st: GameState, order: np.ndarray, out: np.ndarray) -> None:
        at = self.at["pedestal_track"]
        np.multiply(st.track_value, self.track_scale, out=out[..., at.value])
        out[..., at.taken] = self.track_taker[order[0]][st.track_taken]  # free, then the taker (me = 0)

    # -- every call ------------------------------------------------------------------------------------
    def _fill_per_call(self, st: GameState, player: int, out: dict[str, np.ndarray]) -> None:
        """Fill the parts that change at nearly every decision into ``out``, views onto a fresh copy
        of the template (zeros in turn, pending and draft)."""
        self._board_overlay(st, out["board"])
        np.multiply(st.supply, self._supply_scale_resources, out=out["supply"][self._at_supply_piles])
        self._turn(st, out["turn"])
        if st.pending:
            self._pending(st, out["pending"])
        self._draft(st, player, out["draft"])

    def _fill_per_call_and_counts(self, st: GameState, player: int, out: dict[str, np.ndarray]) -> None:
        """:meth:`_fill_per_call` with the features of every call declared by a count (times their
        scale, if any)."""
        FeatureFills._fill_per_call(self, st, player, out)
        for key, entries, count, scale in self._counted["call"]:
            value = count(st, self)
            out[key][entries] = value if scale is None else np.multiply(value, resolve(scale, self))

    def _board_overlay(self, st: GameState, board: np.ndarray) -> None:
        """Mark the sub-decision's squares (pending dig, statue, sites) and this turn's workshops."""
        at, hw = self.at["board"], self.hw
        b = board.reshape(len(self.channels), hw)
        pend = st.pending
        if pend:
            if pend.dig is not None:
                cells = self.dig_cells[pend.dig]
                b[at.pending_dig, cells[cells < hw]] = 1.0  # without the sentinel padding
            if pend.statue_square is not None:
                b[at.pending_statue, pend.statue_square] = 1.0
            if pend.sites_left:
                b[at.pending_sites, self.site_squares[list(pend.sites_left)]] = 1.0
        if st.active_site >= 0:
            b[at.active_workshop, self.site_squares[st.active_site]] = 1.0
        if st.used_sites:
            b[at.used_workshop, self.site_squares[st.used_sites]] = 1.0

    def _turn(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry): the phase one-hot, this turn's flags, the endgame."""
        at = self._at_turn
        out[at.phase.start + st.phase] = 1.0
        out[at.spell_cast] = st.spell_cast
        out[at.workshops_left] = st.workshops_left / 2.0
        out[at.uses_left] = st.uses_left / 4.0
        out[at.bribe_any] = st.bribe_any
        out[at.ignore_rubble] = st.ignore_rubble
        out[at.free_moves] = st.free_moves / self.max_free_moves
        out[at.turn] = min(st.turn, TURN_CAP) / TURN_CAP
        final = st.final_turns_left
        out[at.coronation_complete] = final >= 0
        out[at.final_turns_left] = max(final, 0) / self.final_turns_max

    def _pending(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry) with the sub-decision being resolved."""
        pend, at = st.pending, self.at["pending"]
        if pend.spell is not None:
            out[at.spell.start + pend.spell] = 1.0
        if pend.smoot_slot is not None:
            out[at.smoot_slot.start + pend.smoot_slot] = 1.0
        if pend.horde_slot is not None:
            out[at.horde_slot.start + pend.horde_slot] = 1.0
        out[at.bribes_left] = len(pend.bribes_owed or ()) / self.max_bribes
        if pend.recruit_card is not None:
            out[at.recruit_card] = self.card_features[pend.recruit_card]
        if pend.dig is not None:
            out[at.dig.start + self.dig_piece[pend.dig]] = 1.0
        out[at.dig_for_spell] = pend.dig_for_spell is True
        out[at.statue_move_free] = pend.statue_from_phase is not None and st.free_moves > 0
        out[at.sites_left] = len(pend.sites_left or ()) / self.max_sites
        if pend.paid is not None:  # payment="choose", phase pay
            self._payment(st, out, at)

    def _payment(self, st: GameState, out: np.ndarray, at: SimpleNamespace) -> None:
        """The payment under way: each resource still owed (scaled like the supply), and how many tokens
        have been chosen from each trollsmoot slot and from the storage."""
        owed = payment_owed(st)
        out[at.pay_owed] = owed / self.res_total
        chosen = np.bincount(np.asarray(st.pending.paid, np.int64) // N_TOKEN_KINDS, minlength=N_SMOOT + 1)
        out[at.pay_chosen] = chosen / float(self.res_total.max())

    def _draft(self, st: GameState, player: int, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry) with my starter hand and my unseen starters."""
        at = self.at["draft"]
        if st.draft_hand and st.draft_hand[player]:
            out[at.hand][st.draft_hand[player]] = 1.0
        if st.draft_deck and st.draft_deck[player]:
            out[at.deck_left] = len(st.draft_deck[player]) / self.n_starters
