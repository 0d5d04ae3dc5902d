"""What the suite's games share at the engine level (numpy and the standard library only, the rules layer):
:mod:`.protocol` (the engine protocol every game's state satisfies), :mod:`.errors` (the errors of
decisions, options, packs and saves) and :mod:`.pack_json` (the typed readers of a content pack's JSON).
Each game's ``rules`` package builds on these; code above the rules (envs, agents, tournaments) can rely
on the protocol alone."""
