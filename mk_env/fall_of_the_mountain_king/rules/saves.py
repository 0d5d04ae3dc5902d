"""Reading a saved state (:meth:`FallState.to_json`) back: the header (format, game, pack, players,
generator), every field present with the JSON type its kind needs, then the invariants; the first fault is
a :class:`StateError` naming the field and what is allowed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any


from mk_env.core.errors import StateError
from mk_env.core.saves import read_rng_state

from .fields import DICT, FIELDS, INT, INTS, LISTS
from .invariants import problems
from .stack_checks import stack_problems
from .state import FORMAT_VERSION, FallState

if TYPE_CHECKING:
    from .game import Game

_HEADER = ("format_version", "game", "pack_id", "num_players", "rng")


def _check(name: str, kind: str, v: Any) -> None:
    def ints(x: Any, where: str) -> None:
        if type(x) is not list or any(type(i) is not int for i in x):
            raise StateError(f"{where}: expected a list of integers")
    if kind == INT and type(v) is not int:
        raise StateError(f"{name}: expected an integer, got {type(v).__name__}")
    if kind == INTS:
        ints(v, name)
    if kind == LISTS:
        if type(v) is not list or any(type(x) is not list for x in v):
            raise StateError(f"{name}: expected a list of lists")
        if name != "tasks":
            for i, x in enumerate(v):
                ints(x, f"{name}[{i}]")
    if kind == DICT and type(v) is not dict:
        raise StateError(f"{name}: expected an object, got {type(v).__name__}")


def read_state(game: Game, data: Any) -> FallState:
    """The state saved as ``data`` (the parsed JSON), checked; :class:`StateError` names the first fault."""
    if type(data) is not dict:
        raise StateError(f"a saved state is a JSON object, got {type(data).__name__}")
    names = _HEADER + tuple(name for name, _, _ in FIELDS)
    for k in names:
        if k not in data:
            raise StateError(f"{k}: missing from the saved state")
    for k in data:
        if k not in names:
            raise StateError(f"{k}: unknown field; a Fall of the Mountain King save has: {', '.join(names)}")
    expected = {"format_version": FORMAT_VERSION, "game": "fall_of_the_mountain_king",
                "pack_id": game.pack.pack_id, "num_players": game.num_players}
    for k, want in expected.items():
        if data[k] != want or type(data[k]) is not type(want):
            raise StateError(f"{k}: the save has {str(data[k])[:60]!r}, this game needs {want!r}")
    st = FallState(game)
    st._rng_state = read_rng_state(data["rng"])
    for name, kind, _ in FIELDS:
        _check(name, kind, data[name])
        setattr(st, name, data[name])
    try:
        found = problems(st)
        found = found or stack_problems(st)
    except (IndexError, KeyError, TypeError, ValueError) as e:
        raise StateError(f"impossible state: a field's values are out of range ({str(e)[:100]})") from None
    if found:
        raise StateError(f"impossible state: {found[0]}" + (f" (and {len(found) - 1} more)" if len(found) > 1 else ""))
    try:  # the last net: the decision awaited must have its legal actions
        legal = st.legal_actions()
    except (IndexError, KeyError, TypeError, ValueError) as e:
        raise StateError(f"impossible state: the decision awaited cannot be offered ({str(e)[:100]})") from None
    if not len(legal) and not st.is_terminal():
        raise StateError(f"impossible state: the decision awaited ({st.phase}) has no legal action")
    return st
