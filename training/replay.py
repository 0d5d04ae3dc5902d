"""``mk-env replay``: replay a saved game record, check it, and write an HTML page and/or a GIF.

    mk-env replay game.json                       # replay, check, print the final position
    mk-env replay game.json --html game.html      # self-contained page: slider, arrow keys, no network
    mk-env replay game.json --gif game.gif        # animated GIF, one frame per seat's turn
    mk-env replay --demo 2 --seed 1 --save demo.json --html demo.html   # a lively random sample game
    mk-env replay --game cave_troll ct.json --html ct.html --gif ct.gif  # a Cave Troll record (mk-env play
                                                  # --game cave_troll --replay ct.json writes one)

``--game`` names the record's game (default the first game; a record of the other game is refused in one
line naming it). ``--demo N`` plays a sample game of ``--game`` with :func:`lively_action` (uniform over legal
decisions other than the first game's trades with the supply, a non-"pass" one 90% of the time) instead of
reading a file.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from mk_env.core.env.pillow import write_gif
from mk_env.core.env.replay_page import FRAME_MODES, frame_steps, write_html
from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, game_entry, make_game
from mk_env.records import GameRecord, final_state, load_record, record_from_state, replay, save_record
from mk_env.mountain_king.rules import GameState

from . import cli
from .play import add_game_argument


def lively_action(state: GameState, rng: np.random.Generator, pass_share: float = 0.1) -> int:
    """A random legal decision that makes sample games interesting: never a trade with the supply
    (unless nothing else is legal), and "pass" only ``pass_share`` of the time when there is a choice."""
    layout = state.game.layout
    legal = [int(a) for a in state.legal_actions()]
    blocks = [layout.decode(a)[0] for a in legal]
    choice = [a for a, b in zip(legal, blocks) if b != "trade"] or legal
    active = [a for a in choice if layout.decode(a)[0] != "pass"]
    if active and rng.random() >= pass_share:
        return int(rng.choice(active))
    return int(rng.choice(choice))


def demo_record(num_players: int = 2, seed: int = 0, max_actions: int | None = None,
                game: str = DEFAULT_GAME) -> GameRecord:
    """The record of a sample game of ``game`` played by :func:`lively_action` (to the end, or
    ``max_actions``); a player count the game does not allow is a ``ValueError`` naming the allowed ones."""
    state = make_game(game, num_players).new_initial_state(seed)
    rng = np.random.default_rng([seed, 7])
    actions: list[int] = []
    while not state.is_terminal() and (max_actions is None or len(actions) < max_actions):
        actions.append(lively_action(state, rng))
        state.apply(actions[-1])
    return record_from_state(state, seed, agents=[f"lively-random {p}" for p in range(num_players)],
                             actions=actions)


def register(subparsers) -> None:
    p = subparsers.add_parser("replay", help="replay a game record; write an HTML replay page or a GIF",
                              description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", help="game record (JSON) to replay")
    add_game_argument(p)
    p.add_argument("--html", metavar="OUT.html", type=cli.out_file, help="write a self-contained replay page")
    p.add_argument("--gif", metavar="OUT.gif", type=cli.out_file, help="write an animated GIF")
    p.add_argument("--frames", choices=FRAME_MODES, default="turn",
                   help="pictures per seat's turn (small page, default) or per decision")
    p.add_argument("--scale", type=_scale, default=1.0,
                   help="picture scale in the page, in (0, 2] (default 1: full size compresses best)")
    p.add_argument("--pack", help="data pack folder the record was made with (default: the built-in pack)")
    p.add_argument("--demo", type=cli.player_count, metavar="PLAYERS",
                   help="play a sample game (2-5 players) instead of reading FILE")
    p.add_argument("--seed", type=cli.seed, default=None, help="seed of the --demo game, >= 0 (default 0)")
    p.add_argument("--save", metavar="OUT.json", type=cli.out_file, help="save the (demo) record")
    p.add_argument("--quiet", action="store_true", help="do not print the final position")
    p.set_defaults(func=run)


def _scale(text: str) -> float:
    x = cli.positive_float(text)
    return cli.allowed(x, x <= 2, "use a number in (0, 2]")


def _record(args: argparse.Namespace) -> GameRecord:
    """The record to replay: FILE, or a --demo game (one of the two)."""
    if args.demo is not None:
        if args.file:
            raise cli.UsageError(f"give a record FILE or --demo PLAYERS, not both (got {args.file!r} and "
                                 f"--demo {args.demo})")
        return demo_record(args.demo, args.seed or 0, game=args.game)
    if not args.file:
        raise cli.UsageError("give a record FILE or --demo PLAYERS")
    if args.seed is not None:
        raise cli.UsageError("--seed is the seed of a --demo game; a record FILE holds its own seed")
    return load_record(args.file, args.pack, game=args.game)


def run(args: argparse.Namespace) -> int:
    view = game_entry(args.game).page_view()
    record = _record(args)
    state = final_state(record, args.pack)
    if args.save:
        print(f"saved the record to {printable(str(save_record(record, args.save)))}")
    if args.html:
        path = write_html(record, args.html, pack=args.pack, frames=args.frames, scale=args.scale, view=view)
        print(f"wrote {printable(str(path))} ({path.stat().st_size / 1e6:.2f} MB)")
    if args.gif:
        states = list(replay(record, args.pack))
        path = write_gif([states[k] for k in frame_steps(states, args.frames)], args.gif, render=view.render)
        print(f"wrote {printable(str(path))} ({path.stat().st_size / 1e6:.2f} MB)")
    if not args.quiet:
        print(view.text(state, sys.stdout.isatty()))
    print(f"replayed {len(record.actions)} actions: "
          + ("game over" if state.is_terminal() else "game not finished")
          + (", final scores match the record" if record.final_scores is not None else ""))
    return 0
