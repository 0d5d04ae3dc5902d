"""The Take-away environment's version (the suite's version rule, :mod:`mk_env.core.env.version`)."""

from __future__ import annotations

from mk_env.core.env.version import layout_functions

ENV_VERSION = 0
ENV_NAME = f"take_away_v{ENV_VERSION}"

VERSION_HISTORY: dict[int, tuple[str, str]] = {0: ("tests", "the suite's minimal game.")}

PINNED_LAYOUTS: dict[int, dict[int, str]] = {
    0: {2: "4ad2b2584f69031c", 3: "da1f36757a3390e1", 4: "6ed614d7513c372d"},
}

layout_description, layout_fingerprint = layout_functions(ENV_NAME, "take_away.env.observation:TakeAwayObserver")
