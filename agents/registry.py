"""The agent registry: a table of entry points, one row per spec kind.

A spec string names an agent on the command line: ``random``, ``heuristic``, ``mcts``, ``mcts:400``
(simulations per decision), ``mcts:2s`` (seconds per decision), ``ppo:PATH`` (a trained policy). Its
*kind* (the text before the colon) picks a row of :data:`BUILTIN_AGENTS`; the row's entry point,
``"package.module:factory"`` as in Gymnasium's ``register(id, entry_point=...)``, names a factory that
takes the text after the colon (``""`` when absent) and returns an agent. :func:`make_agent` imports
only the module of the kind asked for; nothing registers itself on import.

Other packages add kinds in either of two ways:

* at run time: ``register_agent("greedy", "my_pkg.greedy:from_spec", "one-line help")``;
* a module of one's own, no registration: the spec ``module:Name`` (:mod:`agents.user_agent`: an agent
  class, or a policy ``policy(observation, action_mask) -> action`` on the game's own observation);
* installed: a Python entry point in the group ``mk_env.agents`` (``pyproject.toml``:
  ``[project.entry-points."mk_env.agents"] greedy = "my_pkg.greedy:from_spec"``), found when a kind is
  not in the table (its help line names the installing package; nothing is imported until used).
"""

from __future__ import annotations

import importlib
import re
import warnings
from dataclasses import dataclass
from importlib import metadata
from typing import Callable, Union

from .base import Agent

#: the ``importlib.metadata`` group where installed packages declare agent kinds
ENTRY_POINT_GROUP = "mk_env.agents"
#: a factory: the spec's argument (text after the colon, ``""`` when absent) -> a new agent
Factory = Callable[[str], Agent]
EntryPoint = Union[str, Factory]
_ENTRY_POINT = re.compile(r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$")
_KIND = re.compile(r"^[A-Za-z_][\w.-]*$")
#: a user's own agent, ``module:Name`` (:mod:`agents.user_agent`, imported only for such a spec)
_OBJECT_SPEC = _ENTRY_POINT


@dataclass(frozen=True)
class AgentEntry:
    """One spec kind: where its factory lives and a one-line description for ``--help``."""

    kind: str
    entry_point: EntryPoint  # "package.module:factory", or the factory itself
    help: str


#: the built-in kinds (the ``mcts`` default budget is ``agents.mcts.DEFAULT_SIMULATIONS``)
BUILTIN_AGENTS: tuple[AgentEntry, ...] = (
    AgentEntry("random", "agents.random_agent:from_spec", "uniform over legal actions"),
    AgentEntry("heuristic", "agents.heuristic:from_spec",
               "one-ply lookahead with a hand-written evaluation (each game its own: "
               "agents.evaluation); heuristic:jitter=0.3 draws each game's weights in 0.7-1.3 times their "
               "defaults, for a varied table; heuristic:ties=random breaks ties at random (options joined "
               "by '&')"),
    AgentEntry("mcts", "agents.mcts:from_spec",
               "information-set MCTS over every player's decisions; mcts:N simulations (default 48) or "
               "mcts:Xs seconds per decision, options after '?': mcts:1s?workers=2&horizon=3"),
    AgentEntry("ppo", "agents.ppo:from_spec",
               "ppo:PATH, a trained policy (.safetensors of mk-env train: MaskablePPO or --algo ppo's "
               "factorised one; an SB3 zip only as ppo:PATH?trust)"),
    AgentEntry("az", "agents.az:from_spec",
               "az:PATH, a policy-value network (mk-env train --algo az) guiding ISMCTS; az:PATH?N "
               "simulations (default 64) or az:PATH?Xs seconds per decision; az:default the shipped one"),
    AgentEntry("aznet", "agents.az:net_from_spec",
               "aznet:PATH, the policy-value network alone, greedy (one network call per decision; "
               "aznet:PATH?t=1 draws from its priors at temperature 1); "
               "aznet:default the shipped 2-player network"),
)

_TABLE: dict[str, AgentEntry] = {e.kind: e for e in BUILTIN_AGENTS}
_FACTORIES: dict[str, Factory] = {}  # kinds whose entry point was loaded
_installed_read = False


def register_agent(kind: str, entry_point: EntryPoint, help_text: str) -> None:
    """Make ``kind`` (and ``kind:ARG``) a valid spec string. ``entry_point`` is
    ``"package.module:factory"`` (imported on first use) or the factory itself. Registering a kind
    again replaces it (built-ins included)."""
    if not isinstance(kind, str) or not _KIND.match(kind):
        raise ValueError(f"agent kind must be a name of letters, digits, '_', '.' or '-' (no ':', "
                         f"',' or '+': they separate specs), got {kind!r}")
    if isinstance(entry_point, str):
        if not _ENTRY_POINT.match(entry_point):
            raise ValueError(f"agent kind {kind!r}: entry point must be 'package.module:factory', "
                             f"got {entry_point!r}")
    elif not callable(entry_point):
        raise TypeError(f"agent kind {kind!r}: entry point must be a 'package.module:factory' string "
                        f"or a callable, got {type(entry_point).__name__}")
    _TABLE[kind] = AgentEntry(kind, entry_point, str(help_text))
    _FACTORIES.pop(kind, None)


def agent_kinds() -> dict[str, str]:
    """Spec kinds with a one-line description each (built-ins, registered, installed)."""
    _read_installed()
    return {kind: entry.help for kind, entry in _TABLE.items()}


def make_agent(spec: str) -> Agent:
    """Build the agent named by a spec string, e.g. ``"heuristic"`` or ``"mcts:400"``."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError(f"agent spec must be a non-empty string, got {spec!r}; "
                         f"allowed: {_allowed()}")
    kind, _, arg = spec.strip().partition(":")
    if kind not in _TABLE:
        _read_installed()
    if kind not in _TABLE and _OBJECT_SPEC.match(spec.strip()):  # a user's own module:Name
        from .user_agent import user_agent
        agent = user_agent(spec.strip())
    elif kind not in _TABLE:
        raise ValueError(f"unknown agent spec {spec!r}: kind {kind!r} is not one of {_allowed()}, nor a "
                         f"module:Name of your own (agents.user_agent)")
    else:
        agent = factory_of(kind)(arg)
    try:
        agent.name = spec.strip()
    except AttributeError:  # a user's agent whose name is read-only keeps its own
        pass
    return agent


def factory_of(kind: str) -> Factory:
    """The factory of a registered ``kind``, its module imported on first use."""
    factory = _FACTORIES.get(kind)
    if factory is None:
        entry = _TABLE[kind]
        factory = _FACTORIES[kind] = (entry.entry_point if callable(entry.entry_point)
                                      else load_entry_point(kind, entry.entry_point))
    return factory


def load_entry_point(kind: str, entry_point: str) -> Factory:
    """Import ``"package.module:attr.attr"``. A module that is not there, or an attribute it lacks,
    is a ``ValueError`` naming the kind; an import that fails inside the module is left as raised
    (a bug or a missing dependency of that module, with its own message)."""
    module_name, _, attr_path = entry_point.partition(":")
    try:
        obj = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is None or not (module_name == e.name or module_name.startswith(e.name + ".")):
            raise
        raise ValueError(f"agent kind {kind!r}: entry point {entry_point!r} names a module that is "
                         f"not installed ({e.name})") from None
    for attr in attr_path.split("."):
        try:
            obj = getattr(obj, attr)
        except AttributeError:
            raise ValueError(f"agent kind {kind!r}: entry point {entry_point!r}: module "
                             f"{module_name!r} has no {attr_path!r}") from None
    if not callable(obj):
        raise ValueError(f"agent kind {kind!r}: entry point {entry_point!r} is not callable")
    return obj


def _read_installed() -> None:
    """Add the kinds of installed packages' ``mk_env.agents`` entry points, once. A kind already in
    the table is kept (a warning names the package's duplicate)."""
    global _installed_read
    if _installed_read:
        return
    _installed_read = True
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in _TABLE:
            warnings.warn(f"installed agent kind {ep.name!r} ({ep.value}) ignored: the kind is "
                          f"already registered", stacklevel=3)
            continue
        value = ep.value.replace(" ", "")
        if not (_KIND.match(ep.name) and _ENTRY_POINT.match(value)):
            warnings.warn(f"installed agent kind {ep.name!r} ({ep.value}) ignored: a kind is a name "
                          f"and its entry point 'package.module:factory'", stacklevel=3)
            continue
        _TABLE[ep.name] = AgentEntry(ep.name, value, _installed_help(ep))


def _installed_help(ep: metadata.EntryPoint) -> str:
    dist = getattr(ep, "dist", None)
    return f"installed by {dist.name}" if dist is not None else "installed agent"


def _allowed() -> str:
    return ", ".join(f"{kind} ({text})" for kind, text in agent_kinds().items())
