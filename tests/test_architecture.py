"""The shape docs/architecture.md describes: the layers import one way (rules <- env <- agents <- training,
the rules with numpy only), no game's package imports another's and the core imports none, no import cycle
in ``mk_env/``, ``agents/`` and ``training/`` (at import time, nor through the imports functions make when
called), and every module stays under 400 lines."""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("mk_env", "agents", "training")
MAX_LINES = 400
#: what each layer may import besides the standard library and its own layer (by top-level name or
#: dotted prefix); a module belongs to the layer of the first pattern its dotted name starts with
LAYERS = (
    ("rules", ("mk_env.core", "mk_env.mountain_king.rules", "mk_env.cave_troll.rules",
               "mk_env.fall_of_the_mountain_king.rules"), ("numpy",)),
    ("env", ("mk_env", "mk_env.core.env"), ("mk_env.core", "mk_env.mountain_king.rules", "mk_env.cave_troll.rules",
                                            "mk_env.fall_of_the_mountain_king.rules")),
    ("agents", ("agents",), ("mk_env",)),
    ("training", ("training",), ("mk_env", "agents")),
)
ORDER = [name for name, _, _ in LAYERS]
#: the layers above each one: an import of any of them is an upward import
ABOVE = {"rules": ("mk_env", "agents", "training"), "env": ("agents", "training"), "agents": ("training",),
         "training": ()}


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts), path


MODULES = dict(_modules())
#: the compiled modules setup.py builds (no Python source: they import nothing of ours)
EXTENSIONS = {"mk_env.mountain_king.rules._native"}


def _layer(module: str) -> str:
    """The layer of the longest prefix ``module`` starts with (``mk_env.core.env`` is env, ``mk_env.core`` rules)."""
    return max((len(p), name) for name, prefixes, _ in LAYERS for p in prefixes if _within(module, p))[1]


def _within(module: str, prefix: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def _imports(module: str, path: Path, at_import_time: bool, type_checking: bool = True) -> Iterator[tuple[str, int]]:
    """(imported module, line) of each import; ``at_import_time``: only those run when the module is
    imported (not inside functions, not under ``if TYPE_CHECKING:``); ``type_checking=False``: none under
    ``if TYPE_CHECKING:`` (they never run)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(nodes: list[ast.stmt]) -> Iterator[tuple[str, int]]:
        for node in nodes:
            if isinstance(node, ast.Import):
                yield from ((alias.name, node.lineno) for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[:len(package.split(".")) - node.level + 1]
                    base = ".".join(anchor + ([base] if base else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES.keys() | EXTENSIONS]
                if len(subs) < len(node.names):  # names defined by ``base`` itself (not its submodules)
                    yield base, node.lineno
                yield from ((sub, node.lineno) for sub in subs)  # ``from . import x``: the module x
            elif at_import_time and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            elif (at_import_time or not type_checking) and isinstance(node, ast.If) \
                    and "TYPE_CHECKING" in ast.unparse(node.test):
                yield from visit(node.orelse)
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    yield from visit([n for n in getattr(node, field, []) if isinstance(n, ast.AST)])

    yield from visit(ast.parse(path.read_text(encoding="utf-8")).body)


def test_the_layers_import_one_way_and_the_rules_only_numpy():
    upward = []
    for module, path in MODULES.items():
        layer = _layer(module)
        _, own, allowed = next(entry for entry in LAYERS if entry[0] == layer)
        for name, line in _imports(module, path, at_import_time=False):
            top = name.partition(".")[0]
            if name in MODULES and ORDER.index(_layer(name)) > ORDER.index(layer):  # a module of ours above
                upward.append(f"{path.relative_to(ROOT)}:{line}: the {layer} layer imports {name}")
                continue
            if any(_within(name, p) for p in (*own, *allowed)) or top in sys.stdlib_module_names:
                continue
            if layer == "rules" or top in ABOVE[layer] or (layer == "env" and top == "mk_env"):
                upward.append(f"{path.relative_to(ROOT)}:{line}: the {layer} layer imports {name}")
    assert not upward, "\n".join(upward)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm), and self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[list[str]] = []

    def strongconnect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph[v]:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return out


def test_no_import_cycle_inside_mk_env_or_agents():
    inside = {m: p for m, p in MODULES.items() if m.partition(".")[0] in ("mk_env", "agents")}
    graph = {m: {name for name, _ in _imports(m, p, at_import_time=True) if name in inside and name != m}
             for m, p in inside.items()}
    assert not _cycles(graph), _cycles(graph)


def test_no_import_cycle_counting_imports_inside_functions():
    """No cycle in ``mk_env/``, ``agents/`` and ``training/`` even through the imports a function makes when
    it is called (a deferred import hides a cycle from import time, not from the design)."""
    graph = {m: {name for name, _ in _imports(m, p, at_import_time=False, type_checking=False)
                 if name in MODULES and name != m} for m, p in MODULES.items()}
    assert not _cycles(graph), _cycles(graph)


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def _game_packages() -> list[str]:
    """Each game's package (``mk_env.<game>``), from the game card's engine entry points."""
    from mk_env.games import GAMES

    return sorted({".".join(e.game.partition(":")[0].split(".")[:2]) for e in GAMES.values()})


def test_no_game_imports_another_game_and_the_core_imports_none():
    """Each game stands on ``mk_env.core``, never on a sibling (imports inside functions counted), and the
    core every game plugs into imports no game."""
    games = _game_packages()
    assert len(games) >= 3 and "mk_env.cave_troll" in games
    crossing = []
    for module, path in MODULES.items():
        own = next((g for g in games if _within(module, g)), None)
        if own is None and not _within(module, "mk_env.core"):
            continue
        for name, line in _imports(module, path, at_import_time=False):
            other = next((g for g in games if _within(name, g) and g != own), None)
            if other:
                crossing.append(f"{path.relative_to(ROOT)}:{line}: {module} imports {name}")
    assert not crossing, "\n".join(crossing)


@pytest.mark.parametrize("package", PACKAGES)
def test_every_module_is_under_400_lines(package):
    long = {str(p.relative_to(ROOT)): n for m, p in MODULES.items() if m.partition(".")[0] == package
            if (n := len(p.read_text(encoding="utf-8").splitlines())) >= MAX_LINES}
    assert not long, f"modules of {MAX_LINES} lines or more: {long}"
