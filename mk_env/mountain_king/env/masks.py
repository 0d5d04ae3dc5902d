"""Reading an action mask quickly: the suite's :mod:`mk_env.core.env.masks`, named here as before."""

from mk_env.core.env.masks import legal_action_numbers, random_legal_action

__all__ = ["legal_action_numbers", "random_legal_action"]
