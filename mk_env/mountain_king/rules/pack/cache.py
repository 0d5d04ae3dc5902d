"""The cache of loaded packs: :func:`load_pack` reads a folder once and again only when its files change."""

from __future__ import annotations

import json
import os
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from mk_env.mountain_king.rules.content import ContentPack

from .fields import DEFAULT_PACK_DIR, MANIFEST, PackError, _read_text
from .manifest import DATA_FILES, _digest, load_folder

@dataclass(frozen=True)
class _Loaded:
    """A pack loaded from a folder: its files' (name, size, mtime) stamp and content hash when read, and
    whether the files were already older than the read by a safe margin (``settled``)."""

    pack: ContentPack
    files: tuple[str, ...]
    stamp: tuple[tuple[str, int, int], ...]
    digest: str
    settled: bool


_BY_PATH: dict[str, _Loaded] = {}
#: packs by content (``pack_id`` ends with the hash of every file); the most recently loaded last
_BY_CONTENT: OrderedDict[str, ContentPack] = OrderedDict()
_CONTENT_CACHE_SIZE = 32
#: a file modified less than this before it was read may change again within the same mtime tick
_SETTLE_NS = 2_000_000_000


def load_pack(path: str | os.PathLike | None = None) -> ContentPack:
    """Load and validate the pack in folder ``path`` (``None``: the default pack).

    Cached by content: when a file of the pack changed on disk (size or modification time) since it was
    last read here, the pack is read and validated again; while its files are younger than two seconds
    their bytes are hashed on every call as well (an edit within one clock tick keeps the mtime). Packs
    with identical files (the same ``pack_id``) are one and the same object, wherever they lie.
    """
    root = DEFAULT_PACK_DIR if path is None else Path(path).resolve()  # the default's path is resolved
    key = str(root)
    hit = _BY_PATH.get(key)
    if hit is not None and _stamp(root, hit.files) == hit.stamp:
        if hit.settled:
            return hit.pack
        if _digest(root, hit.files) == hit.digest:
            _BY_PATH[key] = _Loaded(hit.pack, hit.files, hit.stamp, hit.digest, _settled(hit.stamp))
            return hit.pack
    listed = _listed_files(root)
    stamp_before = _stamp(root, listed)
    pack, files = load_folder(root)
    pack = _BY_CONTENT.setdefault(pack.pack_id, pack)
    _BY_CONTENT.move_to_end(pack.pack_id)
    while len(_BY_CONTENT) > _CONTENT_CACHE_SIZE:
        _BY_CONTENT.popitem(last=False)
    stamp = _stamp(root, files)
    if files == listed and stamp == stamp_before:  # else changed while being read: the next call reads again
        _BY_PATH[key] = _Loaded(pack, files, stamp, _digest(root, files), _settled(stamp))
    return pack


def _listed_files(root: Path) -> tuple[str, ...]:
    """The files the manifest names, in the order :func:`load_folder` returns them (empty if it cannot tell)."""
    try:
        listed = json.loads(_read_text(root, MANIFEST))["files"]
        return (MANIFEST, *listed["boards"], *(listed[k] for k in DATA_FILES))
    except (PackError, ValueError, RecursionError, KeyError, TypeError):
        return ()


def _settled(stamp: tuple[tuple[str, int, int], ...]) -> bool:
    """Whether every file was last modified well before now (so a later edit changes its stamp)."""
    return all(mtime < time.time_ns() - _SETTLE_NS for _, _, mtime in stamp)


def _stamp(root: Path, files: tuple[str, ...]) -> tuple[tuple[str, int, int], ...]:
    """(name, size, modification time in ns) of each file; (name, -1, -1) for one that is missing."""
    out = []
    folder = str(root)
    for rel in files:
        try:
            st = os.stat(os.path.join(folder, rel))
            out.append((rel, st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((rel, -1, -1))
    return tuple(out)

