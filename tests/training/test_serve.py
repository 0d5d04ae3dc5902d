"""``mk-env serve`` (training/serve.py, training/serve_table.py): its API through Flask's test client, every game,
and the table in a real headless browser (Debian's chromium driven by Playwright): a whole game against
``random`` played by clicks, a refused move, undo, save and reload, the analysis view and the replay viewer."""

from __future__ import annotations

import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from mk_env.games import game_names
from training.serve import create_app
from training.serve_table import Table

pytest.importorskip("flask")
CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def client():
    return create_app().test_client()


def _new(client, game: str, seats: list[str], seed: int = 1) -> tuple[str, dict]:
    r = client.post("/api/tables", json={"game": game, "seats": seats, "seed": seed})
    assert r.status_code == 200, r.json
    return r.json["id"], r.json["view"]


@pytest.mark.parametrize("game", game_names())
def test_a_whole_game_against_random_with_a_refused_move_undo_and_reload(client, game) -> None:
    key, view = _new(client, game, ["human", "random"])
    refused = client.post(f"/api/tables/{key}/move", json={"action": 10**6})
    assert refused.status_code == 400 and "outside the action space" in refused.json["error"]
    assert client.get(f"/api/tables/{key}").json["decisions"] == view["decisions"]  # nothing changed
    wrong_seat = client.post(f"/api/tables/{key}/move", json={"action": view["moves"][0]["action"], "seat": 1})
    assert wrong_seat.status_code == 400 and "not seat 1's" in wrong_seat.json["error"]
    moves = 0
    while not view["over"]:
        assert view["people_to_move"] and view["moves"] and view["picture"].startswith("data:image/png;base64,")
        before = view["decisions"]
        view = client.post(f"/api/tables/{key}/move", json={"action": view["moves"][0]["action"]}).json
        assert view["decisions"] > before
        moves += 1
        if moves == 2:
            undone = client.post(f"/api/tables/{key}/undo").json
            assert undone["decisions"] < view["decisions"] and undone["people_to_move"]
            view = undone
    assert all("rank" in s for s in view["scores"]) and view["moves"] == []
    over = client.post(f"/api/tables/{key}/move", json={"action": 0})
    assert over.status_code == 400 and "game is over" in over.json["error"]
    record = client.get(f"/api/tables/{key}/record").json
    assert record["agents"] == ["human", "random"] and (record.get("game") or "mountain_king") == game
    again = client.post("/api/tables/load", json=record).json["view"]
    assert again["over"] and again["scores"] == view["scores"]
    assert b"<html" in client.get(f"/api/tables/{key}/replay").data[:2000].lower()


@pytest.mark.parametrize("agent, kind, figure", [("heuristic", "lookahead", "value"), ("mcts:4", "search", "visits"),
                                                 ("random", "choice", None)])
def test_the_analysis_view_says_what_an_agent_thinks(client, agent, kind, figure) -> None:
    key, view = _new(client, "cave_troll", ["human", "human"], seed=2)
    while len(view["moves"]) < 2:
        view = client.post(f"/api/tables/{key}/move", json={"action": view["moves"][0]["action"]}).json
    r = client.post(f"/api/tables/{key}/analysis", json={"agent": agent}).json
    assert r["kind"] == kind and r["seat"] == view["to_move"] and r["choice"] in [m["action"] for m in view["moves"]]
    if figure:
        assert r["moves"] and all(figure in m and m["move"] for m in r["moves"])


def test_the_shipped_network_shows_its_priors_and_value(client) -> None:
    key, _ = _new(client, "mountain_king", ["human", "random"])
    r = client.post(f"/api/tables/{key}/analysis", json={"agent": "aznet:default"}).json
    assert r["kind"] == "network" and len(r["value"]) == 2
    assert abs(sum(m["prior"] for m in r["moves"]) - 1) < 1e-3


@pytest.mark.parametrize("body, message", [
    ({"game": "chess", "seats": ["human", "random"]}, "unknown game"),
    ({"game": "cave_troll", "seats": ["human"] * 5}, "is for 2, 3, 4 players"),
    ({"game": "cave_troll", "seats": ["human", "grandmaster"]}, "unknown agent spec"),
    ({"game": "cave_troll", "seats": "human"}, "seats must be a list"),
    ({"game": "cave_troll", "seats": ["human", "random"], "seed": -1}, "seed must be"),
])
def test_a_bad_table_is_refused_in_one_line(client, body, message) -> None:
    r = client.post("/api/tables", json=body)
    assert r.status_code == 400 and message in r.json["error"]


def test_unknown_tables_and_bad_records_are_refused(client) -> None:
    assert client.get("/api/tables/nope").status_code == 404
    assert "format_version" in client.post("/api/tables/load", json={"actions": []}).json["error"]
    assert client.post("/api/tables/load", data="not json").status_code == 400
    key, _ = _new(client, "fall_of_the_mountain_king", ["human", "random"])
    assert "no move of a person" in client.post(f"/api/tables/{key}/undo").json["error"]


def test_an_agents_turn_is_not_a_persons_move() -> None:
    table = Table("cave_troll", ["human", "human", "random"], seed=4)
    while table.to_move() != 2 and not table.over:
        table.move(int(table.state.legal_actions()[0]))
    table.seats[0] = "random"  # a seat that is no person's
    if table.to_move() == 0:
        with pytest.raises(ValueError, match="not a person"):
            table.move(int(table.state.legal_actions()[0]))


# ------------------------------------------------------------------------------------------ in a browser
@pytest.fixture(scope="module")
def server():
    from werkzeug.serving import make_server

    srv = make_server("127.0.0.1", 0, create_app(), threaded=True)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_port}/"
    srv.shutdown()


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install -e '.[dev]')")
    if CHROMIUM is None:
        pytest.skip("no `chromium` binary on PATH (apt-get install -y chromium)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


def _click_and_wait(page, selector: str) -> None:
    """Click, then wait until the page shows another position (its ``data-decisions`` changes)."""
    before = page.evaluate("document.body.dataset.decisions")
    page.click(selector)
    page.wait_for_function(f"document.body.dataset.decisions !== {json.dumps(before)}")


@pytest.mark.parametrize("game", game_names())
def test_the_table_in_a_browser(game, server, browser, tmp_path) -> None:
    page = browser.new_page(viewport={"width": 1500, "height": 1000}, accept_downloads=True)
    page.goto(server)
    page.select_option("#game", game)
    page.select_option("#players", "2")
    page.select_option("#seat-1", "random")
    page.click("#start")
    page.wait_for_function("document.body.dataset.decisions !== undefined")
    page.fill("#action-number", "999999")  # a refused move: the rule's words, nothing changes
    page.click("#play-number")
    page.wait_for_function("document.querySelector('#error').textContent.includes('refused')")
    page.select_option("#analysis-agent", "heuristic")
    page.click("#analyse")
    page.wait_for_function("document.querySelector('#analysis-note').textContent.includes('would play')")
    clicks = 0
    while page.query_selector("#moves button.move"):
        _click_and_wait(page, "#moves button.move >> nth=0")
        clicks += 1
        if clicks == 2:
            _click_and_wait(page, "#undo")
    assert "the game is over" in page.text_content("#status") and page.query_selector("#scores th:has-text('rank')")
    shots = os.environ.get("MK_ENV_SCREENSHOTS")
    page.screenshot(path=str(Path(shots) / f"{game}.png") if shots else str(tmp_path / "table.png"))
    with page.expect_download() as saved:
        page.click("#save")
    path = tmp_path / "game.json"
    saved.value.save_as(path)
    assert json.loads(path.read_text())["agents"] == ["human", "random"]
    first = page.url
    page.set_input_files("#load", str(path))
    page.wait_for_function(f"location.href !== {json.dumps(first)}")  # a new table, the saved game at its end
    assert "the game is over" in page.text_content("#status") and "table=" in page.url
    replay = page.request.get(server.rstrip("/") + page.get_attribute("#replay", "href"))  # the viewer's page
    assert replay.ok and "<html" in replay.text()[:2000].lower()  # (opened in a browser: tests/test_replay_page.py)
    page.close()
