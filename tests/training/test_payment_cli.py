"""``--payment choose`` on the command line (mk-env play, tournament): the option reaches the game, its
record keeps it, and a game without the option refuses it in one line."""

from __future__ import annotations

import json

from training.cli import main


def test_play_with_choose_payment_records_the_option(tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["play", "--agents", "random,random", "--payment", "choose", "--seed", "1",
                 "--replay", str(record)]) == 0
    assert json.loads(record.read_text())["options"]["payment"] == "choose"
    assert main(["replay", str(record)]) == 0
    assert "final scores match the record" in capsys.readouterr().out


def test_payment_is_refused_for_a_game_without_it(capsys):
    assert main(["play", "--agents", "random,random", "--game", "cave_troll", "--payment", "choose"]) != 0
    assert "--payment is not an option of cave_troll" in capsys.readouterr().err
