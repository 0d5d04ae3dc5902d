"""``mk-env play``: one game between named agents, the final score breakdown as a table.

>>> state = run_game(["random", "heuristic"], seed=3)
>>> state.is_terminal()
True

Each agent sees only its :class:`~mk_env.core.view.PlayerView` and draws from its own generator
(derived from the game seed and its seat), so a game is reproducible from ``(specs, seed, options)``
whenever the agents' budgets are in simulations rather than seconds.
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from agents import make_agent
from agents.base import Agent
from mk_env.core.text import printable
from mk_env.games import DEFAULT_GAME, GAMES, game_entry, game_names
from mk_env.games import make_game as make_suite_game
from mk_env.mountain_king.rules import Game, GameState
from mk_env.core.view import PlayerView

from . import cli


def parse_agents(text: str) -> list[str]:
    """``"random,heuristic"`` -> ``["random", "heuristic"]``; each spec is checked."""
    specs = [s.strip() for s in text.split(",") if s.strip()]
    if not specs:
        raise ValueError(f"--agents {text!r}: give agent specs separated by commas, e.g. random,heuristic")
    for spec in dict.fromkeys(specs):
        make_agent(spec)  # raises a clear error for unknown specs
    return specs


def make_game(num_players: int, options: dict[str, Any] | None = None, game: str = DEFAULT_GAME) -> Game:
    """A game of the suite (``game``: :mod:`mk_env.games`) with the given options (``Game.options_dict``
    keys; ``num_players`` wins)."""
    opts = dict(options or {})
    opts.pop("num_players", None)
    return make_suite_game(game, num_players, **opts)


def agent_rng(seed: int, seat: int) -> np.random.Generator:
    """The generator of the agent in ``seat`` for the game started with ``seed``."""
    return np.random.default_rng([int(seed), int(seat), 0xA6E])


def run_game(specs: list[str] | list[Agent], seed: int, options: dict[str, Any] | None = None,
             game: Game | None = None, actions: list[int] | None = None) -> GameState:
    """Play one game to the end; ``specs[seat]`` is that seat's agent (spec string or agent). ``game``:
    any game of the suite (default: the first game with ``options``); ``actions`` (if given) receives
    every decision."""
    n = len(specs)
    game = game or make_game(n, options)
    if game.num_players != n:
        raise ValueError(f"{n} agents given for a {game.num_players}-player game")
    agents = [make_agent(s) if isinstance(s, str) else s for s in specs]
    for seat, agent in enumerate(agents):
        reset = getattr(agent, "reset", None)
        if reset:
            reset(seat, n)
    rngs = [agent_rng(seed, seat) for seat in range(n)]
    state = game.new_initial_state(int(seed))
    views = [PlayerView(state, seat) for seat in range(n)]
    actions = [] if actions is None else actions
    while not state.is_terminal():
        p = state.current_player()
        actions.append(int(agents[p].act(views[p], rngs[p])))
        state.apply(actions[-1])
    return state


def score_table(state: GameState, names: list[str], title: str = "Final scores"):
    """A rich table: one row per seat, points by the game's scoring category, rank."""
    from rich.table import Table
    from rich.text import Text
    table = Table(title=Text(title))
    categories = [c for c in state.score_breakdown(0) if c != "total"]
    for col in ("seat", "agent", *categories, "total", "rank"):
        table.add_column(col, justify="left" if col == "agent" else "right")
    ranks = state.ranks()
    for p, name in enumerate(names):
        bd = state.score_breakdown(p)
        table.add_row(str(p), Text(printable(name)), *(str(bd[c]) for c in categories), str(bd["total"]),
                      str(ranks[p] + 1))
    return table


def save_game(state: GameState, seed: int, specs: list[str], path: str, actions: list[int] | None = None) -> str:
    """Write the game record (game, seed, options, pack, every action, agents); ``actions``: the applied
    actions, for a game whose state keeps no history (Cave Troll)."""
    from mk_env.records import record_from_state, save_record
    if hasattr(state, "history"):
        actions = None
    return str(save_record(record_from_state(state, seed, agents=list(specs), actions=actions), path))


def _cmd(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.text import Text
    console = Console(width=None if sys.stdout.isatty() else 120)
    if args.trust:  # ppo:PATH may name an SB3 zip (docs/security.md)
        from agents.ppo import trust_agents
        args.agents = trust_agents(args.agents)
    specs = parse_agents(args.agents)
    entry = game_entry(args.game)
    counts = entry.player_counts
    if len(specs) not in counts:
        raise cli.UsageError(f"--agents: the game is for {counts[0]} to {counts[-1]} players, "
                             f"got {len(specs)} agents")
    options = game_options(args.game, board_side=args.board_side, team_mode=args.teams or None,
                           payment=args.payment)
    if args.teams and len(specs) != 4:
        raise cli.UsageError(f"--teams: team play is for 4 agents (seats 0+3 against 1+2), got {len(specs)}")
    game = make_game(len(specs), options, args.game)  # a bad option is refused before the game is played
    t0 = time.perf_counter()
    actions: list[int] = []
    state = run_game(specs, args.seed, game=game, actions=actions)
    console.print(score_table(state, specs, title=f"{entry.title}, seed {args.seed}: {state.turn + 1} turns, "
                                                  f"{len(actions)} decisions, "
                                                  f"{time.perf_counter() - t0:.1f} s"))
    if args.replay:
        saved = save_game(state, args.seed, specs, args.replay, actions)
        console.print(Text(f"game record saved to {printable(saved)}"))
    return 0


def game_options(game: str, **options: Any) -> dict[str, Any]:
    """The options given (those not None) for ``game``; one its rules do not take is a
    :class:`~training.cli.UsageError` naming the game's options."""
    given = {k: v for k, v in options.items() if v is not None}
    entry = game_entry(game)
    for key in given:
        if key not in entry.options:
            flag = "--teams" if key == "team_mode" else "--" + key.replace("_", "-")
            raise cli.UsageError(f"{flag} is not an option of {game} (its game options: "
                                 f"{', '.join(entry.options) or 'none'})")
    return given


def option_of(option: str) -> str:
    """Which games take game option ``option`` (the game card's ``options``), for a flag's help."""
    games = [e.name for e in GAMES.values() if option in e.options]
    return f"a game option of {', '.join(games)}" if games else "no game takes it"


def add_game_argument(parser, supported: tuple[str, ...] | None = None, default: str | None = DEFAULT_GAME) -> None:
    """``--game NAME``, one of the suite's games (default: the first game; ``default=None`` lets a command
    tell a game not given). A command that serves only some of them names them in ``supported``: another
    game is then refused when the command runs (:func:`refuse_other_games`), in one line that names what is
    supported."""
    names = game_names()
    parser.add_argument("--game", choices=names, default=default,
                        help=f"the game: {', '.join(supported or names)} (default {DEFAULT_GAME})")
    parser.set_defaults(supported_games=supported or names)


def refuse_other_games(args: argparse.Namespace, command: str) -> None:
    """A :class:`~training.cli.UsageError` if ``--game`` names a game ``command`` does not serve yet."""
    if args.game not in args.supported_games:
        raise cli.UsageError(f"--game {args.game}: mk-env {command} serves {', '.join(args.supported_games)} "
                             f"only so far")


def register(subparsers) -> None:
    p = subparsers.add_parser("play", help="play one game between agents and show the final scores",
                              description="Play one game between agents (spec strings: random, "
                                          "heuristic, mcts, mcts:400, mcts:2s, ppo:PATH).")
    p.add_argument("--agents", required=True, help="comma-separated agent specs, one per seat (2-5)")
    add_game_argument(p)
    p.add_argument("--seed", type=cli.seed, default=0, help="game seed, >= 0 (default 0)")
    p.add_argument("--board-side", default=None,
                   help=f"board side (default: by player count; {option_of('board_side')})")
    p.add_argument("--trust", action="store_true",
                   help="let ppo:PATH name a Stable-Baselines3 .zip (loading one unpickles code: only "
                        "files you trust; docs/security.md)")
    p.add_argument("--replay", metavar="FILE", type=cli.out_file, default=None,
                   help="save the game record to FILE")
    p.add_argument("--payment", choices=("auto", "choose"), default=None,
                   help="who picks the tokens that pay: auto (the engine's fixed order, default) or choose "
                        f"(the payer; {option_of('payment')})")
    p.add_argument("--teams", action="store_true",
                   help=f"team variant: 4 agents, seats 0 and 3 against seats 1 and 2 ({option_of('team_mode')})")
    p.set_defaults(func=_cmd)
