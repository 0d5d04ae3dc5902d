// Resources (economy.py): what a player owns, the default payment order, gains from the supply, troll
// activation, and the leftover sets of final scoring.
#include <algorithm>
#include <map>

#include "engine.hpp"

namespace mk {

namespace {
//: token kinds taken, in order, when paying a resource (carts: clan carts first, then wild)
const int PAY_KINDS_CART[4] = {CLAN_CART0, CLAN_CART0 + 1, CLAN_CART0 + 2, CART};
}  // namespace

Have owned(State& st, int p) {
    Have out{};
    const int16_t* store = st.storage_of(p);
    for (int r = 0; r < N_RESOURCES; ++r) out[r] = store[r];
    const int8_t* tok = st.tokens(p, 0);
    for (int s = 0; s < N_SMOOT; ++s)
        for (int k = 0; k < N_TOKEN_KINDS; ++k) out[TOKEN_RESOURCE[k]] += tok[s * N_TOKEN_KINDS + k];
    return out;
}

int wild_carts(State& st, int p) {
    int n = st.storage_of(p)[CART];
    for (int s = 0; s < N_SMOOT; ++s) n += st.tokens(p, s)[CART];
    return n;
}

int carts_for_clan(State& st, int p, int clan) {
    int n = wild_carts(st, p);
    for (int s = 0; s < N_SMOOT; ++s) n += st.tokens(p, s)[CLAN_CART0 + clan];
    return n;
}

void pay(State& st, int p, int resource, int n, const int* kinds, int n_kinds, bool to_supply) {
    if (n <= 0) return;
    if (to_supply) st.supply()[resource] += n;
    int single = resource;
    if (kinds == nullptr) {
        if (resource == CART) {
            kinds = PAY_KINDS_CART;
            n_kinds = 4;
        } else {
            kinds = &single;
            n_kinds = 1;
        }
    }
    for (int i = 0; i < n_kinds; ++i) {
        const int kind = kinds[i];
        for (int slot = 0; slot < N_SMOOT; ++slot) {
            int8_t& have = st.tokens(p, slot)[kind];
            if (have) {
                const int take = std::min<int>(have, n);
                have = static_cast<int8_t>(have - take);
                n -= take;
                if (n == 0) return;
            }
        }
    }
    int16_t& store = st.storage_of(p)[resource];
    if (store < n) throw std::logic_error("payment exceeds what the player owns (engine bug)");
    store = static_cast<int16_t>(store - n);
}

void pay_vector(State& st, int p, const int* counts, bool wild_carts_only) {
    static const int WILD[1] = {CART};
    for (int r = 0; r < N_RESOURCES; ++r)
        if (counts[r]) {
            if (r == CART && wild_carts_only)
                pay(st, p, r, counts[r], WILD, 1);
            else
                pay(st, p, r, counts[r]);
        }
}

int gain(State& st, int p, int resource, int n) {
    n = std::min<int>(n, st.supply()[resource]);
    if (n > 0) {
        st.supply()[resource] = static_cast<int16_t>(st.supply()[resource] - n);
        st.storage_of(p)[resource] = static_cast<int16_t>(st.storage_of(p)[resource] + n);
    }
    return std::max(n, 0);
}

void gain_vector(State& st, int p, const int* counts) {
    for (int r = 0; r < N_RESOURCES; ++r)
        if (counts[r]) gain(st, p, r, counts[r]);
}

void activate_slots(State& st, int p, const Ints& slots) {
    const int16_t* cards = st.smoot(p);
    int16_t* supply = st.supply();
    for (int s : slots) {
        const int card = cards[s];
        if (card < 0) continue;
        int8_t* held = st.tokens(p, s);
        const int* shown = st.t->card_symbols.data() + card * N_TOKEN_KINDS;
        for (int kind = 0; kind < N_TOKEN_KINDS; ++kind) {
            const int missing = shown[kind] - held[kind];
            if (missing > 0) {
                const int res = TOKEN_RESOURCE[kind];
                const int got = std::min<int>(missing, supply[res]);
                if (got > 0) {
                    supply[res] = static_cast<int16_t>(supply[res] - got);
                    held[kind] = static_cast<int8_t>(held[kind] + got);
                }
            }
        }
    }
}

void return_troll_tokens(State& st, int p, int slot) {
    int8_t* held = st.tokens(p, slot);
    int16_t* supply = st.supply();
    for (int k = 0; k < N_TOKEN_KINDS; ++k) {
        supply[TOKEN_RESOURCE[k]] = static_cast<int16_t>(supply[TOKEN_RESOURCE[k]] + held[k]);
        held[k] = 0;
    }
}

int best_leftover_sets(const Have& counts, int set_size, int rate) {
    int base = 0;
    std::vector<int> rems;
    for (int c : counts) {
        base += c / set_size;
        if (c % set_size) rems.push_back(c % set_size);
    }
    std::sort(rems.begin(), rems.end());
    int waste = 0;
    for (int r : rems) waste += r;
    int best = 0;
    const int k = static_cast<int>(rems.size());
    for (int mask = 0; mask < (1 << k); ++mask) {
        int chosen = 0, deficit = 0, kept = 0;
        for (int i = 0; i < k; ++i)
            if (mask >> i & 1) {
                ++chosen;
                deficit += set_size - rems[i];
                kept += rems[i];
            }
        const int spare = waste - kept;
        if (spare < rate * deficit) continue;
        const int extra = (spare - rate * deficit) / (rate * set_size);
        best = std::max(best, chosen + extra);
    }
    return base + best;
}

}  // namespace mk
