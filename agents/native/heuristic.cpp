// The heuristic's one-ply lookahead and its choice (heuristic.py): each candidate applied to a copy, the
// sub-decisions that follow settled, the result evaluated; the spells that only enable a later step of the turn
// valued by what that step gains with them.
#include <algorithm>
#include <functional>

#include "heuristic.hpp"

namespace mk {

namespace {

double best_step2(State& st, int p, const Heuristic& h);

//: _activation_gain: how much activating the workshop on ``site`` (and using it well) raises p's value
double activation_gain(State& st, int p, int site, const Heuristic& h) {
    State c(st);
    apply_action(c, st.t->offset[B_ACTIVATE_WORKSHOP] + site);
    settle(c, p, h);
    return evaluate(c, p, h) - evaluate(st, p, h);
}

//: enabler_gain: what the permission ``effect`` (just cast, state ``after``) adds to the rest of the turn
double enabler_gain(State& after, int p, int effect, const Heuristic& h) {
    if (effect == E_EXTRA_WORKSHOP) {
        std::vector<double> gains;
        for (int site : activatable_sites(after, p)) gains.push_back(activation_gain(after, p, site, h));
        std::sort(gains.begin(), gains.end(), std::greater<double>());
        const size_t extra = after.list_len(L_USED_SITES) ? 0 : 1;  // before any activation: the second best
        return gains.size() > extra ? std::max(0.0, gains[extra]) : 0.0;
    }
    State without(after);
    if (effect == E_BRIBE_ANY) without.bribe_any = false;
    else without.ignore_rubble = false;
    without.invalidate();
    return std::max(0.0, best_step2(after, p, h) - best_step2(without, p, h));
}

//: best_step2: the value of p's best recruit or dig this turn, from step 1 (passing to step 2) or step 2
double best_step2(State& st, int p, const Heuristic& h) {
    const Tables& t = *st.t;
    State c(st);
    if (c.phase == STEP1) apply_action(c, 0);
    if (c.phase != STEP2 || current_player(c) != p) return evaluate(c, p, h);
    Ints steps;
    for (int a : candidates(c, p, h))
        if (t.block_of[a] == B_RECRUIT || t.block_of[a] == B_DIG) steps.push_back(a);
    if (steps.empty()) return evaluate(c, p, h);
    const std::vector<double> values = lookahead_values(c, p, steps, h);
    return *std::max_element(values.begin(), values.end());
}

}  // namespace

std::vector<double> lookahead_values(State& st, int p, const Ints& actions, const Heuristic& h) {
    const Tables& t = *st.t;
    std::vector<double> values(actions.size());
    for (size_t i = 0; i < actions.size(); ++i) {
        const int a = actions[i];
        State c(st);
        apply_action(c, a);
        settle(c, p, h);
        values[i] = evaluate(c, p, h);
        if (t.block_of[a] == B_CAST) {
            const int effect = t.spell_effect[st.spellbook()[a - t.offset[B_CAST]]];
            const bool enabler = effect == E_BRIBE_ANY || effect == E_IGNORE_RUBBLE || effect == E_EXTRA_WORKSHOP;
            if (enabler && current_player(c) == p) values[i] += enabler_gain(c, p, effect, h);
        }
    }
    return values;
}

int best_action(State& st, int p, const Heuristic& h) {
    const Ints cands = candidates(st, p, h);
    if (cands.size() == 1) return cands[0];
    return preferred(h, st, cands, lookahead_values(st, p, cands, h));
}

}  // namespace mk
