"""The HTML replay page in a real headless browser (Debian's chromium), with the network off; the
``mk-env replay`` command."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from mk_env.records import replay, save_record
from mk_env.env.replay_html import build_html, frame_steps
from training.cli import main
from training.replay import demo_record

CHROMIUM = shutil.which("chromium")
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no `chromium` binary on PATH (apt-get install -y chromium) to open the page")


@pytest.fixture(scope="module")
def record():
    return demo_record(2, seed=1, max_actions=60)


@pytest.fixture(scope="module")
def page(record, tmp_path_factory):
    path = tmp_path_factory.mktemp("page") / "replay.html"
    path.write_text(build_html(record), encoding="utf-8")
    return path


def dump_dom(page, fragment: str, tmp_path) -> str:
    """The page's DOM after its scripts ran, as chromium sees it from file:// with no network."""
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
           "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
           "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
           f"--user-data-dir={tmp_path / 'chromium-profile'}", "--virtual-time-budget=2000",
           "--dump-dom", page.as_uri() + fragment]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def shown_scores(dom: str) -> dict[int, int]:
    return {int(p): int(s) for p, s in re.findall(r'data-player="(\d+)" data-score="(-?\d+)"', dom)}


def test_the_page_is_self_contained(page):
    text = page.read_text()
    assert not re.search(r"https?://", text), "the page must not fetch anything"
    assert 'src="http' not in text and "<link" not in text
    assert text.count("data:image/png;base64,") >= 2
    assert page.stat().st_size < 2_000_000


def test_frames_per_turn_cover_the_first_and_last_step(record):
    states = list(replay(record))
    keep = frame_steps(states)
    assert keep[0] == 0 and keep[-1] == len(states) - 1
    assert len(keep) < len(states) / 2
    assert frame_steps(states, "decision") == list(range(len(states)))
    with pytest.raises(ValueError, match="frames='every'"):
        frame_steps(states, "every")


@needs_chromium
@pytest.mark.parametrize("step", [0, 37, 60])
def test_the_page_shows_the_engine_scores_at_a_step(record, page, tmp_path, step):
    state = list(replay(record))[step]
    dom = dump_dom(page, f"#step={step}", tmp_path)
    assert f'data-step="{step}"' in dom
    assert shown_scores(dom) == {p: state.score_breakdown(p)["total"] for p in range(2)}
    if step:
        words = state.game.layout.describe(record.actions[step - 1])
        assert words.replace("'", "&#39;") in dom or words in dom.replace("&#39;", "'")
    assert 'id="frame"' in dom and "data:image/png;base64," in dom


@needs_chromium
def test_arrow_keys_step_forward_and_back(record, page, tmp_path):
    dom = dump_dom(page, "#step=20&selftest", tmp_path)
    result = re.search(r'<pre id="selftest"[^>]*data-result="(\w+)"[^>]*>([^<]*)</pre>', dom)
    assert result, "the self-test did not run"
    assert result.group(1) == "pass", result.group(2)
    assert '"seen":[21,22,21]' in result.group(2)
    state = list(replay(record))[21]
    assert shown_scores(dom) == {p: state.score_breakdown(p)["total"] for p in range(2)}


def test_the_replay_command_writes_page_and_gif(record, tmp_path, capsys):
    path = save_record(record, tmp_path / "game.json")
    html, gif = tmp_path / "out.html", tmp_path / "out.gif"
    assert main(["replay", str(path), "--html", str(html), "--gif", str(gif), "--quiet"]) == 0
    assert html.read_text().startswith("<!doctype html>")
    assert gif.read_bytes()[:6] == b"GIF89a"
    assert "replayed 60 actions: game not finished" in capsys.readouterr().out


def test_the_replay_command_reports_a_bad_record(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format_version": 99, "pack_id": "x", "options": {"num_players": 2}, "seed": 1, '
                   '"actions": []}')
    assert main(["replay", str(bad)]) == 2
    assert "newer than this mk_env reads" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "missing.json")]) == 2
    assert "file not found" in capsys.readouterr().err
