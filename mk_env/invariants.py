"""The invariants of a game state: :mod:`mk_env.mountain_king.rules.invariants` (the rules engine checks loaded states
with them), under the name the soak test and the tools have always used."""

from mk_env.mountain_king.rules.invariants import (ComponentTotals, InvariantError, check_end, check_invariants,
                                                   check_step, component_totals, pedestal_places, token_places)

__all__ = ["ComponentTotals", "InvariantError", "check_end", "check_invariants", "check_step", "component_totals",
           "pedestal_places", "token_places"]
