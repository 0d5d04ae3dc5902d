"""*Cave Troll* (2-4 players): the second game of the suite. ``rules`` is its pure engine, ``data/default``
its content pack. The rule text's open points are decided in docs/cave-troll/rules-decisions.md."""
