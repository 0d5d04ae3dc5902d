// The board (board.py) and its queries: each player's network, placing a tile, where tunnels and great halls
// may go (digging.py, great_halls.py), where statues may move (statues.py) and the workshops a network
// touches (workshops.py).
#include <algorithm>

#include "engine.hpp"

namespace mk {

void recompute_networks(State& st) {
    const Tables& t = *st.t;
    const int n_sq = t.n_squares;
    const int8_t* kind = st.kind();
    std::vector<int> todo;
    for (int p = 0; p < t.n_players; ++p) {
        bool* reach = st.reach(p);
        std::fill(reach, reach + n_sq + 1, false);
        const int gate = st.gate_sq()[p];
        if (gate < 0) continue;
        reach[gate] = true;
        todo.assign(1, gate);
        while (!todo.empty()) {
            const int s = todo.back();
            todo.pop_back();
            for (int k = 0; k < 4; ++k) {
                const int q = t.neighbours[s * 4 + k];
                if (kind[q] > SQ_EMPTY && !reach[q]) {
                    reach[q] = true;
                    todo.push_back(q);
                }
            }
        }
        reach[n_sq] = false;
    }
}

void place_tile(State& st, const int* cells, int n_cells, int kind, int shape) {
    for (int i = 0; i < n_cells; ++i) {
        const int sq = cells[i];
        st.kind()[sq] = static_cast<int8_t>(kind);
        st.tile()[sq] = static_cast<int16_t>(st.next_tile);
        st.region()[sq] = static_cast<int16_t>(st.next_region);
    }
    st.list_push(L_TILE_SHAPE, shape);
    st.next_tile += 1;
    st.next_region += 1;
    st.board_version += 1;
    recompute_networks(st);
}

std::vector<bool> opponent_network(State& st, int p) {
    const Tables& t = *st.t;
    std::vector<bool> out(t.n_squares + 1, false);
    const auto& mates = t.teammates[p];
    for (int q = 0; q < t.n_players; ++q) {
        if (std::find(mates.begin(), mates.end(), q) != mates.end()) continue;
        const bool* r = st.reach(q);
        for (int s = 0; s <= t.n_squares; ++s)
            if (r[s]) out[s] = true;
    }
    return out;
}

namespace {
//: the placements listed under any square of ``squares`` (SquareIndex.lookup): unique, ascending. Each placement
//: is marked with this call's stamp (no table cleared or scanned per call), the few found are sorted.
Ints lookup(const Placements& pl, const bool* on, int n_sq) {
    thread_local std::vector<uint32_t> stamp;
    thread_local uint32_t now = 0;
    if (stamp.size() < static_cast<size_t>(pl.count)) stamp.assign(pl.count, 0);
    if (++now == 0) {  // the stamps wrapped: start them afresh
        std::fill(stamp.begin(), stamp.end(), 0);
        now = 1;
    }
    Ints out;
    for (int s = 0; s < n_sq; ++s)
        if (on[s])
            for (int i = pl.index_ptr[s]; i < pl.index_ptr[s + 1]; ++i) {
                const int k = pl.index[i];
                if (stamp[k] != now) {
                    stamp[k] = now;
                    out.push_back(k);
                }
            }
    std::sort(out.begin(), out.end());
    return out;
}
}  // namespace

namespace {
//: ``compute(st, p)``, kept in ``memo`` until the board changes: the board fields (kind, reach, hall_altar...)
//: change only with board_version, as the Python engine's board memo assumes; a write from outside clears it
//: (State::invalidate)
template <class Compute>
const Ints& on_board(State& st, State::BoardMemo& memo, int p, Compute compute) {
    if (!memo.value || memo.version != st.board_version) {
        memo.value = std::make_shared<const Ints>(compute(st, p));
        memo.version = st.board_version;
    }
    return *memo.value;
}
}  // namespace

Ints dig_geometry(State& st, int p) { return on_board(st, st.dig_memo[p], p, dig_geometry_of); }

Ints legal_halls(State& st, int p) { return on_board(st, st.hall_memo[p], p, legal_halls_of); }

Ints dig_geometry_of(State& st, int p) {
    const Tables& t = *st.t;
    const Placements& pl = t.tunnels;
    Ints cand = lookup(pl, st.reach(p), t.n_squares);
    if (cand.empty()) return cand;
    const int8_t* kind = st.kind();
    const std::vector<bool> opp = opponent_network(st, p);
    Ints out;
    for (int i : cand) {
        bool ok = true;
        for (int c = 0; c < pl.max_cells && ok; ++c)
            if (kind[pl.cells[i * pl.max_cells + c]] != SQ_EMPTY) ok = false;
        for (int c = 0; c < pl.max_nbrs && ok; ++c)
            if (opp[pl.nbrs[i * pl.max_nbrs + c]]) ok = false;
        if (ok) out.push_back(i);
    }
    return out;
}

Ints legal_digs(State& st, int p, const Have& have) {
    Ints cand = dig_geometry(st, p);
    if (cand.empty()) return cand;
    const Tables& t = *st.t;
    const Placements& pl = t.tunnels;
    const int minerals = std::max({have[STONE], have[IRON], have[HEARTSTONE]});
    const int hammers = st.ignore_rubble ? -1 : have[HAMMER];
    const int8_t* left = st.tunnel_supply();
    Ints out;
    for (int i : cand) {
        if (pl.size[i] > minerals || left[pl.piece[i]] <= 0) continue;
        if (hammers >= 0 && pl.rubble[i] > hammers) continue;
        out.push_back(i);
    }
    return out;
}

Ints legal_halls_of(State& st, int p) {
    const Tables& t = *st.t;
    const Placements& pl = t.halls;
    const int n_sq = t.n_squares;
    std::vector<bool> tunnels(n_sq + 1, false);
    const bool* reach = st.reach(p);
    const int8_t* kind = st.kind();
    std::vector<char> on(n_sq + 1, 0);
    bool any = false;
    for (int s = 0; s < n_sq; ++s)
        if (kind[s] == SQ_TUNNEL && reach[s]) {
            tunnels[s] = true;
            on[s] = 1;
            any = true;
        }
    Ints out;
    if (!any) return out;
    Ints cand = lookup(pl, reinterpret_cast<const bool*>(on.data()), n_sq);
    tunnels[n_sq] = true;  // the padding of smaller halls
    const int32_t* altar = st.hall_altar();
    for (int i : cand) {
        if (altar[pl.piece[i]] >= 0) continue;
        bool ok = true;
        for (int c = 0; c < pl.max_cells && ok; ++c)
            if (!tunnels[pl.cells[i * pl.max_cells + c]]) ok = false;
        if (ok) out.push_back(i);
    }
    return out;
}

Ints statue_destinations(State& st, int p, int sq) {
    // statues.statue_reach for the region of ``sq``: its squares and those of the regions next to it, within
    // p's network, ascending; then the free ones
    const Tables& t = *st.t;
    const int n_sq = t.n_squares;
    const bool* own = st.reach(p);
    const int16_t* region = st.region();
    const int r = region[sq];
    bool found = false;
    std::vector<int> near{r};
    for (int s = 0; s < n_sq; ++s) {
        if (!own[s] || region[s] != r) continue;
        found = true;
        for (int k = 0; k < 4; ++k) {
            const int q = t.neighbours[s * 4 + k];
            if (own[q] && std::find(near.begin(), near.end(), region[q]) == near.end()) near.push_back(region[q]);
        }
    }
    Ints out;
    if (!found) return out;
    const int8_t* statue = st.statue();
    for (int s = 0; s < n_sq; ++s)
        if (own[s] && statue[s] < 0 && std::find(near.begin(), near.end(), region[s]) != near.end())
            out.push_back(s);
    return out;
}

Ints movable_statues(State& st, int p, bool free) {
    const Tables& t = *st.t;
    const int8_t* statue = st.statue();
    const bool* own = st.reach(p);
    Ints out;
    int carts[N_CLANS] = {0, 0, 0};
    bool counted = false;
    for (int s = 0; s < t.n_squares; ++s) {
        if (statue[s] < 0 || !own[s]) continue;
        if (!free) {
            if (!counted) {
                for (int c = 0; c < N_CLANS; ++c) carts[c] = carts_for_clan(st, p, c);
                counted = true;
            }
            if (carts[statue[s]] < 1) continue;
        }
        if (!statue_destinations(st, p, s).empty()) out.push_back(s);
    }
    return out;
}

Ints statues_to_select(State& st, int p) {
    if (st.free_moves > 0) return movable_statues(st, p, true);
    if (st.phase == STEP4) return movable_statues(st, p, false);
    return {};
}

void workshop_touch(State& st, int p, std::vector<bool>& touches, std::vector<int>& open) {
    const Tables& t = *st.t;
    const int n_sites = static_cast<int>(t.site_squares.size());
    touches.assign(n_sites, false);
    open.assign(n_sites, 0);
    const bool* mine = st.reach(p);
    for (int i = 0; i < n_sites; ++i) {
        const int sq = t.site_squares[i];
        for (int k = 0; k < 4; ++k) {
            const int q = t.neighbours[sq * 4 + k];
            if (mine[q]) touches[i] = true;
            bool any = false;
            for (int r = 0; r < t.n_players && !any; ++r) any = st.reach(r)[q];
            open[i] += any ? 1 : 0;
        }
    }
}

}  // namespace mk
