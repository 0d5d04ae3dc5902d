"""Reading a content pack's files, shared by the suite's games: a file a manifest names must lie inside the
pack folder, be a regular file of bounded size, UTF-8 text and JSON of bounded nesting; whatever is wrong is a
:class:`~mk_env.core.errors.PackError` naming the file (never a raw ``RecursionError`` or ``ValueError``). A pack
is cached by its content (:class:`ContentCache`), so an edited pack is read again and identical packs load once.
"""

from __future__ import annotations

import hashlib
import json
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Generic, TypeVar

from mk_env.core.errors import PackError

#: a pack file may hold at most this many bytes (the largest default pack file is under 40 kB)
FILE_BYTES = 1 << 20
#: JSON nesting deeper than this is refused (a pack's deepest value is a few levels down)
MAX_DEPTH = 32
#: a pack folder may hold at most this many files (the digest reads them all)
MAX_FILES = 200

Pack = TypeVar("Pack")


def inside(root: Path, rel: Any, file: str, field: str) -> Path:
    """The path of the pack file ``rel`` (a manifest's value at ``file: field``), refused unless it is a
    relative path that stays inside ``root`` (no ``..``, no absolute path, no link out of the folder)."""
    if not isinstance(rel, str) or not rel.strip():
        raise PackError(file, field, f"expected a file name inside the pack folder, got {rel!r}"[:200])
    path = Path(rel)
    if path.is_absolute() or ".." in path.parts:
        raise PackError(file, field, f"{rel!r} must be a path inside the pack folder"[:200])
    resolved = (root / path).resolve()
    if not resolved.is_relative_to(root.resolve()):
        raise PackError(file, field, f"{rel!r} leads out of the pack folder"[:200])
    return resolved


def read_text(root: Path, rel: str, max_bytes: int = FILE_BYTES) -> str:
    """The UTF-8 text of pack file ``rel`` (already checked by :func:`inside`), bounded in size."""
    path = root / rel
    try:
        if not path.exists():
            raise PackError(rel, "", f"file not found ({path}): missing from the pack folder")
        if not path.is_file():
            raise PackError(rel, "", f"not a regular file ({path})")
        size = path.stat().st_size
        if size > max_bytes:
            raise PackError(rel, "", f"{size} bytes; a pack file may hold at most {max_bytes} bytes")
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise PackError(rel, "", f"cannot read: {e}"[:300]) from None


def read_json(root: Path, rel: str, max_bytes: int = FILE_BYTES) -> Any:
    """Pack file ``rel`` as JSON: a syntax error names its line and column; an integer of thousands of
    digits or nesting deeper than :data:`MAX_DEPTH` is refused naming the file."""
    text = read_text(root, rel, max_bytes)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        raise PackError(rel, f"line {e.lineno} col {e.colno}", f"bad JSON: {e.msg}") from None
    except (ValueError, RecursionError) as e:  # an integer of thousands of digits, nesting too deep
        raise PackError(rel, "", f"bad JSON: {str(e)[:200] or type(e).__name__}") from None
    if depth(value) > MAX_DEPTH:
        raise PackError(rel, "", f"JSON nested more than {MAX_DEPTH} levels deep")
    return value


def depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (a scalar: 0), without recursion."""
    deepest, stack = 0, [(value, 0)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d + 1)
            if d + 1 <= MAX_DEPTH:
                stack.extend((x, d + 1) for x in (v.values() if isinstance(v, dict) else v))
    return deepest


def folder_digest(root: Path) -> str:
    """sha256 over every regular file of the pack folder (its relative name and bytes, in name order)."""
    files = sorted(p for p in root.rglob("*") if p.is_file())
    if len(files) > MAX_FILES:
        raise PackError(str(root), "", f"{len(files)} files; a pack folder may hold at most {MAX_FILES}")
    digest = hashlib.sha256()
    for path in files:
        if path.stat().st_size > FILE_BYTES:
            raise PackError(str(path.relative_to(root)), "", f"a pack file may hold at most {FILE_BYTES} bytes")
        digest.update(str(path.relative_to(root)).encode("utf-8", "surrogateescape") + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


class ContentCache(Generic[Pack]):
    """Packs loaded from folders, keyed by the folder and the hash of its files: an edited pack is read
    again, an unchanged one is the same object; at most ``size`` packs are kept (the last used last)."""

    def __init__(self, load: Callable[[Path], Pack], size: int = 8) -> None:
        self._load = load
        self._size = size
        self._packs: OrderedDict[tuple[str, str], Pack] = OrderedDict()

    def load(self, pack: str | Path | Pack | None, pack_type: type, default: Path, title: str) -> Pack:
        """A game's ``load_pack``: a ``pack_type`` object as is; else the pack in folder ``pack`` (None:
        ``default``), a folder that is missing being a ``PackError`` naming the game (``title``)."""
        if isinstance(pack, pack_type):
            return pack
        folder = default if pack is None else Path(pack)
        if not folder.is_dir():
            raise PackError(str(folder), "", f"not a folder (a {title} pack is a folder holding pack.json)")
        return self.get(folder)

    def get(self, folder: Path) -> Pack:
        """The pack in ``folder`` (resolved), loaded now when its files changed or it was never loaded."""
        root = folder.resolve()
        key = (str(root), folder_digest(root))
        if key not in self._packs:
            self._packs[key] = self._load(root)
            while len(self._packs) > self._size:
                self._packs.popitem(last=False)
        self._packs.move_to_end(key)
        return self._packs[key]

    def clear(self) -> None:
        """Forget every pack."""
        self._packs.clear()
