"""One table of ``mk-env serve``: a game of the suite where some seats are people and the others agents.

A person's move is applied only at a person's decision (and, when the move names its seat, that seat's); the
agents then play until a person decides again or the game ends. A refused move raises with the engine's
explanation and changes nothing. ``undo`` takes back the last person's move and everything after it (the game
is replayed from its seed). ``record()`` is the game's :mod:`mk_env.records` record (the seats' names in
``agents``: ``human`` or the agent's spec), and :meth:`Table.from_record` sits down at a saved game again.

What a seat is shown (:meth:`Table.view`) comes from that seat's :class:`~mk_env.core.view.PlayerView`: the
picture is drawn from its public copy of the state, so nothing the seat may not know is on it.
"""

from __future__ import annotations

import base64
import io
import threading
from typing import Any

import numpy as np

from agents import make_agent
from mk_env.core.errors import IllegalActionError
from mk_env.core.view import PlayerView
from mk_env.games import game_entry, game_name, load, make_game
from mk_env.records import GameRecord, game_of, record_of_game

from .play import agent_rng

HUMAN = "human"
#: the moves listed with each view (the last ones, newest last)
HISTORY_SHOWN = 12


class Table:
    """A game in progress with people and agents seated (see the module docstring); ``actions``: the moves
    already made (a saved game), replayed before the agents play on."""

    def __init__(self, game: str, seats: list[str], seed: int = 0, actions: list[int] | None = None):
        entry = game_entry(game)
        if len(seats) not in entry.player_counts:
            raise ValueError(f"{entry.title} is for {', '.join(map(str, entry.player_counts))} players, "
                             f"got {len(seats)} seats")
        self.name, self.seats, self.seed = game, [str(s) for s in seats], int(seed)
        self.agents = {p: make_agent(s) for p, s in enumerate(self.seats) if s != HUMAN}
        for p, agent in self.agents.items():
            getattr(agent, "reset", lambda *_: None)(p, len(seats))
        self.game = make_game(game, len(seats))
        self.lock = threading.RLock()
        self._start(list(actions or []))

    def _start(self, actions: list[int]) -> None:
        """The game from its seed with ``actions`` applied, then the agents' turns."""
        self.state = self.game.new_initial_state(self.seed)
        self.actions: list[int] = []
        self.deciders: list[int] = []  # the seat of each action
        self.described: list[str] = []  # each action in words
        self._drawn = (None,)
        self.rngs = {p: agent_rng(self.seed, p) for p in self.agents}
        for a in actions:
            self._apply(int(a))
        self.advance()

    def _apply(self, action: int) -> None:
        seat = self.state.current_player()
        if not self.state.is_legal(action):
            self.state.apply(action)  # raises the rule the move breaks, changing nothing
        words = self.state.describe_action(action)
        self.state.apply(action)
        self.actions.append(action)
        self.deciders.append(seat)
        self.described.append(words)
        self._drawn: tuple = (None,)  # the position changed: draw it again

    @property
    def over(self) -> bool:
        return bool(self.state.is_terminal())

    def to_move(self) -> int:
        """The seat deciding now (-1: the game is over)."""
        return -1 if self.over else int(self.state.current_player())

    def people_to_move(self) -> bool:
        return not self.over and self.seats[self.to_move()] == HUMAN

    def advance(self, limit: int = 100_000) -> None:
        """The agents play until a person decides or the game ends."""
        for _ in range(limit):
            if self.over or self.people_to_move():
                return
            p = self.to_move()
            self._apply(int(self.agents[p].act(PlayerView(self.state, p), self.rngs[p])))

    def move(self, action: Any, seat: int | None = None) -> None:
        """A person's move: refused (IllegalActionError, nothing changed) unless a person decides now (seat
        ``seat``, when given) and ``action`` is legal."""
        with self.lock:
            if self.over:
                raise IllegalActionError("the game is over: no move is legal (undo, or start a new table)")
            p = self.to_move()
            if self.seats[p] != HUMAN:
                raise IllegalActionError(f"seat {p} ({self.seats[p]}) decides now, not a person")
            if seat is not None and seat != p:
                raise IllegalActionError(f"it is seat {p}'s decision, not seat {seat}'s")
            if isinstance(action, bool) or not isinstance(action, (int, np.integer)):
                raise IllegalActionError(f"a move is an action number, got {action!r}")
            self._apply(int(action))
            self.advance()

    def undo(self) -> None:
        """Take back the last person's move and all that followed (nothing to take back: ValueError)."""
        with self.lock:
            people = [i for i, p in enumerate(self.deciders) if self.seats[p] == HUMAN]
            if not people:
                raise ValueError("no move of a person to take back")
            self._start(self.actions[:people[-1]])

    def record(self) -> GameRecord:
        """The game's record, the seats' names as its agents."""
        record = record_of_game(self.game, self.seed, self.actions)
        record.agents = list(self.seats)
        return record

    @classmethod
    def from_record(cls, record: GameRecord) -> Table:
        """A table at the position of a saved game, the same seats (a record without seats: all people)."""
        game = game_of(record)
        seats = record.agents or [HUMAN] * game.num_players
        return cls(game_name(game), seats, record.seed, record.actions)

    # -- what a seat sees -------------------------------------------------------------------------------
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """The table for ``seat`` (default: the person to move, else seat 0): picture, moves, scores."""
        with self.lock:
            st, n = self.state, len(self.seats)
            shown = seat if seat is not None else (self.to_move() if self.people_to_move() else 0)
            pv = PlayerView(st, shown)
            moves = ([{"action": int(a), "move": st.describe_action(int(a))} for a in st.legal_actions()]
                     if self.people_to_move() and (seat is None or seat == self.to_move()) else [])
            ranks = st.ranks() if self.over else None
            scores = [{"seat": p, "agent": self.seats[p], **{k: int(v) for k, v in st.score_breakdown(p).items()},
                       **({"rank": int(ranks[p]) + 1} if ranks is not None else {})} for p in range(n)]
            history = [{"seat": p, "move": m} for p, m in list(zip(self.deciders, self.described))[-HISTORY_SHOWN:]]
            return {"game": self.name, "title": game_entry(self.name).title, "seats": self.seats, "seed": self.seed,
                    "seat_shown": shown, "to_move": self.to_move(), "over": self.over,
                    "people_to_move": self.people_to_move(), "decision": "" if self.over else st.decision_kind(),
                    "moves": moves, "scores": scores, "points": game_entry(self.name).points, "history": history,
                    "decisions": len(self.actions), **self._pictures(pv)}

    def _pictures(self, pv: PlayerView) -> dict[str, str]:
        """The picture and text picture of ``pv``'s seat, drawn once per position (polls ask again and again)."""
        key = (len(self.actions), pv.seat)
        if self._drawn[0] != key:
            public = pv.public_state()
            self._drawn = (key, {"picture": picture_png(self.name, public), "text": _text_picture(self.name, public)})
        return self._drawn[1]


def _rendering(game: str) -> Any:
    module = load(game_entry(game).env).raw_env.rendering_module
    return load(module) if isinstance(module, str) else module


def picture_png(game: str, st: Any) -> str:
    """The game's picture of ``st`` as a ``data:`` URL of a PNG."""
    from PIL import Image

    buf = io.BytesIO()
    Image.fromarray(_rendering(game).render_rgb(st)).save(buf, format="PNG", compress_level=1)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _text_picture(game: str, st: Any) -> str:
    """The game's text picture of ``st`` (shown as text by the page, never as markup)."""
    return str(_rendering(game).render_ansi(st))
