"""The typed readers of a content pack's JSON values, shared by the suite's games: each takes the value, the
file name and the field path used in error messages, and raises :class:`~mk_env.core.errors.PackError`
naming the file, the field and what is allowed (``spells.json: spells[3].params.moves: 0 is below the
minimum 1 (allowed: 1..10)``)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from mk_env.core.errors import PackError

__all__ = ["PackError", "check_unique", "join_field", "read_bool", "read_int", "read_list", "read_name",
           "read_object", "read_str", "short_repr"]


def read_object(v: Any, file: str, field: str, required: tuple[str, ...] | set[str] = (),
                optional: tuple[str, ...] | set[str] = ()) -> dict:
    """``v`` as a JSON object with every key of ``required`` and no key outside ``required`` and
    ``optional``."""
    if not isinstance(v, dict):
        raise PackError(file, field or "<top>", f"expected an object, got {type(v).__name__}")
    allowed = set(required) | set(optional)
    for k in v:
        if k not in allowed:
            raise PackError(file, join_field(field, k),
                            f"unknown key {k!r}; allowed: {', '.join(sorted(allowed))}")
    for k in required:
        if k not in v:
            raise PackError(file, join_field(field, k), "missing")
    return v


def join_field(field: str, key: str | int) -> str:
    """The field path of ``key`` under ``field``: ``rooms[3]``, ``spells.name``."""
    if isinstance(key, int):
        return f"{field}[{key}]"
    return f"{field}.{key}" if field else key


def read_list(v: Any, file: str, field: str, length: int | None = None, most: int | None = None) -> list:
    """``v`` as a JSON list (of exactly ``length`` items, or at most ``most``)."""
    if not isinstance(v, list):
        raise PackError(file, field, f"expected a list, got {type(v).__name__}")
    if length is not None and len(v) != length:
        raise PackError(file, field, f"expected {length} items, got {len(v)}")
    if most is not None and len(v) > most:
        raise PackError(file, field, f"{len(v)} items; at most {most} are allowed")
    return v


def read_int(v: Any, file: str, field: str, lo: int | None = None, hi: int | None = None) -> int:
    """``v`` as an integer (never a bool) in ``lo``..``hi`` (either bound may be None)."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise PackError(file, field, f"expected an integer, got {short_repr(v)}")
    allowed = f"allowed: {lo if lo is not None else '...'}..{hi if hi is not None else '...'}"
    if lo is not None and v < lo:
        raise PackError(file, field, f"{short_repr(v)} is below the minimum {lo} ({allowed})")
    if hi is not None and v > hi:
        raise PackError(file, field, f"{short_repr(v)} is above the maximum {hi} ({allowed})")
    return v


def short_repr(v: Any, width: int = 40) -> str:
    """``repr(v)`` cut to ``width`` characters, for error messages about values a hostile file may make
    huge (an integer of thousands of digits is not even printable)."""
    if isinstance(v, int) and v.bit_length() > 100:
        return f"an integer of {v.bit_length()} bits"
    text = repr(v)
    return text if len(text) <= width else text[:width - 3] + "..."


def read_bool(v: Any, file: str, field: str) -> bool:
    """``v`` as true or false."""
    if not isinstance(v, bool):
        raise PackError(file, field, f"expected true or false, got {v!r}")
    return v


def read_str(v: Any, file: str, field: str, nonempty: bool = True) -> str:
    """``v`` as a string (non-empty unless ``nonempty`` is False)."""
    if not isinstance(v, str) or (nonempty and not v.strip()):
        raise PackError(file, field, f"expected a non-empty string, got {v!r}")
    return v


def read_name(v: Any, file: str, field: str, allowed: tuple[str, ...], what: str) -> str:
    """``v`` as one of the names ``allowed`` (``what`` names the kind in the error)."""
    if not isinstance(v, str) or v not in allowed:
        raise PackError(file, field, f"unknown {what} {v!r}; allowed: {', '.join(allowed)}")
    return v


def check_unique(values: list[str], file: str, field: str, what: str) -> None:
    """Refuses a repeated value among ``values`` (``what`` names the kind in the error)."""
    dup = [k for k, n in Counter(values).items() if n > 1]
    if dup:
        raise PackError(file, field, f"duplicate {what} {dup[0]!r}")
