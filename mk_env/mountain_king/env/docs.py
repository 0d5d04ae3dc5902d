"""Generates the environment's documentation page from code: ``python -m mk_env.mountain_king.env.docs``.

``page()`` is the docstring of :mod:`mk_env.mountain_king.env.aec` (prose, kept in
:mod:`mk_env.mountain_king.env.env_doc`)
with the generated tables inserted between the ``<!-- tables -->`` markers; ``python -m
mk_env.mountain_king.env.docs > docs/environment.md`` writes the page and ``python -m mk_env.mountain_king.env.docs
--update-docstring`` rewrites the tables inside the docstring's text (env_doc.py). ``tests/env/test_env.py`` checks
that both are up to date.
"""

from __future__ import annotations

import sys
from pathlib import Path

from mk_env.mountain_king.rules import Game

from mk_env.core.env.doc_tables import fill_tables

from .observation import Observer

DOC_PATH = Path(__file__).with_name("env_doc.py")


def observation_table() -> str:
    obs = {n: Observer(Game(n)) for n in (2, 3, 4, 5)}
    lines = ["| key | shape (2 / 3 / 4 / 5 players) | meaning |", "|---|---|---|"]
    for i, f in enumerate(obs[4].fields):
        shapes = " / ".join(str(obs[n].fields[i].shape) for n in (2, 3, 4, 5))
        lines.append(f"| `{f.key}` | {shapes} | {f.meaning} |")
    return "\n".join(lines)


def channel_table() -> str:
    ob = Observer(Game(4))
    lines = ["| channel | name | 1 where |", "|---|---|---|"]
    for i, (name, meaning) in enumerate(ob.channels):
        lines.append(f"| {i} | `{name}` | {meaning} |")
    return "\n".join(lines)


def entries_table() -> str:
    ob = Observer(Game(4))
    lines = ["| key | entries along the last axis (4 players) |", "|---|---|"]
    for f in ob.fields[1:]:
        lines.append(f"| `{f.key}` | {', '.join(f.entries)} |")
    return "\n".join(lines)


def slices_table() -> str:
    """Where each array lies in the flat vector (``observation_slices()``), per player count."""
    obs = {n: Observer(Game(n)) for n in (2, 3, 4, 5)}
    lines = ["| key | start:stop (2 / 3 / 4 / 5 players) |", "|---|---|"]
    for key in obs[4].slices:
        cells = " / ".join("{}:{}".format(*obs[n].slices[key][:2]) for n in (2, 3, 4, 5))
        lines.append(f"| `{key}` | {cells} |")
    lines.append("| **D** | " + " / ".join(f"**{obs[n].size}**" for n in (2, 3, 4, 5)) + " |")
    return "\n".join(lines)


def state_table() -> str:
    """The parts of ``state()`` (``state_slices()``), per player count."""
    obs = {n: Observer(Game(n)) for n in (2, 3, 4, 5)}
    lines = ["| part | start:stop (2 / 3 / 4 / 5 players) | meaning |", "|---|---|---|"]
    for f in obs[4].state_fields:
        cells = " / ".join("{}:{}".format(*obs[n].state_slices[f.key][:2]) for n in (2, 3, 4, 5))
        lines.append(f"| `{f.key}` | {cells} | {f.meaning} |")
    lines.append("| **size** | " + " / ".join(f"**{obs[n].state_size}**" for n in (2, 3, 4, 5)) + " | |")
    return "\n".join(lines)


def action_table() -> str:
    games = {n: Game(n) for n in (2, 3, 4, 5)}
    head = " | ".join(f"{n}p ({games[n].board_side}) offset, size" for n in (2, 3, 4, 5))
    lines = [f"| block | {head} |", "|---|" + "---|" * 4]
    for b in games[4].layout.BLOCKS:
        cells = " | ".join(f"{games[n].layout.offset[b]}, {games[n].layout.sizes[b]}" for n in (2, 3, 4, 5))
        lines.append(f"| `{b}` | {cells} |")
    lines.append("| **N** | " + " | ".join(f"**{games[n].layout.size}**" for n in (2, 3, 4, 5)) + " |")
    return "\n".join(lines)


def tables() -> str:
    """Every generated table, as they appear between the markers."""
    return "\n\n".join([
        "### Observation arrays", observation_table(),
        "### Board channels (4 players; `network_k` has one channel per player)", channel_table(),
        "### Entries of the other arrays", entries_table(),
        "### The flat vector (`observation=\"flat\"` / `\"rllib\"`, `observation_slices()`)", slices_table(),
        "### The global state (`state()`, `state_slices()`)", state_table(),
        "### Action layout (the engine's flat numbering)", action_table()])


def _with_tables(text: str) -> str:
    return fill_tables(text, tables())


def page() -> str:
    """The documentation page (docs/environment.md)."""
    from . import aec
    return _with_tables(aec.__doc__.strip()) + "\n"


def update_docstring() -> None:
    DOC_PATH.write_text(_with_tables(DOC_PATH.read_text()))


if __name__ == "__main__":
    if "--update-docstring" in sys.argv:
        update_docstring()
    else:
        sys.stdout.write(page())
