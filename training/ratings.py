"""Ratings and summary statistics of tournament games.

Ratings: openskill's Plackett-Luce model over free-for-all ranks, the games taken in a canonical
order (by game index), so the result does not depend on which worker finished first. When an agent
holds several seats of one game, it enters that game once, with the mean of its seats' ranks.
Win rates carry a 95% Wilson interval.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any



def wilson_interval(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a win rate (0, 1 when there are no games)."""
    if n <= 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def agent_ranks(game: dict) -> dict[str, float]:
    """Each agent's rank in one game record (mean over its seats; 0 = winner)."""
    seats: dict[str, list[int]] = defaultdict(list)
    for spec, rank in zip(game["agents"], game["ranks"]):
        seats[spec].append(rank)
    return {spec: sum(r) / len(r) for spec, r in seats.items()}


def plackett_luce_ratings(games: list[dict], agents: list[str]) -> dict[str, tuple[float, float]]:
    """(mu, sigma) per agent after rating every game in index order."""
    from openskill.models import PlackettLuce
    model = PlackettLuce()
    ratings = {a: model.rating(name=a) for a in agents}
    for game in sorted(games, key=lambda g: g["index"]):
        ranks = agent_ranks(game)
        if len(ranks) < 2:
            continue
        names = sorted(ranks)
        teams = [[ratings[a]] for a in names]
        new = model.rate(teams, ranks=[ranks[a] for a in names])
        for a, team in zip(names, new):
            ratings[a] = team[0]
    return {a: (float(r.mu), float(r.sigma)) for a, r in ratings.items()}


def win_shares(game: dict) -> list[float]:
    """Each seat's share of the win in one game record: ``1/k`` for each of ``k`` sides sharing the first
    place (seats; in a team game, ``seat_agents`` present, teams, whose two seats share a rank), else 0."""
    ranks = list(game["ranks"])
    first = ranks.count(0)
    sides = max(1, first // 2 if "seat_agents" in game else first)
    return [1.0 / sides if r == 0 else 0.0 for r in ranks]


class _Tally:
    """Wins (each seat's :func:`win_shares`), rank and honour sums over seat appearances."""

    def __init__(self) -> None:
        self.n = 0
        self.wins = 0.0
        self.rank = 0.0
        self.honour = 0.0
        self.parts: dict[str, float] = {}  # by the game's scoring category

    def add(self, rank: int, breakdown: dict[str, int], share: float) -> None:
        self.n += 1
        self.wins += share
        self.rank += rank
        self.honour += breakdown["total"]
        for c, v in breakdown.items():
            if c != "total":
                self.parts[c] = self.parts.get(c, 0.0) + v

    def summary(self, detail: bool = True) -> dict[str, Any]:
        n = max(self.n, 1)
        lo, hi = wilson_interval(self.wins, self.n)
        out: dict[str, Any] = {"games": self.n, "wins": round(self.wins, 3), "win_rate": self.wins / n,
                               "win_rate_ci95": [lo, hi], "mean_rank": self.rank / n + 1,
                               "mean_honour": self.honour / n}
        if detail:
            out["honour_breakdown"] = {c: v / n for c, v in self.parts.items()}
        return out


def summarize(games: list[dict], agents: list[str]) -> dict[str, dict[str, Any]]:
    """Per agent: rating, win rate (95% Wilson), mean rank (1 = first), honour and its breakdown,
    per seat and per start point (the square its gate took: ``state.gate_sq`` in
    ``game.geo.start_points``), and head to head against each other agent. Win rates count seat
    appearances (two heuristic seats of a 4-player game: at most one wins; a first place shared by ``k``
    seats, or teams, counts ``1/k`` to each); ranks are 1-based."""
    ratings = plackett_luce_ratings(games, agents)
    h2h = head_to_head(games, agents)
    total = {a: _Tally() for a in agents}
    seat: dict[str, dict[int, _Tally]] = {a: defaultdict(_Tally) for a in agents}
    start: dict[str, dict[int, _Tally]] = {a: defaultdict(_Tally) for a in agents}
    for g in games:
        shares = win_shares(g)
        for p, spec in enumerate(g["agents"]):
            bd, rank = g["scores"][p], g["ranks"][p]
            total[spec].add(rank, bd, shares[p])
            seat[spec][p].add(rank, bd, shares[p])
            start[spec][g["start_points"][p]].add(rank, bd, shares[p])
    out = {}
    for a in agents:
        mu, sigma = ratings[a]
        out[a] = {"rating_mu": mu, "rating_sigma": sigma, **total[a].summary(),
                  "per_seat": {str(k): v.summary(False) for k, v in sorted(seat[a].items())},
                  "per_start_point": {str(k): v.summary(False) for k, v in sorted(start[a].items())},
                  "head_to_head": h2h[a]}
    return out


def head_to_head(games: list[dict], agents: list[str]) -> dict[str, dict[str, dict[str, Any]]]:
    """For agents a != b: how often a seat of a finished above a seat of b in the same game
    (every pair of their seats counts; a tie counts half), with a 95% Wilson interval."""
    n = {a: dict.fromkeys(agents, 0) for a in agents}
    w = {a: dict.fromkeys(agents, 0.0) for a in agents}
    for g in games:
        for p, a in enumerate(g["agents"]):
            for q, b in enumerate(g["agents"]):
                if a != b:
                    n[a][b] += 1
                    rp, rq = g["ranks"][p], g["ranks"][q]
                    w[a][b] += 1.0 if rp < rq else 0.5 if rp == rq else 0.0
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for a in agents:
        out[a] = {}
        for b in agents:
            if a != b and n[a][b]:
                lo, hi = wilson_interval(w[a][b], n[a][b])
                out[a][b] = {"pairs": n[a][b], "beats_rate": w[a][b] / n[a][b], "ci95": [lo, hi]}
    return out


def balance(games: list[dict]) -> dict[str, dict[str, dict[str, Any]]]:
    """Win rate of each seat and each start point over all agents: the board's balance."""
    seat: dict[int, _Tally] = defaultdict(_Tally)
    start: dict[int, _Tally] = defaultdict(_Tally)
    for g in games:
        shares = win_shares(g)
        for p in range(len(g["agents"])):
            seat[p].add(g["ranks"][p], g["scores"][p], shares[p])
            start[g["start_points"][p]].add(g["ranks"][p], g["scores"][p], shares[p])
    return {"per_seat": {str(k): v.summary(False) for k, v in sorted(seat.items())},
            "per_start_point": {str(k): v.summary(False) for k, v in sorted(start.items())}}
