// The observation writer (observe.hpp): each part as the fill method of observation_fill.py it follows.
#include "observe.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace mk {

namespace {

int length(const State& st, ArrayField f) { return st.t->array_shapes[f][0]; }

//: the index of a value that may be -1 (none) in a table whose last entry stands for none
int wrap(int v, int size) { return v < 0 ? size + v : v; }

//: the fields _board_common reads, in one arena run each
constexpr ArrayField BOARD_READS[] = {F_KIND, F_REGION, F_STATUE, F_PEDESTAL, F_BURIED, F_HALL_ALTAR, F_WORKSHOP};

//: _board_common: the channels every observer sees alike (``b`` holds the static channels on entry)
void board_common(const ObsTables& t, const State& st, float* b) {
    const ObsAt& at = t.at;
    const int hw = t.hw;
    const int8_t* kind = st.field<int8_t>(F_KIND);
    const int8_t* statue = st.field<int8_t>(F_STATUE);
    const int8_t* pedestal = st.field<int8_t>(F_PEDESTAL);
    const int8_t* buried = st.field<int8_t>(F_BURIED);
    const int16_t* region = st.field<int16_t>(F_REGION);
    const int rows = at.square_hi - at.square_lo;
    const int ns = static_cast<int>(t.code_statue.size()), np_ = static_cast<int>(t.code_pedestal.size());
    const int nb = static_cast<int>(t.code_buried.size());
    int code[MAX_SQUARES];
    for (int sq = 0; sq < hw; ++sq)
        code[sq] = std::min(t.code_kind[kind[sq]] + t.code_statue[wrap(statue[sq], ns)] +
                                t.code_pedestal[wrap(pedestal[sq], np_)] + t.code_buried[wrap(buried[sq], nb)] +
                                t.rubble_code[sq],
                            t.n_codes - 1);
    for (int r = 0; r < rows; ++r) {  // row by row: each row of the table is read as a whole (it stays in cache)
        const float* table = t.square_table.data() + r * t.n_codes;
        float* out = b + (at.square_lo + r) * hw;
        for (int sq = 0; sq < hw; ++sq) out[sq] = table[code[sq]];
    }
    for (int d = 0; d < 4; ++d) {
        const int* nbr = t.nbr_rows.data() + d * hw;
        float* out = b + (at.ch_same_tunnel + d) * hw;
        for (int sq = 0; sq < hw; ++sq) out[sq] = (region[sq] >= 0 && region[nbr[sq]] == region[sq]) ? 1.f : 0.f;
    }
    const int32_t* altar = st.field<int32_t>(F_HALL_ALTAR);
    for (int h = 0, nh = length(st, F_HALL_ALTAR); h < nh; ++h)
        if (altar[h] >= 0) b[at.ch_altar * hw + altar[h]] = 1.f;
    const int8_t* workshop = st.field<int8_t>(F_WORKSHOP);
    for (int site = 0, ns2 = length(st, F_WORKSHOP); site < ns2; ++site)
        if (workshop[site] >= 0) b[(at.ch_workshop + workshop[site]) * hw + t.site_squares[site]] = 1.f;
}

bool same_board(const State& st, BoardCache& cache) {
    size_t at = 0;
    bool same = !cache.key.empty();
    for (ArrayField f : BOARD_READS) {
        const size_t bytes = st.t->array_bytes[f];
        const uint8_t* src = st.arena.data() + st.t->array_offsets[f];
        if (cache.key.size() < at + bytes) {
            cache.key.resize(at + bytes);
            same = false;
        }
        if (same && std::memcmp(cache.key.data() + at, src, bytes) != 0) same = false;
        if (!same) std::memcpy(cache.key.data() + at, src, bytes);
        at += bytes;
    }
    return same;
}

//: the whole board: the common channels (from ``cache`` where the board did not change), then _board_networks
//: and _board_overlay
void board(const ObsTables& t, const State& st, int player, float* b, BoardCache* cache) {
    const ObsAt& at = t.at;
    const int hw = t.hw, n = t.n;
    const size_t bytes = sizeof(float) * t.static_board.size();
    if (cache == nullptr) {
        std::memcpy(b, t.static_board.data(), bytes);
        board_common(t, st, b);
    } else {
        if (!same_board(st, *cache)) {
            cache->common = t.static_board;
            board_common(t, st, cache->common.data());
        }
        std::memcpy(b, cache->common.data(), bytes);
    }
    const bool* reach = st.field<bool>(F_REACH);
    for (int k = 0; k < n; ++k) {
        const bool* row = reach + ((player + k) % n) * (hw + 1);
        float* out = b + (at.ch_network + k) * hw;
        for (int sq = 0; sq < hw; ++sq) out[sq] = row[sq] ? 1.f : 0.f;
    }
    const Pending& pd = st.pending;
    if (pd.dig != NONE)
        for (int i = 0; i < t.dig_max_cells; ++i) {
            const int c = t.dig_cells[pd.dig * t.dig_max_cells + i];
            if (c < hw) b[at.ch_pending_dig * hw + c] = 1.f;
        }
    if (pd.statue_square != NONE) b[at.ch_pending_statue * hw + pd.statue_square] = 1.f;
    for (int i = 0; i < pd.n_sites; ++i) b[at.ch_pending_sites * hw + t.site_squares[pd.sites[i]]] = 1.f;
    if (st.active_site >= 0) b[at.ch_active_workshop * hw + t.site_squares[st.active_site]] = 1.f;
    for (int i = 0, k = st.list_len(L_USED_SITES); i < k; ++i)
        b[at.ch_used_workshop * hw + t.site_squares[st.list_at(L_USED_SITES, i)]] = 1.f;
}

void card(const ObsTables& t, int c, float* out) {
    const int cards = static_cast<int>(t.card_features.size()) / t.cf_w;
    std::memcpy(out, t.card_features.data() + wrap(c, cards) * t.cf_w, sizeof(float) * t.cf_w);
}

//: _horde
void horde(const ObsTables& t, const State& st, float* out) {
    const ObsAt& at = t.at;
    const int16_t* cards = st.field<int16_t>(F_HORDE);
    const int8_t* bribes = st.field<int8_t>(F_HORDE_BRIBES);
    const int8_t* ped = st.field<int8_t>(F_HORDE_PEDESTAL);
    for (int h = 0; h < N_HORDE; ++h) {
        float* row = out + h * at.horde_w;
        card(t, cards[h], row + at.horde_card);
        for (int r = 0; r < N_RESOURCES; ++r)
            row[at.horde_bribes + r] = static_cast<float>(bribes[h * N_RESOURCES + r]) * t.bribe_scale;
        if (ped[h] >= 0) row[at.horde_pedestal + ped[h]] = 1.f;
    }
}

//: _trollsmoot_cards and _trollsmoot_tokens, in the observer's seat order
void trollsmoots(const ObsTables& t, const State& st, int player, float* out) {
    const ObsAt& at = t.at;
    const int16_t* smoot = st.field<int16_t>(F_SMOOT);
    const int8_t* tokens = st.field<int8_t>(F_TOKENS);
    for (int k = 0; k < t.n; ++k) {
        const int seat = (player + k) % t.n;
        for (int s = 0; s < N_SMOOT; ++s) {
            float* row = out + (k * N_SMOOT + s) * at.smoot_w;
            card(t, smoot[seat * N_SMOOT + s], row + at.smoot_card);
            const int8_t* held = tokens + (seat * N_SMOOT + s) * N_TOKEN_KINDS;
            for (int kd = 0; kd < N_TOKEN_KINDS; ++kd)
                row[at.smoot_tokens + kd] = static_cast<float>(held[kd]) / t.sym_max[kd];
        }
    }
}

//: _players and _players_slow: counts times the column scales, then the observer's teammate flags
void players(const ObsTables& t, const State& st, int player, float* out) {
    const ObsAt& at = t.at;
    const int16_t* storage = st.field<int16_t>(F_STORAGE);
    const int8_t* spedestals = st.field<int8_t>(F_STORAGE_PEDESTALS);
    const int8_t* tokens = st.field<int8_t>(F_TOKENS);
    const int16_t* smoot = st.field<int16_t>(F_SMOOT);
    const int16_t* scores[3] = {st.field<int16_t>(F_HONOUR), st.field<int16_t>(F_CORONATION),
                                st.field<int16_t>(F_PEDESTAL_POINTS)};
    const int8_t* ped_tokens = st.field<int8_t>(F_PEDESTAL_TOKENS);
    const int32_t* gate = st.field<int32_t>(F_GATE_SQ);
    float c[MAX_PLAYER_ENTRIES];
    for (int k = 0; k < t.n; ++k) {
        const int seat = (player + k) % t.n, store = t.storage_of[seat];
        std::fill(c, c + at.players_w, 0.f);
        int owned[N_RESOURCES] = {};
        for (int s = 0; s < N_SMOOT; ++s)
            for (int kd = 0; kd < N_TOKEN_KINDS; ++kd)
                owned[TOKEN_RESOURCE[kd]] += tokens[(seat * N_SMOOT + s) * N_TOKEN_KINDS + kd];
        for (int r = 0; r < N_RESOURCES; ++r) {
            const int held = storage[store * N_RESOURCES + r];
            c[at.pl_storage + r] = static_cast<float>(held);
            c[at.pl_owned + r] = static_cast<float>(owned[r] + held);
        }
        for (int cl = 0; cl < N_CLANS; ++cl) c[at.pl_pedestals + cl] = spedestals[store * N_CLANS + cl];
        for (int i = 0; i < 3; ++i) c[at.pl_scores + i] = scores[i][seat];
        c[at.pl_scores + 3] = ped_tokens[seat];
        int trolls = 0, levels = 0;
        for (int s = 0; s < N_SMOOT; ++s) {
            const int card_id = smoot[seat * N_SMOOT + s];
            if (card_id >= 0) {
                ++trolls;
                levels += st.t->card_level[card_id];
            }
        }
        c[at.pl_trolls] = static_cast<float>(trolls);
        c[at.pl_trolls + 1] = static_cast<float>(levels);
        c[at.pl_gate_placed] = gate[seat] >= 0 ? 1.f : 0.f;
        c[at.pl_draft_placed] = static_cast<float>(st.draft_placed[seat]);
        c[at.pl_acting] = (st.phase != GAME_OVER && st.current == seat) ? 1.f : 0.f;
        float* row = out + k * at.players_w;
        for (int e = 0; e < at.players_w; ++e) row[e] = c[e] * t.player_scale[e];
        row[at.pl_teammate] = t.mate_flags[player * t.n + k];
    }
}

//: _spellbook
void spellbook(const ObsTables& t, const State& st, float* out) {
    const ObsAt& at = t.at;
    const int16_t* book = st.field<int16_t>(F_SPELLBOOK);
    const int8_t* runes = st.field<int8_t>(F_SPELL_RUNES);
    for (int i = 0, k = length(st, F_SPELLBOOK); i < k; ++i) {
        float* row = out + i * at.spellbook_w;
        if (book[i] >= 0) {
            row[at.sb_spell + book[i]] = 1.f;
            row[at.sb_present] = 1.f;
        }
        row[at.sb_runes] = static_cast<float>(runes[i]) / t.runes_scale;
    }
}

//: _supply and the resource piles of _fill_per_call: counts times the supply scales
void supply(const ObsTables& t, const State& st, float* out) {
    const ObsAt& at = t.at;
    auto put = [&](int e, int count) { out[e] = static_cast<float>(count) * t.supply_scale[e]; };
    const int16_t* piles = st.field<int16_t>(F_SUPPLY);
    for (int r = 0; r < N_RESOURCES; ++r) put(at.su_supply + r, piles[r]);
    const int8_t* tunnels = st.field<int8_t>(F_TUNNEL_SUPPLY);
    for (int i = 0, k = length(st, F_TUNNEL_SUPPLY); i < k; ++i) put(at.su_tunnels + i, tunnels[i]);
    const int32_t* altar = st.field<int32_t>(F_HALL_ALTAR);
    for (int i = 0, k = length(st, F_HALL_ALTAR); i < k; ++i) put(at.su_hall + i, altar[i] < 0);
    const int8_t* workshops = st.field<int8_t>(F_WORKSHOP_SUPPLY);
    for (int i = 0, k = length(st, F_WORKSHOP_SUPPLY); i < k; ++i) put(at.su_workshop + i, workshops[i]);
    const int8_t* bag = st.field<int8_t>(F_BAG);
    for (int i = 0, k = length(st, F_BAG); i < k; ++i) put(at.su_bag + i, bag[i]);
    for (int lv = 0; lv < 3; ++lv) put(at.su_deck + lv, st.list_len(L_DECK0 + lv));
    put(at.su_spell_deck, st.list_len(L_SPELL_DECK));
    put(at.su_coronation_tokens, st.list_len(L_CORONATION_LEFT));
}

//: _track: each space's value, and who took it (free, me, the next seat, ...)
void track(const ObsTables& t, const State& st, int player, float* out) {
    const ObsAt& at = t.at;
    const int8_t* value = st.field<int8_t>(F_TRACK_VALUE);
    const int8_t* taken = st.field<int8_t>(F_TRACK_TAKEN);
    for (int i = 0; i < N_TIERS * N_CLANS; ++i) {
        float* row = out + i * at.track_w;
        row[at.tr_value] = static_cast<float>(value[i]) * t.track_scale;
        row[at.tr_taken + (taken[i] < 0 ? 0 : 1 + ((taken[i] - player) % t.n + t.n) % t.n)] = 1.f;
    }
}

float ratio(double count, double scale) { return static_cast<float>(count / scale); }

//: _turn
void turn(const ObsTables& t, const State& st, float* out) {
    const ObsAt& at = t.at;
    out[at.tu_phase + st.phase] = 1.f;
    out[at.tu_spell_cast] = st.spell_cast;
    out[at.tu_workshops_left] = ratio(st.workshops_left, 2.0);
    out[at.tu_uses_left] = ratio(st.uses_left, 4.0);
    out[at.tu_bribe_any] = st.bribe_any;
    out[at.tu_ignore_rubble] = st.ignore_rubble;
    out[at.tu_free_moves] = ratio(st.free_moves, t.max_free_moves);
    out[at.tu_turn] = ratio(std::min(st.turn, t.turn_cap), t.turn_cap);
    out[at.tu_coronation_complete] = st.final_turns_left >= 0;
    out[at.tu_final_turns_left] = ratio(std::max(st.final_turns_left, 0), t.final_turns_max);
}

//: _pending
void pending(const ObsTables& t, const State& st, float* out) {
    const ObsAt& at = t.at;
    const Pending& pd = st.pending;
    if (pd.spell != NONE) out[at.pe_spell + pd.spell] = 1.f;
    if (pd.smoot_slot != NONE) out[at.pe_smoot_slot + pd.smoot_slot] = 1.f;
    if (pd.horde_slot != NONE) out[at.pe_horde_slot + pd.horde_slot] = 1.f;
    out[at.pe_bribes_left] = ratio(std::max(pd.n_bribes, 0), t.max_bribes);
    if (pd.recruit_card != NONE) card(t, pd.recruit_card, out + at.pe_recruit_card);
    if (pd.dig != NONE) out[at.pe_dig + t.dig_piece[pd.dig]] = 1.f;
    out[at.pe_dig_for_spell] = pd.dig_for_spell == 1;
    out[at.pe_statue_move_free] = pd.statue_from_phase != NONE && st.free_moves > 0;
    out[at.pe_sites_left] = ratio(std::max(pd.n_sites, 0), t.max_sites);
}

//: _draft: my starter hand and my unseen starters
void draft(const ObsTables& t, const State& st, int player, float* out) {
    const ObsAt& at = t.at;
    const int hand = draft_hand_list(*st.t, player), deck = draft_deck_list(player);
    for (int i = 0, k = st.list_len(hand); i < k; ++i) out[at.dr_hand + st.list_at(hand, i)] = 1.f;
    if (st.list_len(deck) > 0) out[at.dr_deck_left] = ratio(st.list_len(deck), t.n_starters);
}

}  // namespace

void ObsTables::finish() {
    if (at.players_w > MAX_PLAYER_ENTRIES) throw std::invalid_argument("too many entries per player");
    if (hw > MAX_SQUARES) throw std::invalid_argument("too many squares");
}

void write_observation(const ObsTables& t, const State& st, int player, float* out, BoardCache* cache) {
    const ObsAt& at = t.at;
    const size_t board_end = at.board + t.static_board.size();  // the board: copied from the static channels
    std::memset(out, 0, sizeof(float) * at.board);
    std::memset(out + board_end, 0, sizeof(float) * (t.size - board_end));
    board(t, st, player, out + at.board, cache);
    horde(t, st, out + at.horde);
    trollsmoots(t, st, player, out + at.smoots);
    players(t, st, player, out + at.players);
    spellbook(t, st, out + at.spellbook);
    supply(t, st, out + at.supply);
    track(t, st, player, out + at.track);
    turn(t, st, out + at.turn);
    if (!st.pending.empty()) pending(t, st, out + at.pending);
    draft(t, st, player, out + at.draft);
}

}  // namespace mk
