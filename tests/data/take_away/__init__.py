"""*Take-away*, the suite's minimal game: a pile of stones, each player in turn takes 1 to 3 of them, a stone
taken is a point and the last stone taken five more. It exists to prove the hub: a game is its own folder
(this one: :mod:`.rules`, :mod:`.evaluation`, :mod:`.env`, its pack in ``data/default/``) plus one row of
the game card (:data:`.plug_in.ROW`), and the suite's whole contract runs over it
(``tests/test_minimal_game.py``; ``python tests/data/take_away/plug_in.py pytest ...`` or ``... mk-env ...`` runs
the suite with the row plugged in)."""
