"""The compiled backend: a :class:`GameState` whose rules run in C++ (``mk_env/mountain_king/native/``).

A :class:`NativeGameState` is a ``GameState``: every field reads as it does in the Python engine (arrays are
numpy views of the compiled state's own bytes, lists and the ``Pending`` record are built on reading), so the
observation encoder, the agents, the records and the save writer serve both backends unchanged. What runs
compiled: setup, the legal set, ``apply`` with its forced passes, ``clone``, ``determinize`` and the score. The
Python engine stays the reference: an illegal action is explained by it (on a copy), saves are read by it,
and the parity tests (``tests/native/``) replay games decision by decision in both.

``Game(..., backend="native")`` asks for it (a ``ConfigError`` says why a game cannot have it);
``backend="python"`` keeps the reference; the default takes the compiled engine wherever it is built and the
game's options and spells are compiled (:func:`~.native_tables.native_support`).
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import numpy as np

from mk_env.core.errors import ConfigError

from . import scoring
from .errors import IllegalActionError, StalledGameError, action_number
from .explain import explain_illegal
from .fields import ARRAY, BOOL, FIELDS, INT, INTS, LISTS
from .native_tables import native_support, native_tables
from .state import GameState
from .vocabulary import Pending, Phase

try:
    from .. import _native
    MISSING: str | None = None
except ImportError as e:  # not built (no compiler at install time): the Python engine serves
    _native = None
    MISSING = f"the compiled engine is not built ({e})"

if TYPE_CHECKING:
    from .game import Game

BACKENDS = ("native", "python")
_GAME_OVER = int(Phase.GAME_OVER)
#: the pool index of each list field (the compiled ``ListField`` order; draft decks and hands per player follow)
_LISTS = {"spell_deck": 3, "tile_shape": 4, "used_sites": 5, "coronation_left": 6}
_noticed = False


def choose_backend(game: Game, backend: str | None) -> str:
    """The backend ``game`` runs on: ``backend`` checked, or by default the compiled one where it serves."""
    if backend is not None and backend not in BACKENDS:
        raise ConfigError(f"backend={backend!r} is not allowed; use one of {', '.join(BACKENDS)} (or leave it out)")
    why = MISSING or native_support(game)
    if backend == "native" and why:
        raise ConfigError(f"backend='native' is not available for this game: {why}; use backend='python'")
    if backend is None and why:
        global _noticed
        if MISSING and not _noticed:
            _noticed = True
            warnings.warn(f"mk_env: {MISSING}; the Python engine plays (slower, the same games)", stacklevel=3)
        return "python"
    return backend or "native"


def rules_of(game: Game) -> Any:
    """The compiled tables of ``game`` (built once per game)."""
    rules = game.__dict__.get("_native_rules")
    if rules is None:
        rules = game._native_rules = _native.Rules(native_tables(game))
    return rules


def new_state(game: Game, rng: np.random.Generator) -> NativeGameState:
    """A new game after the general setup, drawing from ``rng`` (copied: the state keeps its own generator)."""
    st = NativeGameState._wrap(game, _native.State(rules_of(game)))
    st._n.rng_state = _rng_tuple(rng.bit_generator.state)
    st._n.setup()
    return st


def _rng_tuple(state: dict) -> tuple:
    if state.get("bit_generator") != "PCG64":
        raise ConfigError(f"the compiled engine draws from PCG64, not {state.get('bit_generator')!r}")
    return (int(state["state"]["state"]), int(state["state"]["inc"]), int(state["has_uint32"]),
            int(state["uinteger"]))


class NativeGameState(GameState):
    """One game in progress on the compiled engine; reads and saves exactly like :class:`GameState`."""

    __slots__ = ("_n", "_views")

    @classmethod
    def _wrap(cls, game: Game, native: Any) -> NativeGameState:
        st = cls.__new__(cls)
        st.game, st._n, st._views, st._cache = game, native, {}, {}
        return st

    @classmethod
    def from_state(cls, source: GameState) -> NativeGameState:
        """The compiled copy of a state of either backend (a loaded save, a position set up by hand)."""
        st = cls._wrap(source.game, _native.State(rules_of(source.game)))
        for f in FIELDS:
            setattr(st, f.name, getattr(source, f.name))
        st._n.rng_state = _rng_tuple(source._rng_dict())
        return st

    def to_python(self) -> GameState:
        """The same position on the Python engine (the reference)."""
        out = GameState(self.game)
        for f in FIELDS:
            value = getattr(self, f.name)
            setattr(out, f.name, value.copy() if f.kind == ARRAY else value)
        out._rng_state = self._rng_dict()
        return out

    # -- randomness -----------------------------------------------------------------------------------
    @property
    def rng(self) -> np.random.Generator:
        """A copy of the game's generator as it stands (draws from it do not move the game's own)."""
        g = np.random.Generator(np.random.PCG64())
        g.bit_generator.state = self._rng_dict()
        return g

    def _rng_dict(self) -> dict:
        state, inc, has, value = self._n.rng_state
        return {"bit_generator": "PCG64", "state": {"state": state, "inc": inc}, "has_uint32": has,
                "uinteger": value}

    # -- engine surface ---------------------------------------------------------------------------------
    def current_player(self) -> int:
        n = self._n
        return -1 if n.phase == _GAME_OVER else n.current

    def is_terminal(self) -> bool:
        return self._n.phase == _GAME_OVER

    def legal_actions(self) -> np.ndarray:
        legal = self._cache.get("legal")
        if legal is None:
            legal = self._n.legal_actions()
            legal.flags.writeable = False
            self._cache["legal"] = legal
        return legal

    def is_legal(self, action: int) -> bool:
        if type(action) is not int:
            action = action_number(action, self.game.layout.size)
        return self._n.is_legal(action)

    def apply(self, action: int) -> None:
        """Apply one decision; an illegal one raises :class:`IllegalActionError` with the reference
        engine's explanation and changes nothing."""
        size = self.game.layout.size
        a = action if type(action) is int else action_number(action, size)
        try:
            self._n.apply(a)
        except _native.Illegal:
            if self._n.phase == _GAME_OVER:
                raise IllegalActionError(f"action {a}: the game is over; no decision is allowed") from None
            if not 0 <= a < size:
                raise IllegalActionError(f"action {a} is outside the action space 0..{size - 1}") from None
            raise IllegalActionError(explain_illegal(self.to_python(), a)) from None
        except _native.Stalled as e:
            raise StalledGameError(f"{e}; data pack {self.game.pack.pack_id}") from None
        finally:
            self._cache.clear()

    def score_breakdown(self, player: int) -> dict[str, int]:
        parts = self._n.breakdown(int(player))
        return dict(zip(scoring.CATEGORIES + ("total",), parts))

    def ranks(self) -> list[int]:
        return list(self._n.ranks())

    def returns(self) -> list[float]:
        return scoring.returns(self, self.ranks() if self.is_terminal() else None)

    def invalidate_caches(self) -> None:
        self._cache = {}
        self._n.invalidate()

    # -- copies -------------------------------------------------------------------------------------
    def clone(self) -> NativeGameState:
        other = NativeGameState._wrap(self.game, self._n.clone())
        legal = self._cache.get("legal")
        if legal is not None:
            other._cache["legal"] = legal
        return other

    def determinize(self, player: int, rng: np.random.Generator) -> NativeGameState:
        if not isinstance(rng, np.random.Generator):
            raise TypeError(f"determinize draws from a numpy Generator, not {type(rng).__name__}")
        return NativeGameState._wrap(self.game, self._n.determinize(int(player), rng))

    def _view(self, i: int) -> np.ndarray:
        view = self._views.get(i)
        if view is None:
            view = self._views[i] = self._n.array(i)
        return view


def _array_property(i: int, name: str) -> property:
    def get(self: NativeGameState) -> np.ndarray:
        return self._view(i)

    def put(self: NativeGameState, value: Any) -> None:
        self._view(i)[...] = value
        self._n.invalidate()
    return property(get, put, doc=f"the {name} field (a view of the compiled state)")


def _scalar_property(name: str, kind: str) -> property:
    cast = bool if kind == BOOL else int

    def get(self: NativeGameState) -> Any:
        return getattr(self._n, name)

    def put(self: NativeGameState, value: Any) -> None:
        setattr(self._n, name, cast(value))
        self._cache.clear()
    return property(get, put)


def _list_property(name: str) -> property:
    if name in ("deck_unseen", "draft_placed", "history"):
        def get(self: NativeGameState) -> list[int]:
            return list(getattr(self._n, name))

        def put(self: NativeGameState, value: Any) -> None:
            setattr(self._n, name, [int(v) for v in value])
        return property(get, put)
    index = _LISTS[name]

    def get_list(self: NativeGameState) -> list[int]:
        return self._n.list(index)

    def put_list(self: NativeGameState, value: Any) -> None:
        self._n.set_list(index, [int(v) for v in value])
        self._cache.clear()
    return property(get_list, put_list)


def _lists_property(name: str) -> property:
    def first(self: NativeGameState) -> int:
        n = self.game.num_players
        return {"decks": 0, "draft_deck": 7, "draft_hand": 7 + n}[name]

    def count(self: NativeGameState) -> int:
        return 3 if name == "decks" else self.game.num_players

    def get(self: NativeGameState) -> list[list[int]]:
        at = first(self)
        return [self._n.list(at + k) for k in range(count(self))]

    def put(self: NativeGameState, value: Any) -> None:
        at = first(self)
        for k, values in enumerate(value):
            self._n.set_list(at + k, [int(v) for v in values])
        self._cache.clear()
    return property(get, put, doc=f"the {name} lists (copies: assign the whole field to change it)")


def _pending_property() -> property:
    def get(self: NativeGameState) -> Pending:
        return Pending(*self._n.pending)

    def put(self: NativeGameState, value: Pending) -> None:
        if any(v is not None for v in value[10:]):
            raise ValueError("the payment option \"choose\" is not compiled: a payment under way cannot be set")
        self._n.pending = tuple(value[:10])
        self._cache.clear()
    return property(get, put)


def _install_fields() -> None:
    """One property per field of :data:`FIELDS` on :class:`NativeGameState`."""
    if _native is None:
        return
    arrays = [f.name for f in FIELDS if f.kind == ARRAY]
    if tuple(arrays) != tuple(_native.ARRAY_FIELDS):
        raise ImportError(f"the compiled engine's fields {_native.ARRAY_FIELDS} are not the declared {arrays}: "
                          "rebuild it (pip install -e .)")
    for f in FIELDS:
        if f.kind == ARRAY:
            prop = _array_property(arrays.index(f.name), f.name)
        elif f.kind in (INT, BOOL):
            prop = _scalar_property(f.name, f.kind)
        elif f.kind == INTS:
            prop = _list_property(f.name)
        elif f.kind == LISTS:
            prop = _lists_property(f.name)
        else:
            prop = _pending_property()
        setattr(NativeGameState, f.name, prop)


_install_fields()
