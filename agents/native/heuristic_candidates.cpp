// The heuristic's candidate decisions (heuristic_candidates.py): a short list worth a lookahead (tunnel
// placements ranked by a cheap static score first, a few useful trades), and the fixed preference that breaks
// ties between equally valued decisions.
#include <algorithm>
#include <numeric>
#include <set>

#include "heuristic.hpp"

namespace mk {

namespace {

//: _trading_useful: trade to complete a dig in step 2, or to move statues and make sets in the final turns
bool trading_useful(const State& st) {
    const int ph = st.phase;
    return ph == STEP2 || (st.final_turns_left >= 0 && (ph == STEP4 || ph == STEP3));
}

void put(Ints& out, int offset, const Ints& args) {
    for (int a : args) out.push_back(offset + a);
}

}  // namespace

ByBlock split_blocks(State& st) {
    const Tables& t = *st.t;
    ByBlock by;
    for (int a : legal_actions(st)) {
        const int b = t.block_of[a];
        by[b].push_back(a - t.offset[b]);
    }
    return by;
}

int preferred(const Heuristic& h, const State& st, const Ints& actions, const std::vector<double>& values) {
    const Tables& t = *st.t;
    const double top = *std::max_element(values.begin(), values.end()) - h.tolerance;
    int rank = 1 << 30, best = -1;
    for (size_t i = 0; i < actions.size(); ++i)
        if (values[i] >= top) rank = std::min(rank, h.block_rank[t.block_of[actions[i]]]);
    for (size_t i = 0; i < actions.size(); ++i)
        if (values[i] >= top && h.block_rank[t.block_of[actions[i]]] == rank && (best < 0 || actions[i] < best))
            best = actions[i];
    return best;
}

Ints candidates(State& st, int p, const Heuristic& h) {
    const Tables& t = *st.t;
    const auto& legal = legal_actions(st);
    if (legal.size() <= 1) return Ints(legal.begin(), legal.end());
    const int first = legal[0];
    const ByBlock by = split_blocks(st);
    Ints out;
    for (int b = 0; b < N_BLOCKS; ++b) {
        if (by[b].empty() || b == B_TRADE) continue;
        if (b == B_DIG)
            put(out, t.offset[b], top_digs(st, p, by[b], h.max_digs));
        else if (b == B_WORKSHOP_USE)
            put(out, t.offset[b], distinct_uses(st, by[b], h));
        else
            put(out, t.offset[b], by[b]);
    }
    if (!by[B_TRADE].empty() && trading_useful(st)) put(out, t.offset[B_TRADE], useful_trades(st, p, by[B_TRADE], h));
    if (out.empty()) out.push_back(first);
    return out;
}

Ints distinct_uses(State& st, const Ints& args, const Heuristic& h) {
    const Tables& t = *st.t;
    std::set<std::vector<int>> seen;
    Ints out;
    std::vector<std::pair<double, int>> any_two;
    for (int j : args) {
        std::vector<int> key;
        if (t.conv_move_slot[j] >= 0) {
            key = {-1, t.conv_move_kind[j]};  // the Quartermaster: one per token kind
        } else if (h.give_any[j]) {
            any_two.emplace_back(dot(h.resource, &t.conv_give[j * N_RESOURCES]), j);
            continue;
        } else {
            key.assign(t.conv_give.begin() + j * N_RESOURCES, t.conv_give.begin() + (j + 1) * N_RESOURCES);
            key.insert(key.end(), t.conv_gain.begin() + j * N_RESOURCES, t.conv_gain.begin() + (j + 1) * N_RESOURCES);
        }
        if (seen.insert(key).second) out.push_back(j);
    }
    std::sort(any_two.begin(), any_two.end());
    for (size_t i = 0; i < any_two.size() && static_cast<int>(i) < h.max_any_gives; ++i) out.push_back(any_two[i].second);
    return out;
}

Ints useful_trades(State& st, int p, const Ints& args, const Heuristic& h) {
    const Tables& t = *st.t;
    const Have have = owned(st, p);
    bool wanted[N_RESOURCES] = {};
    for (int m = 0; m < 3; ++m) wanted[m] = have[m] >= 2;
    if (st.phase == STEP4) wanted[CART] = true;
    if (st.final_turns_left >= 0) std::fill(wanted, wanted + N_RESOURCES, true);
    std::pair<double, int> best[N_RESOURCES];
    bool found[N_RESOURCES] = {};
    for (int arg : args) {
        const int* give = &t.trade_gives[(arg / N_RESOURCES) * N_RESOURCES];
        const int gain = arg % N_RESOURCES;
        if (!wanted[gain] || give[gain] > 0) continue;
        const double cost = dot(h.resource, give);
        if (!found[gain] || cost < best[gain].first) {
            best[gain] = {cost, arg};
            found[gain] = true;
        }
    }
    std::vector<std::pair<double, int>> ranked;
    for (int r = 0; r < N_RESOURCES; ++r)
        if (found[r]) ranked.push_back(best[r]);
    std::sort(ranked.begin(), ranked.end());
    Ints out;
    for (size_t i = 0; i < ranked.size() && static_cast<int>(i) < h.max_trades; ++i) out.push_back(ranked[i].second);
    return out;
}

Ints top_digs(State& st, int p, const Ints& args, int k) {
    if (static_cast<int>(args.size()) <= k) return args;
    const std::vector<double> scores = dig_scores(st, p, args);
    std::vector<int> order(args.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return -scores[a] < -scores[b]; });
    Ints out;
    for (int i = 0; i < k; ++i) out.push_back(args[order[i]]);
    return out;
}

std::vector<double> dig_scores(State& st, int p, const Ints& args) {
    const Tables& t = *st.t;
    const Placements& table = t.tunnels;
    const Have have = owned(st, p);
    const int pedestals = stored_pedestals(st, p);
    std::vector<double> scores;
    scores.reserve(args.size());
    for (int a : args) {
        const int size = table.size[a];
        int honour = 0;
        for (int m = 0; m < 3; ++m)
            if (have[m] >= size) honour = std::max(honour, t.tunnel_honour[size * 3 + m]);
        int tier_max = 0, tier_sum = 0, finds = 0;
        for (int i = 0; i < table.max_cells; ++i) {
            const int c = table.cells[a * table.max_cells + i];  // padded with the sentinel
            tier_max = std::max(tier_max, t.tier[c]);
            tier_sum += t.tier[c];
            finds += st.statue()[c] >= 0 || st.buried()[c] >= 0;
        }
        double score = static_cast<double>(honour) + 0.8 * tier_max + 0.15 * tier_sum + 1.5 * finds;
        if (pedestals > 0) score += table.anchor[a] >= 0 ? 0.6 * t.tier[table.anchor[a]] : 0.0;
        if (!st.ignore_rubble) score -= 1.0 * table.rubble[a];
        scores.push_back(score);
    }
    return scores;
}

}  // namespace mk
