"""The games of the suite, in one table (the game card): how to build each one's rules engine, its PettingZoo
env package, its version, its ids with PettingZoo and Gymnasium, the checker of its invariants, and the
evaluation its ``heuristic`` and ``mcts`` agents use, and how its records show on the replay page.

A game's environment version lives in its ``version`` module (``ENV_VERSION``, with its history); its ids and
its versioned module ``mk_env.<name>_v<ENV_VERSION>`` derive from it (:mod:`mk_env.versioned`,
:mod:`mk_env.registration`), so a version bump is one line.

Commands take ``--game NAME`` and look the game up here (:func:`game_entry`), so no command holds an
if-chain over games. Modules are named as ``"package.module:attribute"`` strings and imported on first use
(as agents' entry points are, :mod:`agents.registry`): the table imports no game, and ``evaluation`` names
a module of the agents' layer without this layer importing it.

>>> state = make_game("cave_troll", 3).new_initial_state(seed=1)
>>> game_name(state.game)
'cave_troll'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

#: the game a command plays when ``--game`` is not given (the first game of the suite)
DEFAULT_GAME = "mountain_king"


@dataclass(frozen=True)
class GameEntry:
    """One game of the suite."""

    name: str  # the ``--game`` value, ``Game.name`` and the stem of its ids (``<name>_v<N>``)
    title: str  # the game's printed title
    player_counts: tuple[int, ...]  # the numbers of players its rules allow
    game: str  # "module:Game": ``Game(num_players, **options)`` builds a game
    env: str  # the PettingZoo env package (``env``, ``raw_env``, ``single_seat_env``, ``ENV_NAME``, ...)
    invariants: str  # "module:function(state)": raises when a state breaks an invariant
    evaluation: str  # the agents' module with candidates / quick_action / settle / evaluate / lookahead_values
    gymnasium_name: str  # the Gymnasium id's name: ``mk_env/<gymnasium_name>-v<N>``
    single_seat: str  # "module:Class", the single-seat ``gymnasium.Env`` the Gymnasium id makes
    view: str = ""  # "module:VIEW": how a record shows on the replay page and in ``mk-env replay``
    options: tuple[str, ...] = ()  # the game options a command may pass on (besides num_players)
    points: str = "points"  # what the game's score is called in its rules (leaderboards, charts)
    #: the feature extractors of agents.networks its observation fits, the default first (``cnn`` reads the
    #: first game's board as a grid; a game without a grid is read flat through an MLP)
    extractors: tuple[str, ...] = ("flat",)
    #: the module with what ``mk-env soak`` needs beyond the engine protocol (options drawn, policies, checks:
    #: :mod:`training.soak_rules`); empty: the generic soak over the ``invariants`` checker
    soak: str = ""
    #: the agents of ``mk-env tournament`` without ``--agents`` (a table that finishes in about two minutes on
    #: two cores), and the game's ladder, weakest first (what a newcomer's agent is measured against)
    quick_agents: tuple[str, ...] = ("random", "heuristic")
    ladder: tuple[str, ...] = ("random", "heuristic", "mcts:16")
    #: the shipped networks' agent specs: trained for 2 players, they join the tables of 2 only
    networks: tuple[str, ...] = ()
    #: "module:Class", the batched ``gymnasium.vector.VectorEnv`` ``gymnasium.make_vec`` makes of the id (its
    #: ``vector_entry_point``); empty: Gymnasium's copies of the single-seat view
    vector: str = ""

    def quick_table(self, players: int) -> tuple[str, ...]:
        """The quick tournament's agents at ``players`` players."""
        return self._at(self.quick_agents, players)

    def ladder_table(self, players: int) -> tuple[str, ...]:
        """The ladder's rungs at ``players`` players."""
        return self._at(self.ladder, players)

    def _at(self, specs: tuple[str, ...], players: int) -> tuple[str, ...]:
        return tuple(a for a in specs if players == 2 or a not in self.networks)

    def game_class(self) -> Any:
        """The game's ``Game`` class (its module imported on first use)."""
        return load(self.game)

    def make(self, num_players: int, **options: Any) -> Any:
        """A ``Game`` for ``num_players`` with ``options``."""
        return self.game_class()(num_players, **options)

    def page_view(self) -> Any:
        """How the game shows on the replay page (:class:`~mk_env.core.env.replay_page.PageView`)."""
        return load(self.view)

    def check_invariants(self) -> Callable[[Any], None]:
        """The game's invariant checker: ``check(state)`` raises naming the broken facts."""
        return load(self.invariants)

    @property
    def version_module(self) -> str:
        """The module holding ``ENV_VERSION`` and ``VERSION_HISTORY`` (light: imports no RL library)."""
        return f"{self.env}.version"

    def env_version(self) -> int:
        """The environment's current version, ``ENV_VERSION`` of its version module."""
        return int(load(f"{self.version_module}:ENV_VERSION"))

    def env_name(self, version: int | None = None) -> str:
        """The PettingZoo id and versioned module's name, ``<name>_v<N>`` (the current version by default)."""
        return f"{self.name}_v{self.env_version() if version is None else version}"

    def gymnasium_id(self, version: int | None = None) -> str:
        """The Gymnasium id of the single-seat view, ``mk_env/<gymnasium_name>-v<N>``."""
        return f"mk_env/{self.gymnasium_name}-v{self.env_version() if version is None else version}"


GAMES: dict[str, GameEntry] = {e.name: e for e in (
    GameEntry("mountain_king", "In the Hall of the Mountain King", (2, 3, 4, 5), "mk_env.mountain_king.rules:Game",
              "mk_env.mountain_king.env", "mk_env.invariants:check_invariants", "agents.heuristic",
              "MountainKing", "mk_env.mountain_king.env.single_seat:SingleSeatEnv",
              "mk_env.mountain_king.env.replay_html:MOUNTAIN_KING_VIEW",
              ("board_side", "workshops", "team_mode", "payment"), points="honour", extractors=("cnn", "flat"),
              soak="mk_env.mountain_king.soak", quick_agents=("random", "heuristic", "aznet:default"),
              ladder=("random", "heuristic", "aznet:default", "mcts:16", "az:default"),
              networks=("aznet:default", "az:default"), vector="mk_env.mountain_king.env.vector:BatchVectorEnv"),
    GameEntry("cave_troll", "Cave Troll", (2, 3, 4), "mk_env.cave_troll.rules:Game", "mk_env.cave_troll.env",
              "mk_env.cave_troll.rules.invariants:check", "agents.cave_troll_heuristic",
              "CaveTroll", "mk_env.cave_troll.env.single_seat:SingleSeatCaveTroll",
              "mk_env.cave_troll.env.replay:CAVE_TROLL_VIEW", points="gold"),
    GameEntry("fall_of_the_mountain_king", "Fall of the Mountain King", (2, 3, 4, 5),
              "mk_env.fall_of_the_mountain_king.rules:Game", "mk_env.fall_of_the_mountain_king.env",
              "mk_env.fall_of_the_mountain_king.rules.invariants:check", "agents.fall_heuristic",
              "FallOfTheMountainKing", "mk_env.fall_of_the_mountain_king.env.single_seat:SingleSeatFall",
              "mk_env.fall_of_the_mountain_king.env.replay:FALL_VIEW", points="honor"),
)}


def game_names() -> tuple[str, ...]:
    """The ``--game`` values, the default first."""
    return tuple(GAMES)


def game_entry(name: str) -> GameEntry:
    """The entry of game ``name``; an unknown name is a ``ValueError`` listing the games."""
    entry = GAMES.get(name) if isinstance(name, str) else None
    if entry is None:
        raise ValueError(f"unknown game {name!r}; the suite's games are: {', '.join(GAMES)}")
    return entry


def make_game(name: str, num_players: int, **options: Any) -> Any:
    """``Game(num_players, **options)`` of game ``name``; a player count its rules do not allow is a
    ``ValueError`` naming the allowed counts."""
    entry = game_entry(name)
    if num_players not in entry.player_counts:
        raise ValueError(f"{entry.title} is for {_counts(entry.player_counts)} players, got {num_players}")
    return entry.make(num_players, **options)


def game_name(game: Any) -> str:
    """The suite name of a ``Game`` (a game without a ``name`` is the first game's)."""
    return getattr(game, "name", DEFAULT_GAME)


def load(entry_point: str) -> Any:
    """Import ``"package.module:attribute"`` (or a plain module name)."""
    module, _, attr = entry_point.partition(":")
    obj = importlib.import_module(module)
    return getattr(obj, attr) if attr else obj


def _counts(counts: tuple[int, ...]) -> str:
    return f"{counts[0]}-{counts[-1]}" if list(counts) == list(range(counts[0], counts[-1] + 1)) else str(counts)
