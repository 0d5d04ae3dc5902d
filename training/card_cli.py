"""``mk-env evaluate SPEC``: the benchmark card of an agent (:mod:`training.card`), and ``--ladder``: the cards of
the ladder's own rungs and the scale fitted to them (:mod:`training.card_scale`).

SPEC is an agent spec (``heuristic``, ``mcts:16``), a ``module:Name`` of your own (:mod:`agents.user_agent`: an
agent class or a ``policy(observation, action_mask) -> action``), or a model file (a ``.safetensors`` of
``mk-env train``: a policy plays as ``ppo:PATH``, a policy-value network as ``aznet:PATH``).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path
from typing import Any

from . import cli
from .card import protocol, run_card
from .card_scale import fit_scale, load_scale
from .play import add_game_argument


def resolve_spec(spec: str) -> str:
    """The agent spec ``SPEC`` stands for (a model file: its kind's spec); checked by building the agent."""
    from agents import make_agent

    if Path(spec).is_file():
        from agents.model_format import read_metadata

        kind = {"mk_env.policy": "ppo", "mk_env.policy_value": "aznet"}.get(str(read_metadata(spec).get("format")))
        if kind is None:
            raise ValueError(f"{spec}: not a model file of mk-env train (a policy or a policy-value network)")
        spec = f"{kind}:{spec}"
    make_agent(spec)  # a clear error for a spec that is not an agent
    return spec


def card_folder(root: Path, game: str, players: int, spec: str) -> Path:
    """``root/<game>-<players>p/<spec made a folder name>``."""
    return root / f"{game}-{players}p" / re.sub(r"[^\w.-]+", "_", spec).strip("_")


def main(args: argparse.Namespace) -> int:
    import torch

    torch.set_num_threads(1)
    rungs = None if args.rungs is None else [r.strip() for r in args.rungs.split(",") if r.strip()]
    if args.ladder:
        if args.spec:
            raise cli.UsageError("--ladder evaluates the ladder's own rungs: give no SPEC with it")
        return _ladder(args, rungs)
    if not args.spec:
        raise cli.UsageError("give the SPEC of the agent to evaluate (or --ladder)")
    spec = resolve_spec(args.spec)
    proto = protocol(args.game, args.players, args.seed_set, rungs, args.games_per_rung, candidate=spec)
    out = card_folder(Path(args.out), args.game, args.players, spec)
    card = run_card(spec, proto, out, args.workers, progress=True, scale=load_scale(args.game, args.players))
    _print(card, out)
    return 0


def _ladder(args: argparse.Namespace, rungs: list[str] | None) -> int:
    """Each rung's card against the other rungs, the scale fitted to them (``scale.json``), each card rated."""
    full = protocol(args.game, args.players, args.seed_set, rungs, args.games_per_rung)
    cards: dict[str, dict[str, Any]] = {}
    root = Path(args.out)
    for rung in full["rungs"]:
        proto = protocol(args.game, args.players, args.seed_set, full["rungs"], args.games_per_rung, candidate=rung)
        cards[rung] = run_card(rung, proto, card_folder(root, args.game, args.players, rung), args.workers, True)
    scale = {"kind": "mk_env ladder scale", "game": args.game, "players": args.players,
             "protocol_version": full["version"], "seed_set": full["seed_set"], "standard": full["standard"],
             "ratings": fit_scale(cards, full["rungs"])}
    path = root / f"{args.game}-{args.players}p" / "scale.json"
    path.write_text(json.dumps(scale, indent=1) + "\n", encoding="utf-8")
    for rung, card in cards.items():  # again, now with the scale (the games are all in games.jsonl)
        proto = card["protocol"]
        cards[rung] = run_card(rung, proto, card_folder(root, args.game, args.players, rung), 1, False, scale)
        _print(cards[rung], card_folder(root, args.game, args.players, rung))
    print(f"the ladder's scale: {path} ({', '.join(f'{r} {v:.0f}' for r, v in scale['ratings'].items())}); "
          f"committed, it is training/ladder/{args.game}-{args.players}p.json")
    return 0


def _print(card: dict[str, Any], out: Path) -> None:
    from training.card_report import card_markdown

    print(card_markdown(card))
    print(f"card: {out / 'card.json'}, {out / 'card.md'}, {out / 'card.png'}")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``mk-env evaluate``."""
    p = subparsers.add_parser("evaluate", help="the benchmark card of an agent: win rates against the ladder, "
                              "a rating on its scale, margins, time per decision",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("spec", nargs="?", help="agent spec, module:Name of your own, or a model file")
    add_game_argument(p)
    p.add_argument("--players", type=cli.player_count, default=2, help="players per game (default 2)")
    p.add_argument("--seed-set", type=int, default=0,
                   help="0: the protocol's deals (default); 1-3: other deals, to check that a card reproduces")
    p.add_argument("--rungs", default=None, help="only these rungs, comma-separated (not the standard card)")
    p.add_argument("--games-per-rung", type=cli.game_count, default=None,
                   help="games against each rung (default: the protocol's; another count is not the standard card)")
    p.add_argument("--workers", type=cli.workers, default=2, help="parallel worker processes (default 2)")
    p.add_argument("--out", type=cli.out_dir, default="runs/cards",
                   help="folder of the cards, resumable (default runs/cards)")
    p.add_argument("--ladder", action="store_true",
                   help="the cards of the ladder's own rungs and its scale (no SPEC)")
    p.set_defaults(func=main)
