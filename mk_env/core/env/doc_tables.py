"""The generated tables of an environment's documentation page, shared by every game's ``docs`` module.

A game's env docstring holds its prose and a ``<!-- tables:start -->`` ... ``<!-- tables:end -->``
region; that game's ``docs`` module builds the tables from the code and :func:`fill_tables` writes them
between the markers (for the page, and for ``--update-docstring``).
"""

from __future__ import annotations

import re

START, END = "<!-- tables:start -->", "<!-- tables:end -->"
_REGION = re.compile(re.escape(START) + ".*?" + re.escape(END), re.S)


def fill_tables(text: str, tables: str) -> str:
    """``text`` with ``tables`` between the markers (whatever stood there before is replaced)."""
    return _REGION.sub(lambda _: f"{START}\n{tables}\n{END}", text)
