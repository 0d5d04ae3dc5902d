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

import os
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
    from . import _native
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
#: the backend of games made without one: the environment variable MK_ENV_BACKEND ("python" or "native"), else
#: the compiled engine where it serves (:func:`set_default_backend` changes it for this process)
_default: str | None = os.environ.get("MK_ENV_BACKEND") or None


def set_default_backend(backend: str | None) -> None:
    """The backend of every game made from now on without one (None: the compiled engine where it serves);
    a tool that patches the Python rules (a what-if) sets "python"."""
    global _default
    if backend is not None and backend not in BACKENDS:
        raise ConfigError(f"backend={backend!r} is not allowed; use one of {', '.join(BACKENDS)} or None")
    _default = backend


def choose_backend(game: Game, backend: str | None) -> str:
    """The backend ``game`` runs on: ``backend`` checked, or the default (:func:`set_default_backend`), or the
    compiled one where it serves."""
    if backend is None and _default == "python":
        return "python"
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

    def __reduce__(self) -> tuple:
        """Pickled as its Python copy, compiled again on loading."""
        return NativeGameState.from_state, (self.to_python(),)

    def to_python(self) -> GameState:
        """The same position on the Python engine (the reference)."""
        out = GameState(self.game)
        for f in FIELDS:
            value = getattr(self, f.name)
            if f.kind == ARRAY:
                value = value.copy()
            elif f.kind == INTS:
                value = list(value)
            elif f.kind == LISTS:
                value = [list(x) for x in value]
            setattr(out, f.name, value)
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
        size = self.game.layout.size
        if type(action) is not int:
            action = action_number(action, size)
        return 0 <= action < size and self._n.is_legal(action)

    def apply(self, action: int) -> None:
        """Apply one decision; an illegal one raises :class:`IllegalActionError` with the reference
        engine's explanation and changes nothing."""
        size = self.game.layout.size
        a = action if type(action) is int else action_number(action, size)
        if self._n.phase == _GAME_OVER:
            raise IllegalActionError(f"action {a}: the game is over; no decision is allowed")
        if not 0 <= a < size:
            raise IllegalActionError(f"action {a} is outside the action space 0..{size - 1}")
        try:
            self._n.apply(a)
        except _native.Illegal:
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
        self.invalidate_caches()  # the compiled memo and this wrapper's legal array, as every other setter
    return property(get, put, doc=f"the {name} field (a view of the compiled state)")


def _scalar_property(name: str, kind: str) -> property:
    cast = bool if kind == BOOL else int

    def get(self: NativeGameState) -> Any:
        return getattr(self._n, name)

    def put(self: NativeGameState, value: Any) -> None:
        setattr(self._n, name, cast(value))
        self._cache.clear()
    return property(get, put)


class LiveList(list):
    """A list field of a compiled state: a list (JSON, comparisons, slicing as ever) whose changes in place
    (``append``, ``x[i] = v``, ``pop``, ...) are written back to the state, as the Python engine's lists are
    the state's own."""

    __slots__ = ("_write",)

    def __init__(self, values: Any, write: Any) -> None:
        super().__init__(values)
        self._write = write

    def _sync(self) -> None:
        self._write(list(self))


def _writing(name: str) -> Any:
    method = getattr(list, name)

    def changed(self: LiveList, *args: Any) -> Any:
        out = method(self, *args)
        self._sync()
        return self if name == "__iadd__" else out
    changed.__name__ = name
    return changed


for _name in ("append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse", "__setitem__",
              "__delitem__", "__iadd__"):
    setattr(LiveList, _name, _writing(_name))


def _list_property(name: str) -> property:
    if name in ("deck_unseen", "draft_placed", "history"):
        def put(self: NativeGameState, value: Any) -> None:
            setattr(self._n, name, [int(v) for v in value])
            self._cache.clear()

        def get(self: NativeGameState) -> list[int]:
            return LiveList(getattr(self._n, name), lambda v: put(self, v))
        return property(get, put)
    index = _LISTS[name]

    def put_list(self: NativeGameState, value: Any) -> None:
        self._n.set_list(index, [int(v) for v in value])
        self._cache.clear()

    def get_list(self: NativeGameState) -> list[int]:
        return LiveList(self._n.list(index), lambda v: put_list(self, v))
    return property(get_list, put_list)


def _lists_property(name: str) -> property:
    def first(self: NativeGameState) -> int:
        n = self.game.num_players
        return {"decks": 0, "draft_deck": 7, "draft_hand": 7 + n}[name]

    def count(self: NativeGameState) -> int:
        return 3 if name == "decks" else self.game.num_players

    def put_one(self: NativeGameState, k: int, values: Any) -> None:
        self._n.set_list(first(self) + k, [int(v) for v in values])
        self._cache.clear()

    def put(self: NativeGameState, value: Any) -> None:
        if len(value) != count(self):
            raise ValueError(f"{name} holds {count(self)} lists, not {len(value)}")
        for k, values in enumerate(value):
            put_one(self, k, values)

    def get(self: NativeGameState) -> list[list[int]]:
        at = first(self)
        inner = [LiveList(self._n.list(at + k), lambda v, k=k: put_one(self, k, v)) for k in range(count(self))]
        return LiveList(inner, lambda lists: put(self, lists))
    return property(get, put, doc=f"the {name} lists (changes in place are written back)")


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
