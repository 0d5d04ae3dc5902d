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

Each feature is declared once in :mod:`mk_env.mountain_king.env.features` (its name, the state fields it reads, when
it is refilled, its scale); the shapes, entry names, offsets (:attr:`Observer.at`), scales and memo keys
derive from there, and the fill methods live in :mod:`mk_env.mountain_king.env.observation_fill`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
from gymnasium import spaces

from mk_env.mountain_king.rules import RESOURCES, Game, GameState
from mk_env.mountain_king.rules.actions import HORDE_BENEATH

from .features import BOARD, PARTS, memo_keys, own_reads
from .observation_fill import FeatureFills

_F32 = np.float32
#: the memo groups (mk_env.env.features.MEMO_FILLS but "call"), in the order _template unpacks their keys
MEMO_GROUPS = ("board", "horde", "smoot_cards", "smoot_tokens", "players_slow", "players", "spellbook", "supply",
               "track")


@dataclass(frozen=True)
class Field:
    """One array of the observation: its key, shape, and what its entries mean."""

    key: str
    shape: tuple[int, ...]
    meaning: str
    entries: tuple[str, ...] = ()  # names along the last axis (board: along the first)


class Observer(FeatureFills):
    """Encodes states of one :class:`~mk_env.mountain_king.rules.Game` for any of its players."""

    def __init__(self, game: Game):
        self.game = game
        geo, pack = game.geo, game.pack
        n, hw = game.num_players, geo.n_squares
        self.n, self.hw, self.h, self.w = n, hw, geo.height, geo.width
        self.n_spells = len(pack.spells)
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
        self.tunnel_counts = np.array([max(1, t.count) for t in pack.tunnels], _F32)
        self.workshop_counts = np.array([max(1, w.count) for w in pack.workshops], _F32)
        self.max_sites = float(max([len(x) for x in geo.tunnel_placements.sites] + [1]))
        self._init_layout()
        self._init_tables()
        self.space = spaces.Dict({
            f.key: spaces.Box(0.0, 1.0, f.shape, _F32) for f in self.fields})
        self.slices = self._slices()
        self.size = max(stop for _, stop, _ in self.slices.values())
        self.flat_space = spaces.Box(0.0, 1.0, (self.size,), _F32)
        self._init_buffers()
        self._init_global_state()

    def __reduce__(self) -> tuple:
        """An observer pickles as its game (its buffers are caches; its key function is generated)."""
        return Observer, (self.game,)

    # -- the layout, derived from the declarations (mk_env.env.features) ----------------------------
    def _init_layout(self) -> None:
        """From :data:`~mk_env.mountain_king.env.features.PARTS`: :attr:`fields` (each array's key, shape, meaning
        and entry names), :attr:`at` (each feature's index or slice in its array), the board's
        :attr:`channels` and :attr:`ch`, the count scales of the players and the supply, and the
        memo keys."""
        self.fields: list[Field] = []
        self.at: dict[str, SimpleNamespace] = {}
        for part in PARTS:
            entries: list[str] = []
            at = {}
            for f in part.features:
                names = f.entry_names(self)
                at[f.name] = len(entries) if not f.entries else slice(len(entries), len(entries) + len(names))
                entries += names
            lead = part.lead(self)
            shape = (len(entries),) + lead if part is BOARD else lead + (len(entries),)
            self.fields.append(Field(part.key, shape, part.meaning, tuple(entries)))
            self.at[part.key] = SimpleNamespace(**at)
        self.channels = [(name, meaning) for f in BOARD.features
                         for name, meaning in zip(f.entry_names(self), _meanings(f, self))]
        self.ch = {name: i for i, (name, _) in enumerate(self.channels)}
        self.player_scale = self._scales("players")
        self.supply_scale = self._scales("supply")
        self._supply_scale_resources = self.supply_scale[self.at["supply"].supply]
        self._at_supply_piles = self.at["supply"].supply
        self._at_players, self._at_turn = self.at["players"], self.at["turn"]
        self._init_counts()
        self._mate_column = self._at_players.teammate

    def _init_counts(self) -> None:
        """The features filled by their declared count, per memo group: ``(array key, offset, count,
        scale)`` each. The players' and every call's fill methods take them only where some exist (no
        cost otherwise); a count where no fill method runs it is refused."""
        self._counted: dict[str, list] = {"players_slow": [], "players": [], "supply": [], "call": []}
        for p in PARTS:
            for f in p.features:
                if f.count is None:
                    continue
                if f.memo not in self._counted or p is BOARD:
                    raise ValueError(f"observation feature {p.key}.{f.name}: a declared count fills only the "
                                     f"memo groups {sorted(self._counted)} (not the board), not {f.memo!r}; "
                                     "write it in a fill method")
                self._counted[f.memo].append((p.key, getattr(self.at[p.key], f.name), f.count, f.scale))
        if self._counted["players"]:
            self._players = self._players_and_counts
        if self._counted["call"]:
            self._fill_per_call = self._fill_per_call_and_counts

    def _scales(self, key: str) -> np.ndarray:
        """The multipliers of a part filled as counts, entry by entry, from its features' scales."""
        part = next(p for p in PARTS if p.key == key)
        return np.concatenate([np.broadcast_to(f.scale(self) if callable(f.scale) else f.scale,
                                               (len(f.entry_names(self)),))
                               for f in part.features]).astype(_F32)

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
        buffers (refilled by :func:`_refill` when their key changed, by any observer), and each observer's
        template is refreshed from them."""
        self._templates = [np.zeros(self.size, _F32) for _ in range(self.n)]
        # (key, slice, shape or None for a vector): views cost a slice, and a reshape only where needed
        self._view_specs = [(k, slice(a, b), shape if len(shape) > 1 else None)
                            for k, (a, b, shape) in self.slices.items()]
        per_call = {p.key for p in PARTS if any(f.memo == "call" for f in p.features)}
        self._per_call_specs = [v for v in self._view_specs if v[0] in per_call]
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
        #: a state -> the key of each memo group of MEMO_GROUPS (the fields its features read)
        self._memo_keys = memo_keys({group: own_reads(group) for group in MEMO_GROUPS}, self.game)

    def encode(self, st: GameState, player: int) -> dict[str, np.ndarray]:
        """The observation of ``player`` (fresh arrays; the caller may keep them): views, in the
        space's key order, onto one fresh flat buffer (:meth:`encode_flat`'s vector).

        Parts that change rarely (the board, the horde, the trollsmoots, the players, the spellbook,
        the pedestal track) are memoised, keyed by the exact bytes of the state arrays they read, so
        a state changed in any way (even directly, as tests do) is encoded anew; every call returns
        a fresh copy of the observer's template. A state of the compiled engine is written by the compiled
        writer (:mod:`~mk_env.mountain_king.env.native_observation`: the same bytes)."""
        if self._writer_for(st) is not None:
            return self.views(self.encode_flat(st, player))
        out = self.views(self._template(st, player).copy())
        self._fill_per_call(st, player, out)
        return out

    def encode_flat(self, st: GameState, player: int) -> np.ndarray:
        """The observation of ``player`` as one fresh float32 vector of :attr:`size` entries: the
        arrays of :meth:`encode`, each flattened (C order), in the space's key order (the layout of
        :attr:`slices`; what ``gymnasium.spaces.flatten(self.space, self.encode(st, player))``
        gives)."""
        writer = self._writer_for(st)
        if writer is not None:
            flat = np.empty(self.size, _F32)
            writer.write(st._n, player, flat)
            return flat
        flat = self._template(st, player).copy()
        self._fill_per_call(st, player, _views(flat, self._per_call_specs))
        return flat

    def encode_into(self, st: GameState, player: int, out: np.ndarray) -> np.ndarray:
        """Write :meth:`encode_flat`'s vector into ``out`` (a C-contiguous float32 vector of :attr:`size`
        entries, such as one row of a batch's buffer) and return it; a state of the compiled engine is written
        there directly, with no intermediate array."""
        if not (isinstance(out, np.ndarray) and out.dtype == _F32 and out.shape == (self.size,)
                and out.flags.c_contiguous and out.flags.writeable):
            raise ValueError(f"out must be a writable C-contiguous float32 array of shape ({self.size},), not "
                             f"{getattr(out, 'dtype', type(out).__name__)} {getattr(out, 'shape', '')}")
        writer = self._writer_for(st)
        if writer is not None:
            writer.write(st._n, player, out)
        else:
            np.copyto(out, self.encode_flat(st, player))
        return out

    def _writer_for(self, st: GameState) -> object | None:
        """The compiled writer, where ``st`` is a state of the compiled engine of this observer's game and the
        writer serves this layout (built on first use); else None."""
        if getattr(st, "_n", None) is None:
            return None
        if st.game is not self.game and st.game is not self.__dict__.get("_alike"):
            if _configuration(st.game) != _configuration(self.game):  # another game: the Python encoder says so
                return None
            self._alike = st.game  # a game of the same pack and options: the same layout
        writer = self.__dict__.get("_writer", False)
        if writer is False:
            from .native_observation import compiled_writer
            writer = self._writer = compiled_writer(self)
        return writer

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
        """Refresh ``player``'s template (the memoised parts) from ``st``; returns its flat buffer.
        Each memo's key holds the state fields its features declare (``self._memo_keys``)."""
        order = self.orders[player]
        seen = self._keys[player]
        tv = self._template_views[player]
        (board, horde, smoot_cards, smoot_tokens, players_slow, players, spellbook, supply,
         track) = self._memo_keys(st)
        if seen.get("board") != board:
            if self._board_key != board:  # the seat-independent channels, shared by all observers
                self._board_common(st, self._board_shared)
                self._board_key = board
            self._board_networks(st, order, tv["board"], self._board_shared)
            seen["board"] = board
        shared = self._shared_parts  # each: [buffer (seat order), the key it was filled from, generation]
        part = shared["horde"]
        if part[1] != horde:
            _refill(part, horde, self._horde, st)
        if seen.get("horde") != part[2]:
            np.copyto(tv["horde"], part[0])
            seen["horde"] = part[2]
        part = shared["spellbook"]
        if part[1] != spellbook:
            _refill(part, spellbook, self._spellbook, st)
        if seen.get("spellbook") != part[2]:
            np.copyto(tv["spellbook"], part[0])
            seen["spellbook"] = part[2]
        part, tokens = shared["smoot_cards"], shared["smoot_tokens"]  # one buffer, two keys
        if part[1] != smoot_cards:
            _refill(part, smoot_cards, self._trollsmoot_cards, st)
        if tokens[1] != smoot_tokens:
            _refill(tokens, smoot_tokens, self._trollsmoot_tokens, st)
        gen = (part[2], tokens[2])
        if seen.get("trollsmoots") != gen:
            part[0].take(order, axis=0, out=tv["trollsmoots"])
            seen["trollsmoots"] = gen
        # the players part: columns that change with scores, trolls and placements (rarely), and
        # those that change with tokens, storage and the acting seat (nearly every decision)
        part, key = shared["players"], (players_slow, players)
        if part[1] != key:
            _refill(part, key, self._players, st, players_slow)
        if seen.get("players") != part[2]:
            out = tv["players"]
            part[0].take(order, axis=0, out=out)
            out[:, self._mate_column] = self.mate_flags[player]
            seen["players"] = part[2]
        if seen.get("track") != track:
            self._track(st, order, tv["pedestal_track"])
            seen["track"] = track
        # the supplies but the resource piles (which change at most decisions: _fill_per_call)
        part = shared["supply"]
        if part[1] != supply:
            _refill(part, supply, self._supply, st)
        if seen.get("supply") != part[2]:
            np.copyto(tv["supply"], part[0])
            seen["supply"] = part[2]
        return self._templates[player]


def _configuration(game: Game) -> tuple:
    """What an observation's layout depends on: the content pack (its files' hash) and the options."""
    return game.pack.pack_id, game.options_dict()


def _refill(part: list, key: object, fill: Callable[..., None], *args: object) -> None:
    """Refill a shared part ``[buffer, key, generation]`` by ``fill(*args, buffer)`` from a state whose
    memo key is ``key``, and bump its generation (so each observer copies it again)."""
    fill(*args, part[0])
    part[1] = key
    part[2] += 1


def _views(flat: np.ndarray, specs: list[tuple[str, slice, tuple[int, ...] | None]]) -> dict[str, np.ndarray]:
    """``{key: the view of flat}`` for each ``(key, slice, shape or None)`` of ``specs``."""
    return {k: flat[sl] if shape is None else flat[sl].reshape(shape) for k, sl, shape in specs}


def _deck_places(deck: list[int], out: np.ndarray) -> None:
    """Mark each item of ``deck`` (top first) in ``out`` by its place: 1 on top down to 1/len."""
    size = len(deck)
    for i, item in enumerate(deck):
        out[item] = (size - i) / size


def _meanings(feature, ob: Observer) -> tuple[str, ...]:
    """A board feature's meaning per channel (one string for all, or one per entry)."""
    m = feature.meaning(ob) if callable(feature.meaning) else feature.meaning
    return (m,) * len(feature.entry_names(ob)) if isinstance(m, str) else tuple(m)
