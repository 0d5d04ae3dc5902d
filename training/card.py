"""The benchmark card of an agent (``mk-env evaluate SPEC``): a fixed protocol per game and player count, so two
users' cards compare.

The protocol (version :data:`PROTOCOL_VERSION`): against each rung of the game's ladder (its card's ``ladder``,
weakest first; the 2-player networks only at 2 players) the candidate plays :data:`GAMES_PER_RUNG` games in one
seat with the rung in every other seat, its seat rotated game by game; game ``g`` of every rung is dealt from
seed ``SEED_SETS[set] + g``, so every candidate meets the same deals (seed set 0; another set reruns the card
on other deals, to check that it reproduces within its intervals).

The card gives, per rung: the candidate's win rate (a shared first place counts as its share) with a 95%
Wilson interval, its head-to-head share (the rung's seats it finished above, ties half), its points margin over
the best other seat with a 95% interval, and the time per decision; with the ladder's scale
(:mod:`training.card_scale`), a rating on it. The games go to ``games.jsonl`` as they end: a run that stops
resumes from there (``--out``).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np

from mk_env.games import game_entry

#: the protocol's version: a change of the deals, the games per rung or the statistics gives a new one
PROTOCOL_VERSION = 1
#: games against each rung, by player count (a multiple of it: every seat as often)
GAMES_PER_RUNG = {2: 40, 3: 30, 4: 24, 5: 20}
#: the first seed of each seed set (set 0: the protocol's deals)
SEED_SETS = (700_000, 710_000, 720_000, 730_000)


def protocol(game: str, players: int, seed_set: int = 0, rungs: list[str] | None = None,
             games_per_rung: int | None = None, candidate: str | None = None) -> dict[str, Any]:
    """The protocol of a card: game, its env version, players, the rungs (a rung's own card: the others), games
    per rung, seed set. ``rungs`` or ``games_per_rung`` other than the protocol's make a card marked
    ``"standard": False``."""
    entry = game_entry(game)
    if players not in entry.player_counts:
        raise ValueError(f"--players {players}: {entry.title} is for {', '.join(map(str, entry.player_counts))}")
    if not 0 <= seed_set < len(SEED_SETS):
        raise ValueError(f"--seed-set {seed_set}: use 0 (the protocol's deals) to {len(SEED_SETS) - 1}")
    ladder = list(entry.ladder_table(players))
    chosen = [r for r in (ladder if rungs is None else rungs) if r != candidate]
    unknown = [r for r in chosen if r not in ladder]
    if unknown or not chosen:
        raise ValueError(f"--rungs {','.join(chosen)}: the rungs of {game} at {players} players are "
                         f"{', '.join(ladder)}")
    per_rung = GAMES_PER_RUNG[players] if games_per_rung is None else int(games_per_rung)
    if per_rung < 1:
        raise ValueError(f"--games-per-rung {per_rung}: need at least 1")
    return {"version": PROTOCOL_VERSION, "game": game, "env": entry.env_name(), "players": players,
            "rungs": chosen, "games_per_rung": per_rung, "seed_set": seed_set,
            "standard": chosen == [r for r in ladder if r != candidate] and per_rung == GAMES_PER_RUNG[players]}


def schedule(candidate: str, proto: dict[str, Any]) -> list[dict[str, Any]]:
    """The games of a card: for each rung, game ``g`` with the candidate in seat ``g % players``."""
    n, base = proto["players"], SEED_SETS[proto["seed_set"]]
    jobs = []
    for rung in proto["rungs"]:
        for g in range(proto["games_per_rung"]):
            seat = g % n
            specs = [rung] * n
            specs[seat] = candidate
            jobs.append({"index": len(jobs), "agents": specs, "seed": base + g, "seat": seat, "rung": rung,
                         "game": proto["game"]})
    return jobs


def play_card_game(args: tuple[dict[str, Any], dict[str, Any]]) -> dict[str, Any]:
    """One game of a card (a top-level function, for worker processes): its result, the candidate's decisions
    and seconds deciding."""
    from agents import make_agent
    from agents.base import TimedAgent
    from training.play import run_game
    from training.tournament import start_points
    from mk_env.games import make_game

    job, _ = args
    specs, seat = job["agents"], job["seat"]
    timed = TimedAgent(make_agent(specs[seat]))
    agents = [timed if p == seat else s for p, s in enumerate(specs)]
    state = run_game(agents, job["seed"], game=make_game(job["game"], len(specs)))
    return {"index": job["index"], "agents": specs, "seed": job["seed"], "seat": seat, "rung": job["rung"],
            "ranks": [int(r) for r in state.ranks()],
            "scores": [int(state.score_breakdown(p)["total"]) for p in range(len(specs))],
            "start_points": start_points(state), "decisions": timed.decisions,
            "seconds": round(timed.seconds, 4)}


# ================================================================================================
# the statistics
# ================================================================================================
def rung_figures(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The candidate's figures against one rung, from its games."""
    from training.ratings import wilson_interval

    n = len(games)
    wins = sum(_win_share(g) for g in games)
    pairs = sum(len(g["ranks"]) - 1 for g in games)
    above = sum(_above(g) for g in games)
    margins = [g["scores"][g["seat"]] - max(s for p, s in enumerate(g["scores"]) if p != g["seat"]) for g in games]
    decisions, seconds = sum(g["decisions"] for g in games), sum(g["seconds"] for g in games)
    mean = float(np.mean(margins))
    half = 1.96 * float(np.std(margins, ddof=1)) / math.sqrt(n) if n > 1 else math.inf
    return {"games": n, "wins": wins, "win_rate": wins / n, "win_rate_ci95": list(wilson_interval(wins, n)),
            "head_to_head": above / pairs, "head_to_head_ci95": list(wilson_interval(above, pairs)),
            "pairs": pairs, "margin": mean, "margin_ci95": [mean - half, mean + half],
            "ms_per_decision": 1000 * seconds / decisions if decisions else 0.0, "decisions": decisions}


def _win_share(g: dict[str, Any]) -> float:
    """The candidate's share of the first place (``1/k`` of ``k`` seats sharing it)."""
    ranks = g["ranks"]
    return 1.0 / ranks.count(0) if ranks[g["seat"]] == 0 else 0.0


def _above(g: dict[str, Any]) -> float:
    """The other seats the candidate finished above (a tie: half)."""
    mine = g["ranks"][g["seat"]]
    return sum(1.0 if r > mine else 0.5 if r == mine else 0.0 for p, r in enumerate(g["ranks"]) if p != g["seat"])


def card_of(candidate: str, proto: dict[str, Any], games: list[dict[str, Any]],
            scale: dict[str, Any] | None = None) -> dict[str, Any]:
    """The card: the protocol, the figures per rung, the time per decision, the rating on ``scale``."""
    from training.card_scale import rating_on

    rungs = {r: rung_figures([g for g in games if g["rung"] == r]) for r in proto["rungs"]}
    decisions = sum(f["decisions"] for f in rungs.values())
    seconds = sum(g["seconds"] for g in games)
    return {"kind": "mk_env benchmark card", "candidate": candidate, "protocol": proto,
            "points": game_entry(proto["game"]).points, "rungs": rungs,
            "ms_per_decision": 1000 * seconds / decisions if decisions else 0.0,
            "rating": rating_on(scale, rungs) if scale else None}


def run_card(candidate: str, proto: dict[str, Any], out: Path, workers: int = 1, progress: bool = False,
             scale: dict[str, Any] | None = None) -> dict[str, Any]:
    """Play the card's games not yet in ``out/games.jsonl`` and write ``card.json``, ``card.md``, ``card.png``."""
    import json

    from training.card_report import write_card
    from training.tournament import _check_config, play_into

    config = {"candidate": candidate, "game": proto["game"], "agents": [candidate, *proto["rungs"]],
              "players": proto["players"], "seed": proto["seed_set"], "options": proto}  # a new protocol: refused
    _check_config(out, config)
    games = play_into(out / "games.jsonl", schedule(candidate, proto), {}, workers, progress, run=play_card_game)
    card = card_of(candidate, proto, games, scale)
    (out / "card.json").write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    write_card(card, out)
    return card
