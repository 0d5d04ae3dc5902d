"""The game card's row of *Take-away*: all the suite needs to know of the game. :func:`plug_in` adds it to
:data:`mk_env.games.GAMES` (as a row written in ``mk_env/games.py`` would be) before PettingZoo and Gymnasium
are imported, so the registration of ``import mk_env`` registers it with the other games."""

from __future__ import annotations

from mk_env.games import GAMES, GameEntry

ROW = GameEntry("take_away", "Take-away", (2, 3, 4), "take_away.rules:Game", "take_away.env",
                "take_away.rules:check", "take_away.evaluation", "TakeAway",
                "take_away.env.single_seat:SingleSeatTakeAway", "take_away.env.replay:TAKE_AWAY_VIEW")


def plug_in() -> None:
    """Adds the row to the game card (once)."""
    GAMES.setdefault(ROW.name, ROW)


if __name__ == "__main__":  # python tests/take_away/plug_in.py pytest ARGS... | mk-env ARGS...
    import sys
    from pathlib import Path

    sys.path.append(str(Path(__file__).resolve().parents[1]))  # the folder holding take_away/
    plug_in()
    tool, args = sys.argv[1], sys.argv[2:]
    if tool == "pytest":
        import pytest

        raise SystemExit(pytest.main(args))
    from training.cli import main

    raise SystemExit(main(args))
