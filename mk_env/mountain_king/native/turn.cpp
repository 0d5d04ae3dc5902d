// The legal decisions of each phase (legal.py), applying a decision and the forced passes after it (turn.py),
// and the copy with the hidden information resampled (hidden.py).
#include <algorithm>

#include "engine.hpp"

namespace mk {

namespace {

bool pass_phase(int ph) {
    switch (ph) {
        case STEP1: case WORKSHOP: case SPELL_STATUE: case STEP3: case STEP4: case RECRUIT_PEDESTAL:
        case DIG_PEDESTAL: case DIG_WORKSHOP:
            return true;
        default:
            return false;
    }
}

bool trade_phase(int ph) { return ph == STEP1 || ph == WORKSHOP || ph == STEP2 || ph == STEP3 || ph == STEP4; }

void put(std::vector<int32_t>& out, int block_offset, const Ints& args) {
    for (int a : args) out.push_back(block_offset + a);
}

Ints range_of(int n) {
    Ints out(n);
    for (int i = 0; i < n; ++i) out[i] = i;
    return out;
}

Ints positive(const int* values, int n) {
    Ints out;
    for (int i = 0; i < n; ++i)
        if (values[i] > 0) out.push_back(i);
    return out;
}

void build_legal(State& st, std::vector<int32_t>& out) {
    const Tables& t = *st.t;
    const int ph = st.phase, p = st.current;
    out.clear();
    if (ph == GAME_OVER) return;
    const auto& off = t.offset;
    if (pass_phase(ph)) out.push_back(0);
    if (!trade_phase(ph)) {
        Ints args;
        int block = B_PASS;
        switch (ph) {
            case GATE: block = B_GATE; args = legal_gates(st); break;
            case DRAFT: block = B_DRAFT; args = legal_drafts(st, p); break;
            case SPELL_DIG: block = B_DIG; args = legal_digs(st, p, owned(st, p)); break;
            case SPELL_STATUE: block = B_SELECT_STATUE; args = movable_statues(st, p, true); break;
            case STATUE_DEST: block = B_MOVE_STATUE; args = statue_destinations(st, p, st.pending.statue_square); break;
            case SPELL_OPTION:
                block = B_SPELL_OPTION;
                args = range_of(static_cast<int>(t.spell_options[st.spellbook()[st.pending.spell]].size()));
                break;
            case SPELL_SMOOT: block = B_SMOOT_SLOT; args = spell_smoot_slots(st, p); break;
            case SPELL_HORDE: block = B_HORDE_SLOT; args = spell_horde_slots(st); break;
            case SPELL_PEDESTAL: case RECRUIT_PEDESTAL: {
                int bag[N_CLANS];
                for (int c = 0; c < N_CLANS; ++c) bag[c] = st.bag()[c];
                block = B_PEDESTAL;
                args = positive(bag, N_CLANS);
                break;
            }
            case BRIBE: {
                const Have have = owned(st, p);
                block = B_BRIBE;
                args = positive(have.data(), N_RESOURCES);
                break;
            }
            case DIG_MINERAL: block = B_MINERAL; args = minerals_paying(st, p, st.pending.dig); break;
            case DIG_PEDESTAL: block = B_PEDESTAL; args = legal_pedestal_clans(st, p); break;
            case DIG_WORKSHOP: {
                std::vector<int> supply(t.workshop_count.size());
                for (size_t w = 0; w < supply.size(); ++w) supply[w] = st.workshop_supply()[w];
                block = B_ESTABLISH;
                args = positive(supply.data(), static_cast<int>(supply.size()));
                break;
            }
            default: throw std::logic_error("no decision known for this phase (the payment option is not native)");
        }
        put(out, off[block], args);
        return;
    }
    const Have have = owned(st, p);
    switch (ph) {
        case STEP1:
            if (!st.spell_cast && have[RUNE] >= 1) put(out, off[B_CAST], castable_positions(st, p));
            if (st.workshops_left > 0) put(out, off[B_ACTIVATE_WORKSHOP], activatable_sites(st, p));
            trade_actions(st, have, out);
            break;
        case WORKSHOP:
            put(out, off[B_WORKSHOP_USE], legal_conversions(st, p, have));
            trade_actions(st, have, out);
            break;
        case STEP2: {
            const Ints rec = legal_recruits(st, p, have);
            const Ints digs = legal_digs(st, p, have);
            if (rec.empty() && digs.empty()) out.push_back(0);
            trade_actions(st, have, out);
            put(out, off[B_RECRUIT], rec);
            put(out, off[B_DIG], digs);
            put(out, off[B_SELECT_STATUE], statues_to_select(st, p));
            break;
        }
        case STEP3:
            trade_actions(st, have, out);
            put(out, off[B_HALL], legal_halls(st, p));
            put(out, off[B_SELECT_STATUE], statues_to_select(st, p));
            break;
        case STEP4:
            trade_actions(st, have, out);
            put(out, off[B_SELECT_STATUE], statues_to_select(st, p));
            break;
    }
}

}  // namespace

void trade_actions(State& st, const Have& have, std::vector<int32_t>& out) {
    const Tables& t = *st.t;
    int total = 0;
    for (int r = 0; r < N_RESOURCES; ++r) total += have[r];
    if (total < t.trade_rate) return;
    const int16_t* supply = st.supply();
    int gains[N_RESOURCES], n_gains = 0;  // the resources the supply can give
    for (int r = 0; r < N_RESOURCES; ++r)
        if (supply[r] > 0) gains[n_gains++] = r;
    if (n_gains == 0) return;
    const int base = t.offset[B_TRADE];
    for (int g = 0; g < t.n_trade_gives; ++g) {
        bool within = true;
        for (int k = t.give_ptr[g]; k < t.give_ptr[g + 1] && within; ++k)
            within = t.give_parts[k].second <= have[t.give_parts[k].first];
        if (!within) continue;
        const int first = base + g * N_RESOURCES;
        for (int k = 0; k < n_gains; ++k) out.push_back(first + gains[k]);
    }
}

const std::vector<int32_t>& legal_actions(State& st) {
    if (!st.legal_valid) {
        build_legal(st, st.legal);
        st.legal_valid = true;
    }
    return st.legal;
}

bool is_legal(State& st, int action) {
    const auto& legal = legal_actions(st);
    return std::binary_search(legal.begin(), legal.end(), action);
}

namespace {

void dispatch(State& st, int a) {
    st.changed();
    if (a == 0) {
        apply_pass(st);
        return;
    }
    const int block = st.t->block_of[a];
    apply_block(st, block, a - st.t->offset[block]);
}

bool pass_is_forced(State& st) {
    const auto& legal = legal_actions(st);
    return legal.size() == 1 && legal[0] == 0;
}

void auto_advance(State& st) {
    const int first_turn = st.turn;
    while (st.phase != GAME_OVER) {
        if (pass_is_forced(st)) {
            const int phase = st.phase, current = st.current, turn = st.turn;
            const Pending before = st.pending;
            dispatch(st, 0);
            if (st.phase == phase && st.current == current && st.turn == turn && st.pending == before)
                throw Stalled("a forced pass in phase " + st.t->phase_names.at(phase) +
                              " changed nothing (engine bug); the same pass would repeat forever");
            if (st.turn - first_turn > st.n() && st.final_turns_left < 0)
                throw Stalled("the game cannot go on: from turn " + std::to_string(first_turn) + " to " +
                              std::to_string(st.turn) +
                              " every seat's turn was only forced passes and the end (the last coronation token) is "
                              "not triggered, so no turn would ever change anything");
            continue;
        }
        if (legal_actions(st).empty()) throw std::logic_error("no legal decision in this phase (engine bug)");
        return;
    }
}

}  // namespace

void apply_action(State& st, int action) {
    if (st.phase == GAME_OVER || action < 0 || action >= st.t->action_size || !is_legal(st, action))
        throw Illegal("illegal action");
    st.history.push_back(action);
    dispatch(st, action);
    auto_advance(st);
}

State determinize(const State& src, int player, PyBitgen& rng) {
    State out = src;
    const Tables& t = *out.t;
    auto shuffled_top = [&](int l, int k) {
        std::vector<int> values = out.list_values(l);
        const std::vector<int> order = permutation(rng, k);
        std::vector<int> top(values.begin(), values.begin() + k);
        for (int i = 0; i < k; ++i) values[i] = top[order[i]];
        out.list_set(l, values);
    };
    for (int lvl = 0; lvl < 3; ++lvl)
        if (out.deck_unseen[lvl] > 1) shuffled_top(L_DECK0 + lvl, out.deck_unseen[lvl]);
    if (out.spell_unseen > 1) shuffled_top(L_SPELL_DECK, out.spell_unseen);
    for (int q = 0; q < t.n_players; ++q) {
        const std::vector<int> hand = out.list_values(draft_hand_list(t, q));
        const std::vector<int> deck = out.list_values(draft_deck_list(q));
        if (q == player) {
            const std::vector<int> order = permutation(rng, static_cast<int>(deck.size()));
            std::vector<int> values;
            for (int i : order) values.push_back(deck[i]);
            out.list_set(draft_deck_list(q), values);
        } else if (!hand.empty() || !deck.empty()) {
            std::vector<int> pool = hand;
            pool.insert(pool.end(), deck.begin(), deck.end());
            const std::vector<int> order = permutation(rng, static_cast<int>(pool.size()));
            std::vector<int> mixed;
            for (int i : order) mixed.push_back(pool[i]);
            out.list_set(draft_hand_list(t, q), std::vector<int>(mixed.begin(), mixed.begin() + hand.size()));
            out.list_set(draft_deck_list(q), std::vector<int>(mixed.begin() + hand.size(), mixed.end()));
        }
    }
    const uint64_t seed = static_cast<uint64_t>(integers(rng, static_cast<uint64_t>(1) << 63));
    out.rng = Pcg64::from_seed(seed_words(seed));
    out.changed();
    return out;
}

}  // namespace mk
