"""Baseline agents behind one small protocol (imports mk_env only).

>>> from agents import make_agent
>>> agent = make_agent("heuristic")
"""

from .base import Agent, BaseAgent
from .registry import agent_kinds, make_agent, register_agent

__all__ = ["Agent", "BaseAgent", "agent_kinds", "make_agent", "register_agent"]
