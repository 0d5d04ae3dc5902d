"""A smoke run of the benchmark: it runs and reports every figure (not how fast)."""

import pytest

from script_loader import load_script

from mk_env.games import game_names
from training.bench import run
from training.cli import main


@pytest.mark.parametrize("game", game_names())
def test_bench_reports_every_figure(game):
    """Every game of the suite gets every figure: one path, no game left with fewer."""
    report = run([2], seconds=0.2, game=game)
    assert report["game"] == game
    fig = report["players"][2]
    assert fig["env"]["steps"] > 0 and fig["env"]["steps_per_s"] > 0
    assert fig["env"]["steps_per_cpu_s"] > 0 and 0 < fig["env"]["cpu_share"] <= 1.5
    assert fig["engine"]["decisions_per_s"] > 0
    assert set(fig["ops"]) == {"clone_us", "json_save_us", "json_load_us", "mask_us", "observation_us",
                               "observation_play_us", "policy_us"}
    assert all(v > 0 for v in fig["ops"].values())
    assert fig["memory"]["game_peak_mb"] > 0
    assert len(report["load_avg_before"]) == 3 and len(report["load_avg_after"]) == 3


def test_bench_command_line(tmp_path, capsys):
    out = tmp_path / "bench.json"
    assert main(["bench", "--players", "3", "--seconds", "0.1", "--json", str(out)]) == 0
    assert out.exists() and "steps_per_s" in out.read_text()
    assert "env steps/s" in capsys.readouterr().out


def test_instruction_count_says_when_valgrind_is_missing(monkeypatch, capsys):
    module = load_script("benchmarks/instructions.py")
    monkeypatch.setattr(module.shutil, "which", lambda name: None)
    assert module.main(["--steps", "10"]) == 2
    assert "valgrind is not installed" in capsys.readouterr().err


@pytest.mark.slow
def test_instruction_count_per_step(capsys):
    module = load_script("benchmarks/instructions.py")
    if module.shutil.which("valgrind") is None:
        pytest.skip("valgrind is not installed")
    assert module.main(["--steps", "30", "--players", "2"]) == 0
    out = capsys.readouterr().out
    per_step = int(out.split("steps: ")[1].split(" instructions")[0].replace(",", ""))
    assert per_step > 1000
