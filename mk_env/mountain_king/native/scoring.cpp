// Final scoring and the winner (scoring.py): honour by the rulebook's categories, then the ranks.
#include <algorithm>
#include <map>

#include "engine.hpp"

namespace mk {

int great_hall_honour(State& st, const std::vector<bool>& net) {
    const Tables& t = *st.t;
    int total = 0;
    for (size_t h = 0; h < t.hall_low.size(); ++h) {
        const int altar = st.hall_altar()[h];
        if (altar >= 0 && net[altar]) total += st.statue()[altar] >= 0 ? t.hall_high[h] : t.hall_low[h];
    }
    return total;
}

int statue_honour(State& st, const std::vector<bool>& net) {
    const Tables& t = *st.t;
    std::map<int, int> best;  // region -> its best statue
    for (int s = 0; s < t.n_squares; ++s) {
        const int clan = st.statue()[s];
        if (clan < 0 || !net[s] || st.kind()[s] == SQ_GREAT_HALL) continue;
        int value = t.statue_values[t.tier[s] - 1];
        if (st.pedestal()[s] == clan) value *= t.pedestal_multiplier;
        int& b = best[st.region()[s]];
        b = std::max(b, value);
    }
    int total = 0;
    for (const auto& kv : best) total += kv.second;
    return total;
}

std::array<int, 7> breakdown(State& st, int p) {
    const Tables& t = *st.t;
    const auto& mates = t.teammates[p];
    const int n_sq = t.n_squares;
    std::vector<bool> net(n_sq + 1, false);
    for (int q : mates)
        for (int s = 0; s <= n_sq; ++s)
            if (st.reach(q)[s]) net[s] = true;
    std::array<int, 7> parts{};
    for (int q : mates) {
        parts[0] += st.honour()[q];
        parts[1] += st.coronation()[q];
        parts[2] += st.pedestal_points()[q];
    }
    Have counts = owned(st, p);
    if (t.team_mode) {  // the team's trolls, its storage once
        for (int q : mates)
            if (q != p) {
                const Have more = owned(st, q);
                const int16_t* store = st.storage_of(p);
                for (int r = 0; r < N_RESOURCES; ++r) counts[r] += more[r] - store[r];
            }
    }
    parts[3] = best_leftover_sets(counts, t.set_size, t.trade_rate);
    parts[4] = great_hall_honour(st, net);
    parts[5] = statue_honour(st, net);
    for (int i = 0; i < 6; ++i) parts[6] += parts[i];
    return parts;
}

Ints ranks(State& st) {
    const Tables& t = *st.t;
    const int n = t.n_players;
    std::vector<std::pair<int, int>> keys(n);
    for (int p = 0; p < n; ++p) {
        int levels = 0;
        for (int q : t.teammates[p])
            for (int s = 0; s < N_SMOOT; ++s) {
                const int c = st.smoot(q)[s];
                if (c >= 0) levels += t.card_level[c];
            }
        keys[p] = {-breakdown(st, p)[6], levels};
    }
    Ints out(n, 0);
    for (int p = 0; p < n; ++p)
        for (int q = 0; q < n; ++q)
            if (keys[q] < keys[p]) out[p] += 1;
    return out;
}

}  // namespace mk
