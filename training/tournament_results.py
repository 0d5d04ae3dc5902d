"""The results of a tournament shown: the leaderboard table and the charts (ratings, where the points come
from), in the game's own word for its points (the game card's ``points``: honour, gold, honor)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, game_entry


def points_word(results: dict[str, Any]) -> str:
    """What the tournament's game calls its points."""
    return game_entry(results.get("config", {}).get("game") or DEFAULT_GAME).points


def leaderboard(results: dict[str, Any]):
    """A rich table of the agents, best rating first."""
    from rich.table import Table
    from rich.text import Text
    table = Table(title=f"Leaderboard ({len(results['games'])} games, "
                        f"{results['config']['players']} players)")
    for col in ("rank", "agent", "rating mu", "sigma", "win rate", "95% CI", "mean rank",
                f"mean {points_word(results)}"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    rows = sorted(results["agents"].items(), key=lambda kv: -kv[1]["rating_mu"])
    for i, (spec, a) in enumerate(rows):
        lo, hi = a["win_rate_ci95"]
        table.add_row(str(i + 1), Text(printable(spec)), f"{a['rating_mu']:.2f}", f"{a['rating_sigma']:.2f}",
                      f"{a['win_rate']:.1%}", f"{lo:.1%}-{hi:.1%}", f"{a['mean_rank']:.2f}",
                      f"{a['mean_honour']:.1f}")
    return table


def write_charts(results: dict[str, Any], out: Path) -> list[Path]:
    """ratings.png (mu with 2-sigma bars) and scores.png (mean points by scoring category)."""
    from matplotlib.figure import Figure  # object API: leaves the caller's backend alone
    agents = sorted(results["agents"], key=lambda a: -results["agents"][a]["rating_mu"])
    stats = [results["agents"][a] for a in agents]
    paths = []
    fig = Figure(figsize=(max(4, 1.4 * len(agents)), 3.5))
    ax = fig.subplots()
    ax.bar(agents, [s["rating_mu"] for s in stats], yerr=[2 * s["rating_sigma"] for s in stats],
           capsize=4, color="#5b7fa6")
    ax.set_ylabel("openskill mu (bars: 2 sigma)")
    ax.set_title("Ratings")
    fig.tight_layout()
    paths.append(out / "ratings.png")
    fig.savefig(paths[-1], dpi=100)
    fig = Figure(figsize=(max(4, 1.4 * len(agents)), 3.5))
    ax = fig.subplots()
    bottom = np.zeros(len(agents))
    for c in dict.fromkeys(c for s in stats for c in s["honour_breakdown"]):  # the game's categories
        vals = np.array([s["honour_breakdown"].get(c, 0.0) for s in stats])
        ax.bar(agents, vals, bottom=bottom, label=c)
        bottom += vals
    ax.set_ylabel(f"mean {points_word(results)} per game")
    ax.set_title(f"Where {points_word(results)} comes from")
    ax.legend(fontsize=7, loc="upper left")
    fig.tight_layout()
    paths.append(out / "scores.png")
    fig.savefig(paths[-1], dpi=100)
    return paths
