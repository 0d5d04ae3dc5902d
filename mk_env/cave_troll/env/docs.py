"""Generates the Cave Troll environment's documentation page from code:
``python -m mk_env.cave_troll.env.docs > docs/cave-troll/environment.md``.

``page()`` is the docstring of :mod:`mk_env.cave_troll.env.aec` (prose, kept in
:mod:`mk_env.cave_troll.env.env_doc`) with the generated tables between the first game's markers;
``--update-docstring`` rewrites the tables inside env_doc.py. ``tests/cave_troll/env/test_env_docs.py``
checks that both are up to date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mk_env.cave_troll.rules import PLAYERS, Game
from mk_env.core.env.doc_tables import fill_tables

from .observation import CaveTrollObserver

DOC_PATH = Path(__file__).with_name("env_doc.py")
PAGE_PATH = Path(__file__).resolve().parents[3] / "docs" / "cave-troll" / "environment.md"


def _observers() -> dict[int, CaveTrollObserver]:
    return {n: CaveTrollObserver(Game(n)) for n in PLAYERS}


def observation_table(obs: dict[int, CaveTrollObserver]) -> str:
    lines = ["| key | shape (2 / 3 / 4 players) | start:stop in the flat vector (2 / 3 / 4) | meaning |",
             "|---|---|---|---|"]
    for key in obs[4].slices:
        f = next(f for f in obs[4].fields if f.key == key)
        shapes = " / ".join(str(obs[n].slices[key][2]) for n in PLAYERS)
        spans = " / ".join("{}:{}".format(*obs[n].slices[key][:2]) for n in PLAYERS)
        lines.append(f"| `{key}` | {shapes} | {spans} | {f.meaning} |")
    lines.append("| **D** | | " + " / ".join(f"**{obs[n].size}**" for n in PLAYERS) + " | |")
    return "\n".join(lines)


def entries_table(obs: dict[int, CaveTrollObserver]) -> str:
    lines = ["| key | entries along the last axis (4 players; `+k`: the player k seats after me) |", "|---|---|"]
    for f in obs[4].fields:
        lines.append(f"| `{f.key}` | {', '.join(f.entries)} |")
    return "\n".join(lines)


def state_table(obs: dict[int, CaveTrollObserver]) -> str:
    lines = ["| part | start:stop (2 / 3 / 4 players) | meaning |", "|---|---|---|"]
    for f in obs[4].state_fields:
        cells = " / ".join("{}:{}".format(*obs[n].state_slices[f.key][:2]) for n in PLAYERS)
        lines.append(f"| `{f.key}` | {cells} | {f.meaning} |")
    lines.append("| **S** | " + " / ".join(f"**{obs[n].state_size}**" for n in PLAYERS) + " | |")
    return "\n".join(lines)


def action_table(obs: dict[int, CaveTrollObserver]) -> str:
    layouts = {n: obs[n].game.layout for n in PLAYERS}
    lines = ["| block | " + " | ".join(f"{n} players: offset, size" for n in PLAYERS) + " |", "|---|---|---|---|"]
    for block in layouts[4].sizes:
        cells = " | ".join(f"{layouts[n].offset[block]}, {layouts[n].sizes[block]}" for n in PLAYERS)
        lines.append(f"| `{block}` | {cells} |")
    lines.append("| **N** | " + " | ".join(f"**{layouts[n].size}**" for n in PLAYERS) + " |")
    return "\n".join(lines)


def tables() -> str:
    """Every generated table, as they appear between the markers."""
    obs = _observers()
    return "\n\n".join(["### Observation arrays", observation_table(obs),
                        "### Entries of each array", entries_table(obs),
                        "### The global state (`state()`, `state_slices()`)", state_table(obs),
                        "### Action layout (the engine's flat numbering)", action_table(obs)])


def with_tables(text: str) -> str:
    """``text`` with the current tables between the markers."""
    return fill_tables(text, tables())


def page() -> str:
    """The documentation page (docs/cave-troll/environment.md)."""
    from . import aec

    return with_tables(aec.__doc__.strip()) + "\n"


def update_docstring() -> None:
    DOC_PATH.write_text(with_tables(DOC_PATH.read_text()))


if __name__ == "__main__":
    if "--update-docstring" in sys.argv:
        update_docstring()
    else:
        sys.stdout.write(page())
