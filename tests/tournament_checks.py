"""What the tournament tests compare: a tournament's results without their wall-clock times."""

from __future__ import annotations

import json


def strip(results: dict) -> dict:
    """The results' agents, balance and games, without the games' wall-clock ``seconds``."""
    out = json.loads(json.dumps(results))
    for g in out["games"]:
        g.pop("seconds")
    return {k: out[k] for k in ("agents", "balance", "games")}
