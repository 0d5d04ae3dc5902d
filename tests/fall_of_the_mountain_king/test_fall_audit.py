"""An outside audit of the Fall of the Mountain King engine (issue 20): rules the other test files leave
unchecked, and hostile saves whose engine bookkeeping (the task stack, the decision's context) is corrupt."""

from __future__ import annotations

import json

import numpy as np
import pytest
from fall_helpers import at_phase, play

from mk_env.core.errors import StateError
from mk_env.fall_of_the_mountain_king.rules import Game, Phase
from mk_env.fall_of_the_mountain_king.rules.stack_checks import stack_problems


def _saved_turn() -> dict:
    """A 2-player game's save at its first battle turn."""
    return json.loads(at_phase(2, Phase.TURN, seed=3).to_json())


@pytest.mark.parametrize("change, message", [
    (lambda d: d["tasks"].append(["rm_rf", 1]), r"tasks\[\d+\]: \['rm_rf', 1\] is not a task"),
    (lambda d: d["tasks"].append("battle_turn"), "tasks: expected a list of lists"),
    (lambda d: d["tasks"].append([]), "is not a task"),
    (lambda d: d["tasks"].append(["battle_turn", "x"]), "argument 'seat' is x, allowed an integer 0..1"),
    (lambda d: d["tasks"].append(["battle_turn", 5]), "argument 'seat' is 5"),
    (lambda d: d["tasks"].append(["award", 0, 1]), "task 'award' takes 1 arguments"),
    (lambda d: d["tasks"].append(["fall", 1, 0, 999]), "argument 'loc' is 999"),
    (lambda d: d.update(tasks=[]), "tasks: empty while a decision is awaited"),
    (lambda d: d.update(pending={}), "pending: a turn decision needs 'weak'"),
    (lambda d: d["pending"].update(weak=7), "pending: 'weak' is 7, allowed an integer 0..1"),
    (lambda d: d["pending"].update(dest=3), "pending: key 'dest' is not part of a turn decision"),
    (lambda d: d.update(phase=int(Phase.LAIR_TROLL)), "pending: key 'weak' is not part of a lair_troll decision"),
    (lambda d: d.update(phase=int(Phase.WHEEL), pending={"most": 0}), "pending: 'most' is 0, allowed an integer 1..12"),
    (lambda d: d.update(phase=int(Phase.LAIR_CHOICE), pending={"reason": "fall"}),
     "a lair choice for 'fall' needs 'card'"),
])
def test_a_save_with_a_corrupt_task_stack_or_decision_context_is_refused_naming_the_fault(change, message):
    data = _saved_turn()
    change(data)
    with pytest.raises(StateError, match=message):
        Game(2).state_from_json(data)


@pytest.mark.parametrize("change, message", [
    (lambda d: d["grid"][0].__setitem__(0, 999), "grid holds a value outside -1..21"),
    (lambda d: d["covered"][0].__setitem__(0, 2), "covered holds a value outside 0..1"),
    (lambda d: d["known_gnomes"][0].append(999), "known_gnomes holds a value outside"),
    (lambda d: d["known_gates"][0].append(-5), "known_gates holds a value outside"),
    (lambda d: d["seen"][0].append(9999), "seen holds a value outside"),
    (lambda d: d["influence"][0].__setitem__(0, -4), "influence holds a value outside"),
    (lambda d: d["votes"][0].__setitem__(1, -1), "votes holds a value outside"),
    (lambda d: d.update(boost=[99, 0]), "boost holds a value outside 0..6"),
    (lambda d: d.update(claws_used=[-3] * len(d["claws_used"])), "claws used, allowed 0.."),
    (lambda d: d["placed"][0].append(0), r"placed\[0\] is not \(card, canvas cell\) pairs"),
    (lambda d: d.update(vote_tiles=[0] * 7), "vote_tiles is not one tile per clan"),
    (lambda d: d.update(gates_aside=d["invasion"][:1]), "are not the 7 gate cards, each once"),
    (lambda d: d.update(display=d["display"][:1] * 2), "display holds a champion twice"),
    (lambda d: d.update(revealed=9), "revealed is 9"),
])
def test_a_save_with_values_no_game_reaches_is_refused_naming_the_field(change, message):
    data = _saved_turn()
    change(data)
    with pytest.raises(StateError, match=message):
        Game(2).state_from_json(data)


def test_a_save_whose_awaited_decision_has_no_legal_action_is_refused():
    data = _saved_turn()
    data.update(phase=int(Phase.ROUTE), pending={"kind": 1, "gnome": 0, "options": [0]})
    data["decider"] = 0
    st = Game(2).state_from_json(data)  # a routing choice among one cavern is offered: legal
    assert len(st.legal_actions()) == 1
    empty = next(x for x, f in enumerate(data["trolls"]) if not f[0] and x not in data["champ_loc"])
    data.update(phase=int(Phase.FALL), pending={"loc": empty})  # a troll of seat 0 falls where it has none
    with pytest.raises(StateError, match="has no legal action"):
        Game(2).state_from_json(data)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_every_reachable_decision_passes_the_save_checks_and_reads_back(n):
    game = Game(n)
    for seed in range(2):
        st, rng = game.new_initial_state(seed), np.random.default_rng(seed)

        def check(s):
            assert stack_problems(s) == []
            if s.turn % 5 == 0 and not s.is_terminal():
                assert game.state_from_json(s.to_json()).to_json() == s.to_json()
        play(st, rng, each=check)
        assert st.is_terminal()


# -- rules through whole turns (the other files feed the tasks by hand) -----------------------------------
def _weak_turn(st, rows):
    from fall_helpers import decide, set_grid
    set_grid(st, 0, rows)
    st.supply[0], st.desperation[0] = 1, 0
    decide(st, Phase.TURN, 0, weak=0)


def test_seizing_control_counts_the_caverns_not_empty_and_not_yours_when_the_action_starts():
    """Two weak Advances in one turn: the tied Hollow becomes controlled (a vote); the empty Gate does not
    (it started the action empty), nor does control lost give anything back."""
    from fall_helpers import act, cavern, put_trolls, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block, Symbol
    st = two_player_map()
    hollow, deep, gate = cavern(st, "Moss Hollow"), cavern(st, "Moss Deep"), cavern(st, "Moss Gate")
    moss = st.game.side.clan_of[hollow]
    put_trolls(st, 0, deep, 2)
    put_trolls(st, 0, hollow, 1)
    put_trolls(st, 1, hollow, 1)
    _weak_turn(st, ["A A"])
    L = st.game.layout
    st.apply(L.weak(Symbol.ADVANCE, 0))
    act(st, Block.DEST, hollow)
    act(st, Block.TROLL, deep)  # 2 against 1: seized
    assert st.votes[moss] == [1, 0] and st.phase == Phase.TURN and st.pending["weak"] == 1
    st.apply(L.weak(Symbol.ADVANCE, 1))
    act(st, Block.DEST, gate)
    act(st, Block.TROLL, hollow)  # into an empty cavern: control, but nothing seized
    assert st.votes[moss] == [1, 0] and st.trolls[gate][0] == 1


def test_a_victory_does_not_resolve_the_honor_tripwire():
    """Decision 8: a victory moves the wheel pawn but only the breach tripwire is named there."""
    from fall_helpers import act, cavern, put_gnome, put_trolls, run_tasks, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 1)
    put_gnome(st, target, 1)
    st.wheel = st.game.pack.wheel.honor_tripwire - 1
    run_tasks(st, ["advance", 0, 1, 0], ["seize_check", 0, []])
    act(st, Block.DEST, target)
    act(st, Block.TROLL, deep)
    assert st.wheel == st.game.pack.wheel.honor_tripwire and st.boost == [0, 0] and st.honor[0] == 1


def test_the_wheel_pawn_moves_at_least_one_space():
    """Decision 18: "up to p spaces" is 1..p (a pawn that stays would repeat its space's effect at m = 0)."""
    from fall_helpers import act, only, put_trolls, cavern, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block, Symbol
    st = two_player_map()
    put_trolls(st, 0, cavern(st, "Moss Deep"), 1)
    _weak_turn(st, ["G"])
    st.apply(st.game.layout.weak(Symbol.GNOME, 0))
    assert st.phase == Phase.WHEEL and only(st, Block.WHEEL) == [0]  # argument 0: one space
    act(st, Block.WHEEL, 0)
    assert st.wheel == 1


def _component(rows, start, action):
    """An independent reading of "connected": the symbols serving ``action`` reachable from ``start``
    through orthogonal steps over such symbols and over ancestry markers (``*``)."""
    def serves(tok):
        return tok[0] in (action, "W") and not tok.endswith("*")
    grid = [row.split() for row in rows]
    todo, seen = [start], {start}
    while todo:
        r, c = todo.pop()
        for y, x in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= y < len(grid) and 0 <= x < len(grid[0]) and (y, x) not in seen and (
                    grid[y][x].endswith("*") or serves(grid[y][x])):
                seen.add((y, x))
                todo.append((y, x))
    return {(r, c) for r, c in seen if serves(grid[r][c])}


def test_a_strong_action_gathers_exactly_the_symbols_connected_through_markers():
    """Random 6x6 grids: adding every symbol the engine offers, again and again, covers exactly the
    symbols of the start's connected group (an independent flood fill), never a diagonal or a stranger."""
    from fall_helpers import act, cell, decide, set_grid, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block, Symbol
    letters = {"A": Symbol.ADVANCE, "B": Symbol.BOLSTER}
    rng = np.random.default_rng(20)
    checked = 0
    for _ in range(60):
        st = two_player_map()
        tokens = rng.choice(["A", "B", "W", "_", "E", "A*", "B*", "_"], size=(6, 6))
        rows = [" ".join(r) for r in tokens]
        set_grid(st, 0, rows)
        starts = [(r, c) for r in range(6) for c in range(6) if tokens[r][c] == "A"]
        if not starts:
            continue
        start = starts[int(rng.integers(len(starts)))]
        expect = _component(rows, start, "A")
        st.supply[0], st.desperation[0] = 1, 0
        decide(st, Phase.TURN, 0, weak=0)
        offered = st.game.layout.strong(letters["A"], cell(st, *start)) in st.legal_actions()
        assert offered == (len(expect) > 1)  # unnumbered: a strong action needs a second connected symbol
        if not offered:
            continue
        st.apply(st.game.layout.strong(letters["A"], cell(st, *start)))
        while (adds := [a for a in st.legal_actions() if st.game.layout.decode(int(a))[0] == Block.ADD]):
            act(st, Block.ADD, st.game.layout.decode(int(adds[0]))[1])
        covered = {(r, c) for r, c in np.ndindex(6, 6) if st.covered[0][cell(st, r, c)] and "*" not in tokens[r][c]}
        assert covered == expect and st.pending["power"] == len(expect)
        checked += 1
    assert checked >= 20


def test_advance_sources_are_the_troll_locations_joined_to_the_destination_by_established_ones():
    """Random maps: the locations the engine lets trolls advance from equal an independent search from
    each troll along established locations (your trolls or your lairs) to the destination."""
    from fall_helpers import put_trolls, run_tasks, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block
    rng = np.random.default_rng(21)
    for _ in range(40):
        st = two_player_map()
        side = st.game.side
        for loc in rng.choice(side.n_caverns, size=6, replace=False):
            put_trolls(st, int(rng.integers(2)), int(loc), 1)
        mine = {x for x in range(side.size) if st.trolls[x][0]}
        est = mine | set(st.lairs[0])
        for dest in range(side.n_caverns):
            def reaches(src):
                todo, seen = [src], {src}
                while todo:
                    x = todo.pop()
                    for y in side.adjacent[x]:
                        if y == dest:
                            return True
                        if y in est and y not in seen:
                            seen.add(y)
                            todo.append(y)
                return False
            expect = sorted(x for x in mine if x != dest and reaches(x))
            run_tasks(st, ["advance", 0, 3, 0], ["seize_check", 0, []])
            offered = st.game.layout.index(Block.DEST, dest) in st.legal_actions()
            assert offered == bool(expect)
            if offered:
                st.apply(st.game.layout.index(Block.DEST, dest))
                assert sorted(st.pending["sources"]) == expect


@pytest.mark.parametrize("n", [2, 4])
def test_a_gnome_runs_to_the_easiest_then_closest_cavern_through_overrun_ones(n):
    """Random maps (both sides): the engine's goals equal an independent reading: every non-overrun cavern
    reached from a gate of the swarm's domain by a path whose caverns before it are all overrun, the
    fewest trolls first, then the fewest caverns gone through."""
    from fall_helpers import battle_position, put_gnome, put_trolls
    from mk_env.fall_of_the_mountain_king.rules.swarm import goals
    rng = np.random.default_rng(22)
    for _ in range(60):
        st = battle_position(n)
        side = st.game.side
        locs = rng.permutation(side.n_caverns)
        for loc in locs[:10]:
            put_gnome(st, int(loc), 1)
        for loc in locs[10:18]:
            put_trolls(st, int(rng.integers(n)), int(loc), int(rng.integers(1, 3)))
        st.swarm = int(rng.integers(7))
        overrun = set(int(x) for x in locs[:10])
        best = {}
        for gate in side.gates[st.swarm]:  # shortest paths through overrun caverns, from every gate
            dist, todo = {gate: 0}, [gate]
            while todo:
                x = todo.pop(0)
                if x not in overrun:
                    best[x] = min(best.get(x, 99), dist[x])
                    continue
                for y in side.adjacent[x]:
                    if y < side.n_caverns and y not in dist:
                        dist[y] = dist[x] + 1
                        todo.append(y)
        if not best:
            continue
        key = {x: (sum(st.trolls[x]), d) for x, d in best.items()}
        top = min(key.values())
        assert goals(st) == sorted(x for x, k in key.items() if k == top)


def test_an_influence_on_a_yellow_line_has_passed_it():
    """Decision 20: the lines are drawn before the spaces 2, 4 and 7; reaching a space passes its line."""
    from fall_helpers import two_player_map
    from mk_env.fall_of_the_mountain_king.rules.champions import lines_passed
    st = two_player_map()
    card = st.display[0]
    for influence, lines in ((1, 0), (2, 1), (3, 1), (4, 2), (6, 2), (7, 3), (12, 3)):
        st.influence[card][1] = influence
        assert lines_passed(st, 1, card) == lines


def test_determinize_keeps_everything_the_player_knows_at_every_decision():
    """Through random games: for the decider and one other seat, a determinized copy shows the same public
    map and the same private knowledge (gnome strengths, gate cards, hands, dealt champions) as the
    game, and the decider the same legal actions."""
    from mk_env.fall_of_the_mountain_king.rules.knowledge import dealt_champions, gate_card, gnome_strength, hand
    public = ("trolls", "gnome_at", "gnome_public", "grid", "covered", "honor", "votes", "influence", "display",
              "champ_loc", "supply", "desperation", "wheel", "swarm", "revealed", "phase", "decider", "tasks")
    rng = np.random.default_rng(23)
    for n in (2, 4):
        st = Game(n).new_initial_state(23)
        k = 0
        while not st.is_terminal():
            if k % 9 == 0:
                for p in {st.decider, (st.decider + 1) % n}:
                    d = st.determinize(p, rng)
                    assert all(getattr(d, f) == getattr(st, f) for f in public)
                    assert [gnome_strength(d, p, g) for g in range(len(st.strength))] == \
                        [gnome_strength(st, p, g) for g in range(len(st.strength))]
                    assert [gate_card(d, p, i) for i in range(len(st.invasion))] == \
                        [gate_card(st, p, i) for i in range(len(st.invasion))]
                    assert all(hand(d, p, s) == hand(st, p, s) and dealt_champions(d, p, s) == dealt_champions(st, p, s)
                               for s in range(n))
                    if p == st.decider:
                        assert d.legal_actions().tolist() == st.legal_actions().tolist()
            st.apply(int(rng.choice(st.legal_actions())))
            k += 1


def test_a_turn_with_no_possible_action_spends_its_supply_and_ends():
    """Decision 2: every symbol covered: only "end the turn" is offered; the supply was spent."""
    from fall_helpers import STOP, only, set_grid, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block
    from mk_env.fall_of_the_mountain_king.rules.battle import battle_turn
    st = two_player_map()
    set_grid(st, 0, ["A* B*", "W* _"])
    st.supply = [2, 0]
    st.tasks = [STOP]
    battle_turn(st, 0)
    st._cache.clear()
    assert st.phase == Phase.TURN and st.supply == [1, 0]
    assert only(st, Block.END_TURN) == [0] and only(st, Block.WEAK) == only(st, Block.STRONG) == []
    st.apply(st.game.layout.index(Block.END_TURN))
    assert st.phase == Phase.TURN and st.decider == 0 and st.supply == [0, 0]  # seat 1 has none: passed


def test_a_card_that_fits_nowhere_is_not_added_and_the_draft_goes_on():
    """Decision 17: a full 6x6 grid with an elder symbol in every 2x2 window takes no card; its hand
    passes on whole."""
    from fall_helpers import set_grid
    from mk_env.fall_of_the_mountain_king.rules import Block
    from mk_env.fall_of_the_mountain_king.rules.ancestry import anchors
    st = at_phase(2, Phase.PLACE_CARD, seed=5)
    me = st.decider
    other = 1 - me
    set_grid(st, other, [" ".join("E" if r % 2 and c % 2 else "A" for c in range(6)) for r in range(6)])
    assert anchors(st, other) == []
    theirs = st.hands[other][:]
    st.apply(int(st.legal_actions()[0]))
    assert st.game.layout.decode(int(st.legal_actions()[0]))[0] == Block.PLACE
    assert st.phase == Phase.PLACE_CARD and st.decider == me  # the other seat was skipped: the next pick
    assert st.placed[other] == [] and st.hands[me] == theirs and len(st.hands[other]) == 3


def test_with_the_gnome_supply_exhausted_an_invasion_sends_fewer_and_a_repulse_adds_none():
    """Decision 12: 30 gnomes in all."""
    from fall_helpers import act, cavern, put_gnome, put_trolls, run_tasks, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block
    from mk_env.fall_of_the_mountain_king.rules.fields import BY_WHEEL, SUPPLY
    st = two_player_map()
    deep, target = cavern(st, "Moss Deep"), cavern(st, "Hammer Deep")
    put_trolls(st, 0, deep, 1)
    g = put_gnome(st, target, 3)
    st.gnome_at = [x if x != SUPPLY else BY_WHEEL for x in st.gnome_at]  # none left in the supply
    run_tasks(st, ["advance", 0, 1, 0], ["seize_check", 0, []])
    act(st, Block.DEST, target)
    act(st, Block.TROLL, deep)  # 1 troll against 3: repelled
    assert [x for x in st.gnome_at if x == target] == [target] and st.gnome_at[g] == target
    act(st, Block.LAIR, 0)
    st.gnome_at = [SUPPLY if x == BY_WHEEL else x for x in st.gnome_at]
    spare = [i for i, x in enumerate(st.gnome_at) if x == SUPPLY]
    for i in spare[1:]:
        st.gnome_at[i] = BY_WHEEL  # one gnome left in the supply
    st.wave = 3  # 4 invaders due
    on_map = sum(1 for x in st.gnome_at if x >= 0)
    run_tasks(st, ["invasion", 0])
    while st.phase == Phase.ROUTE:
        act(st, Block.ROUTE, st.pending["options"][0])
    assert sum(1 for x in st.gnome_at if x >= 0) == on_map + 1 and SUPPLY not in st.gnome_at


def test_the_grey_troll_space_never_moves_trolls_out_of_or_into_a_lair():
    """Decision 10: "from any single cavern into adjacent gnome-free caverns": lair spaces are neither."""
    from fall_helpers import act, only, put_trolls, run_tasks, two_player_map
    from mk_env.fall_of_the_mountain_king.rules import Block
    st = two_player_map()
    side = st.game.side
    lair = st.lairs[0][0]
    put_trolls(st, 0, lair, 3)
    (next_to,) = [y for y in side.adjacent[lair] if y < side.n_caverns][:1]
    put_trolls(st, 1, next_to, 1)
    st.wheel = 3
    run_tasks(st, ["gnome_action", 0, 1, 0], ["seize_check", 0, []])
    act(st, Block.WHEEL, 0)  # space 4: the grey troll
    while st.phase in (Phase.SCOUT_GATE, Phase.SCOUT_GNOME):
        act(st, Block.DONE)
    assert lair not in only(st, Block.SHOVE_FROM) and next_to in only(st, Block.SHOVE_FROM)
    act(st, Block.SHOVE_FROM, next_to)
    dests = {a % side.size for a in only(st, Block.SHOVE)}
    assert dests and all(d < side.n_caverns for d in dests) and lair not in dests


def test_an_invasion_tie_with_no_votes_anywhere_goes_to_the_start_player():
    """Decision 11: nobody has votes in any clan: the start player breaks the tie."""
    from fall_helpers import two_player_map
    from mk_env.fall_of_the_mountain_king.rules.swarm import vote_leader
    st = two_player_map()
    for first in (0, 1):
        st.start_player = first
        assert all(vote_leader(st, clan) == first for clan in range(7))


def test_with_all_five_champion_bases_on_the_map_a_won_champion_brings_no_pawn():
    """Decision 14: the pawn needs a free champion base."""
    from fall_helpers import cavern, give_champion, put_trolls, run_tasks, two_player_map
    from mk_env.fall_of_the_mountain_king.rules.actions import add_influence
    from mk_env.fall_of_the_mountain_king.rules.fields import DISPLAY, HELD
    st = two_player_map()
    deep = cavern(st, "Fire Deep")
    put_trolls(st, 0, deep, 1)
    names = ["Brunna Stonefist", "Olm the Patient", "Keskel Whisper", "Grub Tallow", "Vark Emberjaw"]
    for name in names:
        give_champion(st, 0, name, at=deep)
    won = give_champion(st, 0, "Cinder Queen")
    st.champ_state[won], st.champ_owner[won] = DISPLAY, -1
    st.display = [won]
    add_influence(st, 0, won, 2)
    run_tasks(st, ["award", 0])
    assert st.champ_state[won] == HELD and st.champ_loc[won] == -1 and st.phase == Phase.KEEP_CHAMPION  # STOP


@pytest.mark.parametrize("n", [3, 5])
def test_great_halls_and_domains_score_as_an_independent_reading_of_the_text(n):
    """Random maps: each Great Hall to the most caverns controlled (gnomes take part, ties split, fractions
    dropped) and each domain's 4 + 2 per controlled cavern - 1 per overrun one, against the text read
    afresh ("controlled": more trolls than any other single player)."""
    from fall_helpers import battle_position, put_gnome, put_trolls
    from mk_env.fall_of_the_mountain_king.rules.scoring import hall_shares
    from mk_env.fall_of_the_mountain_king.rules.waveend import domain_score
    rng = np.random.default_rng(24)
    for _ in range(40):
        st = battle_position(n)
        side = st.game.side
        st.starburst = [-1] * len(side.halls)
        locs = rng.permutation(side.n_caverns)
        gnomes = {int(x) for x in locs[:6]}
        for x in gnomes:
            put_gnome(st, x, 1)
        for x in locs[6:]:
            for p in range(n):
                put_trolls(st, p, int(x), int(rng.integers(0, 3)) if rng.random() < 0.4 else 0)

        def ctrl(x):
            f = st.trolls[x]
            best = max(f)
            return f.index(best) if best and f.count(best) == 1 else -1
        for h, caverns in enumerate(side.halls):
            held = [sum(1 for x in caverns if ctrl(x) == p) for p in range(n)]
            g = sum(1 for x in caverns if x in gnomes)
            top = max(held + [g])
            winners = [p for p in range(n) if held[p] == top] if top else []
            share = st.hall_value[h] // (len(winners) + (g == top)) if winners else 0
            assert hall_shares(st, h) == [share if p in winners else 0 for p in range(n)]
        for clan in range(7):
            caverns = side.domain[clan]
            lost = sum(1 for x in caverns if x in gnomes)
            want = [4 + 2 * k - lost if (k := sum(1 for x in caverns if ctrl(x) == p)) else 0 for p in range(n)]
            assert domain_score(st, clan) == want


def test_wild_pairs_stop_at_a_supply_of_8_and_desperation_counts_the_supply_after_them():
    """Wave 1: 6 + 1 barrel = 7; four wilds make only one pair (up to 8); then 0 desperation tokens."""
    from fall_helpers import STOP, act, only, set_grid
    from mk_env.fall_of_the_mountain_king.rules import Block
    from mk_env.fall_of_the_mountain_king.rules.ancestry import supplies
    st = at_phase(2, Phase.PLACE_CARD, seed=6)
    set_grid(st, 0, ["W W S", "W W _"])
    st.start_player, st.wave = 0, 1
    supplies(st, 0)
    st.tasks = [STOP, ["reveal_wild_pairs"]]  # only seat 0's wild pairs, revealed with the tokens, then STOP
    assert st.supply[0] == 7 and only(st, Block.WILD)
    act(st, Block.WILD, only(st, Block.WILD)[0])
    act(st, Block.WILD, only(st, Block.WILD)[0])
    assert st.supply[0] == 8 and st.phase == Phase.KEEP_CHAMPION and st.desperation[0] == 0
    assert sum(st.covered[0]) == 2  # two wilds left uncovered for actions
