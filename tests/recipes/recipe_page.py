"""The recipes of docs/ecosystem.md, run exactly as printed there.

A recipe is the ``python`` code block that follows a ``<!-- recipe: NAME -->`` line of the page;
:func:`run_recipe` executes it as a script (``__name__ == "__main__"``) and returns its global names,
so each ``test_recipe_NAME.py`` checks what the printed code did.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

ECOSYSTEM = Path(__file__).resolve().parents[2] / "docs" / "ecosystem.md"
_BLOCK = re.compile(r"<!-- recipe: (?P<name>[\w-]+) -->\s*```python\n(?P<code>.*?)```", re.DOTALL)


def recipes(text: str | None = None) -> dict[str, str]:
    """Every recipe of the page, by name (a name given twice is an error)."""
    found: dict[str, str] = {}
    for match in _BLOCK.finditer(ECOSYSTEM.read_text() if text is None else text):
        name = match["name"]
        if name in found:
            raise ValueError(f"{ECOSYSTEM}: recipe {name!r} is given twice")
        found[name] = match["code"]
    return found


def run_recipe(name: str) -> dict[str, Any]:
    """Run recipe ``name`` as printed (one torch thread where torch is installed); its globals."""
    page = recipes()
    if name not in page:
        raise KeyError(f"{ECOSYSTEM} has no block marked <!-- recipe: {name} -->; it has {sorted(page)}")
    try:
        import torch
    except ImportError:
        pass
    else:
        torch.set_num_threads(1)
    namespace: dict[str, Any] = {"__name__": "__main__"}
    exec(compile(page[name], f"{ECOSYSTEM}:{name}", "exec"), namespace)  # noqa: S102 - our own page
    return namespace

