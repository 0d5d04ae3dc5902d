// The heuristic's quick default policy (heuristic_quick.py): rules of thumb for the small choices, a
// workshop's uses and the kind of a new workshop by value, and ``settle``, which resolves a seat's pending
// sub-decisions so that its position can be evaluated. Ties go where Python's max/min send them: to the first
// of the candidates in order.
#include <algorithm>
#include <limits>

#include "heuristic.hpp"

namespace mk {

namespace {

constexpr double LOWEST = -std::numeric_limits<double>::infinity();

int symbols_of(const Tables& t, int card) {
    if (card < 0) return 0;  // an empty slot (only in a state edited by hand: the legal choices hold trolls)
    int total = 0;
    for (int k = 0; k < N_TOKEN_KINDS; ++k) total += t.card_symbols[card * N_TOKEN_KINDS + k];
    return total;
}

//: _cone_missing: the symbols a cascade from ``slot`` would fill
int cone_missing(State& st, int p, int slot) {
    const Tables& t = *st.t;
    int total = 0;
    for (int s : t.smoot_cone[slot]) {
        const int card = st.smoot(p)[s];
        if (card < 0) continue;
        for (int k = 0; k < N_TOKEN_KINDS; ++k)
            total += std::max(t.card_symbols[card * N_TOKEN_KINDS + k] - st.tokens(p, s)[k], 0);
    }
    return total;
}

double recruit_score(State& st, int p, int arg) {
    const Tables& t = *st.t;
    const int per = static_cast<int>(t.recruit_slots.size());
    const int h = arg / per, slot = t.recruit_slots[arg % per];
    return static_cast<double>(symbols_of(t, st.horde()[h])) + cone_missing(st, p, slot) - 0.01 * h;
}

//: _statue_honour: p's statue and great hall honour with the statue on ``src`` moved to ``dest``
int statue_honour_moved(State& st, int p, int src, int dest) {
    const Tables& t = *st.t;
    std::vector<bool> net(t.n_squares + 1, false);
    for (int q : t.teammates[p])
        for (int s = 0; s <= t.n_squares; ++s)
            if (st.reach(q)[s]) net[s] = true;
    int8_t* statue = st.statue();
    const int8_t clan = statue[src];
    statue[src] = -1;
    statue[dest] = clan;
    const int total = statue_honour(st, net) + great_hall_honour(st, net);
    statue[dest] = -1;
    statue[src] = clan;
    return total;
}

//: _reach_value: the most honour the statue now on ``src`` makes on ``sq`` or ``more`` further moves from it
int reach_value(State& st, int p, int src, int sq, int more) {
    int best = statue_honour_moved(st, p, src, sq);
    if (more > 0)
        for (int d : statue_destinations(st, p, sq))
            if (d != src) best = std::max(best, reach_value(st, p, src, d, more - 1));
    return best;
}

//: _best_move_gain: the honour the best square ``moves`` moves of the statue on ``sq`` reach adds
double best_move_gain(State& st, int p, int sq, int moves) {
    const Ints dests = statue_destinations(st, p, sq);
    if (dests.empty()) return 0.0;
    const int here = statue_honour_moved(st, p, sq, sq);
    int best = std::numeric_limits<int>::min();
    for (int d : dests) best = std::max(best, reach_value(st, p, sq, d, moves - 1));
    return static_cast<double>(best - here);
}

//: _resource_worth: a bundle's use (the potential's resource terms at full weight) plus the sets it scores
double resource_worth(const State& st, const Have& have, const Heuristic& h) {
    const Tables& t = *st.t;
    return dot(h.resource, have.data()) + h.dig_potential * best_affordable_honour(h, have) +
           best_leftover_sets(have, t.set_size, t.trade_rate);
}

//: the index (into ``args``) of the first largest key, or -1 when there are none
template <class Key>
int first_max(const Ints& args, Key key) {
    int best = -1;
    decltype(key(0)) best_key{};
    for (size_t i = 0; i < args.size(); ++i) {
        const auto k = key(args[i]);
        if (best < 0 || k > best_key) best = static_cast<int>(i), best_key = k;
    }
    return best;
}

//: _quick_pick: the rule of thumb of the phase, as an action number, or -1 where none applies
int quick_pick(State& st, int p, const ByBlock& by, const Heuristic& h) {
    const Tables& t = *st.t;
    const int ph = st.phase;
    auto pick = [&](int block, int i) { return i < 0 ? -1 : t.offset[block] + by[block][i]; };
    const int spell = st.pending.spell >= 0 ? st.spellbook()[st.pending.spell] : -1;
    // a state edited by hand may lack what its phase is about: then no rule of thumb applies
    if ((ph == SPELL_OPTION || ph == SPELL_SMOOT) && spell < 0) return -1;
    if ((ph == DIG_PEDESTAL && st.pending.dig < 0) || (ph == STATUE_DEST && st.pending.statue_square < 0)) return -1;
    switch (ph) {
        case BRIBE: {  // coins first, else the resource owned most of (minerals last)
            const Have have = owned(st, p);
            return pick(B_BRIBE, first_max(by[B_BRIBE], [&](int r) {
                return std::make_tuple(r == COIN, r >= 3, have[r], -r);
            }));
        }
        case DIG_MINERAL: return pick(B_MINERAL, first_max(by[B_MINERAL], [](int m) { return m; }));
        case DIG_PEDESTAL:
            if (!by[B_PEDESTAL].empty()) {
                const int tier = t.tier[t.tunnels.anchor[st.pending.dig]] - 1;
                return pick(B_PEDESTAL, first_max(by[B_PEDESTAL], [&](int c) { return int(st.track_value(tier)[c]); }));
            }
            break;
        case RECRUIT_PEDESTAL: case SPELL_PEDESTAL:
            return pick(B_PEDESTAL, first_max(by[B_PEDESTAL], [&](int c) { return int(st.bag()[c]); }));
        case DIG_WORKSHOP:
            if (!by[B_ESTABLISH].empty())
                return pick(B_ESTABLISH, first_max(by[B_ESTABLISH], [&](int w) {
                    return std::make_pair(establish_worth(st, p, w, h), -w);
                }));
            break;
        case SPELL_OPTION:
            return pick(B_SPELL_OPTION, first_max(by[B_SPELL_OPTION], [&](int k) {
                double worth = 0.0;
                for (const auto& [r, n] : h.option_items[spell][k]) worth += h.resource[r] * n;
                return worth;
            }));
        case SPELL_SMOOT:
            if (t.spell_effect[spell] == E_ASCENSION)  // give up the Level-2 troll of least worth
                return pick(B_SMOOT_SLOT, first_max(by[B_SMOOT_SLOT], [&](int s) {
                    int tokens = 0;
                    for (int k = 0; k < N_TOKEN_KINDS; ++k) tokens += st.tokens(p, s)[k];
                    return std::make_pair(-(symbols_of(t, st.smoot(p)[s]) + tokens), -s);
                }));
            return pick(B_SMOOT_SLOT, first_max(by[B_SMOOT_SLOT], [&](int s) { return cone_missing(st, p, s); }));
        case SPELL_HORDE:
            return pick(B_HORDE_SLOT, first_max(by[B_HORDE_SLOT], [&](int hs) {
                int bribes = 0;
                for (int r = 0; r < N_RESOURCES; ++r) bribes += st.horde_bribes(hs)[r];
                return std::make_pair(bribes, symbols_of(t, st.horde()[hs]));
            }));
        case STATUE_DEST: {
            const int src = st.pending.statue_square, left = std::max(0, st.free_moves - 1);
            return pick(B_MOVE_STATUE, first_max(by[B_MOVE_STATUE], [&](int sq) {
                return std::make_pair(reach_value(st, p, src, sq, left), -sq);
            }));
        }
        default: break;
    }
    if ((ph == SPELL_DIG || ph == STEP2) && !by[B_DIG].empty())
        return t.offset[B_DIG] + top_digs(st, p, by[B_DIG], 1)[0];
    if (ph == STEP2 && !by[B_RECRUIT].empty())
        return pick(B_RECRUIT, first_max(by[B_RECRUIT], [&](int a) { return recruit_score(st, p, a); }));
    if (ph == STEP3 && !by[B_HALL].empty()) return t.offset[B_HALL] + by[B_HALL][0];
    if (!by[B_SELECT_STATUE].empty() && (ph == STEP4 || ph == SPELL_STATUE || st.free_moves > 0)) {
        const int free = st.free_moves;
        const double cost = free ? 0.0 : 0.5;  // a spell's free move, or a cart
        const Ints& squares = by[B_SELECT_STATUE];
        int sq = -1;
        double best_gain = LOWEST;
        for (int candidate : squares) {  // ties to the lower square, the first
            const double gain = best_move_gain(st, p, candidate, std::max(1, free)) - cost;
            if (sq < 0 || gain > best_gain) sq = candidate, best_gain = gain;
        }
        if (best_gain > 0 || by[B_PASS].empty()) return t.offset[B_SELECT_STATUE] + sq;
    }
    return -1;
}

}  // namespace

int quick_action(State& st, int p, const Heuristic& h) {
    const auto& legal = legal_actions(st);
    if (legal.size() == 1) return legal[0];
    const int first = legal[0];
    const ByBlock by = split_blocks(st);
    const int pick = quick_pick(st, p, by, h);
    if (pick >= 0) return pick;
    if (!by[B_PASS].empty()) return 0;
    return first;
}

double establish_worth(State& st, int p, int kind, const Heuristic& h) {
    const Tables& t = *st.t;
    const Have have = owned(st, p);
    const double base = resource_worth(st, have, h);
    int held = 0;
    for (int s = 0; s < N_SMOOT; ++s)
        for (int k = 0; k < N_TOKEN_KINDS; ++k) held += st.tokens(p, s)[k];
    double best = -1.0;
    for (size_t j = 0; j < t.conv_workshop.size(); ++j) {
        if (t.conv_workshop[j] != kind) continue;
        double gain;
        if (t.conv_move_slot[j] >= 0) {  // the Quartermaster frees a troll to generate again
            gain = held ? 0.5 : 0.0;
        } else {
            const int* give = &t.conv_give[j * N_RESOURCES];
            const int* got = &t.conv_gain[j * N_RESOURCES];
            Have after = have;
            bool affordable = true;
            for (int r = 0; r < N_RESOURCES; ++r) {
                affordable &= give[r] <= have[r];
                after[r] = have[r] - give[r] + got[r];
            }
            if (!affordable) continue;
            gain = resource_worth(st, after, h) - base;
        }
        best = std::max(best, gain);
    }
    const double fresh = workshop_kinds_touched(st, p)[kind] ? 0.0 : h.new_kind_worth;
    return best + fresh + h.workshop;
}

int best_workshop_use(State& st, int p, const Heuristic& h) {
    const Tables& t = *st.t;
    const ByBlock by = split_blocks(st);
    double best_value = evaluate(st, p, h) + 1e-9;  // ties go to pass
    int best = 0;
    for (int j : distinct_uses(st, by[B_WORKSHOP_USE], h)) {
        State c(st);
        const int a = t.offset[B_WORKSHOP_USE] + j;
        apply_action(c, a);
        const double v = evaluate(c, p, h);
        if (v > best_value) best_value = v, best = a;
    }
    return best;
}

void settle(State& st, int p, const Heuristic& h) {
    for (int i = 0; i < h.settle_limit; ++i) {
        if (current_player(st) != p) return;
        const int ph = st.phase;
        if (!h.sub_phase[ph]) return;
        apply_action(st, ph == WORKSHOP ? best_workshop_use(st, p, h) : quick_action(st, p, h));
    }
}

}  // namespace mk
