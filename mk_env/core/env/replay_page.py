"""A self-contained HTML replay page of a game record of any game of the suite: no server, no network,
everything inline. How a game shows (its status line, score breakdowns, picture, colours, heading) is its
:class:`PageView`, named on its game card (``GameEntry.page_view()``).

The page has a slider over *decisions* (step ``k`` = the state after ``k`` recorded actions; arrow keys
and the buttons move one step, Home/End jump). For every step it shows, as text from embedded JSON, the
action taken in words (``game.layout.describe``), who took it, the turn, the decision awaited next and
every seat's score breakdown (the engine's ``score_breakdown``). The picture (the view's ``render``, e.g. the
first game's board, horde, trollsmoots, storages, spellbook and pedestal track) is an inline PNG data URI.

Size choice: by default (``frames="turn"``) a picture is rendered only when the deciding seat or the
turn changes (and at the first and last step); a step between two pictures shows the latest earlier
picture and lists the decisions since then, the current one highlighted. That keeps a 2-player game
near 1.5 MB instead of ~10 MB (frames are full-size 64-colour PNGs, about 37 kB each).
``frames="decision"`` renders every step.

Hostile strings. Every string from the record or the pack (agent names, pack id, options, action
words) is embedded as JSON with ``<``, ``>``, ``&``, U+2028 and U+2029 written as ``\\uXXXX`` escapes
(so ``</script>`` or ``<!--<script>`` cannot end or hide the script element), the placeholders of the
template are filled in one pass (a string holding ``__FRAMES__`` stays text), and the page shows
strings through ``textContent`` or its ``esc()`` helper, never as markup.

The page honours ``#step=K`` in its URL and ``#selftest`` (dispatches ArrowRight, ArrowRight,
ArrowLeft key events and writes the outcome into ``<pre id="selftest" data-result=...>``). Scores are
exposed for machines as ``<span class="score" data-player=P data-score=S>`` inside ``#scores``.
"""

from __future__ import annotations

import base64
import html
import io
import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mk_env.core.env.pillow import downscale
from mk_env.records import GameRecord, replay

GameState = Any  # any game's state (the engine protocol, :mod:`mk_env.core.protocol`)

FRAME_MODES = ("turn", "decision")


def frame_steps(states: list[GameState], frames: str = "turn") -> list[int]:
    """The steps that get a picture: every step, or the first, the last and each step where the
    deciding seat or the turn changed."""
    if frames not in FRAME_MODES:
        raise ValueError(f"frames={frames!r} is not allowed; use one of {', '.join(FRAME_MODES)}")
    if frames == "decision":
        return list(range(len(states)))
    keep = [0]
    for k in range(1, len(states)):
        a, b = states[k - 1], states[k]
        if b.current_player() != a.current_player() or b.turn != a.turn or k == len(states) - 1:
            keep.append(k)
    return keep


def png_data_uri(state: GameState, scale: float, render: Callable) -> str:
    """The rendered state (``render(state)``: an RGB array) as a palette PNG data URI. 64 colours are
    plenty for flat drawings; the full size (``scale=1``) compresses best, as downscaling blurs edges."""
    image = downscale(render(state), scale).quantize(colors=64, method=2)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def score_breakdowns(state: GameState) -> list[dict[str, int]]:
    """The engine's score breakdown of every seat (points by scoring category, and ``total``)."""
    return [state.score_breakdown(p) for p in range(state.num_players)]


def status_line(state: GameState) -> str:
    """Who decides what, or who won (every seat of rank 0): a game's view may say more."""
    head = f"{state.num_players} players, turn {state.turn}"
    if state.is_terminal():
        winners = " & ".join(str(p) for p, rank in enumerate(state.ranks()) if rank == 0)
        return f"{head}: game over, winner seat {winners}"
    return f"{head}: seat {state.current_player()} to decide ({state.decision_kind()})"


@dataclass(frozen=True)
class PageView:
    """How a game of the suite shows on the page: its status line, its score breakdowns, its picture,
    each seat's colour (``#rrggbb``) and the words after the player count in the heading; ``text``: its
    text picture ``text(state, color)`` (``mk-env replay`` prints it)."""

    status: Callable[[GameState], str]
    scores: Callable[[GameState], list[dict[str, int]]]
    render: Callable[[GameState], object]
    colours: Callable[[GameState], list[str]]
    board: Callable[[GameState], str]
    text: Callable[[GameState, bool], str] | None = None


def step_data(states: list[GameState], actions: list[int], view: PageView) -> list[dict]:
    """What the page shows as text at each step."""
    layout = states[0].game.layout
    out = []
    for k, state in enumerate(states):
        entry = {"turn": int(state.turn), "status": view.status(state), "scores": view.scores(state)}
        if k:
            a = int(actions[k - 1])
            entry.update(seat=int(states[k - 1].current_player()), action=int(a), words=layout.describe(a))
        out.append(entry)
    return out


#: characters that could end or confuse a <script> element (``</script>``, ``<!--``), an HTML entity,
#: or a JavaScript line: written as JSON's ``\\uXXXX`` escapes, which parse back to the same string
_SCRIPT_UNSAFE = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\u2028\u2029"}
_PLACEHOLDER = re.compile(r"__(TITLE|DATA|FRAMES)__")


def _json_for_script(data) -> str:
    """JSON safe inside a <script> element, whatever the strings in ``data`` hold."""
    return json.dumps(data, separators=(",", ":")).translate(_SCRIPT_UNSAFE)


def fill_template(template: str, values: dict[str, str]) -> str:
    """Put ``values["TITLE"]`` etc. in place of ``__TITLE__``... in one pass: text that comes in with
    a value is never searched for placeholders again."""
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)], template)


def build_html(record: GameRecord, *, pack: Any = None, frames: str = "turn", scale: float = 1.0,
               title: str | None = None, view: PageView | None = None) -> str:
    """The page as a string (see the module docstring); ``view``: how the record's game shows (None: its
    game card's view)."""
    if view is None:
        from mk_env.games import DEFAULT_GAME, game_entry

        view = game_entry(record.game or DEFAULT_GAME).page_view()
    states = list(replay(record, pack))
    keep = frame_steps(states, frames)
    steps = step_data(states, record.actions, view)
    j = 0
    for k in range(len(states)):
        while j + 1 < len(keep) and keep[j + 1] <= k:
            j += 1
        steps[k]["frame"] = j
    n = record.num_players
    names = record.agents or [f"seat {p}" for p in range(n)]
    data = {
        "title": title or f"Game record: {n} players, seed {record.seed}",
        "options": record.options, "pack_id": record.pack_id, "seed": record.seed,
        "players": names, "colours": view.colours(states[0]),
        "categories": [c for c in steps[0]["scores"][0] if c != "total"],
        "frame_steps": keep, "steps": steps, "board_side": view.board(states[0]),
    }
    frame_uris = [png_data_uri(states[k], scale, view.render) for k in keep]
    return fill_template(_TEMPLATE, {"TITLE": html.escape(data["title"]), "DATA": _json_for_script(data),
                                     "FRAMES": _json_for_script(frame_uris)})


def write_html(record: GameRecord, path: str | os.PathLike, **kwargs) -> Path:
    """Write :func:`build_html` to ``path`` (parent folders created). Returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(build_html(record, **kwargs), encoding="utf-8")
    return path


_TEMPLATE = r"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>__TITLE__</title>
<style>
 body { font-family: system-ui, sans-serif; background: #ece9e2; color: #141418; margin: 12px; }
 h1 { font-size: 18px; margin: 0 0 6px; }
 #controls { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
 #slider { flex: 1; max-width: 900px; }
 #main { display: flex; gap: 16px; align-items: flex-start; flex-wrap: wrap; }
 #frame { width: min(100%, 960px); border: 1px solid #999; background: #fff; }
 #side { min-width: 320px; max-width: 520px; }
 table { border-collapse: collapse; font-size: 13px; }
 td, th { border: 1px solid #bbb; padding: 2px 6px; text-align: right; }
 th:first-child, td:first-child { text-align: left; }
 .swatch { display: inline-block; width: 11px; height: 11px; border: 1px solid #000; margin-right: 4px; }
 #action { font-size: 15px; min-height: 2.6em; margin: 6px 0; }
 #log { font-size: 12px; padding-left: 22px; max-height: 340px; overflow-y: auto; }
 #log li.now { font-weight: bold; background: #fff3b0; }
 .muted { color: #555; font-size: 12px; }
 kbd { border: 1px solid #888; border-radius: 3px; padding: 0 3px; background: #fff; }
</style></head>
<body>
<h1 id="title">__TITLE__</h1>
<div class="muted" id="meta"></div>
<div id="controls">
 <button id="first" title="first step (Home)">&#9664;&#9664;</button>
 <button id="prev" title="previous step (Left arrow)">&#9664;</button>
 <input type="range" id="slider" min="0" max="0" value="0" aria-label="step">
 <button id="next" title="next step (Right arrow)">&#9654;</button>
 <button id="last" title="last step (End)">&#9654;&#9654;</button>
 <span id="stepinfo"></span>
</div>
<div id="action"></div>
<div id="main">
 <div><img id="frame" alt="the board, horde and trollsmoots"><div class="muted" id="frameinfo"></div></div>
 <div id="side">
  <div id="status"></div>
  <h3>Scores <span class="muted">(as if the game ended now)</span></h3>
  <div id="scores"></div>
  <h3>Decisions since the picture</h3>
  <ol id="log"></ol>
  <p class="muted">Keys: <kbd>&larr;</kbd> <kbd>&rarr;</kbd> one decision, <kbd>Home</kbd> <kbd>End</kbd>.
  The address <code>#step=K</code> opens step K.</p>
 </div>
</div>
<pre id="selftest" class="muted"></pre>
<script type="application/json" id="game-data">__DATA__</script>
<script type="application/json" id="frame-data">__FRAMES__</script>
<script>
"use strict";
const DATA = JSON.parse(document.getElementById("game-data").textContent);
const FRAMES = JSON.parse(document.getElementById("frame-data").textContent);
const LAST = DATA.steps.length - 1;
const $ = (id) => document.getElementById(id);
let step = -1;

function esc(s) { const d = document.createElement("span"); d.textContent = s; return d.innerHTML; }

function scoreTable(st) {
  let h = "<table><tr><th>seat</th>";
  for (const c of DATA.categories) h += "<th>" + esc(c.replace("_", " ")) + "</th>";
  h += "<th>total</th></tr>";
  st.scores.forEach((sb, p) => {
    h += "<tr><td><span class='swatch' style='background:" + DATA.colours[p] + "'></span>"
      + esc(DATA.players[p]) + "</td>";
    for (const c of DATA.categories) h += "<td>" + sb[c] + "</td>";
    h += "<td><b><span class='score' data-player='" + p + "' data-score='" + sb.total + "'>"
      + sb.total + "</span></b></td></tr>";
  });
  return h + "</table>";
}

function show(k) {
  k = Math.max(0, Math.min(LAST, k | 0));
  step = k;
  const st = DATA.steps[k];
  const f = st.frame, fs = DATA.frame_steps[f];
  $("slider").value = k;
  $("stepinfo").textContent = "step " + k + " / " + LAST + " (turn " + st.turn + ")";
  $("action").innerHTML = k === 0 ? "<i>The game before its first decision.</i>"
    : "<b>" + esc(DATA.players[st.seat]) + "</b>: " + esc(st.words)
      + " <span class='muted'>(action " + st.action + ")</span>";
  $("status").textContent = st.status;
  $("scores").innerHTML = scoreTable(st);
  $("scores").dataset.step = k;
  document.body.dataset.step = k;
  const img = $("frame");
  if (img.dataset.frame !== String(f)) { img.src = FRAMES[f]; img.dataset.frame = f; }
  $("frameinfo").textContent = fs === k ? "picture of step " + k
    : "picture of step " + fs + " (the latest one; the decisions since are listed on the right)";
  const next = f + 1 < DATA.frame_steps.length ? DATA.frame_steps[f + 1] : LAST;
  let log = "";
  for (let i = Math.max(1, fs); i <= Math.max(k, next); i++) {
    const s = DATA.steps[i];
    if (!s.words) continue;
    log += "<li value='" + i + "'" + (i === k ? " class='now'" : "") + ">" + esc(DATA.players[s.seat]) + ": "
      + esc(s.words) + "</li>";
  }
  $("log").innerHTML = log;
}

function fromHash() {
  const m = /step=(\d+)/.exec(location.hash);
  show(m ? parseInt(m[1], 10) : 0);
}

document.addEventListener("keydown", (e) => {
  if (e.key === "ArrowRight") show(step + 1);
  else if (e.key === "ArrowLeft") show(step - 1);
  else if (e.key === "Home") show(0);
  else if (e.key === "End") show(LAST);
  else return;
  e.preventDefault();
});
$("slider").max = LAST;
$("slider").addEventListener("input", (e) => show(parseInt(e.target.value, 10)));
$("prev").onclick = () => show(step - 1);
$("next").onclick = () => show(step + 1);
$("first").onclick = () => show(0);
$("last").onclick = () => show(LAST);
window.addEventListener("hashchange", fromHash);
$("meta").textContent = DATA.options.num_players + " players, " + DATA.board_side + " side, seed " + DATA.seed
  + ", pack " + DATA.pack_id + ", " + LAST + " decisions";

function shownScores() {
  return Array.from(document.querySelectorAll("#scores .score")).map((e) => parseInt(e.dataset.score, 10));
}

function selftest() {
  const key = (k) => document.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
  const start = step, seen = [];
  for (const k of ["ArrowRight", "ArrowRight", "ArrowLeft"]) { key(k); seen.push(step); }
  const want = [Math.min(start + 1, LAST), Math.min(start + 2, LAST), Math.min(start + 2, LAST) - 1];
  const scoresOk = JSON.stringify(shownScores()) === JSON.stringify(DATA.steps[step].scores.map((s) => s.total));
  const ok = JSON.stringify(seen) === JSON.stringify(want) && scoresOk && !!$("frame").src;
  const out = $("selftest");
  out.dataset.result = ok ? "pass" : "fail";
  out.textContent = "selftest " + (ok ? "pass" : "fail") + ": " + JSON.stringify({ start, seen, want, scoresOk });
}

fromHash();
if (location.hash.indexOf("selftest") >= 0) selftest();
</script>
</body></html>
"""
