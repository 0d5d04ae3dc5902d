"""The observation encoder: one player's view of a game state as a flat dict of float32 arrays.

OpenSpiel-style: an :class:`Observer` is built once per game (it precomputes lookup tables, the static
board channels and the :class:`gymnasium.spaces.Dict` that declares every array) and
:meth:`Observer.encode` fills the arrays from a state for one player. Everything is float32, mostly
in ``[0, 1]``: counts are divided by the largest value the game's components allow (for instance a
resource count by the number of tokens of that resource in the game), so every array always lies in
its declared :class:`~gymnasium.spaces.Box`.

Egocentric: wherever the arrays have a player axis, row 0 is the observing player, then the others
in turn order. Only public information and the observer's own draft hand are encoded (never the
order of the horde decks or of the spell deck, nor other players' starter hands).

One flat buffer (OpenSpiel's observer): the arrays are views onto one float32 vector of
:attr:`Observer.size` entries, laid out in the space's key order (:attr:`Observer.slices`:
``key -> (start, stop, shape)``), so :meth:`Observer.encode_flat` gives the vector with no extra copy
and :meth:`Observer.encode` the dict of views. :meth:`Observer.encode_state` is PettingZoo's global
state: seat 0's vector followed by every hidden part (:attr:`Observer.state_slices`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from gymnasium import spaces

from mk_env.rules import CLANS, PHASE_NAMES, RESOURCES, TOKEN_KINDS, Game, GameState
from mk_env.rules.actions import HORDE_BENEATH, N_HORDE, N_SMOOT, TROLLSMOOT_ROWS
from mk_env.rules.content import CLAN_CART0, N_TIERS, TROLL_CLANS

_F32 = np.float32
_DIRECTIONS = ("up", "right", "down", "left")  # the order of BoardGeometry.neighbours
#: troll card categories of the card features: starters, then the troll clans
_CARD_CLANS = ("starter",) + TROLL_CLANS
_TURN_CAP = 200  # the turn counter is encoded as min(turn, _TURN_CAP) / _TURN_CAP
_SPELL_STATUE = PHASE_NAMES.index("spell_statue")  # a statue move that returns to a spell


@dataclass(frozen=True)
class Field:
    """One array of the observation: its key, shape, and what its entries mean."""

    key: str
    shape: tuple[int, ...]
    meaning: str
    entries: tuple[str, ...] = ()  # names along the last axis (board: along the first)


def _card_feature_names() -> tuple[str, ...]:
    return (("present",) + tuple(f"clan_{c}" for c in _CARD_CLANS) + ("level",)
            + tuple(f"symbol_{k}" for k in TOKEN_KINDS))


class Observer:
    """Encodes states of one :class:`~mk_env.rules.Game` for any of its players."""

    def __init__(self, game: Game):
        self.game = game
        geo, pack = game.geo, game.pack
        n, hw = game.num_players, geo.n_squares
        self.n, self.hw, self.h, self.w = n, hw, geo.height, geo.width
        self.n_workshops = len(pack.workshops)
        self.n_spells = len(pack.spells)
        self.n_tunnels = len(pack.tunnels)
        self.n_halls = len(pack.great_halls)
        self.n_starters = game.n_starters
        self.spellbook_size = int(pack.rules.get("spellbook_size", 3))
        # -- normalisers: the largest value each count can take -----------------------------------
        self.res_total = np.array([pack.supply[r] for r in RESOURCES], _F32)
        self.sym_max = np.maximum(game.card_symbols.max(axis=0), 1).astype(_F32)
        self.max_bribes = float(max(len(b) for b in HORDE_BENEATH))
        self.max_free_moves = float(max([int(s.params.get("moves", 1)) for s in pack.spells] + [1]))
        self.max_tunnel_honour = float(max(1, sum(
            t.count * max(pack.tunnel_honour.get(t.size, {"": 0}).values()) for t in pack.tunnels)))
        self.max_coronation = float(max(1, sum(pack.coronation_tokens[n])))
        self.max_pedestal_points = float(max(1, sum(pack.pedestal_tokens)))
        self.n_pedestal_tokens = float(len(pack.pedestal_tokens))
        self.max_levels = float(3 * game.max_trolls)
        self.deck_total = np.array([max(1, int((game.card_level == lv).sum())) for lv in (1, 2, 3)], _F32)
        self.final_turns_max = float(3 * n - 1)
        self._tunnel_counts = np.array([max(1, t.count) for t in pack.tunnels], _F32)
        self._workshop_counts = np.array([max(1, w.count) for w in pack.workshops], _F32)
        self.max_sites = float(max([len(x) for x in geo.tunnel_placements.sites] + [1]))
        # -- card features: one row per card, and a zero row at index -1 for "no card" ------------
        cf = np.zeros((len(game.cards) + 1, 2 + len(_CARD_CLANS) + len(TOKEN_KINDS)), _F32)
        for i, card in enumerate(game.cards):
            cf[i, 0] = 1.0
            cf[i, 1 + _CARD_CLANS.index(card.clan if card.level > 0 else "starter")] = 1.0
            cf[i, 1 + len(_CARD_CLANS)] = card.level / 3.0
            cf[i, 2 + len(_CARD_CLANS):] = game.card_symbols[i] / self.sym_max
        self.card_features = cf
        self._k_card = cf.shape[1]
        self.clan_onehot = np.vstack([np.eye(len(CLANS), dtype=_F32), np.zeros((1, len(CLANS)), _F32)])
        # -- the board: static channels once, dynamic ones per encode ------------------------------
        self.channels = self._channel_names()
        self.ch = {name: i for i, (name, _) in enumerate(self.channels)}
        self.static = np.zeros((len(self.channels), hw), _F32)
        self.static[self.ch["on_board"]] = geo.on_board[:hw]
        self.static[self.ch["heart"]] = geo.heart[:hw]
        t0 = self.ch["tier_1"]
        self.static[t0:t0 + N_TIERS] = geo.tier[:hw][None, :] == np.arange(1, N_TIERS + 1)[:, None]
        self.static[self.ch["workshop_site"], geo.site_squares] = 1.0
        self.rubble = geo.rubble[:hw]
        self.nbr = geo.neighbours[:hw]  # [hw, 4], sentinel where off the grid
        self.nbr_rows = np.ascontiguousarray(self.nbr.T)  # [4, hw]: one row per direction
        self.site_squares = geo.site_squares
        self.site_list = geo.site_squares.tolist()
        self.dig_cells = geo.tunnel_placements.cells
        self.dig_piece = geo.tunnel_placements.piece
        self.orders = [np.array([(p + k) % n for k in range(n)]) for p in range(n)]
        self._init_square_codes()
        self._init_player_tables()
        self.fields = self._fields()
        self.space = spaces.Dict({
            f.key: spaces.Box(0.0, 1.0, f.shape, _F32) for f in self.fields})
        self.slices = self._slices()
        self.size = max(stop for _, stop, _ in self.slices.values())
        self.flat_space = spaces.Box(0.0, 1.0, (self.size,), _F32)
        self._init_buffers()
        self._init_global_state()

    def _init_square_codes(self) -> None:
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
            "kind": np.array([weights["kind"] * v for v in range(4)], np.int32),
        }
        lo, hi = self.ch["rubble"], self.ch["great_hall"] + 1
        table = np.zeros((hi - lo, 4 * 256), _F32)
        for kind in range(4):
            for statue in range(-1, n_cl):
                for ped in range(-1, n_cl):
                    for bur in range(-1, n_res):
                        for rub in (0, 1):
                            code = rub + 2 * (bur + 1) + 16 * (ped + 1) + 64 * (statue + 1) + 256 * kind
                            col = table[:, code]
                            col[self.ch["rubble"] - lo] = rub and kind == 0
                            if bur >= 0:
                                col[self.ch["buried_" + RESOURCES[bur]] - lo] = 1
                            if statue >= 0:
                                col[self.ch["statue_" + CLANS[statue]] - lo] = 1
                                col[self.ch["statue_buried"] - lo] = kind == 0
                            if ped >= 0:
                                col[self.ch["pedestal_" + CLANS[ped]] - lo] = 1
                            if kind > 0:
                                col[self.ch["gate"] - lo + kind - 1] = 1
        self.square_table, self.square_lo, self.square_hi = table, lo, hi
        self.rubble_code = self.rubble.astype(np.int32)
        self._code = np.zeros(self.hw, np.int32)  # scratch of _board_common: each square's code
        self._code_part = np.zeros(self.hw, np.int32)

    def _init_player_tables(self) -> None:
        game, n = self.game, self.n
        so = np.asarray(game.storage_of)
        self.storage_rows = [so[o] for o in self.orders]
        self.mate_flags = [np.array([q in game.teammates[p] for q in self.orders[p]], _F32)
                           for p in range(n)]
        self.level_of = np.append(game.card_level, 0).astype(np.int32)  # index -1: no card
        self.storage_of = so
        self._own_storage = bool(np.array_equal(so, np.arange(n)))  # no shared team storage
        # per card (index -1: no card): [is a troll, its level]
        self.troll_count_level = np.stack([np.append(np.ones(len(game.cards), np.int32), 0),
                                           self.level_of], axis=1)
        # tokens of all slots (slot * kinds + kind) -> the resource they count as (clan carts are carts)
        kinds = game.card_symbols.shape[1]
        self.token_resource = np.zeros((N_SMOOT * kinds, len(RESOURCES)), _F32)
        for slot in range(N_SMOOT):
            for k in range(kinds):
                self.token_resource[slot * kinds + k, k if k < CLAN_CART0 else RESOURCES.index("cart")] = 1
        # taken-by value (-1 free, else a seat) -> [free, taken by me, by the next player, ...], per me
        self.track_taker = []
        for p in range(n):
            t = np.zeros((n + 1, n + 1), _F32)
            t[-1, 0] = 1.0
            for q in range(n):
                t[q, 1 + (q - p) % n] = 1.0
            self.track_taker.append(t)
        self.player_scale = np.concatenate([
            1.0 / self.res_total, np.full(len(CLANS), 1.0 / game.pack.pedestals_per_clan),
            1.0 / self.res_total,
            [1.0 / self.max_tunnel_honour, 1.0 / self.max_coronation, 1.0 / self.max_pedestal_points,
             1.0 / self.n_pedestal_tokens, 1.0 / N_SMOOT, 1.0 / self.max_levels, 1.0, 1.0, 1.0,
             1.0 / TROLLSMOOT_ROWS[0]]]).astype(_F32)
        self._player_counts = np.zeros((n, len(self.player_scale)), _F32)  # scratch of _players
        self._owned = np.zeros((n, len(RESOURCES)), _F32)  # scratch: what each seat's trolls hold
        self._players_slow_key: tuple | None = None  # what its rarely changing columns were read from
        self.taker_onehot = np.vstack([np.eye(n, dtype=_F32), np.zeros((1, n), _F32)])
        pack = game.pack
        self.supply_scale = np.concatenate([
            1.0 / self.res_total, 1.0 / self._tunnel_counts, np.ones(self.n_halls),
            1.0 / self._workshop_counts, np.full(len(CLANS), 1.0 / pack.pedestals_per_clan),
            1.0 / self.deck_total,
            [1.0 / max(1, self.n_spells), 1.0 / max(1, len(pack.coronation_tokens[n]))]]).astype(_F32)
        self._supply_scale_resources = self.supply_scale[:len(RESOURCES)]
        self._runes_scale = _F32(game.runes_to_disintegrate)
        self.track_scale = _F32(1.0 / max(pack.pedestal_tokens))
        self.bribe_scale = _F32(1.0 / game.retire_bribes)

    # -- the declaration ----------------------------------------------------------------------------
    def _channel_names(self) -> list[tuple[str, str]]:
        pack, n = self.game.pack, self.n
        out = [("on_board", "an ordinary square of the board (not the heart, not off the board)"),
               ("heart", "the mountain's heart")]
        out += [(f"tier_{t}", f"tier {t} square ({name})")
                for t, name in zip(range(1, N_TIERS + 1), _tier_names())]
        out += [("workshop_site", "a workshop site"),
                ("rubble", "rubble not yet covered by a tile")]
        out += [(f"buried_{r}", f"a buried {r} still in the ground") for r in RESOURCES]
        out += [(f"statue_{c}", f"a statue of the {c.capitalize()} clan") for c in CLANS]
        out += [("statue_buried", "a statue not yet unearthed (no tile on its square)"),]
        out += [(f"pedestal_{c}", f"a pedestal of the {c.capitalize()} clan") for c in CLANS]
        out += [("gate", "a gate"), ("tunnel", "a tunnel tile"), ("great_hall", "a great hall"),
                ("altar", "the altar square of a dedicated great hall")]
        out += [(f"network_{k}", "in the network of " + _who(k)) for k in range(n)]
        out += [(f"same_tunnel_{d}", f"the square {d} of it belongs to the same tunnel (region)")
                for d in _DIRECTIONS]
        out += [(f"workshop_{w.name}", f"the {w.name} is established here") for w in pack.workshops]
        out += [("pending_dig", "the tunnel just dug, awaiting its mineral, pedestal or workshops"),
                ("pending_statue", "the statue selected to move"),
                ("pending_sites", "workshop sites awaiting a workshop from the current dig"),
                ("active_workshop", "the workshop being used now"),
                ("used_workshop", "a workshop site already activated this turn")]
        return out

    def _fields(self) -> list[Field]:
        n, cardf = self.n, _card_feature_names()
        players = (tuple(f"storage_{r}" for r in RESOURCES) + tuple(f"pedestals_{c}" for c in CLANS)
                   + tuple(f"owned_{r}" for r in RESOURCES)
                   + ("honour_tunnels", "coronation", "pedestal_points", "pedestal_tokens", "trolls",
                      "recruited_levels", "gate_placed", "teammate", "acting", "draft_placed"))
        supply = (tuple(f"supply_{r}" for r in RESOURCES)
                  + tuple(f"tunnels_{t.name}" for t in self.game.pack.tunnels)
                  + tuple(f"hall_{h.name}" for h in self.game.pack.great_halls)
                  + tuple(f"workshop_{w.name}" for w in self.game.pack.workshops)
                  + tuple(f"bag_{c}" for c in CLANS)
                  + ("deck_level1", "deck_level2", "deck_level3", "spell_deck", "coronation_tokens"))
        turn = (tuple(f"phase_{p}" for p in PHASE_NAMES)
                + ("spell_cast", "workshops_left", "uses_left", "bribe_any", "ignore_rubble",
                   "free_moves", "turn", "coronation_complete", "final_turns_left"))
        pending = (tuple(f"spell_position_{i}" for i in range(self.spellbook_size))
                   + tuple(f"trollsmoot_slot_{i}" for i in range(N_SMOOT))
                   + tuple(f"horde_slot_{i}" for i in range(N_HORDE))
                   + ("bribes_left",) + tuple(f"card_{x}" for x in cardf)
                   + tuple(f"dig_{t.name}" for t in self.game.pack.tunnels)
                   + ("dig_for_spell", "statue_move_free", "sites_left"))
        track = ("value", "free") + tuple(f"taken_by_{k}" for k in range(n))
        return [
            Field("board", (len(self.channels), self.h, self.w),
                  "board channels over the grid (see the channel table)",
                  tuple(name for name, _ in self.channels)),
            Field("horde", (N_HORDE, len(cardf) + len(RESOURCES) + len(CLANS)),
                  "each horde slot (Level-1 row 0-4, Level-2 row 5-8, Level-3 row 9-11): the card, "
                  "its bribes / retire limit, its pedestal clan",
                  cardf + tuple(f"bribe_{r}" for r in RESOURCES) + tuple(f"pedestal_{c}" for c in CLANS)),
            Field("trollsmoots", (n, N_SMOOT, len(cardf) + len(TOKEN_KINDS)),
                  "each player's trollsmoot (me first), each slot (bottom row 0-3, 4-6, 7-8, 9): "
                  "the card and the tokens it holds / the most any card shows",
                  cardf + tuple(f"token_{k}" for k in TOKEN_KINDS)),
            Field("players", (n, len(players)),
                  "per player (me first): storage, pedestals, owned resources, scores so far, flags",
                  players),
            Field("spellbook", (self.spellbook_size, self.n_spells + 2),
                  "each spellbook position: the spell (one-hot), present, runes / runes to disintegrate",
                  tuple(f"spell_{s.name}" for s in self.game.pack.spells) + ("present", "runes")),
            Field("supply", (len(supply),), "the supplies: resources, tunnel stacks, great halls, "
                  "workshop tiles, pedestal bag, deck sizes, coronation tokens left", supply),
            Field("pedestal_track", (N_TIERS, len(CLANS), len(track)),
                  "the pedestal track by tier and clan: token value, free, who took it (me first)", track),
            Field("turn", (len(turn),), "the phase (one-hot), this turn's flags and the endgame", turn),
            Field("pending", (len(pending),), "the sub-decision being resolved: spell position, "
                  "trollsmoot and horde slots, bribes left, the troll being recruited, the tunnel "
                  "being dug, a free statue move, workshop sites left", pending),
            Field("draft", (self.n_starters + 1,), "my own starter hand during the draft (one-hot by "
                  "starter) and my unseen starters / starters",
                  tuple(f"hand_{c.name}" for c in self.game.pack.starter_trolls) + ("deck_left",)),
        ]

    def _slices(self) -> dict[str, tuple[int, int, tuple[int, ...]]]:
        """key -> ``(start, stop, shape)`` of each array in the flat vector, in the space's key order
        (gymnasium's ``Dict`` sorts its keys, so this is also ``gymnasium.spaces.flatten``'s order)."""
        out, start = {}, 0
        for key, box in self.space.spaces.items():
            stop = start + int(np.prod(box.shape))
            out[key] = (start, stop, tuple(box.shape))
            start = stop
        return out

    # -- the global state (PettingZoo's state()) -----------------------------------------------------
    def _init_global_state(self) -> None:
        """The layout of :meth:`encode_state`: seat 0's flat observation, then every hidden part."""
        n, k = self.n, self.n_starters
        self.state_fields = [
            Field("observation", (self.size,), "seat 0's flat observation (every player axis in seat "
                  "order: row p is seat p; the acting seat is the players' `acting` column)"),
            Field("draft_hands", (n, k), "each seat's starter hand during the draft (one-hot by starter)"),
            Field("draft_decks", (n, k), "each seat's undrawn starters by draw order (1 = drawn next, "
                  "1/len = drawn last, 0 = not in the deck)"),
            Field("horde_decks", (len(self.game.cards),), "each troll card's place in its level's horde "
                  "deck (1 = on top, 1/len = at the bottom, 0 = not in a deck)"),
            Field("spell_deck", (self.n_spells,), "each spell's place in the spell deck (the same scale)"),
        ]
        self.state_slices: dict[str, tuple[int, int, tuple[int, ...]]] = {}
        start = 0
        for f in self.state_fields:
            stop = start + int(np.prod(f.shape))
            self.state_slices[f.key] = (start, stop, f.shape)
            start = stop
        self.state_size = start
        self.state_space = spaces.Box(0.0, 1.0, (start,), _F32)

    def encode_state(self, st: GameState) -> np.ndarray:
        """The full-information global state of ``st`` (a float32 vector in ``[0, 1]`` laid out as
        :attr:`state_slices`): what seat 0 sees, plus what nobody or only its owner sees (the
        starter hands and draws, the order of the horde and spell decks). The same whoever acts."""
        out = np.zeros(self.state_size, _F32)
        out[:self.size] = self.encode_flat(st, 0)
        part = {k: out[a:b].reshape(shape) for k, (a, b, shape) in self.state_slices.items()}
        for p, hand in enumerate(st.draft_hand):
            part["draft_hands"][p, hand] = 1.0
        for p, deck in enumerate(st.draft_deck):
            _deck_places(deck, part["draft_decks"][p])
        for deck in st.decks:
            _deck_places(deck, part["horde_decks"])
        _deck_places(st.spell_deck, part["spell_deck"])
        return out

    # -- encoding -----------------------------------------------------------------------------------
    def _init_buffers(self) -> None:
        """Per player a template (one array per field) keeps the memoised parts; ``encode`` copies
        it and fills the parts that change at nearly every decision. Parts that are the same for
        every observer up to the order of the player rows are kept once, in seat order, in shared
        buffers (:meth:`_shared`), and each observer's template is refreshed from them."""
        self._templates = [np.zeros(self.size, _F32) for _ in range(self.n)]
        # (key, slice, shape or None for a vector): views cost a slice, and a reshape only where needed
        self._view_specs = [(k, slice(a, b), shape if len(shape) > 1 else None)
                            for k, (a, b, shape) in self.slices.items()]
        self._per_call_specs = [v for v in self._view_specs if v[0] in ("board", "draft", "pending", "supply", "turn")]
        self._first_key = next(iter(self.slices))
        self._template_views = [self.views(t) for t in self._templates]
        self._keys: list[dict] = [{} for _ in range(self.n)]  # part -> bytes of the arrays it read
        self._board_shared = self.static.reshape(len(self.channels), self.h, self.w).copy()
        self._board_key: tuple | None = None  # the bytes the shared board channels were read from
        shapes = {f.key: f.shape for f in self.fields}
        # shared part -> [buffer (seat order), key it was filled from, generation]
        self._shared_parts: dict[str, list] = {
            name: [np.zeros(shapes[field], _F32), None, 0]
            for name, field in (("horde", "horde"), ("spellbook", "spellbook"), ("smoot_cards", "trollsmoots"),
                                ("smoot_tokens", "trollsmoots"), ("players", "players"), ("supply", "supply"))}
        self._shared_parts["smoot_tokens"][0] = self._shared_parts["smoot_cards"][0]  # one buffer, two keys
        self._k_turn = len(PHASE_NAMES)
        self._mate_column = next(f for f in self.fields if f.key == "players").entries.index("teammate")

    def _shared(self, name: str, key: object, fill: Callable[..., None], *args: object) -> int:
        """Refill the shared part ``name`` by ``fill(*args, buffer)`` if ``key`` (the bytes it reads)
        changed since it was last filled, by any observer; returns its generation (bumped on each
        fill)."""
        part = self._shared_parts[name]
        if part[1] != key:
            fill(*args, part[0])
            part[1] = key
            part[2] += 1
        return part[2]

    def encode(self, st: GameState, player: int) -> dict[str, np.ndarray]:
        """The observation of ``player`` (fresh arrays; the caller may keep them): views, in the
        space's key order, onto one fresh flat buffer (:meth:`encode_flat`'s vector).

        Parts that change rarely (the board, the horde, the trollsmoots, the players, the spellbook,
        the pedestal track) are memoised, keyed by the exact bytes of the state arrays they read, so
        a state changed in any way (even directly, as tests do) is encoded anew; every call returns
        a fresh copy of the observer's template."""
        out = self.views(self._template(st, player).copy())
        self._fill_per_call(st, player, out)
        return out

    def encode_flat(self, st: GameState, player: int) -> np.ndarray:
        """The observation of ``player`` as one fresh float32 vector of :attr:`size` entries: the
        arrays of :meth:`encode`, each flattened (C order), in the space's key order (the layout of
        :attr:`slices`; what ``gymnasium.spaces.flatten(self.space, self.encode(st, player))``
        gives)."""
        flat = self._template(st, player).copy()
        self._fill_per_call(st, player, _views(flat, self._per_call_specs))
        return flat

    def views(self, flat: np.ndarray) -> dict[str, np.ndarray]:
        """The observation dict of a flat vector (views, no copy; in the space's key order)."""
        return _views(flat, self._view_specs)

    def flatten(self, observation: dict[str, np.ndarray]) -> np.ndarray:
        """The flat vector of an observation dict: the buffer under it when it is one of
        :meth:`encode`'s (no copy), else the arrays concatenated in the layout of :attr:`slices`."""
        base = observation[self._first_key].base
        if (base is not None and base.shape == (self.size,) and base.dtype == _F32
                and all(observation[k].base is base for k in self.slices)
                and observation[self._first_key].__array_interface__["data"][0]
                == base.__array_interface__["data"][0]):
            return base
        return np.concatenate([np.asarray(observation[k], _F32).ravel() for k in self.slices])

    def _template(self, st: GameState, player: int) -> np.ndarray:
        """Refresh ``player``'s template (the memoised parts) from ``st``; returns its flat buffer."""
        order = self.orders[player]
        seen = self._keys[player]
        tv = self._template_views[player]
        key = (st.kind.tobytes(), st.statue.tobytes(), st.pedestal.tobytes(), st.buried.tobytes(),
               st.region.tobytes(), st.hall_altar.tobytes(), st.workshop.tobytes(), st.reach.tobytes())
        if seen.get("board") != key:
            if self._board_key != key:  # the seat-independent channels, shared by all observers
                self._board_common(st, self._board_shared)
                self._board_key = key
            self._board_networks(st, order, tv["board"], self._board_shared)
            seen["board"] = key
        gen = self._shared("horde", (st.horde.tobytes(), st.horde_bribes.tobytes(), st.horde_pedestal.tobytes()),
                           self._horde, st)
        if seen.get("horde") != gen:
            np.copyto(tv["horde"], self._shared_parts["horde"][0])
            seen["horde"] = gen
        gen = self._shared("spellbook", (st.spellbook.tobytes(), st.spell_runes.tobytes()), self._spellbook, st)
        if seen.get("spellbook") != gen:
            np.copyto(tv["spellbook"], self._shared_parts["spellbook"][0])
            seen["spellbook"] = gen
        smoot_bytes, token_bytes = st.smoot.tobytes(), st.tokens.tobytes()
        gen = (self._shared("smoot_cards", smoot_bytes, self._trollsmoot_cards, st),
               self._shared("smoot_tokens", token_bytes, self._trollsmoot_tokens, st))
        if seen.get("trollsmoots") != gen:
            self._shared_parts["smoot_cards"][0].take(order, axis=0, out=tv["trollsmoots"])
            seen["trollsmoots"] = gen
        # the players part: columns that change with scores, trolls and placements (rarely), and
        # those that change with tokens, storage and the acting seat (nearly every decision)
        slow = (smoot_bytes, st.storage_pedestals.tobytes(), st.honour.tobytes(), st.coronation.tobytes(),
                st.pedestal_points.tobytes(), st.pedestal_tokens.tobytes(), st.gate_sq.tobytes(),
                tuple(st.draft_placed))
        fast = (token_bytes, st.storage.tobytes(), st.current, st.phase == self._game_over)
        gen = self._shared("players", (slow, fast), self._players, st, slow)
        if seen.get("players") != gen:
            out = tv["players"]
            self._shared_parts["players"][0].take(order, axis=0, out=out)
            out[:, self._mate_column] = self.mate_flags[player]
            seen["players"] = gen
        key = (st.track_value.tobytes(), st.track_taken.tobytes())
        if seen.get("track") != key:
            self._track(st, order, tv["pedestal_track"])
            seen["track"] = key
        d = st.decks  # the supplies but the resource piles (which change at most decisions: below)
        gen = self._shared("supply", (st.tunnel_supply.tobytes(), st.hall_altar.tobytes(), st.workshop_supply.tobytes(),
                                      st.bag.tobytes(), len(d[0]), len(d[1]), len(d[2]), len(st.spell_deck),
                                      len(st.coronation_left)), self._supply, st)
        if seen.get("supply") != gen:
            np.copyto(tv["supply"], self._shared_parts["supply"][0])
            seen["supply"] = gen
        return self._templates[player]

    def _fill_per_call(self, st: GameState, player: int, out: dict[str, np.ndarray]) -> None:
        """Fill the parts that change at nearly every decision into ``out``, views onto a fresh copy
        of the template (zeros in turn, pending and draft)."""
        self._board_overlay(st, out["board"])
        np.multiply(st.supply, self._supply_scale_resources, out=out["supply"][:len(RESOURCES)])
        self._turn(st, out["turn"])
        if st.pending:
            self._pending(st, out["pending"])
        self._draft(st, player, out["draft"])

    def _board_networks(self, st: GameState, order: np.ndarray, out: np.ndarray, common: np.ndarray) -> None:
        """``out`` = the seat-independent channels ``common`` with the networks in ``order``'s seats."""
        if out is not common:
            np.copyto(out, common)
        n0 = self.ch["network_0"]
        out.reshape(len(self.channels), self.hw)[n0:n0 + self.n] = st.reach[order, :self.hw]

    def _board_common(self, st: GameState, out: np.ndarray) -> None:
        """Fill the board channels that are the same for every observer into ``out``, a buffer that
        already holds the static channels (written once; never touched here) and zeros in the
        network and sub-decision rows (filled per observer and per call by others)."""
        ch, hw = self.ch, self.hw
        b = out.reshape(len(self.channels), hw)
        altar = ch["altar"]
        w0 = ch["workshop_" + self.game.pack.workshops[0].name]
        b[altar] = 0.0
        b[w0:w0 + self.n_workshops] = 0.0
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
                b[altar, sq] = 1.0
        region = st.region
        own = region[:hw]
        same = region[self.nbr_rows] == own  # [4, hw]: the neighbour in each direction
        same &= own >= 0
        e0 = ch["same_tunnel_up"]
        b[e0:e0 + 4] = same
        for site, kind in enumerate(st.workshop.tolist()):
            if kind >= 0:
                b[w0 + kind, self.site_list[site]] = 1.0

    def _board_overlay(self, st: GameState, board: np.ndarray) -> None:
        """Mark the sub-decision's squares (pending dig, statue, sites) and this turn's workshops."""
        ch, hw = self.ch, self.hw
        b = board.reshape(len(self.channels), hw)
        pend = st.pending
        if pend:
            if pend.dig is not None:
                cells = self.dig_cells[pend.dig]
                b[ch["pending_dig"], cells[cells < hw]] = 1.0  # without the sentinel padding
            if pend.statue_square is not None:
                b[ch["pending_statue"], pend.statue_square] = 1.0
            if pend.sites_left:
                b[ch["pending_sites"], self.site_squares[list(pend.sites_left)]] = 1.0
        if st.active_site >= 0:
            b[ch["active_workshop"], self.site_squares[st.active_site]] = 1.0
        if st.used_sites:
            b[ch["used_workshop"], self.site_squares[st.used_sites]] = 1.0

    def _horde(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out``: per horde slot the card features, bribes / retire limit, pedestal clan."""
        k = self._k_card
        out[:, :k] = self.card_features.take(st.horde, axis=0, mode="wrap")  # -1 (no card): the zero row
        np.multiply(st.horde_bribes, self.bribe_scale, out=out[:, k:k + len(RESOURCES)])
        out[:, k + len(RESOURCES):] = self.clan_onehot.take(st.horde_pedestal, axis=0, mode="wrap")

    def _trollsmoot_cards(self, st: GameState, out: np.ndarray) -> None:
        """Fill the card columns of ``out`` (seat order): each trollsmoot slot's card features."""
        out[..., :self._k_card] = self.card_features.take(st.smoot, axis=0, mode="wrap")

    def _trollsmoot_tokens(self, st: GameState, out: np.ndarray) -> None:
        """Fill the token columns of ``out`` (seat order): tokens held / the most any card shows."""
        np.divide(st.tokens, self.sym_max, out=out[..., self._k_card:])

    def _players(self, st: GameState, slow_key: tuple, out: np.ndarray) -> None:
        """Fill ``out`` (seat order; the teammate column is the observer's, written by ``encode``):
        every column as a count (float32, exact) in one scratch matrix, times the column scales. The
        columns that change rarely are refilled only when ``slow_key`` changed."""
        c = self._player_counts
        if self._players_slow_key != slow_key:
            self._players_slow(st, c)
            self._players_slow_key = slow_key
        c[:, 0:7] = st.storage if self._own_storage else st.storage[self.storage_of]
        np.matmul(st.tokens.reshape(self.n, -1).astype(_F32), self.token_resource, out=self._owned)
        np.add(self._owned, c[:, 0:7], out=c[:, 10:17])  # float32 holds these small counts exactly
        c[:, 25] = 0
        if st.phase != self._game_over:
            c[st.current, 25] = 1
        np.multiply(c, self.player_scale, out=out)

    def _players_slow(self, st: GameState, c: np.ndarray) -> None:
        """The columns of the scratch matrix ``c`` that change rarely: pedestals in storage, scores,
        trolls and levels, gate placed, draft placed."""
        c[:, 7:10] = st.storage_pedestals if self._own_storage else st.storage_pedestals[self.storage_of]
        c.T[17:21] = (st.honour, st.coronation, st.pedestal_points, st.pedestal_tokens)
        self.troll_count_level.take(st.smoot, axis=0, mode="wrap").sum(axis=1, out=c[:, 21:23])
        np.greater_equal(st.gate_sq, 0, out=c[:, 23])
        c[:, 26] = st.draft_placed

    _game_over = PHASE_NAMES.index("game_over")

    def _spellbook(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out``: per spellbook position the spell (one-hot), present, runes / runes to
        disintegrate."""
        out[...] = 0.0
        for position, spell in enumerate(st.spellbook.tolist()):
            if spell >= 0:
                out[position, spell] = 1.0
                out[position, -2] = 1.0
        np.divide(st.spell_runes, self._runes_scale, out=out[:, -1])

    def _supply(self, st: GameState, out: np.ndarray) -> None:
        d = st.decks
        out[:] = np.concatenate([st.supply, st.tunnel_supply, st.hall_altar < 0, st.workshop_supply,
                                 st.bag, (len(d[0]), len(d[1]), len(d[2]), len(st.spell_deck),
                                          len(st.coronation_left))], dtype=_F32, casting="unsafe")
        out *= self.supply_scale

    def _track(self, st: GameState, order: np.ndarray, out: np.ndarray) -> None:
        np.multiply(st.track_value, self.track_scale, out=out[..., 0])
        out[..., 1:] = self.track_taker[order[0]][st.track_taken]  # free, then the taker (me = 0)

    def _turn(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry): the phase one-hot, this turn's flags, the endgame."""
        out[st.phase] = 1.0
        out[self._k_turn:] = (st.spell_cast, st.workshops_left / 2.0, st.uses_left / 4.0, st.bribe_any,
                              st.ignore_rubble, st.free_moves / self.max_free_moves,
                              min(st.turn, _TURN_CAP) / _TURN_CAP, st.final_turns_left >= 0,
                              max(st.final_turns_left, 0) / self.final_turns_max)

    def _pending(self, st: GameState, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry) with the sub-decision being resolved."""
        pend = st.pending
        if not pend:
            return
        k = 0
        if pend.spell is not None:
            out[k + pend.spell] = 1.0
        k += self.spellbook_size
        if pend.smoot_slot is not None:
            out[k + pend.smoot_slot] = 1.0
        k += N_SMOOT
        if pend.horde_slot is not None:
            out[k + pend.horde_slot] = 1.0
        k += N_HORDE
        out[k] = len(pend.bribes_owed or ()) / self.max_bribes
        k += 1
        if pend.recruit_card is not None:
            out[k:k + self.card_features.shape[1]] = self.card_features[pend.recruit_card]
        k += self.card_features.shape[1]
        if pend.dig is not None:
            out[k + self.dig_piece[pend.dig]] = 1.0
        k += self.n_tunnels
        out[k] = pend.dig_for_spell is True
        out[k + 1] = pend.statue_from_phase == _SPELL_STATUE
        out[k + 2] = len(pend.sites_left or ()) / self.max_sites

    def _draft(self, st: GameState, player: int, out: np.ndarray) -> None:
        """Fill ``out`` (zeros on entry) with my starter hand and my unseen starters."""
        if st.draft_hand and st.draft_hand[player]:
            out[st.draft_hand[player]] = 1.0
        if st.draft_deck and st.draft_deck[player]:
            out[-1] = len(st.draft_deck[player]) / self.n_starters


def _views(flat: np.ndarray, specs: list[tuple[str, slice, tuple[int, ...] | None]]) -> dict[str, np.ndarray]:
    """``{key: the view of flat}`` for each ``(key, slice, shape or None)`` of ``specs``."""
    return {k: flat[sl] if shape is None else flat[sl].reshape(shape) for k, sl, shape in specs}


def _deck_places(deck: list[int], out: np.ndarray) -> None:
    """Mark each item of ``deck`` (top first) in ``out`` by its place: 1 on top down to 1/len."""
    size = len(deck)
    for i, item in enumerate(deck):
        out[item] = (size - i) / size


def _who(k: int) -> str:
    return "me" if k == 0 else f"the player {k} seat(s) after me"


def _tier_names() -> tuple[str, ...]:
    from mk_env.rules.content import TIER_NAMES
    return TIER_NAMES
