"""*Fall of the Mountain King*, the suite's third game: the pure rules engine (:mod:`.rules`) and its
designed content pack (``data/default``, stand-ins for the printed components)."""
