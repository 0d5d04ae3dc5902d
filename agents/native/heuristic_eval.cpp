// The heuristic's evaluation of a position for one seat (heuristic_eval.py): honour as if the game ended now
// plus a potential weighted by how many of the seat's own turns are left. The arithmetic follows the Python
// expressions term by term, in their order, so the two agree to the last bit.
#include <algorithm>
#include <cmath>
#include <functional>

#include "heuristic.hpp"

namespace mk {

namespace {

double fade(double turns, const Heuristic& h, Asset asset) { return std::min(1.0, turns / h.horizon[asset]); }

//: _reach_and_finds: the tier of the innermost square of p's network, and the buried statues and resources
//: beside it
std::pair<double, double> reach_and_finds(State& st, int p) {
    const Tables& t = *st.t;
    const int n = t.n_squares;
    const bool* net = st.reach(p);
    std::vector<bool> side(n + 1, false);
    int depth = 0;
    for (int s = 0; s <= n; ++s) {
        if (!net[s]) continue;
        depth = std::max(depth, t.tier[s]);
        for (int k = 0; k < 4; ++k) side[t.neighbours[s * 4 + k]] = true;
    }
    int finds = 0;
    for (int s = 0; s < n; ++s)
        if (side[s] && st.kind()[s] == SQ_EMPTY && (st.statue()[s] >= 0 || st.buried()[s] >= 0)) ++finds;
    return {static_cast<double>(depth), static_cast<double>(finds)};
}

//: _statue_tiers: the tier value of every unearthed statue in the network (doubled on its pedestal)
double statue_tiers(State& st, int p) {
    const Tables& t = *st.t;
    const bool* net = st.reach(p);
    int total = 0;
    for (int s = 0; s < t.n_squares; ++s) {
        if (st.statue()[s] < 0 || !net[s]) continue;
        const int tier = t.tier[s];
        if (tier > 0) total += t.statue_values[tier - 1] * (st.pedestal()[s] == st.statue()[s] ? 2 : 1);
    }
    return static_cast<double>(total);
}

}  // namespace

// numpy's ``@`` of two short float64 vectors is BLAS's dot: OpenBLAS's kernels on this kind of machine add each
// product with a fused multiply-add, in order, so the compiled sums do the same (bit for bit).
double dot(const std::array<double, N_RESOURCES>& w, const int* counts) {
    double total = 0.0;
    for (int r = 0; r < N_RESOURCES; ++r) total = std::fma(w[r], static_cast<double>(counts[r]), total);
    return total;
}

double own_turns_left(State& st, int p, const Heuristic& h) {
    if (st.phase == GAME_OVER) return 0.0;
    const Tables& t = *st.t;
    const int n = t.n_players, cur = st.current;
    if (st.final_turns_left >= 0) {
        const int full = st.final_turns_left / n, rest = st.final_turns_left % n;
        return static_cast<double>(full + ((((p - cur - 1) % n) + n) % n < rest ? 1 : 0));
    }
    const int tokens = std::max(1, st.list_len(L_CORONATION_LEFT));
    std::vector<int> uncrowned;
    for (int q = 0; q < n; ++q) {
        if (st.coronation()[q] != 0) continue;
        int trolls = 0;
        for (int s = 0; s < N_SMOOT; ++s) trolls += st.smoot(q)[s] >= 0;
        uncrowned.push_back(trolls);
    }
    std::sort(uncrowned.begin(), uncrowned.end(), std::greater<int>());
    int kth = uncrowned.empty() ? t.max_trolls
                                : uncrowned[std::min<size_t>(tokens, uncrowned.size()) - 1];
    if (st.phase == GATE || st.phase == DRAFT) kth = std::max(kth, 4);  // the draft fills the starting row
    const double rounds = std::max(0, t.max_trolls - kth) / h.recruit_rate;
    return rounds + 2.0;
}

bool step2_open(State& st, int p) { return st.phase >= STEP1 && st.phase <= STEP2 && st.current == p; }

double evaluate(State& st, int p, const Heuristic& h) {
    const double total = static_cast<double>(breakdown(st, p)[6]);
    if (st.phase == GAME_OVER) return total;
    return total + potential(st, p, own_turns_left(st, p, h), step2_open(st, p), h);
}

double potential(State& st, int p, double ahead, bool open_now, const Heuristic& h) {
    const Tables& t = *st.t;
    const Have have = owned(st, p);
    double dig = open_now ? h.dig_this_turn * best_affordable_honour(h, have, largest_placeable(st, p)) : 0.0;
    if (ahead >= 1.0) dig = std::max(dig, h.dig_potential * best_affordable_honour(h, have));
    if (ahead <= 0.0) return dig;
    double value = dig + fade(ahead, h, A_RESOURCES) * dot(h.resource, have.data());
    const double trolls = fade(ahead, h, A_TROLLS);
    if (trolls > 0) {
        const int16_t* smoot = st.smoot(p);
        int n_trolls = 0;
        for (int s = 0; s < N_SMOOT; ++s) n_trolls += smoot[s] >= 0;
        const int room = std::max(0, t.max_trolls - n_trolls);
        const double recruits = std::min(static_cast<double>(room), h.recruit_rate * ahead + 0.5);
        double troll_part = h.troll * n_trolls * std::min(1.0, recruits / 3 + 0.3);
        // symbols regenerate each time a cascade passes: weight by the slots still open above them that the
        // recruits left can fill (CONE_ABOVE @ (smoot < 0), times the recruits per open slot)
        const double per_slot = room ? recruits / room : 0.0;
        double open_above[N_SMOOT];
        for (int s = 0; s < N_SMOOT; ++s) {
            int empty_above = 0;
            for (int top = 0; top < N_SMOOT; ++top) {
                const auto& cone = t.smoot_cone[top];
                if (smoot[top] < 0 && std::find(cone.begin() + 1, cone.end(), s) != cone.end()) ++empty_above;
            }
            open_above[s] = empty_above * per_slot;
        }
        double symbols = 0.0;
        int held_tokens = 0;
        for (int s = 0; s < N_SMOOT; ++s) {
            if (smoot[s] >= 0) symbols = std::fma(h.symbol_totals[smoot[s]], open_above[s], symbols);  // see dot
            if (open_above[s] > 0)
                for (int k = 0; k < N_TOKEN_KINDS; ++k) held_tokens += st.tokens(p, s)[k];
        }
        troll_part += h.symbol * symbols;
        // a token a troll still holds does not regenerate on the next cascade through it
        troll_part -= h.held_token * static_cast<double>(held_tokens);
        value += trolls * troll_part;
    }
    value += fade(ahead, h, A_PEDESTALS) * h.pedestal * stored_pedestals(st, p);
    const auto [depth, finds] = reach_and_finds(st, p);
    value += fade(ahead, h, A_REACH) * h.reach * depth;
    value += fade(ahead, h, A_STATUES) * h.statue * statue_tiers(st, p);
    value += fade(ahead, h, A_BURIED) * h.buried * finds;
    value += fade(ahead, h, A_WORKSHOPS) * h.workshop * count_kinds(workshop_kinds_touched(st, p));
    return value;
}

std::vector<bool> workshop_kinds_touched(State& st, int p) {
    const Tables& t = *st.t;
    std::vector<bool> touches, kinds(t.workshop_count.size(), false);
    std::vector<int> open;
    workshop_touch(st, p, touches, open);
    for (size_t i = 0; i < touches.size(); ++i)
        if (touches[i] && st.workshop()[i] >= 0) kinds[st.workshop()[i]] = true;
    return kinds;
}

int count_kinds(const std::vector<bool>& kinds) { return static_cast<int>(std::count(kinds.begin(), kinds.end(), true)); }

int largest_placeable(State& st, int p) {
    const Tables& t = *st.t;
    const int hammers = st.ignore_rubble ? -1 : owned(st, p)[HAMMER];
    int best = 0;
    for (int c : dig_geometry(st, p)) {
        if (st.tunnel_supply()[t.tunnels.piece[c]] <= 0) continue;
        if (hammers >= 0 && t.tunnels.rubble[c] > hammers) continue;
        best = std::max(best, t.tunnels.size[c]);
    }
    return best;
}

int best_affordable_honour(const Heuristic& h, const Have& have, int max_size) {
    const Tables& t = *h.t;
    const int top = max_size < 0 ? h.honour_max : std::min(h.honour_max, max_size);
    int best = 0;
    for (int m = 0; m < 3; ++m) {
        const int size = std::min(have[m], top);
        if (size >= h.honour_min) best = std::max(best, t.tunnel_honour[size * 3 + m]);
    }
    return best;
}

}  // namespace mk
