"""The environment's documentation page: the text of :mod:`mk_env.mountain_king.env.aec`'s docstring.

PettingZoo's convention is that the env module's docstring documents the environment; the text
lives here so that :mod:`mk_env.mountain_king.env.aec` stays short, and ``aec`` sets its ``__doc__`` to
:data:`PAGE` (the text below with the Version history's list from :mod:`mk_env.mountain_king.env.version`).
``python -m mk_env.mountain_king.env.docs > docs/environment.md`` writes the page (with the generated tables);
``python -m mk_env.mountain_king.env.docs --update-docstring`` rewrites the tables below.
"""

from .version import ENV_NAME, ENV_VERSION, version_lines

_TEXT = r"""# In the Hall of the Mountain King: the PettingZoo environment

| | |
|---|---|
| Import | `import mk_env; env = mk_env.env(num_players=4)` |
| API | AEC (turn-based) |
| Agents | `player_0` ... `player_{n-1}` (n = 2..5) |
| Action space | `Discrete(N)`, N = `game.layout.size` (9790 on winter, 6650 on autumn) |
| Observation | `Dict({"observation": Dict of float32 Boxes, "action_mask": Box(0, 1, (N,), int8)})`; `observation="flat"`: one `float32[D]` vector; `"rllib"`: RLlib's keys |
| State | `state()`: a `float32` vector in `state_space`, `Box(0, 1, (S,))` (full information) |

## Creation

```python
import mk_env
env = mk_env.env(num_players=4, render_mode=None, reward="win")   # safety wrappers
raw = mk_env.raw_env(num_players=2, board_side="autumn", strict=True)
flat = mk_env.env(num_players=2, observation="flat")              # one float32 vector
```

`num_players` is 2..5; game options (`board_side`, `workshops`, `team_mode`, `pack`, `payment`) pass
straight to the engine's `Game(...)`; a bad option raises the engine's `ConfigError`. `reward` is `"win"`
(default), `"margin"` or `"dense"`. `max_cycles=N` truncates the game after N decisions in all (every agent's
`truncations` True, `infos[agent]["truncated"]` N, no final reward; default None: no limit; the single-seat view
uses Gymnasium's `max_episode_steps` instead). `env()` wraps `raw_env(strict=False)` with PettingZoo's
`AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper` (subclassed with fast paths that keep their
checks). The game is seeded by `reset(seed=...)`
(`reset()` without a seed continues the previous seed's sequence). The environment is registered
with PettingZoo's registry as `<ENV_NAME>` on `import mk_env` where the installed PettingZoo
has one (`pettingzoo.make("aec", "<ENV_NAME>")`), and the single-seat view with Gymnasium's
as `mk_env/MountainKing-v<VERSION>` (below); `import mk_env` imports neither library for that.

`mk_env.mountain_king.env`, `mk_env.raw_env`, a lambda or `functools.partial` naming them, and an environment in
the middle of a game (with its wrappers, in any observation style) pickle with `pickle` and
`cloudpickle`: an environment travels as its options, the engine's exact JSON of the game and its
bookkeeping, so the copy continues the same game (the same observations, and the same future for
the same actions). Worker processes (`SubprocVecEnv`, TorchRL's `ParallelEnv`, Ray) can be handed
`functools.partial(mk_env.env, num_players=4)`.

The game itself is `env.unwrapped.game_state` (a `mk_env.mountain_king.rules.GameState`; wrappers pass
`env.game_state` through). It was called `state` before PettingZoo's `state()` method took the
name: old code that reads `env.state.<attribute>` gets an error saying so.

## Agents

`player_p` plays seat `p`; seat 0 is the start player. Only one agent acts at a time
(`env.agent_selection`); a decision may be a whole step or a small sub-decision (a mineral, a
pedestal, a bribe, a statue's destination ...). Decisions whose only legal action is *pass* are taken
by the engine automatically.

## Observation

`observe(agent)` returns `{"observation": {...}, "action_mask": int8[N]}`. The mask is 1 exactly
where the engine accepts the action now (all zeros for an agent whose turn it is not).
`mk_env.mountain_king.env.legal_action_numbers(mask)` gives its legal action numbers (what `np.flatnonzero(mask)`
gives, ~20x faster on the int8 mask) and `mk_env.mountain_king.env.random_legal_action(mask, rng)` a uniformly
random one (the same draw as `rng.choice(np.flatnonzero(mask))`).
`observation` is a flat dict of float32 arrays, each declared exactly in `observation_space(agent)`
as a `Box(0, 1, shape, float32)`: counts are divided by the largest value the game's components allow
(a resource count by the number of tokens of that resource, a token count on a troll by the most
symbols of that kind on any card, ...). It is egocentric: every player axis starts with the observing
player, then the others in turn order. It holds only what that player may know: never the order of
the horde decks or of the spell deck, nor another player's starter hand (deck sizes are public).
The sub-decision being resolved (selected statue, the tunnel awaiting its mineral, the spell being
resolved, the troll being recruited ...) is part of it, so the observation is Markov for the acting
player. Board channels are float32 0/1 over the grid, shape `(C, H, W)`; the dict is flat, so
Stable-Baselines3's `MultiInputPolicy` takes the inner dict as it is. Each feature (a run of entries
of one array) is declared once in `mk_env/mountain_king/env/features.py`: its name, the state fields it reads,
when it is refilled and its scale; the tables below, the offsets (`env.observer.at[key].<feature>`)
and the encoder's memo keys derive from it.

### Observation styles

`observation=` on `mk_env.mountain_king.env`, `mk_env.raw_env` and `mk_env.single_seat_env`:

| style | `observe(agent)` | for |
|---|---|---|
| `"dict"` (default) | `{"observation": dict of float32 arrays, "action_mask": int8[N]}` | SB3's `MultiInputPolicy`, own networks |
| `"flat"` | `{"observation": float32[D], "action_mask": int8[N]}` | default network builders (Tianshou, AgileRL, TorchRL's MLPs) |
| `"rllib"` | `{"observations": float32[D], "action_mask": float32[N]}` | Ray RLlib's action-masking modules (its keys, its float mask) |

The flat vector is the dict's arrays, each flattened in C order, in the observation space's key
order (Gymnasium's `Dict` sorts its keys), so it equals `gymnasium.spaces.flatten` of the dict. The
environment builds the dict as views onto one flat buffer, so the flat styles cost no extra copy.
`env.observation_slices()` (or `mk_env.mountain_king.env.observation_slices(num_players, **game_options)`) gives
`{key: (start, stop, shape)}`, so `vector[start:stop].reshape(shape)` cuts an array (the board for a
CNN) back out; the table below lists them. `mk_env.mountain_king.env.FlattenObservation(aec_env, style="flat" |
"rllib")` gives the same styles on top of any AEC environment of this package. The single-seat view
takes `"dict"` or `"flat"` (a plain `Box(0, 1, (D,), float32)`; its mask is `action_masks()`).
PettingZoo's `api_test` and `seed_test` sample actions with `Discrete.sample(mask)`, which takes
only int8 masks: run them on the `"dict"` or `"flat"` style.

<!-- tables:start -->
### Observation arrays

| key | shape (2 / 3 / 4 / 5 players) | meaning |
|---|---|---|
| `board` | (49, 15, 17) / (50, 13, 15) / (51, 15, 17) / (52, 15, 17) | board channels over the grid (see the channel table) |
| `horde` | (12, 27) / (12, 27) / (12, 27) / (12, 27) | each horde slot (Level-1 row 0-4, Level-2 row 5-8, Level-3 row 9-11): the card, its bribes / retire limit, its pedestal clan |
| `trollsmoots` | (2, 10, 27) / (3, 10, 27) / (4, 10, 27) / (5, 10, 27) | each player's trollsmoot (me first), each slot (bottom row 0-3, 4-6, 7-8, 9): the card and the tokens it holds / the most any card shows |
| `players` | (2, 27) / (3, 27) / (4, 27) / (5, 27) | per player (me first): storage, pedestals, owned resources, scores so far, flags |
| `spellbook` | (3, 19) / (3, 19) / (3, 19) / (3, 19) | each spellbook position: the spell (one-hot), present, runes / runes to disintegrate |
| `supply` | (40,) / (40,) / (40,) / (40,) | the supplies: resources, tunnel stacks, great halls, workshop tiles, pedestal bag, deck sizes, coronation tokens left |
| `pedestal_track` | (5, 3, 4) / (5, 3, 5) / (5, 3, 6) / (5, 3, 7) | the pedestal track by tier and clan: token value, free, who took it (me first) |
| `turn` | (29,) / (29,) / (29,) / (29,) | the phase (one-hot), this turn's flags and the endgame |
| `pending` | (54,) / (54,) / (54,) / (54,) | the sub-decision being resolved: spell position, trollsmoot and horde slots, bribes left, the troll being recruited, the tunnel being dug, a free statue move, workshop sites left |
| `draft` | (7,) / (7,) / (7,) / (7,) | my own starter hand during the draft (one-hot by starter) and my unseen starters / starters |

### Board channels (4 players; `network_k` has one channel per player)

| channel | name | 1 where |
|---|---|---|
| 0 | `on_board` | an ordinary square of the board (not the heart, not off the board) |
| 1 | `heart` | the mountain's heart |
| 2 | `tier_1` | tier 1 square (dark gray) |
| 3 | `tier_2` | tier 2 square (gray) |
| 4 | `tier_3` | tier 3 square (brown) |
| 5 | `tier_4` | tier 4 square (orange) |
| 6 | `tier_5` | tier 5 square (yellow) |
| 7 | `workshop_site` | a workshop site |
| 8 | `rubble` | rubble not yet covered by a tile |
| 9 | `buried_stone` | a buried stone still in the ground |
| 10 | `buried_iron` | a buried iron still in the ground |
| 11 | `buried_heartstone` | a buried heartstone still in the ground |
| 12 | `buried_coin` | a buried coin still in the ground |
| 13 | `buried_cart` | a buried cart still in the ground |
| 14 | `buried_hammer` | a buried hammer still in the ground |
| 15 | `buried_rune` | a buried rune still in the ground |
| 16 | `statue_fire` | a statue of the Fire clan |
| 17 | `statue_ice` | a statue of the Ice clan |
| 18 | `statue_moon` | a statue of the Moon clan |
| 19 | `statue_buried` | a statue not yet unearthed (no tile on its square) |
| 20 | `pedestal_fire` | a pedestal of the Fire clan |
| 21 | `pedestal_ice` | a pedestal of the Ice clan |
| 22 | `pedestal_moon` | a pedestal of the Moon clan |
| 23 | `gate` | a gate |
| 24 | `tunnel` | a tunnel tile |
| 25 | `great_hall` | a great hall |
| 26 | `altar` | the altar square of a dedicated great hall |
| 27 | `network_0` | in the network of me |
| 28 | `network_1` | in the network of the player 1 seat(s) after me |
| 29 | `network_2` | in the network of the player 2 seat(s) after me |
| 30 | `network_3` | in the network of the player 3 seat(s) after me |
| 31 | `same_tunnel_up` | the square up of it belongs to the same tunnel (region) |
| 32 | `same_tunnel_right` | the square right of it belongs to the same tunnel (region) |
| 33 | `same_tunnel_down` | the square down of it belongs to the same tunnel (region) |
| 34 | `same_tunnel_left` | the square left of it belongs to the same tunnel (region) |
| 35 | `workshop_Cartwright` | the Cartwright is established here |
| 36 | `workshop_Charmcrafter` | the Charmcrafter is established here |
| 37 | `workshop_Coinpress` | the Coinpress is established here |
| 38 | `workshop_Metalworks` | the Metalworks is established here |
| 39 | `workshop_Pickforge` | the Pickforge is established here |
| 40 | `workshop_Quartermaster` | the Quartermaster is established here |
| 41 | `workshop_Runesmithy` | the Runesmithy is established here |
| 42 | `workshop_Stonegrinder` | the Stonegrinder is established here |
| 43 | `workshop_Stonemill` | the Stonemill is established here |
| 44 | `workshop_Toolforge` | the Toolforge is established here |
| 45 | `workshop_Wheeljack` | the Wheeljack is established here |
| 46 | `pending_dig` | the tunnel just dug, awaiting its mineral, pedestal or workshops |
| 47 | `pending_statue` | the statue selected to move |
| 48 | `pending_sites` | workshop sites awaiting a workshop from the current dig |
| 49 | `active_workshop` | the workshop being used now |
| 50 | `used_workshop` | a workshop site already activated this turn |

### Entries of the other arrays

| key | entries along the last axis (4 players) |
|---|---|
| `horde` | present, clan_starter, clan_mud, clan_fire, clan_ice, clan_moon, level, symbol_stone, symbol_iron, symbol_heartstone, symbol_coin, symbol_cart, symbol_hammer, symbol_rune, symbol_cart_fire, symbol_cart_ice, symbol_cart_moon, bribe_stone, bribe_iron, bribe_heartstone, bribe_coin, bribe_cart, bribe_hammer, bribe_rune, pedestal_fire, pedestal_ice, pedestal_moon |
| `trollsmoots` | present, clan_starter, clan_mud, clan_fire, clan_ice, clan_moon, level, symbol_stone, symbol_iron, symbol_heartstone, symbol_coin, symbol_cart, symbol_hammer, symbol_rune, symbol_cart_fire, symbol_cart_ice, symbol_cart_moon, token_stone, token_iron, token_heartstone, token_coin, token_cart, token_hammer, token_rune, token_cart_fire, token_cart_ice, token_cart_moon |
| `players` | storage_stone, storage_iron, storage_heartstone, storage_coin, storage_cart, storage_hammer, storage_rune, pedestals_fire, pedestals_ice, pedestals_moon, owned_stone, owned_iron, owned_heartstone, owned_coin, owned_cart, owned_hammer, owned_rune, honour_tunnels, coronation, pedestal_points, pedestal_tokens, trolls, recruited_levels, gate_placed, teammate, acting, draft_placed |
| `spellbook` | spell_Earth Ritual, spell_Golden Mask, spell_Stone-eater Invocation, spell_Ceremony of Ascension, spell_Hammer Song, spell_Gnome Gold, spell_Wheel Blessing, spell_Deep Vein, spell_Rune Echo, spell_Troll Awakening, spell_Ancestral Cascade, spell_Whispered Promise, spell_Call of the Clans, spell_Tremor, spell_Master's Key, spell_Clear Passage, spell_Forge Blessing, present, runes |
| `supply` | supply_stone, supply_iron, supply_heartstone, supply_coin, supply_cart, supply_hammer, supply_rune, tunnels_domino, tunnels_L-tromino, tunnels_I-tromino, tunnels_I-tetromino, tunnels_L-tetromino, tunnels_T-tetromino, tunnels_S-tetromino, tunnels_P-pentomino, hall_Shaman's Chamber, hall_Abyss Spring, hall_The Trove, hall_Stonecutter's Hall, hall_Echoing Gallery, hall_Great Forge, workshop_Cartwright, workshop_Charmcrafter, workshop_Coinpress, workshop_Metalworks, workshop_Pickforge, workshop_Quartermaster, workshop_Runesmithy, workshop_Stonegrinder, workshop_Stonemill, workshop_Toolforge, workshop_Wheeljack, bag_fire, bag_ice, bag_moon, deck_level1, deck_level2, deck_level3, spell_deck, coronation_tokens |
| `pedestal_track` | value, free, taken_by_0, taken_by_1, taken_by_2, taken_by_3 |
| `turn` | phase_setup_gate, phase_setup_draft, phase_step1_spells_workshops, phase_workshop, phase_spell_option, phase_spell_trollsmoot, phase_spell_horde, phase_spell_pedestal, phase_spell_dig, phase_spell_statue, phase_step2_recruit_or_dig, phase_bribe, phase_recruit_pedestal, phase_dig_mineral, phase_dig_pedestal, phase_dig_workshop, phase_step3_great_hall, phase_step4_move_statues, phase_statue_destination, phase_game_over, spell_cast, workshops_left, uses_left, bribe_any, ignore_rubble, free_moves, turn, coronation_complete, final_turns_left |
| `pending` | spell_position_0, spell_position_1, spell_position_2, trollsmoot_slot_0, trollsmoot_slot_1, trollsmoot_slot_2, trollsmoot_slot_3, trollsmoot_slot_4, trollsmoot_slot_5, trollsmoot_slot_6, trollsmoot_slot_7, trollsmoot_slot_8, trollsmoot_slot_9, horde_slot_0, horde_slot_1, horde_slot_2, horde_slot_3, horde_slot_4, horde_slot_5, horde_slot_6, horde_slot_7, horde_slot_8, horde_slot_9, horde_slot_10, horde_slot_11, bribes_left, card_present, card_clan_starter, card_clan_mud, card_clan_fire, card_clan_ice, card_clan_moon, card_level, card_symbol_stone, card_symbol_iron, card_symbol_heartstone, card_symbol_coin, card_symbol_cart, card_symbol_hammer, card_symbol_rune, card_symbol_cart_fire, card_symbol_cart_ice, card_symbol_cart_moon, dig_domino, dig_L-tromino, dig_I-tromino, dig_I-tetromino, dig_L-tetromino, dig_T-tetromino, dig_S-tetromino, dig_P-pentomino, dig_for_spell, statue_move_free, sites_left |
| `draft` | hand_Quarry Troll, hand_Smelter Troll, hand_Deep Troll, hand_Tinker Troll, hand_Peddler Troll, hand_Mystic Troll, deck_left |

### The flat vector (`observation="flat"` / `"rllib"`, `observation_slices()`)

| key | start:stop (2 / 3 / 4 / 5 players) |
|---|---|
| `board` | 0:12495 / 0:9750 / 0:13005 / 0:13260 |
| `draft` | 12495:12502 / 9750:9757 / 13005:13012 / 13260:13267 |
| `horde` | 12502:12826 / 9757:10081 / 13012:13336 / 13267:13591 |
| `pedestal_track` | 12826:12886 / 10081:10156 / 13336:13426 / 13591:13696 |
| `pending` | 12886:12940 / 10156:10210 / 13426:13480 / 13696:13750 |
| `players` | 12940:12994 / 10210:10291 / 13480:13588 / 13750:13885 |
| `spellbook` | 12994:13051 / 10291:10348 / 13588:13645 / 13885:13942 |
| `supply` | 13051:13091 / 10348:10388 / 13645:13685 / 13942:13982 |
| `trollsmoots` | 13091:13631 / 10388:11198 / 13685:14765 / 13982:15332 |
| `turn` | 13631:13660 / 11198:11227 / 14765:14794 / 15332:15361 |
| **D** | **13660** / **11227** / **14794** / **15361** |

### The global state (`state()`, `state_slices()`)

| part | start:stop (2 / 3 / 4 / 5 players) | meaning |
|---|---|---|
| `observation` | 0:13660 / 0:11227 / 0:14794 / 0:15361 | seat 0's flat observation (every player axis in seat order: row p is seat p; the acting seat is the players' `acting` column) |
| `draft_hands` | 13660:13672 / 11227:11245 / 14794:14818 / 15361:15391 | each seat's starter hand during the draft (one-hot by starter) |
| `draft_decks` | 13672:13684 / 11245:11263 / 14818:14842 / 15391:15421 | each seat's undrawn starters by draw order (1 = drawn next, 1/len = drawn last, 0 = not in the deck) |
| `horde_decks` | 13684:13745 / 11263:11324 / 14842:14903 / 15421:15482 | each troll card's place in its level's horde deck (1 = on top, 1/len = at the bottom, 0 = not in a deck) |
| `spell_deck` | 13745:13762 / 11324:11341 / 14903:14920 / 15482:15499 | each spell's place in the spell deck (the same scale) |
| **size** | **13762** / **11341** / **14920** / **15499** | |

### Action layout (the engine's flat numbering)

| block | 2p (winter) offset, size | 3p (autumn) offset, size | 4p (winter) offset, size | 5p (winter) offset, size |
|---|---|---|---|---|
| `pass` | 0, 1 | 0, 1 | 0, 1 | 0, 1 |
| `gate` | 1, 9 | 1, 3 | 1, 9 | 1, 9 |
| `draft` | 10, 24 | 4, 24 | 10, 24 | 10, 24 |
| `cast` | 34, 3 | 28, 3 | 34, 3 | 34, 3 |
| `spell_option` | 37, 3 | 31, 3 | 37, 3 | 37, 3 |
| `activate_workshop` | 40, 12 | 34, 12 | 40, 12 | 40, 12 |
| `workshop_use` | 52, 176 | 46, 176 | 52, 176 | 52, 176 |
| `trade` | 228, 1470 | 222, 1470 | 228, 1470 | 228, 1470 |
| `recruit` | 1698, 72 | 1692, 72 | 1698, 72 | 1698, 72 |
| `bribe` | 1770, 7 | 1764, 7 | 1770, 7 | 1770, 7 |
| `pedestal` | 1777, 3 | 1771, 3 | 1777, 3 | 1777, 3 |
| `dig` | 1780, 4660 | 1774, 2929 | 1780, 4660 | 1780, 4660 |
| `mineral` | 6440, 3 | 4703, 3 | 6440, 3 | 6440, 3 |
| `establish` | 6443, 11 | 4706, 11 | 6443, 11 | 6443, 11 |
| `hall` | 6454, 2804 | 4717, 1521 | 6454, 2804 | 6454, 2804 |
| `select_statue` | 9258, 255 | 6238, 195 | 9258, 255 | 9258, 255 |
| `move_statue` | 9513, 255 | 6433, 195 | 9513, 255 | 9513, 255 |
| `smoot_slot` | 9768, 10 | 6628, 10 | 9768, 10 | 9768, 10 |
| `horde_slot` | 9778, 12 | 6638, 12 | 9778, 12 | 9778, 12 |
| **N** | **9790** | **6650** | **9790** | **9790** |
<!-- tables:end -->

### Who picks the tokens that pay (`payment`)

The rulebook lets the spender pay with any tokens they own ("You could spend any four of those five
stone"). The tables above are those of the default, `payment="auto"`.

| `payment` | who picks the tokens | what it adds to the layouts |
|---|---|---|
| `"auto"` (default) | the engine, in its fixed order: tokens on trolls before storage, trolls bottom row first, clan carts before wild ones (the book's advice; the dominant-choice shortcut) | nothing |
| `"choose"` | the payer, whenever more than one set of tokens can pay a decision (a trade, a workshop use, a cast's rune, a recruit's coins, a bribe, a dig's minerals and hammers, a statue move's cart): the decision is held and phase `pay` asks for the tokens one at a time, each a `pay_token` action (trollsmoot slot 0-9 or storage x token kind), in place order so each set is asked once; the rest is paid without a question when it is forced, then the decision is applied | the block `pay_token` (110 actions) after `horde_slot`; `phase_pay` after `phase_game_over` in `turn`; `pay_owed_<resource>` (what is still owed, scaled like the supply) and `pay_chosen_trollsmoot_slot_<i>` / `pay_chosen_storage` (tokens chosen so far) at the end of `pending` |

`env.describe_action(i)` returns the engine's sentence for action `i`. Each number means the same
decision in every state of a game with the same pack and board side. An action is a Python int, a
numpy integer or a 0-d integer array (what Stable-Baselines3's `model.predict` returns), the same
action everywhere (`env()`, `raw_env`, the single-seat view, its opponents, the engine's `apply` and
`is_legal`); any other type (a float, a bool, a string, an array of another shape) raises the
engine's `ActionTypeError` (both a `TypeError` and an `IllegalActionError`, naming the type) in
every environment, strict or not, and changes nothing: it is a bug in the caller, not a move.

## Global state

`env.state()` is PettingZoo's global state for centralised critics (MAPPO and the like; TorchRL's
`return_state=True`): a float32 vector in `[0, 1]` inside `env.state_space` (`Box(0, 1, (S,))`). It
is seat 0's flat observation (every player axis in seat order, the acting seat marked in the
players' `acting` column) followed by everything an observation hides: each seat's starter hand and
undrawn starters, and the order of the horde decks and of the spell deck (each card's place, 1 on
top). It does not depend on who is acting, and two states that differ only in hidden information
have different `state()`s. `env.state_slices()` gives each part's `(start, stop, shape)` (the table
above).

## Rewards

* `"win"` (default): 0 during the game; at the end +1 to the winner (after the tie-break: the lower
  sum of recruited troll levels; exact ties share) and -1/(n-1) to each other player
  (the engine's `state.returns()`).
* `"margin"`: 0 during the game; at the end (own total - best total outside my team) / 100.
* `"dense"`: after every step each player receives the change of its honour
  (`state.score_breakdown(p)["total"]`) / 100, so `last()` shows the change since that player's
  last step; plus the `"win"` reward at the end.

At the end `infos[agent]` holds `score_breakdown` (the scoring categories and `total`), `rank`
(0 = winner) and `illegal_actions` (how many games of this environment that agent has lost by an
illegal action); in a team game also `team` (0: seats 0 and 3, 1: seats 1 and 2) and `teammates`
(the other agents of the team).

## Illegal actions

`raw_env(strict=True)` (its default) raises the engine's `IllegalActionError`, whose message says
what was chosen, why it is illegal and what is allowed; the game is left untouched. With `env()`
(`strict=False`) an illegal action ends the game: the offending agent gets -1, the others 0, and
every `infos[agent]["illegal_action"]` holds `{"agent", "action", "message"}`; `illegal_actions`
counts them. The first time an environment ends a game this way it prints PettingZoo's illegal-move
warning (naming the agent, the action and why it is illegal), so a client that forgets the mask and
"trains" on one-step games is noticed; later ones are only counted.

## Single-seat Gymnasium view

`mk_env.single_seat_env(num_players=2, seat=None, opponents=None, reward="win", render_mode=None,
observation="dict", **game_options)` returns a `gymnasium.Env` for one learner seat (fixed, or drawn
at each reset): opponents (callables `f(observation, rng) -> action` or agents with
`.act(view, rng)`, default uniform random among legal actions) act inside `step`. Its observation
space is the inner `observation` dict (no mask key), or with `observation="flat"` one
`Box(0, 1, (D,), float32)`; the mask is `env.action_masks()` (sb3-contrib's hook). Once the episode is
over `action_masks()` marks only action 0 (pass): Gymnasium 1.x vector envs ask their policy for an
action on the autoreset step and ignore it, and an empty mask would break a masked policy there.
`env.observe(seat)` gives the PettingZoo observation of any seat. The learner always receives its
terminal reward, even when an opponent's move ends the game. It is registered with Gymnasium on
`import mk_env`: `gymnasium.make("mk_env/MountainKing-v<VERSION>", num_players=2, observation="flat")`,
`gymnasium.make_vec("mk_env/MountainKing-v<VERSION>", num_envs=8, num_players=2, vectorization_mode="sync")`
(copies of the single-seat env; the keyword arguments are those of `single_seat_env`);
`gymnasium.make("mk_env:mk_env/MountainKing-v<VERSION>", ...)` imports mk_env itself first. Without
`vectorization_mode`, `gymnasium.make_vec(..., num_envs=64, num_players=2)` makes the batched vector env
(`mk_env/mountain_king/env/vector.py`: the batch API's games in one call, compiled where the compiled engine
is built, random opponents, flat observations, `action_masks()`).

## Rendering

`render_mode` is None, `"ansi"` (returns text), `"rgb_array"` (returns an `H x W x 3` uint8 image)
or `"human"` (a window); drawing lives in `mk_env/mountain_king/env/render.py` (text) and `render_image.py` (images).

## Version history

The rule (PettingZoo's and pgx's): any change to the observations, the actions, the rules or the
rewards bumps the version (`mountain_king_v<N>` -> `mountain_king_v<N+1>`, `ENV_VERSION` in
`mk_env/mountain_king/env/version.py`), adds its line below (`VERSION_HISTORY`) and pins the new layouts
(`PINNED_LAYOUTS`), all in `mk_env/mountain_king/env/version.py`; a refactor or a speed-up does not.
`tests/env/test_env_version.py` checks the observation and action layouts of the default configurations
against the pins, and checkpoints record `layout_fingerprint(game)`, so a policy trained on another
layout gets a clear error instead of silent nonsense.

<!-- versions -->
"""

#: the page: the text above with the Version history's list from :mod:`mk_env.mountain_king.env.version`
PAGE = (_TEXT.replace("<!-- versions -->", version_lines()).replace("<ENV_NAME>", ENV_NAME)
        .replace("<VERSION>", str(ENV_VERSION)))
