"""The ladder's scale: Elo-like ratings of a game's rungs at one player count, fitted to the rungs' own cards, and
a candidate's rating on it.

A card's head-to-head shares (the rung's seats the candidate finished above, ties half) are pairwise results, so
the Bradley-Terry model applies: ``P(a above b) = 1 / (1 + 10 ** ((R_b - R_a) / 400))``. The rungs' ratings are
its maximum-likelihood fit over every pair of rungs (each rung's card against the others), the first rung
(``random``) at 0, one virtual drawn pair per matchup keeping a rung that never wins finite. A candidate's rating
is the same fit with the rungs held fixed, with a 95% interval from the likelihood's curvature.

The scale of each game and player count is a small JSON file in ``training/ladder/`` (``mk-env evaluate --ladder``
writes it; it ships with the package, so a user's card is placed on the committed ladder).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

#: the committed scales: ``<game>-<players>p.json``
LADDER_DIR = Path(__file__).parent / "ladder"
#: Elo's unit: 400 points for odds of 10 to 1
ELO = 400.0 / math.log(10.0)
#: virtual drawn pairs added to every matchup (keeps a rung that never wins, or always does, finite)
PRIOR_PAIRS = 1.0


def scale_path(game: str, players: int) -> Path:
    """Where the committed scale of ``game`` at ``players`` players lives."""
    return LADDER_DIR / f"{game}-{players}p.json"


def load_scale(game: str, players: int) -> dict[str, Any] | None:
    """The committed scale (None: the ladder of that game and player count has no scale yet)."""
    path = scale_path(game, players)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def _p(diff: float) -> float:
    """P(above) for a rating difference in Elo points."""
    return 1.0 / (1.0 + math.exp(-diff / ELO))


def fit_scale(cards: dict[str, dict[str, Any]], rungs: list[str]) -> dict[str, float]:
    """The rungs' ratings from their cards (``{rung: card}``, each against the other rungs): Bradley-Terry by
    maximum likelihood (each rating's Newton step in turn, to convergence), ``rungs[0]`` at 0."""
    results = []  # (a, b, a's share above b, pairs)
    for a, card in cards.items():
        for b, fig in card["rungs"].items():
            if b != a:
                results.append((a, b, fig["head_to_head"] * fig["pairs"], fig["pairs"]))
    ratings = {r: 0.0 for r in rungs}
    for _ in range(500):
        moved = 0.0
        for r in rungs[1:]:
            step = _newton_step(ratings[r], [(ratings[b if a == r else a], w if a == r else n - w, n)
                                             for a, b, w, n in results if r in (a, b)])
            ratings[r] += step
            moved = max(moved, abs(step))
        if moved < 1e-6:
            break
    return ratings


def _newton_step(rating: float, games: list[tuple[float, float, float]]) -> float:
    """One Newton step of a rating against opponents ``(their rating, share above them, pairs)``, the prior's
    drawn pairs included."""
    grad = hess = 0.0
    for other, above, pairs in games:
        p = _p(rating - other)
        total = pairs + PRIOR_PAIRS
        grad += (above + PRIOR_PAIRS / 2 - total * p) / ELO
        hess += total * p * (1 - p) / ELO ** 2
    return max(-200.0, min(200.0, grad / hess)) if hess else 0.0


def rating_on(scale: dict[str, Any], figures: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """A candidate's rating on ``scale`` from its figures per rung (the rungs the scale rates), with a 95%
    interval; None when it met none of them."""
    ratings = scale["ratings"]
    games = [(ratings[r], f["head_to_head"] * f["pairs"], f["pairs"]) for r, f in figures.items() if r in ratings]
    if not games:
        return None
    rating = 0.0
    for _ in range(200):
        step = _newton_step(rating, games)
        rating += step
        if abs(step) < 1e-6:
            break
    info = sum((n + PRIOR_PAIRS) * _p(rating - o) * (1 - _p(rating - o)) for o, _, n in games) / ELO ** 2
    half = 1.96 / math.sqrt(info) if info else math.inf
    return {"elo": rating, "elo_ci95": [rating - half, rating + half], "scale": {
        k: scale[k] for k in ("game", "players", "protocol_version", "ratings")}}
