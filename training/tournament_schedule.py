"""The schedule of a tournament: which agents sit where in game ``i`` and its seed, fixed up front
so that any game can be played (or played again) alone. Seats rotate within a block of games that
share one seed; team tournaments pair two agents per team (seats 0 and 3 against 1 and 2)."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np


def matches(agents: list[str], players: int) -> list[tuple[str, ...]]:
    """The lineups to play: every combination of ``players`` agents, or the agents cycled."""
    if len(agents) > players:
        return list(itertools.combinations(agents, players))
    return [tuple(agents[i % len(agents)] for i in range(players))]


def game_seed(seed: int, block: int, *extra: int) -> int:
    """The seed shared by the seat rotations of one block."""
    return int(np.random.SeedSequence([int(seed), int(block), *map(int, extra)]).generate_state(1)[0])


def schedule(agents: list[str], players: int, games: int, seed: int) -> list[dict[str, Any]]:
    """Game ``i``: its seat lineup and seed (rotation ``i % players`` of block ``i // players``)."""
    lineups = matches(agents, players)
    out = []
    for i in range(games):
        block, rot = divmod(i, players)
        lineup = lineups[block % len(lineups)]
        seats = [lineup[(s + rot) % players] for s in range(players)]
        earlier = [[lineup[(s + r) % players] for s in range(players)] for r in range(rot)]
        # a rotation that repeats an earlier seating (R H R H) gets its own seed
        gseed = game_seed(seed, block) if seats not in earlier else game_seed(seed, block, rot)
        out.append({"index": i, "agents": seats, "seed": gseed})
    return out


def parse_team(entry: str) -> tuple[str, str]:
    """A team pairing ``A+B`` (or ``A`` for both seats) as the specs of its two seats."""
    parts = [x.strip() for x in entry.split("+")]
    if len(parts) == 1:
        parts = parts * 2
    if len(parts) != 2 or not all(parts):
        raise ValueError(f"team pairing {entry!r}: use AGENT or AGENT+AGENT, e.g. heuristic+random")
    return parts[0], parts[1]


def team_schedule(entries: list[str], games: int, seed: int) -> list[dict[str, Any]]:
    """Game ``i`` of a team tournament: block ``i // 2`` is a match of two pairings, rotation ``i % 2``
    says which of them is Team 1 (seats 0 and 3); both rotations share one seed."""
    lineups = list(itertools.combinations(entries, 2)) if len(entries) > 2 else [tuple(entries * 2)[:2]]
    out = []
    for i in range(games):
        block, rot = divmod(i, 2)
        first, second = lineups[block % len(lineups)][::(-1 if rot else 1)]
        (a0, a3), (b1, b2) = parse_team(first), parse_team(second)
        out.append({"index": i, "agents": [a0, b1, b2, a3], "teams": [first, second, second, first],
                    "seed": game_seed(seed, block) if first != second else game_seed(seed, block, rot)})
    return out
