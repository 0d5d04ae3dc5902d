"""*In the Hall of the Mountain King* (2-5 players): the first game of the suite. ``rules`` is its pure
engine, ``env`` its PettingZoo environment and ``data/default`` its content pack; ``mk_env.rules`` and
``mk_env.env`` are the same modules under their old names (:mod:`mk_env.compat`)."""
