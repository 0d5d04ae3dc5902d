"""``mk-env serve``: a table in the browser to play the suite's games against its agents (Flask, on this machine).

Open the page, pick a game, a player count and who sits where (a person, or an agent of the game's ladder), and
play: the board picture, the legal moves to click (or an action number to type: a refused move shows the rule it
breaks and changes nothing), the score table, undo, the game record saved and loaded again, the finished game
in the replay viewer, and the analysis view (what ``heuristic``, ``mcts:16`` or the shipped network thinks of
the decision at hand). Several tabs may share one table (its link holds its id; hot seat, or ``seat=K`` in the
link for one seat a tab): each tab follows the table as it changes.

The JSON API the page uses (``/api/...``) is the app's whole interface: a script can play on it too.
"""

from __future__ import annotations

import argparse
import json
import secrets
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any

from . import cli

PAGE = Path(__file__).parent / "serve_page" / "index.html"
#: tables kept at once (the oldest goes first)
MAX_TABLES = 64


def create_app() -> Any:
    """The Flask app: the page and the API, tables kept in memory."""
    from flask import Flask, Response, jsonify, request

    from agents.analysis import analyse
    from mk_env.core.view import PlayerView
    from mk_env.games import GAMES
    from mk_env.records import GameRecord

    from .serve_table import Table

    app = Flask("mk_env.serve")
    tables: OrderedDict[str, Table] = OrderedDict()
    lock = threading.Lock()

    def keep(table: Table) -> str:
        with lock:
            key = secrets.token_hex(4)
            tables[key] = table
            while len(tables) > MAX_TABLES:
                tables.popitem(last=False)
        return key

    def table_of(key: str) -> Table:
        table = tables.get(key)
        if table is None:
            raise LookupError(f"no table {key!r} (tables live while the server runs; start a new one)")
        return table

    def seat_arg() -> int | None:
        seat = request.args.get("seat")
        return None if seat in (None, "") else int(seat)

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise ValueError("the request's body must be a JSON object")
        return data

    @app.errorhandler(ValueError)
    def refused(e: Exception):  # an illegal move (IllegalActionError is one), bad options, a bad record
        return jsonify({"error": str(e)}), 400

    @app.errorhandler(LookupError)
    def missing(e: Exception):
        return jsonify({"error": str(e.args[0] if e.args else e)}), 404

    @app.get("/")
    def page():
        return Response(PAGE.read_text(encoding="utf-8"), mimetype="text/html")

    @app.get("/api/games")
    def games():
        return jsonify([{"name": e.name, "title": e.title, "player_counts": list(e.player_counts), "points": e.points,
                         "agents": {str(n): list(dict.fromkeys(e.quick_table(n) + e.ladder_table(n)))
                                    for n in e.player_counts}} for e in GAMES.values()])

    @app.post("/api/tables")
    def new_table():
        data = body()
        seats, seed = data.get("seats"), data.get("seed", 0)
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise ValueError("seats must be a list of 'human' or agent specs, one per seat")
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a whole number >= 0, got {seed!r}")
        table = Table(str(data.get("game")), seats, seed)
        return jsonify({"id": keep(table), "view": table.view()})

    @app.get("/api/tables/<key>")
    def view(key: str):
        return jsonify(table_of(key).view(seat_arg()))

    @app.post("/api/tables/<key>/move")
    def move(key: str):
        table, data = table_of(key), body()
        seat = data.get("seat")
        table.move(data.get("action"), None if seat in (None, "") else int(seat))
        return jsonify(table.view(seat_arg()))

    @app.post("/api/tables/<key>/undo")
    def undo(key: str):
        table = table_of(key)
        table.undo()
        return jsonify(table.view(seat_arg()))

    @app.get("/api/tables/<key>/record")
    def record(key: str):
        text = json.dumps(table_of(key).record().to_dict(), indent=1) + "\n"
        return Response(text, mimetype="application/json",
                        headers={"Content-Disposition": f"attachment; filename=game-{key}.json"})

    @app.post("/api/tables/load")
    def load_table():
        table = Table.from_record(GameRecord.from_dict(body(), source="the loaded record"))
        return jsonify({"id": keep(table), "view": table.view()})

    @app.get("/api/tables/<key>/replay")
    def replay(key: str):
        from mk_env.core.env.replay_page import build_html

        return Response(build_html(table_of(key).record()), mimetype="text/html")

    @app.post("/api/tables/<key>/analysis")
    def analysis(key: str):
        table, agent = table_of(key), str(body().get("agent", "heuristic"))
        with table.lock:
            if table.over:
                raise ValueError("the game is over: there is no decision to analyse")
            seat = table.to_move()
            return jsonify({"seat": seat, **analyse(agent, PlayerView(table.state.clone(), seat),
                                                     seed=len(table.actions))})

    return app


def main(args: argparse.Namespace) -> int:
    from werkzeug.serving import make_server

    server = make_server(args.host, args.port, create_app(), threaded=True)
    print(f"mk-env serve: the table is at http://{args.host}:{server.server_port}/ (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped; the tables were kept in memory only (save a game's record to keep it)")
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``mk-env serve``."""
    p = subparsers.add_parser("serve", help="a table in the browser: play the games against the agents",
                              description=__doc__.split("\n\n")[0])
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1: this machine)")
    p.add_argument("--port", type=cli.port, default=8000, help="port (default 8000; 0: any free one)")
    p.set_defaults(func=main)
