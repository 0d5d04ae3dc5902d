"""The HTML replay page in a real headless browser (Debian's chromium), with the network off; the
``mk-env replay`` command."""

from __future__ import annotations

import dataclasses
import html
import json
import re
import shutil
import subprocess

import pytest

from mk_env.records import replay, save_record
from mk_env.core.env.replay_page import build_html, fill_template, frame_steps
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


# ------------------------------------------------------------------------------------------ hostile strings
#: record strings that once blanked the page: an HTML comment opener before <script>, a placeholder name
HOSTILE_NAMES = ["<!--<script>", "</script><script>document.body.innerHTML=''</script>__FRAMES__ & __DATA__\u2028"]
HOSTILE_TITLE = "<!--<script> __TITLE__ __DATA__"


def script_payload(page: str, element_id: str) -> str:
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    assert match, f"no #{element_id} script element"
    return match.group(1)


@pytest.fixture(scope="module")
def hostile_page(record, tmp_path_factory):
    text = build_html(dataclasses.replace(record, agents=HOSTILE_NAMES), title=HOSTILE_TITLE)
    path = tmp_path_factory.mktemp("hostile-page") / "replay.html"
    path.write_text(text, encoding="utf-8")
    return path


def test_record_strings_cannot_end_the_script_or_be_substituted_again(record, hostile_page):
    page = hostile_page.read_text(encoding="utf-8")
    data_text, frames_text = script_payload(page, "game-data"), script_payload(page, "frame-data")
    for payload in (data_text, frames_text):
        assert not set("<>&\u2028\u2029") & set(payload)
    data = json.loads(data_text)
    assert data["players"] == HOSTILE_NAMES and data["title"] == HOSTILE_TITLE  # the strings round-trip
    frames = json.loads(frames_text)
    assert len(frames) == len(data["frame_steps"]) and all(f.startswith("data:image/png;base64,") for f in frames)
    assert page.count("<script") == 3 and page.count("</script>") == 3
    assert f"<title>{html.escape(HOSTILE_TITLE)}</title>" in page


def test_placeholders_are_filled_in_one_pass():
    assert fill_template("__TITLE__ / __DATA__ / __FRAMES__", {"TITLE": "__DATA__", "DATA": "__FRAMES__",
                                                               "FRAMES": "f"}) == "__DATA__ / __FRAMES__ / f"


@pytest.mark.skipif(shutil.which("node") is None, reason="no `node` to parse the embedded JSON as the page does")
def test_javascript_reads_the_same_strings_back(hostile_page):
    payload = script_payload(hostile_page.read_text(encoding="utf-8"), "game-data")
    script = ("let s='';process.stdin.on('data',d=>s+=d).on('end',()=>"
              "{const d=JSON.parse(s);console.log(JSON.stringify([d.players,d.title]))})")
    out = subprocess.run(["node", "-e", script], input=payload, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == [HOSTILE_NAMES, HOSTILE_TITLE]


@needs_chromium
def test_the_page_with_hostile_names_still_runs(hostile_page, tmp_path):
    dom = dump_dom(hostile_page, "#step=5&selftest", tmp_path)
    result = re.search(r'<pre id="selftest"[^>]*data-result="(\w+)"', dom)
    assert result and result.group(1) == "pass"
    assert html.escape(HOSTILE_NAMES[0], quote=False) in dom
