// The mechanics' legal choices and their application: setup.py, chance.py, spellbook.py, spells.py,
// recruiting.py, digging.py, great_halls.py, statues.py, workshops.py, trades.py and the_end.py, function for
// function (the comment above each names the Python one when the name differs).
#include <algorithm>
#include <numeric>

#include "engine.hpp"

namespace mk {

// -- the list pool --------------------------------------------------------------------------------------
void State::list_push(int l, int v) {
    int16_t* base = list_base(l);
    if (base[0] >= t->lists[l].cap) throw std::logic_error("a list field outgrew its capacity (engine bug)");
    base[1 + base[0]] = static_cast<int16_t>(v);
    base[0] += 1;
}

int State::list_pop_front(int l) {
    int16_t* base = list_base(l);
    const int v = base[1];
    std::memmove(base + 1, base + 2, sizeof(int16_t) * (base[0] - 1));
    base[0] -= 1;
    return v;
}

void State::list_set(int l, const std::vector<int>& values) {
    if (static_cast<int>(values.size()) > t->lists[l].cap) throw std::length_error("list longer than its capacity");
    int16_t* base = list_base(l);
    base[0] = static_cast<int16_t>(values.size());
    for (size_t i = 0; i < values.size(); ++i) base[1 + i] = static_cast<int16_t>(values[i]);
}

namespace {

void reset_turn(State& st) {
    st.spell_cast = false;
    st.workshops_left = 1;
    st.list_clear(L_USED_SITES);
    st.active_site = -1;
    st.uses_left = 0;
    st.bribe_any = false;
    st.ignore_rubble = false;
    st.free_moves = 0;
    st.pending = Pending();
}

// -- chance.py ----------------------------------------------------------------------------------------------
int draw_troll(State& st, int row) {
    int order[3], n = 0;
    for (int lvl = row; lvl < 3; ++lvl) order[n++] = lvl;
    for (int lvl = row - 1; lvl >= 0; --lvl) order[n++] = lvl;
    for (int i = 0; i < n; ++i) {
        const int lvl = order[i];
        if (st.list_len(L_DECK0 + lvl)) {
            if (st.deck_unseen[lvl] > 0) st.deck_unseen[lvl] -= 1;
            return st.list_pop_front(L_DECK0 + lvl);
        }
    }
    return -1;
}

int draw_pedestal(State& st) {
    int8_t* bag = st.bag();
    const int total = bag[0] + bag[1] + bag[2];
    if (total == 0) return -1;
    int x = static_cast<int>(integers(st.rng, static_cast<uint64_t>(total)));
    for (int clan = 0; clan < N_CLANS; ++clan) {
        x -= bag[clan];
        if (x < 0) {
            bag[clan] -= 1;
            return clan;
        }
    }
    throw std::logic_error("unreachable");
}

int draw_spell(State& st) {
    if (!st.list_len(L_SPELL_DECK)) return -1;
    if (st.spell_unseen > 0) st.spell_unseen -= 1;
    return st.list_pop_front(L_SPELL_DECK);
}

int bag_total(State& st) { return st.bag()[0] + st.bag()[1] + st.bag()[2]; }

}  // namespace

void refill(State& st, int h) {
    const int row = st.t->horde_row[h];
    st.horde()[h] = static_cast<int16_t>(draw_troll(st, row));
    if (row == 1 && st.horde()[h] >= 0 && st.horde_pedestal()[h] < 0)
        st.horde_pedestal()[h] = static_cast<int8_t>(draw_pedestal(st));
}

// -- setup.py -----------------------------------------------------------------------------------------------
void setup(State& st) {
    const Tables& t = *st.t;
    const int n = t.n_players, n_sq = t.n_squares;
    // blank_fields: every array at its fill
    std::fill(st.arena.begin(), st.arena.end(), 0);
    auto fill = [&](ArrayField f, int v) {
        const size_t count = t.array_bytes[f] / (t.array_dtypes[f] == 'h' ? 2 : t.array_dtypes[f] == 'i' ? 4 : 1);
        uint8_t* base = st.arena.data() + t.array_offsets[f];
        for (size_t i = 0; i < count; ++i) {
            switch (t.array_dtypes[f]) {
                case 'h': reinterpret_cast<int16_t*>(base)[i] = static_cast<int16_t>(v); break;
                case 'i': reinterpret_cast<int32_t*>(base)[i] = v; break;
                default: reinterpret_cast<int8_t*>(base)[i] = static_cast<int8_t>(v);
            }
        }
    };
    for (ArrayField f : {F_TILE, F_REGION, F_HALL_AT, F_STATUE, F_PEDESTAL, F_BURIED, F_GATE_SQ, F_HALL_ALTAR,
                         F_WORKSHOP, F_HORDE, F_HORDE_PEDESTAL, F_SPELLBOOK, F_TRACK_TAKEN, F_SMOOT})
        fill(f, -1);
    st.history.clear();
    st.phase = st.current = st.turn = st.board_version = st.next_tile = st.next_region = 0;
    reset_turn(st);
    st.final_turns_left = -1;
    for (int p = 0; p < 8; ++p) st.draft_placed[p] = 0;
    st.changed();

    for (int s = 0; s < n_sq; ++s) st.buried()[s] = static_cast<int8_t>(t.buried_init[s]);
    for (int r = 0; r < N_RESOURCES; ++r) st.supply()[r] = static_cast<int16_t>(t.supply_init[r]);
    for (size_t i = 0; i < t.tunnel_count.size(); ++i) st.tunnel_supply()[i] = static_cast<int8_t>(t.tunnel_count[i]);
    // statues: a random first spot and clan, then the clan cycle clockwise
    const int n_spots = static_cast<int>(t.statue_spots.size());
    const int start = n_spots ? static_cast<int>(integers(st.rng, n_spots)) : 0;
    const std::vector<int> cycle = permutation(st.rng, N_CLANS);
    int placed[N_CLANS] = {0, 0, 0};
    for (int k = 0; k < n_spots; ++k) {
        const int clan = cycle[k % N_CLANS];
        if (placed[clan] < t.statues_per_clan) {
            st.statue()[t.statue_spots[(start + k) % n_spots]] = static_cast<int8_t>(clan);
            placed[clan] += 1;
        }
    }
    // workshops revealed: 2 per player + 1
    const int want = 2 * n + 1;
    std::vector<int> chosen;
    if (t.workshop_selection == 0) {
        std::vector<int> tiles;
        for (size_t w = 0; w < t.workshop_count.size(); ++w)
            for (int c = 0; c < t.workshop_count[w]; ++c) tiles.push_back(static_cast<int>(w));
        const std::vector<int> order = permutation(st.rng, static_cast<int>(tiles.size()));
        for (int i = 0; i < want && i < static_cast<int>(order.size()); ++i) chosen.push_back(tiles[order[i]]);
    } else if (t.workshop_selection == 1) {
        const std::vector<int> order = permutation(st.rng, static_cast<int>(t.workshop_count.size()));
        for (int i = 0; i < want && i < static_cast<int>(order.size()); ++i) chosen.push_back(order[i]);
    } else {
        chosen = t.chosen_workshops;
    }
    for (int w : chosen) st.workshop_supply()[w] += 1;
    // the horde
    for (int level = 1; level <= 3; ++level) {
        std::vector<int> ids;
        for (int c = 0; c < t.n_cards; ++c)
            if (t.card_level[c] == level) ids.push_back(c);
        const std::vector<int> order = permutation(st.rng, static_cast<int>(ids.size()));
        std::vector<int> deck;
        for (int i : order) deck.push_back(ids[i]);
        st.list_set(L_DECK0 + level - 1, deck);
        st.deck_unseen[level - 1] = static_cast<int>(deck.size());
    }
    for (int c = 0; c < N_CLANS; ++c) st.bag()[c] = static_cast<int8_t>(t.pedestals_per_clan);
    for (int h = 0; h < N_HORDE; ++h) refill(st, h);
    st.list_set(L_CORONATION_LEFT, t.coronation_tokens);
    // the spellbook and the pedestal track
    const std::vector<int> order = permutation(st.rng, static_cast<int>(t.spell_effect.size()));
    const int size = t.spellbook_size;
    std::vector<int> rest;
    for (size_t i = 0; i < order.size(); ++i) {
        if (static_cast<int>(i) < size)
            st.spellbook()[i] = static_cast<int16_t>(order[i]);
        else
            rest.push_back(order[i]);
    }
    st.list_set(L_SPELL_DECK, rest);
    st.spell_unseen = static_cast<int>(rest.size());
    const std::vector<int> track = permutation(st.rng, static_cast<int>(t.pedestal_tokens.size()));
    for (int i = 0; i < N_TIERS * N_CLANS && i < static_cast<int>(track.size()); ++i)
        st.track_value(0)[i] = static_cast<int8_t>(t.pedestal_tokens[track[i]]);
    // the draft: two starters in hand, the rest in a deck
    for (int p = 0; p < n; ++p) {
        const std::vector<int> deck = permutation(st.rng, t.n_starters);
        st.list_set(draft_hand_list(t, p), std::vector<int>(deck.begin(), deck.begin() + std::min(2, t.n_starters)));
        st.list_set(draft_deck_list(p), std::vector<int>(deck.begin() + std::min(2, t.n_starters), deck.end()));
        st.draft_placed[p] = 0;
    }
    st.phase = GATE;
}

Ints legal_gates(State& st) {
    const Tables& t = *st.t;
    const int n = t.n_players;
    const int n_points = static_cast<int>(t.start_sq.size());
    auto taken = [&](int sq) {
        for (int p = 0; p < n; ++p)
            if (st.gate_sq()[p] == sq) return true;
        return false;
    };
    std::vector<int> marks;
    for (int m : t.start_mark)
        if (std::find(marks.begin(), marks.end(), m) == marks.end()) marks.push_back(m);
    std::vector<int> allowed;
    if (std::find(marks.begin(), marks.end(), n) != marks.end()) {
        allowed.push_back(n);
    } else {  // 2 players: any two matching-numbered start points
        int placed = -1;
        for (int k = 0; k < n_points && placed < 0; ++k)
            if (taken(t.start_sq[k])) placed = t.start_mark[k];
        if (placed >= 0) {
            allowed.push_back(placed);
        } else {
            for (int m : marks)
                if (std::count(t.start_mark.begin(), t.start_mark.end(), m) >= n) allowed.push_back(m);
        }
    }
    Ints legal;
    for (int k = 0; k < n_points; ++k)
        if (std::find(allowed.begin(), allowed.end(), t.start_mark[k]) != allowed.end() && !taken(t.start_sq[k]))
            legal.push_back(k);
    int mate_gate = -1;
    for (int q : t.teammates[st.current])
        if (st.gate_sq()[q] >= 0) {
            mate_gate = st.gate_sq()[q];
            break;
        }
    if (t.team_mode && mate_gate >= 0) {  // team play: gates beside each other
        Ints beside;
        for (int k : legal) {
            const int mark = t.start_mark[k];
            std::vector<int> ring;
            for (int i : t.start_clockwise)
                if (t.start_mark[i] == mark) ring.push_back(i);
            int j = -1;
            for (int i : ring)
                if (t.start_sq[i] == mate_gate) {
                    j = i;
                    break;
                }
            if (j < 0) throw std::logic_error("team mate's gate is not on a start point of this mark");
            const int len = static_cast<int>(ring.size());
            const int a = static_cast<int>(std::find(ring.begin(), ring.end(), k) - ring.begin());
            const int b = static_cast<int>(std::find(ring.begin(), ring.end(), j) - ring.begin());
            const int d = ((a - b) % len + len) % len;
            if (d == 1 || d == len - 1) beside.push_back(k);
        }
        legal = beside;
    }
    return legal;
}

Ints legal_drafts(State& st, int p) {
    const Tables& t = *st.t;
    Ints out;
    const int l = draft_hand_list(t, p);
    for (int i = 0; i < st.list_len(l); ++i)
        for (int s = 0; s < 4; ++s)
            if (st.smoot(p)[s] < 0) out.push_back(st.list_at(l, i) * 4 + s);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

namespace {

void apply_gate(State& st, int p, int k) {
    const int sq = st.t->start_sq[k];
    st.gate_sq()[p] = sq;
    place_tile(st, &sq, 1, SQ_GATE, -1);
    if (p + 1 < st.n()) {
        st.current = p + 1;
    } else {
        st.phase = DRAFT;
        st.current = 0;
    }
}

void grant_starting_resources(State& st) {
    const Tables& t = *st.t;
    for (int p = 0; p < t.n_players; ++p) {
        std::vector<int> cards(st.smoot(p), st.smoot(p) + 4);
        if (!t.team_mode) {
            if (p == 1 || p == 2) {
                for (int c : st.list_values(draft_hand_list(t, p))) cards.push_back(c);
            } else if (p >= 3) {
                for (int c : st.list_values(draft_hand_list(t, p))) cards.push_back(c);
                for (int c : st.list_values(draft_deck_list(p))) cards.push_back(c);
            }
        }
        for (int c : cards)
            for (int res : t.card_starting[c]) gain(st, p, res, 1);
    }
    for (int p = 0; p < t.n_players; ++p) {
        st.list_clear(draft_hand_list(t, p));
        st.list_clear(draft_deck_list(p));
    }
}

void apply_draft(State& st, int p, int arg) {
    const Tables& t = *st.t;
    const int type = arg / 4, slot = arg % 4;
    st.smoot(p)[slot] = static_cast<int16_t>(type);
    std::vector<int> hand = st.list_values(draft_hand_list(t, p));
    hand.erase(std::find(hand.begin(), hand.end(), type));
    st.draft_placed[p] += 1;
    if (st.draft_placed[p] < 4) hand.push_back(st.list_pop_front(draft_deck_list(p)));
    st.list_set(draft_hand_list(t, p), hand);
    if (st.draft_placed[p] < 4) return;
    if (p + 1 < st.n()) {
        st.current = p + 1;
        return;
    }
    grant_starting_resources(st);
    st.phase = STEP1;
    st.current = 0;
    st.turn = 0;
    reset_turn(st);
}

// -- the_end.py ---------------------------------------------------------------------------------------------
void crown(State& st, int p) {
    int trolls = 0;
    for (int s = 0; s < N_SMOOT; ++s) trolls += st.smoot(p)[s] >= 0;
    if (trolls >= st.t->max_trolls && st.list_len(L_CORONATION_LEFT)) {
        st.coronation()[p] = static_cast<int16_t>(st.coronation()[p] + st.list_pop_front(L_CORONATION_LEFT));
        if (!st.list_len(L_CORONATION_LEFT)) {
            const int n = st.n();
            st.final_turns_left = (n - 1 - p) + 2 * n;
        }
    }
}

void end_turn(State& st) {
    if (st.final_turns_left == 0) {
        st.phase = GAME_OVER;
        st.pending = Pending();
        return;
    }
    if (st.final_turns_left > 0) st.final_turns_left -= 1;
    st.current = (st.current + 1) % st.n();
    st.turn += 1;
    reset_turn(st);
    st.phase = STEP1;
}

// -- spellbook.py -------------------------------------------------------------------------------------------
void finish_spell(State& st) {
    const int i = st.pending.spell;
    if (st.spell_runes()[i] >= st.t->runes_to_disintegrate) {
        st.supply()[RUNE] = static_cast<int16_t>(st.supply()[RUNE] + st.spell_runes()[i]);
        st.spell_runes()[i] = 0;
        st.list_push(L_SPELL_DECK, st.spellbook()[i]);
        st.spellbook()[i] = static_cast<int16_t>(draw_spell(st));
    }
    st.pending = Pending();
    st.phase = STEP1;
}

// -- spells.py ----------------------------------------------------------------------------------------------
int spell_being_cast(State& st) { return st.spellbook()[st.pending.spell]; }

Ints level2_trolls(State& st, int p) {
    Ints out;
    for (int s = 0; s < N_SMOOT; ++s) {
        const int c = st.smoot(p)[s];
        if (c >= 0 && st.t->card_level[c] == 2) out.push_back(s);
    }
    return out;
}

Ints level3_trolls(State& st) {
    Ints out;
    for (int h = 0; h < N_HORDE; ++h) {
        const int c = st.horde()[h];
        if (c >= 0 && st.t->card_level[c] == 3) out.push_back(h);
    }
    return out;
}

Ints bribed_trolls(State& st) {
    Ints out;
    for (int h = 0; h < N_HORDE; ++h) {
        if (st.horde()[h] < 0) continue;
        int sum = 0;
        for (int r = 0; r < N_RESOURCES; ++r) sum += st.horde_bribes(h)[r];
        if (sum > 0) out.push_back(h);
    }
    return out;
}

void gain_bundle(State& st, int p, const std::array<int, N_RESOURCES>& bundle) {
    for (int r = 0; r < N_RESOURCES; ++r)
        if (bundle[r]) gain(st, p, r, bundle[r]);
}

void apply_cast(State& st, int p, int i) {
    pay(st, p, RUNE, 1, nullptr, 0, false);
    st.spell_runes()[i] += 1;
    st.spell_cast = true;
    st.pending = Pending();
    st.pending.spell = i;
    const int spell = spell_being_cast(st);
    switch (st.t->spell_effect[spell]) {
        case E_GAIN_CHOICE: {
            const auto& options = st.t->spell_options[spell];
            if (options.size() == 1) {
                gain_bundle(st, p, options[0]);
                finish_spell(st);
            } else {
                st.phase = SPELL_OPTION;
            }
            break;
        }
        case E_BRIBE_ANY: st.bribe_any = true; finish_spell(st); break;
        case E_DIG_NOW: st.phase = SPELL_DIG; break;
        case E_ASCENSION: st.phase = SPELL_SMOOT; break;
        case E_ACTIVATE_TROLL: st.phase = SPELL_SMOOT; break;
        case E_COLLECT_BRIBES: st.phase = SPELL_HORDE; break;
        case E_TAKE_PEDESTAL: st.phase = SPELL_PEDESTAL; break;
        case E_FREE_STATUE_MOVES: st.free_moves = st.t->spell_moves[spell]; st.phase = SPELL_STATUE; break;
        case E_EXTRA_WORKSHOP: st.workshops_left += 1; finish_spell(st); break;
        case E_IGNORE_RUBBLE: st.ignore_rubble = true; finish_spell(st); break;
        default: throw std::logic_error("unknown spell effect");
    }
}

void apply_smoot_slot(State& st, int p, int slot) {
    const int spell = spell_being_cast(st);
    if (st.t->spell_effect[spell] == E_ASCENSION) {
        st.pending.smoot_slot = slot;
        st.phase = SPELL_HORDE;
        return;
    }
    // activate_troll
    if (st.t->spell_cascade[spell])
        activate_slots(st, p, st.t->smoot_cone[slot]);
    else
        activate_slots(st, p, Ints{slot});
    finish_spell(st);
}

void apply_horde_slot(State& st, int p, int h) {
    const int spell = spell_being_cast(st);
    if (st.t->spell_effect[spell] == E_ASCENSION) {
        const int slot = st.pending.smoot_slot;
        const int old = st.smoot(p)[slot];
        st.list_push(L_DECK0 + st.t->card_level[old] - 1, old);
        return_troll_tokens(st, p, slot);
        for (int r = 0; r < N_RESOURCES; ++r) {
            st.supply()[r] = static_cast<int16_t>(st.supply()[r] + st.horde_bribes(h)[r]);
            st.horde_bribes(h)[r] = 0;
        }
        st.smoot(p)[slot] = st.horde()[h];
        st.horde()[h] = -1;
        refill(st, h);
        finish_spell(st);
        return;
    }
    // collect_bribes
    for (int r = 0; r < N_RESOURCES; ++r) {
        st.storage_of(p)[r] = static_cast<int16_t>(st.storage_of(p)[r] + st.horde_bribes(h)[r]);
        st.horde_bribes(h)[r] = 0;
    }
    finish_spell(st);
}

// -- recruiting.py ------------------------------------------------------------------------------------------
void finish_recruit(State& st, int p) {
    const Tables& t = *st.t;
    const int h = st.pending.horde_slot, slot = st.pending.smoot_slot, card = st.pending.recruit_card;
    refill(st, h);
    bool full[N_HORDE];
    for (int r = 0; r < N_HORDE; ++r) {
        int sum = 0;
        for (int k = 0; k < N_RESOURCES; ++k) sum += st.horde_bribes(r)[k];
        full[r] = sum >= t.retire_bribes;
    }
    for (int r = 0; r < N_HORDE; ++r) {
        if (!full[r] || st.horde()[r] < 0) continue;
        st.list_push(L_DECK0 + t.card_level[st.horde()[r]] - 1, st.horde()[r]);
        for (int k = 0; k < N_RESOURCES; ++k) {
            st.supply()[k] = static_cast<int16_t>(st.supply()[k] + st.horde_bribes(r)[k]);
            st.horde_bribes(r)[k] = 0;
        }
        st.horde()[r] = -1;
        refill(st, r);
    }
    st.smoot(p)[slot] = static_cast<int16_t>(card);
    activate_slots(st, p, t.smoot_cone[slot]);
    crown(st, p);
    st.pending = Pending();
    st.phase = STEP3;
}

void take_troll(State& st, int p) {
    const int h = st.pending.horde_slot;
    const int s = st.t->storage_of[p];
    const int card = st.horde()[h];
    st.pending.recruit_card = card;
    st.horde()[h] = -1;
    for (int k = 0; k < N_RESOURCES; ++k) {
        st.storage(s)[k] = static_cast<int16_t>(st.storage(s)[k] + st.horde_bribes(h)[k]);
        st.horde_bribes(h)[k] = 0;
    }
    const int level = st.t->card_level[card];
    const int clan = st.horde_pedestal()[h];
    if (clan >= 0) {  // _lift_horde_pedestal
        if (level == 2)
            st.storage_pedestals(s)[clan] += 1;
        else
            st.bag()[clan] += 1;
        st.horde_pedestal()[h] = -1;
    }
    if (level == 3 && bag_total(st) > 0) {
        st.phase = RECRUIT_PEDESTAL;
        return;
    }
    finish_recruit(st, p);
}

void apply_recruit(State& st, int p, int arg) {
    const Tables& t = *st.t;
    const int n_slots = static_cast<int>(t.recruit_slots.size());
    const int h = arg / n_slots, slot = t.recruit_slots[arg % n_slots];
    st.pending = Pending();
    st.pending.horde_slot = h;
    st.pending.smoot_slot = slot;
    st.pending.n_bribes = 0;
    for (int b : t.horde_beneath[h])
        if (st.horde()[b] >= 0) st.pending.bribes[st.pending.n_bribes++] = b;
    if (st.bribe_any && st.pending.n_bribes) {
        st.phase = BRIBE;
        return;
    }
    for (int i = 0; i < st.pending.n_bribes; ++i) {
        pay(st, p, COIN, 1, nullptr, 0, false);
        st.horde_bribes(st.pending.bribes[i])[COIN] += 1;
    }
    take_troll(st, p);
}

void apply_bribe(State& st, int p, int res) {
    Pending& pd = st.pending;
    const int target = pd.bribes[0];
    pay(st, p, res, 1, nullptr, 0, false);
    st.horde_bribes(target)[res] += 1;
    const int was = pd.n_bribes;
    for (int i = 1; i < was; ++i) pd.bribes[i - 1] = pd.bribes[i];
    pd.n_bribes = was - 1;
    if (was == 1) take_troll(st, p);
}

// -- digging.py ---------------------------------------------------------------------------------------------
void end_dig(State& st) {
    if (st.pending.dig_for_spell == 1) {
        finish_spell(st);
    } else {
        st.pending = Pending();
        st.phase = STEP3;
    }
}

int workshops_in_supply(State& st) {
    int sum = 0;
    for (size_t w = 0; w < st.t->workshop_count.size(); ++w) sum += st.workshop_supply()[w];
    return sum;
}

void dig_workshops(State& st) {
    const Placements& pl = st.t->tunnels;
    const int i = st.pending.dig;
    st.pending.n_sites = 0;
    for (int k = pl.sites_ptr[i]; k < pl.sites_ptr[i + 1]; ++k)
        if (st.workshop()[pl.sites[k]] < 0) st.pending.sites[st.pending.n_sites++] = pl.sites[k];
    if (st.pending.n_sites && workshops_in_supply(st) > 0)
        st.phase = DIG_WORKSHOP;
    else
        end_dig(st);
}

void next_site(State& st) {
    Pending& pd = st.pending;
    for (int k = 1; k < pd.n_sites; ++k) pd.sites[k - 1] = pd.sites[k];
    pd.n_sites -= 1;
    if (pd.n_sites && workshops_in_supply(st) > 0)
        st.phase = DIG_WORKSHOP;
    else
        end_dig(st);
}

void dig(State& st, int p, int mineral) {
    const Tables& t = *st.t;
    const Placements& pl = t.tunnels;
    const int i = st.pending.dig;
    const int size = pl.size[i], piece = pl.piece[i];
    const int* cells = pl.cells.data() + i * pl.max_cells;
    pay(st, p, mineral, size);
    if (!st.ignore_rubble) pay(st, p, HAMMER, pl.rubble[i]);
    st.tunnel_supply()[piece] -= 1;
    place_tile(st, cells, size, SQ_TUNNEL, piece);
    st.honour()[p] = static_cast<int16_t>(st.honour()[p] + t.tunnel_honour[size * 3 + mineral]);
    for (int c = 0; c < size; ++c) {
        const int sq = cells[c];
        if (st.buried()[sq] >= 0) {
            gain(st, p, st.buried()[sq], 1);
            st.buried()[sq] = -1;
        }
    }
    if (pl.anchor[i] >= 0 && !legal_pedestal_clans(st, p).empty()) {
        st.phase = DIG_PEDESTAL;
        return;
    }
    dig_workshops(st);
}

void apply_dig(State& st, int p, int i) {
    st.pending.dig = i;
    st.pending.dig_for_spell = st.phase == SPELL_DIG ? 1 : 0;
    const Ints minerals = minerals_paying(st, p, i);
    if (minerals.size() == 1)
        dig(st, p, minerals[0]);
    else
        st.phase = DIG_MINERAL;
}

void place_pedestal(State& st, int p, int clan) {
    const Tables& t = *st.t;
    const int anchor = t.tunnels.anchor[st.pending.dig];
    const int tier = t.tier[anchor] - 1;
    st.pedestal()[anchor] = static_cast<int8_t>(clan);
    st.storage_pedestals(t.storage_of[p])[clan] -= 1;
    st.track_taken(tier)[clan] = static_cast<int8_t>(p);
    st.pedestal_points()[p] = static_cast<int16_t>(st.pedestal_points()[p] + st.track_value(tier)[clan]);
    st.pedestal_tokens()[p] += 1;
    dig_workshops(st);
}

// -- great_halls.py -----------------------------------------------------------------------------------------
void split_protrusions(State& st, int tile_id) {
    const Tables& t = *st.t;
    std::vector<int> rest;  // ascending: the part grown from the lowest square first
    for (int s = 0; s <= t.n_squares; ++s)
        if (st.tile()[s] == tile_id && st.kind()[s] == SQ_TUNNEL) rest.push_back(s);
    std::vector<char> left(t.n_squares + 1, 0);
    for (int s : rest) left[s] = 1;
    for (int start : rest) {
        if (!left[start]) continue;
        left[start] = 0;
        std::vector<int> part{start}, todo{start};
        for (size_t head = 0; head < todo.size(); ++head) {
            const int s = todo[head];
            for (int k = 0; k < 4; ++k) {
                const int q = t.neighbours[s * 4 + k];
                if (left[q]) {
                    left[q] = 0;
                    part.push_back(q);
                    todo.push_back(q);
                }
            }
        }
        for (int s : part) st.region()[s] = static_cast<int16_t>(st.next_region);
        st.next_region += 1;
    }
}

void apply_hall(State& st, int i) {
    const Placements& pl = st.t->halls;
    const int size = pl.size[i], hall = pl.piece[i];
    const int* cells = pl.cells.data() + i * pl.max_cells;
    std::vector<int> covered;
    for (int c = 0; c < size; ++c) covered.push_back(st.tile()[cells[c]]);
    std::sort(covered.begin(), covered.end());
    covered.erase(std::unique(covered.begin(), covered.end()), covered.end());
    for (int c = 0; c < size; ++c) {
        st.pedestal()[cells[c]] = -1;
        st.hall_at()[cells[c]] = static_cast<int8_t>(hall);
    }
    st.hall_altar()[hall] = pl.anchor[i];
    place_tile(st, cells, size, SQ_GREAT_HALL, -1);
    for (int tile_id : covered) split_protrusions(st, tile_id);
    st.phase = STEP4;
}

// -- statues.py ---------------------------------------------------------------------------------------------
void apply_move_statue(State& st, int p, int dest) {
    const int src = st.pending.statue_square;
    const int clan = st.statue()[src];
    st.statue()[dest] = static_cast<int8_t>(clan);
    st.statue()[src] = -1;
    const int back = st.pending.statue_from_phase;
    st.pending.statue_square = NONE;
    st.pending.statue_from_phase = NONE;
    if (back == SPELL_STATUE) {
        st.free_moves -= 1;
        if (st.free_moves <= 0)
            finish_spell(st);
        else
            st.phase = SPELL_STATUE;
        return;
    }
    if (st.free_moves > 0) {
        st.free_moves -= 1;
    } else {
        const int kinds[2] = {CLAN_CART0 + clan, CART};
        pay(st, p, CART, 1, kinds, 2);
    }
    st.phase = back;
}

// -- workshops.py and trades.py -------------------------------------------------------------------------------
void apply_activate_workshop(State& st, int p, int site) {
    st.workshops_left -= 1;
    st.list_push(L_USED_SITES, site);
    st.active_site = site;
    std::vector<bool> touches;
    std::vector<int> open;
    workshop_touch(st, p, touches, open);
    st.uses_left = open[site];
    st.phase = WORKSHOP;
}

void apply_workshop_use(State& st, int p, int j) {
    const Tables& t = *st.t;
    if (t.conv_move_slot[j] >= 0) {
        const int slot = t.conv_move_slot[j], kind = t.conv_move_kind[j];
        st.tokens(p, slot)[kind] -= 1;
        st.storage_of(p)[TOKEN_RESOURCE[kind]] += 1;
    } else {
        pay_vector(st, p, t.conv_give.data() + j * N_RESOURCES, t.wild_carts_only[t.conv_workshop[j]] != 0);
        gain_vector(st, p, t.conv_gain.data() + j * N_RESOURCES);
    }
    st.uses_left -= 1;
    if (st.uses_left <= 0) {
        st.phase = STEP1;
        st.active_site = -1;
    }
}

void apply_trade(State& st, int p, int arg) {
    pay_vector(st, p, st.t->trade_gives.data() + (arg / N_RESOURCES) * N_RESOURCES);
    gain(st, p, arg % N_RESOURCES, 1);
}

}  // namespace

// -- the legal choices the phases without trades offer -------------------------------------------------------
Ints castable_positions(State& st, int p) {
    Ints out;
    for (int i = 0; i < st.t->spellbook_size; ++i) {
        const int spell = st.spellbook()[i];
        if (spell < 0) continue;
        bool ok = true;
        switch (st.t->spell_effect[spell]) {
            case E_DIG_NOW: ok = !legal_digs(st, p, owned(st, p)).empty(); break;
            case E_ASCENSION: ok = !level2_trolls(st, p).empty() && !level3_trolls(st).empty(); break;
            case E_COLLECT_BRIBES: ok = !bribed_trolls(st).empty(); break;
            case E_TAKE_PEDESTAL: ok = bag_total(st) > 0; break;
            default: break;
        }
        if (ok) out.push_back(i);
    }
    return out;
}

Ints activatable_sites(State& st, int p) {
    Ints out;
    if (st.workshops_left <= 0) return out;
    std::vector<bool> touches;
    std::vector<int> open;
    workshop_touch(st, p, touches, open);
    for (size_t i = 0; i < touches.size(); ++i) {
        if (!touches[i] || st.workshop()[i] < 0) continue;
        bool used = false;
        for (int k = 0; k < st.list_len(L_USED_SITES); ++k) used |= st.list_at(L_USED_SITES, k) == static_cast<int>(i);
        if (!used) out.push_back(static_cast<int>(i));
    }
    return out;
}

Ints legal_conversions(State& st, int p, const Have& have_in) {
    const Tables& t = *st.t;
    Ints out;
    const int w = st.workshop()[st.active_site];
    if (st.uses_left <= 0) return out;
    Have have = have_in;
    if (t.wild_carts_only[w]) have[CART] = wild_carts(st, p);
    const int n_conv = static_cast<int>(t.conv_workshop.size());
    for (int j = 0; j < n_conv; ++j) {
        if (t.conv_workshop[j] != w) continue;
        bool ok = true;
        for (int r = 0; r < N_RESOURCES && ok; ++r) ok = t.conv_give[j * N_RESOURCES + r] <= have[r];
        if (!ok) continue;
        if (t.conv_move_slot[j] >= 0) {
            if (st.tokens(p, t.conv_move_slot[j])[t.conv_move_kind[j]] > 0) out.push_back(j);
        } else {
            for (int r = 0; r < N_RESOURCES && ok; ++r) ok = st.supply()[r] >= t.conv_gain[j * N_RESOURCES + r];
            if (ok) out.push_back(j);
        }
    }
    return out;
}

Ints legal_recruits(State& st, int p, const Have& have) {
    const Tables& t = *st.t;
    Ints out;
    const int16_t* smoot = st.smoot(p);
    int trolls = 0;
    for (int s = 0; s < N_SMOOT; ++s) trolls += smoot[s] >= 0;
    if (trolls >= t.max_trolls) return out;
    Ints columns;
    for (size_t c = 0; c < t.recruit_slots.size(); ++c) {
        const int slot = t.recruit_slots[c];
        if (smoot[slot] >= 0) continue;
        bool rests = true;
        for (int b : t.smoot_support[slot]) rests &= smoot[b] >= 0;
        if (rests) columns.push_back(static_cast<int>(c));
    }
    if (columns.empty()) return out;
    int purse = have[COIN];
    if (st.bribe_any) purse = std::accumulate(have.begin(), have.end(), 0);
    const int n_slots = static_cast<int>(t.recruit_slots.size());
    for (int h = 0; h < N_HORDE; ++h) {
        if (st.horde()[h] < 0) continue;
        int owed = 0;
        for (int b : t.horde_beneath[h]) owed += st.horde()[b] >= 0;
        if (owed > purse) continue;
        for (int c : columns) out.push_back(h * n_slots + c);
    }
    return out;
}

Ints spell_smoot_slots(State& st, int p) {
    const int spell = spell_being_cast(st);
    if (st.t->spell_effect[spell] == E_ASCENSION) return level2_trolls(st, p);
    Ints out;
    for (int s = 0; s < N_SMOOT; ++s)
        if (st.smoot(p)[s] >= 0) out.push_back(s);
    return out;
}

Ints spell_horde_slots(State& st) {
    const int spell = spell_being_cast(st);
    return st.t->spell_effect[spell] == E_ASCENSION ? level3_trolls(st) : bribed_trolls(st);
}

Ints legal_pedestal_clans(State& st, int p) {
    const Tables& t = *st.t;
    const int anchor = t.tunnels.anchor[st.pending.dig];
    const int tier = t.tier[anchor] - 1;
    const int s = t.storage_of[p];
    Ints out;
    for (int c = 0; c < N_CLANS; ++c)
        if (st.storage_pedestals(s)[c] > 0 && st.track_taken(tier)[c] < 0) out.push_back(c);
    return out;
}

Ints minerals_paying(State& st, int p, int placement) {
    const int size = st.t->tunnels.size[placement];
    const Have have = owned(st, p);
    Ints out;
    for (int m = 0; m < 3; ++m)
        if (have[m] >= size) out.push_back(m);
    return out;
}

// -- turn.py: what each block and each pass does ---------------------------------------------------------
void apply_pass(State& st) {
    switch (st.phase) {
        case STEP1: st.phase = STEP2; break;
        case WORKSHOP: st.phase = STEP1; st.active_site = -1; st.uses_left = 0; break;
        case STEP2: st.phase = STEP3; break;
        case STEP3: st.phase = STEP4; break;
        case STEP4: end_turn(st); break;
        case RECRUIT_PEDESTAL: finish_recruit(st, st.current); break;
        case DIG_PEDESTAL: dig_workshops(st); break;
        case DIG_WORKSHOP: next_site(st); break;
        case SPELL_STATUE: finish_spell(st); break;
        default: throw std::logic_error("pass in a phase without pass (engine bug)");
    }
}

void apply_block(State& st, int block, int arg) {
    const int p = st.current;
    switch (block) {
        case B_PASS: apply_pass(st); break;
        case B_GATE: apply_gate(st, p, arg); break;
        case B_DRAFT: apply_draft(st, p, arg); break;
        case B_CAST: apply_cast(st, p, arg); break;
        case B_SPELL_OPTION: gain_bundle(st, p, st.t->spell_options[spell_being_cast(st)][arg]); finish_spell(st); break;
        case B_ACTIVATE_WORKSHOP: apply_activate_workshop(st, p, arg); break;
        case B_WORKSHOP_USE: apply_workshop_use(st, p, arg); break;
        case B_TRADE: apply_trade(st, p, arg); break;
        case B_RECRUIT: apply_recruit(st, p, arg); break;
        case B_BRIBE: apply_bribe(st, p, arg); break;
        case B_PEDESTAL:
            if (st.phase == SPELL_PEDESTAL) {
                st.bag()[arg] -= 1;
                st.storage_pedestals(st.t->storage_of[p])[arg] += 1;
                finish_spell(st);
            } else if (st.phase == RECRUIT_PEDESTAL) {
                st.bag()[arg] -= 1;
                st.storage_pedestals(st.t->storage_of[p])[arg] += 1;
                finish_recruit(st, p);
            } else {
                place_pedestal(st, p, arg);
            }
            break;
        case B_DIG: apply_dig(st, p, arg); break;
        case B_MINERAL: dig(st, p, arg); break;
        case B_ESTABLISH: {
            const int site = st.pending.sites[0];
            st.workshop()[site] = static_cast<int8_t>(arg);
            st.workshop_supply()[arg] -= 1;
            next_site(st);
            break;
        }
        case B_HALL: apply_hall(st, arg); break;
        case B_SELECT_STATUE:
            st.pending.statue_square = arg;
            st.pending.statue_from_phase = st.phase;
            st.phase = STATUE_DEST;
            break;
        case B_MOVE_STATUE: apply_move_statue(st, p, arg); break;
        case B_SMOOT_SLOT: apply_smoot_slot(st, p, arg); break;
        case B_HORDE_SLOT: apply_horde_slot(st, p, arg); break;
        default: throw std::logic_error("unknown block");
    }
}

}  // namespace mk
