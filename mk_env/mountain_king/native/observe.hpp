// The observation writer, compiled: one player's view of a state written straight into a caller's float32
// buffer, entry for entry what the Python encoder (mk_env/mountain_king/env/observation.py and
// observation_fill.py) writes, with the same float32 arithmetic. Its tables (offsets, scales, the card and
// square lookup tables) come from a built Python ``Observer`` (mk_env/mountain_king/env/native_observation.py),
// so the layout is the declared one; an observer with features this writer does not know keeps Python.
#pragma once

#include <vector>

#include "state.hpp"

namespace mk {

constexpr int MAX_PLAYER_ENTRIES = 128;  // the most entries of one player's row
constexpr int MAX_SQUARES = 4096;        // the most squares of a board

//: where each feature starts in the flat vector (an array's start plus the feature's index in its entries)
struct ObsAt {
    // the arrays: their start in the flat vector and, for tables, the width of one row
    int board = 0, draft = 0, horde = 0, track = 0, pending = 0, players = 0, spellbook = 0, supply = 0;
    int smoots = 0, turn = 0;
    int horde_w = 0, track_w = 0, players_w = 0, spellbook_w = 0, smoot_w = 0;
    // board channels
    int ch_altar = 0, ch_network = 0, ch_same_tunnel = 0, ch_workshop = 0, ch_pending_dig = 0;
    int ch_pending_statue = 0, ch_pending_sites = 0, ch_active_workshop = 0, ch_used_workshop = 0;
    int square_lo = 0, square_hi = 0;
    // entries within a row
    int horde_card = 0, horde_bribes = 0, horde_pedestal = 0;
    int smoot_card = 0, smoot_tokens = 0;
    int pl_storage = 0, pl_pedestals = 0, pl_owned = 0, pl_scores = 0, pl_trolls = 0, pl_gate_placed = 0;
    int pl_teammate = 0, pl_acting = 0, pl_draft_placed = 0;
    int sb_spell = 0, sb_present = 0, sb_runes = 0;
    int su_supply = 0, su_tunnels = 0, su_hall = 0, su_workshop = 0, su_bag = 0, su_deck = 0, su_spell_deck = 0;
    int su_coronation_tokens = 0;
    int tr_value = 0, tr_taken = 0;
    int tu_phase = 0, tu_spell_cast = 0, tu_workshops_left = 0, tu_uses_left = 0, tu_bribe_any = 0;
    int tu_ignore_rubble = 0, tu_free_moves = 0, tu_turn = 0, tu_coronation_complete = 0, tu_final_turns_left = 0;
    int pe_spell = 0, pe_smoot_slot = 0, pe_horde_slot = 0, pe_bribes_left = 0, pe_recruit_card = 0, pe_dig = 0;
    int pe_dig_for_spell = 0, pe_statue_move_free = 0, pe_sites_left = 0;
    int dr_hand = 0, dr_deck_left = 0;
};

//: the board channels every seat sees alike, kept with the bytes of the fields they were written from (one
//: per game of a batch: a board that did not change is copied, not written again)
struct BoardCache {
    std::vector<uint8_t> key;
    std::vector<float> common;
};

//: the observer's tables (each as the Python observer holds it)
struct ObsTables {
    int size = 0, n = 0, hw = 0, n_channels = 0;
    ObsAt at;
    std::vector<float> static_board;            // [channels, hw]: the geometry channels, zeros elsewhere
    std::vector<float> square_table;            // [square_hi - square_lo, n_codes]
    int n_codes = 0;
    std::vector<int> code_kind, code_statue, code_pedestal, code_buried;  // index -1 (none): the last entry
    std::vector<int> rubble_code;               // [hw]
    std::vector<int> nbr_rows;                  // [4, hw]
    std::vector<int> site_squares;
    std::vector<int> dig_cells, dig_piece;      // [placements, max_cells] (sentinel padded), [placements]
    int dig_max_cells = 0;
    std::vector<float> card_features;           // [cards + 1, cf_w]: row cards is "no card"
    int cf_w = 0;
    std::vector<float> player_scale, supply_scale, sym_max;
    std::vector<float> mate_flags;              // [n, n]: per observer, its rows' teammate flag
    std::vector<int> storage_of;
    float bribe_scale = 0, runes_scale = 0, track_scale = 0;
    double max_free_moves = 1, final_turns_max = 1, max_bribes = 1, max_sites = 1, n_starters = 1;
    int turn_cap = 200;
    //: the board last written by ``Observer.write`` from Python (which holds the GIL: one writer at a time)
    mutable BoardCache cache;

    void finish();  // checks the sizes the writer assumes
};

//: write ``player``'s observation of ``st`` into ``out`` (``t.size`` floats; every entry is written)
void write_observation(const ObsTables& t, const State& st, int player, float* out, BoardCache* cache = nullptr);

}  // namespace mk
