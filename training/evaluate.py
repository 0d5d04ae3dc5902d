"""Gauntlet evaluation of a trained policy against fixed agents, with seat rotation.

Game ``i`` against an opponent spec seats the learner at seat ``i % players`` (every other seat is
played by the opponent agent) with the game seed ``seed + i``, so every seat is played equally often
and the same seed gives the same games. A *win* is rank 0 after the rulebook's tie-break (an exact
tie shares rank 0 and counts as a win). The learner acts greedily
(``model.predict(..., deterministic=True)``), as the ``ppo:PATH`` agent does.

``python -m training.evaluate MODEL.safetensors --opponents random,heuristic --games 200`` prints the
table (``--game cave_troll`` for a Cave Troll model) (an SB3 ``.zip`` only with ``--trust``: it unpickles
code, docs/security.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from mk_env.games import DEFAULT_GAME, game_names

from .ratings import wilson_interval

DEFAULT_GAUNTLET = ("random", "heuristic")


def evaluate_against(model: Any, opponent: str, games: int, players: int = 2, seed: int = 0,
                     game_options: dict[str, Any] | None = None,
                     game: str = DEFAULT_GAME) -> dict[str, Any]:
    """Play ``games`` games of ``model`` against the agent ``opponent`` in every other seat, in suite
    game ``game`` (its single-seat view; "honour" is the game's score: gold in Cave Troll)."""
    from agents import make_agent
    from agents.policy_description import env_module
    single_seat_env = env_module(game).single_seat_env
    if games < 1:
        raise ValueError(f"games={games}: need at least 1 game")
    model = _as_model(model)
    wins, honour, opp_honour, t0 = 0, [], [], time.perf_counter()
    for i in range(games):
        seat = i % players
        env = single_seat_env(players, seat=seat, opponents=make_agent(opponent), reward="win",
                              **(game_options or {}))
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=env.action_masks(), deterministic=True)
            obs, _, done, _, info = env.step(int(action))
        if "illegal_action" in info:
            raise RuntimeError(f"the policy chose an illegal action: {info['illegal_action']}")
        state = env.aec.game_state
        wins += int(state.ranks()[seat] == 0)
        honour.append(state.score_breakdown(seat)["total"])
        opp_honour.append(np.mean([state.score_breakdown(p)["total"] for p in range(players)
                                   if p != seat]))
    lo, hi = wilson_interval(wins, games)
    return {"opponent": opponent, "games": games, "wins": wins, "win_rate": wins / games,
            "win_rate_ci95": [lo, hi], "mean_honour": float(np.mean(honour)),
            "opponent_mean_honour": float(np.mean(opp_honour)),
            "seconds": round(time.perf_counter() - t0, 2)}


def gauntlet(model: Any, opponents: tuple[str, ...] | list[str] = DEFAULT_GAUNTLET, games: int = 40,
             players: int = 2, seed: int = 0, game_options: dict[str, Any] | None = None,
             trust: bool = False, game: str = DEFAULT_GAME) -> dict[str, dict[str, Any]]:
    """:func:`evaluate_against` each opponent spec; ``{spec: result}`` (``trust``: a path may name an
    SB3 zip)."""
    model = _as_model(model, trust)
    return {spec: evaluate_against(model, spec, games, players, seed, game_options, game)
            for spec in opponents}


def _as_model(model: Any, trust: bool = False) -> Any:
    """A model or policy as is; a path loaded (:func:`agents.policy_file.load_policy`)."""
    if isinstance(model, (str, Path)):
        from agents.policy_file import load_policy
        if not Path(model).is_file():
            raise ValueError(f"no model file at {str(model)!r}")
        return load_policy(model, trust=trust)
    return model


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.evaluate",
                                     description="Evaluate a MaskablePPO model against fixed agents.")
    parser.add_argument("model", help="path of a saved model (.safetensors)")
    parser.add_argument("--trust", action="store_true",
                        help="allow an SB3 .zip (unpickles code: only files you trust)")
    parser.add_argument("--opponents", default=",".join(DEFAULT_GAUNTLET),
                        help="comma-separated agent specs (default random,heuristic)")
    parser.add_argument("--games", type=int, default=200, help="games per opponent (default 200)")
    parser.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    parser.add_argument("--game", choices=game_names(), default=DEFAULT_GAME,
                        help=f"the model's game (default {DEFAULT_GAME})")
    parser.add_argument("--seed", type=int, default=10_000, help="first game seed (default 10000)")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    import torch
    torch.set_num_threads(1)
    try:
        results = gauntlet(args.model, [s.strip() for s in args.opponents.split(",")], args.games,
                           args.players, args.seed, trust=args.trust, game=args.game)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    for spec, r in results.items():
        lo, hi = r["win_rate_ci95"]
        print(f"{spec:12s} win rate {r['win_rate']:.1%} ({r['wins']}/{r['games']}, 95% CI "
              f"{lo:.1%}-{hi:.1%}), honour {r['mean_honour']:.1f} vs {r['opponent_mean_honour']:.1f}, "
              f"{r['seconds']} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
