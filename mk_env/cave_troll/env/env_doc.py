"""The Cave Troll environment's documentation page: the text of :mod:`mk_env.cave_troll.env.aec`'s docstring.

As for the first game (:mod:`mk_env.mountain_king.env.env_doc`): the text lives here, ``aec`` sets its ``__doc__`` to
:data:`PAGE` (with the Version history's list from :mod:`mk_env.cave_troll.env.version`);
``python -m mk_env.cave_troll.env.docs > docs/cave-troll/environment.md`` writes the page and
``python -m mk_env.cave_troll.env.docs --update-docstring`` rewrites the generated tables below.
"""

from .version import ENV_NAME, version_lines

_TEXT = r"""# Cave Troll: the PettingZoo environment

| | |
|---|---|
| Import | `from mk_env import <ENV_NAME>; env = <ENV_NAME>.env(num_players=4)` |
| API | AEC (turn-based; a player whose turn it is not decides its escape from a Cave Troll) |
| Agents | `player_0` ... `player_{n-1}` (n = 2..4) |
| Action space | `Discrete(N)`, N = `game.layout.size` (1192 / 1252 / 1312 for 2 / 3 / 4 players) |
| Observation | `Dict({"observation": Dict of float32 Boxes in [0, 1], "action_mask": Box(0, 1, (N,), int8)})`; `observation="flat"`: one `float32[D]` vector; `"rllib"`: RLlib's keys |
| State | `state()`: a `float32` vector in `state_space`, `Box(0, 1, (S,))` (full information) |

## Creation

```python
from mk_env import <ENV_NAME>
env = <ENV_NAME>.env(num_players=4, render_mode=None, reward="win")  # safety wrappers
raw = <ENV_NAME>.raw_env(num_players=2, strict=True)                # illegal actions raise
flat = <ENV_NAME>.env(num_players=3, observation="flat")            # one float32 vector
gym = <ENV_NAME>.single_seat_env(num_players=2)                     # Gymnasium, one learner seat
```

`num_players` is 2..4; `pack` (a pack directory or a loaded pack; None: the default pack) passes to the
engine's `Game(...)`; a bad option raises the engine's `ConfigError`. `reward` is `"win"` (default),
`"margin"` or `"dense"`. `env()` wraps `raw_env(strict=False)` with the first game's subclasses of
PettingZoo's `AssertOutOfBoundsWrapper` and `OrderEnforcingWrapper`. The game is seeded by
`reset(seed=...)` (`reset()` without a seed continues the previous seed's sequence). `import mk_env`
registers the environment with PettingZoo's registry, `pettingzoo.make("aec", "<ENV_NAME>", num_players=3)`,
and its single-seat view with Gymnasium's, `gymnasium.make("mk_env/CaveTroll-v<VERSION>", num_players=3)`.

The environment, and an environment in the middle of a game (with its wrappers, in any observation style),
pickle: it travels as its options, the engine's exact JSON of the game and its bookkeeping, so the copy
continues the same game. The game itself is `env.unwrapped.game_state` (a
`mk_env.cave_troll.rules.CaveTrollState`: `legal_actions()`, `apply()`, `clone()`, `determinize()`,
`to_json()`, `score_breakdown()`, `ranks()`, `describe_action()`).

## Agents

`player_p` plays seat `p` (colour `pack.colours[p]`: red, blue, green, yellow); the first player is drawn
at random by the engine. `env.agent_selection` is the seat whose decision it is: the player whose turn it
is, or, after a Cave Troll enters a room, each player with counters there, starting with the one to the
left of the troll's owner, who may move one counter out (an `escape` decision). A turn is up to four
actions (fewer in the first round: the First Round Rule) and an action may need sub-decisions (where the
drawn counter goes, whom a Wraith pushes and where, the Helm's steps, the Chalice's destinations); each is
one step of the environment.

## Observation

`obs["observation"]` is a dict of float32 arrays in `[0, 1]`. Egocentric: wherever there is a player axis,
row 0 is the observer, then the others in turn order. Actions count seats absolutely (a counter id is
`seat * 20 + slot`), so `game` holds the observer's seat one-hot. Counts are divided by the most the game
allows (a kind's count by that kind's number in a colour: 10 for Explorers, else 1); gold by 200, capped.

Only public information and the observer's own hand are encoded: where every played counter is, each
pile's composition (counts left by kind, never its order), the observer's artifacts by kind, the other
players' artifacts as a count, the artifacts played, the artifact stack's size (never its order or
contents). A drawn counter awaiting its place is face up. Two states that differ only in what a player
cannot see (pile order, the other players' artifacts, the stack) give that player the same observation.

`obs["action_mask"]` is an `int8` vector over the whole action space: 1 exactly at the engine's legal
actions for the agent whose decision it is (all zeros for the others, and once the game is over).

<!-- tables:start -->
### Observation arrays

| key | shape (2 / 3 / 4 players) | start:stop in the flat vector (2 / 3 / 4) | meaning |
|---|---|---|---|
| `adjacency` | (38, 38) / (38, 38) / (38, 38) | 0:1444 / 0:1444 / 0:1444 | the lair's doorways: 1 where two locations are joined (static; an entrance also reaches every other entrance in one move) |
| `artifacts` | (2, 6) / (2, 6) / (2, 6) | 1444:1456 / 1444:1456 / 1444:1456 | row 0: the artifacts I hold, by kind; row 1: the artifacts played (public) |
| `counters` | (2, 20, 41) / (3, 20, 41) / (4, 20, 41) | 1456:3096 / 1456:3916 / 1456:4736 | each counter's place, one-hot (player row egocentric, then slot: the MOVE block's slot; the locations, then pile, discarded, hand) |
| `game` | (8,) / (9,) / (10,) | 3096:3104 / 3916:3925 / 4736:4746 | whose decision, my seat (one-hot, absolute), actions left, turn, the artifact stack's size, the Idol |
| `lair` | (38, 24) / (38, 33) / (38, 42) | 3104:4016 / 3925:5179 / 4746:6342 | per location: kind, printed gold / 5, counters by player (egocentric) and kind / that kind's number per colour, the Idol, the Cloak's wearer (who controls a room follows from the counts: most adventurers, the Barbarian counting two, ties nobody) |
| `pending` | (102,) / (104,) / (106,) | 4016:4118 / 5179:5283 / 6342:6448 | the decision awaited (phase) and its sub-decision: the counter placed, pushed or moved (kind, owner, where), the room, the players still to escape the Cave Troll, the Helm's or the Cloak's steps left, the Chalice's travellers left |
| `players` | (2, 23) / (3, 23) / (4, 23) | 4118:4164 / 5283:5352 / 6448:6540 | per player (egocentric): gold (score and by category, / 200 capped), the pile's size and composition (counts left by kind, never the order), artifacts held (a count), whose turn, who decides, first player, who ended |
| **D** | | **4164** / **5352** / **6540** | |

### Entries of each array

| key | entries along the last axis (4 players; `+k`: the player k seats after me) |
|---|---|
| `adjacency` | R01, R02, R03, R04, R05, R06, R07, R08, R09, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19, R20, R21, R22, R23, R24, R25, R26, R27, R28, R29, R30, R31, R32, R33, north-west entrance, north-east entrance, south-west entrance, south-east entrance, the pit |
| `artifacts` | helm_of_mind_control, chalice_of_teleportation, idol_of_eldarr, wand_of_speed, cloak_of_invisibility, sword_of_slaying |
| `counters` | R01, R02, R03, R04, R05, R06, R07, R08, R09, R10, R11, R12, R13, R14, R15, R16, R17, R18, R19, R20, R21, R22, R23, R24, R25, R26, R27, R28, R29, R30, R31, R32, R33, north-west entrance, north-east entrance, south-west entrance, south-east entrance, the pit, pile, discarded, hand |
| `game` | my_decision, seat_0, seat_1, seat_2, seat_3, actions_left, turn, first_round, stack_left, idol_mine |
| `lair` | room, entrance, pit, gold, me_barbarian, me_thief, me_knight, me_dwarf, me_explorer, me_wraith, me_cave_troll, me_orc, me_treasure, +1_barbarian, +1_thief, +1_knight, +1_dwarf, +1_explorer, +1_wraith, +1_cave_troll, +1_orc, +1_treasure, +2_barbarian, +2_thief, +2_knight, +2_dwarf, +2_explorer, +2_wraith, +2_cave_troll, +2_orc, +2_treasure, +3_barbarian, +3_thief, +3_knight, +3_dwarf, +3_explorer, +3_wraith, +3_cave_troll, +3_orc, +3_treasure, idol, cloak |
| `pending` | phase_action, phase_place, phase_entry_push, phase_push_to, phase_escape, phase_step, phase_teleport, phase_game_over, counter_barbarian, counter_thief, counter_knight, counter_dwarf, counter_explorer, counter_wraith, counter_cave_troll, counter_orc, counter_treasure, counter_count_the_loot, counter_find_an_artifact, counter_of_me, counter_of_+1, counter_of_+2, counter_of_+3, counter_at_R01, counter_at_R02, counter_at_R03, counter_at_R04, counter_at_R05, counter_at_R06, counter_at_R07, counter_at_R08, counter_at_R09, counter_at_R10, counter_at_R11, counter_at_R12, counter_at_R13, counter_at_R14, counter_at_R15, counter_at_R16, counter_at_R17, counter_at_R18, counter_at_R19, counter_at_R20, counter_at_R21, counter_at_R22, counter_at_R23, counter_at_R24, counter_at_R25, counter_at_R26, counter_at_R27, counter_at_R28, counter_at_R29, counter_at_R30, counter_at_R31, counter_at_R32, counter_at_R33, counter_at_north-west entrance, counter_at_north-east entrance, counter_at_south-west entrance, counter_at_south-east entrance, counter_at_the pit, room_R01, room_R02, room_R03, room_R04, room_R05, room_R06, room_R07, room_R08, room_R09, room_R10, room_R11, room_R12, room_R13, room_R14, room_R15, room_R16, room_R17, room_R18, room_R19, room_R20, room_R21, room_R22, room_R23, room_R24, room_R25, room_R26, room_R27, room_R28, room_R29, room_R30, room_R31, room_R32, room_R33, room_north-west entrance, room_north-east entrance, room_south-west entrance, room_south-east entrance, room_the pit, to_escape_me, to_escape_+1, to_escape_+2, to_escape_+3, steps_left, stepped, travellers |
| `players` | score, gold_rooms, gold_treasure, gold_idol, gold_last_counter, gold_artifacts, pile_left, pile_barbarian, pile_thief, pile_knight, pile_dwarf, pile_explorer, pile_wraith, pile_cave_troll, pile_orc, pile_treasure, pile_count_the_loot, pile_find_an_artifact, artifacts_held, turn_player, deciding, first_player, ended_game |

### The global state (`state()`, `state_slices()`)

| part | start:stop (2 / 3 / 4 players) | meaning |
|---|---|---|
| `observation` | 0:4164 / 0:5352 / 0:6540 | seat 0's observation (the flat vector) |
| `pile_order` | 4164:4204 / 5352:5412 / 6540:6620 | per seat and slot: the counter's depth in its pile, (depth + 1) / slots (1/slots: drawn next), 0 when not in the pile |
| `artifact_holder` | 4204:4222 / 5412:5436 / 6620:6650 | per artifact: who holds it (seat one-hot, absolute), or the stack (last column) |
| `stack_order` | 4222:4228 / 5436:5442 / 6650:6656 | per artifact: its depth in the stack, (depth + 1) / artifacts, 0 when not in the stack |
| **S** | **4228** / **5442** / **6656** | |

### Action layout (the engine's flat numbering)

| block | 2 players: offset, size | 3 players: offset, size | 4 players: offset, size |
|---|---|---|---|
| `end_turn` | 0, 1 | 0, 1 | 0, 1 |
| `draw` | 1, 1 | 1, 1 | 1, 1 |
| `decline` | 2, 1 | 2, 1 | 2, 1 |
| `place` | 3, 38 | 3, 38 | 3, 38 |
| `move` | 41, 760 | 41, 760 | 41, 760 |
| `push` | 801, 40 | 801, 60 | 801, 80 |
| `push_to` | 841, 38 | 861, 38 | 881, 38 |
| `orc` | 879, 40 | 899, 60 | 919, 80 |
| `helm` | 919, 40 | 959, 60 | 999, 80 |
| `step` | 959, 38 | 1019, 38 | 1079, 38 |
| `chalice` | 997, 38 | 1057, 38 | 1117, 38 |
| `teleport` | 1035, 38 | 1095, 38 | 1155, 38 |
| `idol` | 1073, 33 | 1133, 33 | 1193, 33 |
| `wand` | 1106, 33 | 1166, 33 | 1226, 33 |
| `cloak` | 1139, 20 | 1199, 20 | 1259, 20 |
| `sword` | 1159, 33 | 1219, 33 | 1279, 33 |
| **N** | **1192** | **1252** | **1312** |
<!-- tables:end -->

## Actions

One flat `Discrete(N)` space of named blocks laid end to end (table above); `env.unwrapped.describe_action(a)`
says what an action number does, e.g. "move your Knight (#2) to R12". `move` is `slot * locations +
destination` (moves, the Thief's jump, escapes); `push`, `orc` and `helm` name a counter id; `place`,
`push_to`, `step`, `chalice`, `teleport` a location; `idol`, `wand`, `sword` a room; `cloak` one of your
slots. Locations are numbered rooms first, then the four entrances, then the pit.
`decline` is the one action of the choices one may refuse: a drawn Treasure ("you *may* put it into play":
it leaves the game), a push, an escape from a Cave Troll, the Helm's or the Cloak's remaining steps.

## Rewards

* `win` (default): nothing during the game; at the end the engine's `returns()`: +1 to the winner and
  -1/(n-1) to each other player (tied winners share so that the rewards sum to zero).
* `margin`: at the end `(own gold - the best other player's gold) / 100`.
* `dense`: after every step each player gets the change of its gold since the previous step, / 100 (a
  player sees the sum since its last step), plus the `win` reward at the end.

The final `infos[agent]` hold `score_breakdown` (gold by category: rooms, treasure, idol, last_counter,
artifacts, and `total`), `rank` (0 = winner; tied players share a rank) and `illegal_actions`.

## Illegal actions

`raw_env(strict=True)` raises the engine's `IllegalActionError` (what was chosen, why it is illegal, what
is allowed) and changes nothing. `env()` (strict=False) ends the game: the offending agent gets
`illegal_reward` (-1), the others 0, `infos[agent]["illegal_action"]` says why, and the first time
PettingZoo's illegal-move warning names the environment, the agent and the action.

`max_cycles=N` (as PettingZoo's environments take it) truncates the game after N decisions in all: every agent's
`truncations` True, `infos[agent]["truncated"]` N, no final reward (default None: no limit; the single-seat view
uses Gymnasium's `max_episode_steps` instead).

## Global state

`env.state()` is seat 0's flat observation followed by what nobody sees in full: each pile's order, who
holds each artifact, the artifact stack's order (`state_slices()` gives the parts).

## Rendering

`render_mode="ansi"`: a text map of the lair (each location's name and gold, `*` a Cave Troll, `I` the
Idol), every occupied location with its counters by colour and kind and who controls it, the players and
the decision awaited. `render_mode="rgb_array"`: an image of the lair graph from the pack's positions
(Pillow, from the `tools` extra): doorways, rooms with their gold and their controller's colour,
entrances, the pit, each counter a dot of its owner's colour with its kind's letter.

## Version history

<!-- versions -->
"""

#: the page: the text above with the Version history's list from :mod:`mk_env.cave_troll.env.version`
PAGE = (_TEXT.replace("<!-- versions -->", version_lines()).replace("<ENV_NAME>", ENV_NAME)
        .replace("<VERSION>", ENV_NAME.rpartition("_v")[2]))
