"""Import a repository script that is not in a package (``benchmarks/...``) from its file, for its tests."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The module of the script at ``relative`` (a path from the repository root)."""
    path = ROOT / relative
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
