// The compiled rules engine of In the Hall of the Mountain King: the same mechanics as the Python modules of
// mk_env/mountain_king/rules/ (each function names the Python function it follows), the same decisions, the
// same draws. The Python engine is the reference: tests/native/ compare the two decision by decision.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "state.hpp"

namespace mk {

using Have = std::array<int, N_RESOURCES>;
using Ints = std::vector<int>;

//: an action the engine refuses (the Python side explains it with the reference engine's words)
struct Illegal : std::runtime_error {
    using std::runtime_error::runtime_error;
};
//: a game that cannot go on (errors.StalledGameError)
struct Stalled : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// -- economy.cpp (economy.py) ---------------------------------------------------------------------------
Have owned(State& st, int p);
int wild_carts(State& st, int p);
int carts_for_clan(State& st, int p, int clan);
void pay(State& st, int p, int resource, int n, const int* kinds = nullptr, int n_kinds = 0, bool to_supply = true);
void pay_vector(State& st, int p, const int* counts, bool wild_carts_only = false);
int gain(State& st, int p, int resource, int n);
void gain_vector(State& st, int p, const int* counts);
void activate_slots(State& st, int p, const Ints& slots);
void return_troll_tokens(State& st, int p, int slot);
int best_leftover_sets(const Have& counts, int set_size, int rate);

// -- board.cpp (board.py, and the board queries of digging, great_halls, statues, workshops) -------------
void recompute_networks(State& st);
void place_tile(State& st, const int* cells, int n_cells, int kind, int shape);
std::vector<bool> opponent_network(State& st, int p);
Ints dig_geometry(State& st, int p);     // memoised per seat and board_version
Ints dig_geometry_of(State& st, int p);  // computed afresh
Ints legal_digs(State& st, int p, const Have& have);
Ints legal_halls(State& st, int p);     // memoised per seat and board_version
Ints legal_halls_of(State& st, int p);  // computed afresh
Ints statue_destinations(State& st, int p, int sq);
Ints movable_statues(State& st, int p, bool free);
Ints statues_to_select(State& st, int p);
void workshop_touch(State& st, int p, std::vector<bool>& touches, std::vector<int>& open);

// -- mechanics.cpp (setup, chance, spellbook, spells, recruiting, digging, great_halls, statues, workshops,
//    trades, the_end) ------------------------------------------------------------------------------------
void setup(State& st);
void refill(State& st, int h);
Ints legal_gates(State& st);
Ints legal_drafts(State& st, int p);
Ints castable_positions(State& st, int p);
Ints activatable_sites(State& st, int p);
Ints legal_conversions(State& st, int p, const Have& have);
Ints legal_recruits(State& st, int p, const Have& have);
Ints spell_smoot_slots(State& st, int p);
Ints spell_horde_slots(State& st);
Ints legal_pedestal_clans(State& st, int p);
Ints minerals_paying(State& st, int p, int placement);
void apply_block(State& st, int block, int arg);
void apply_pass(State& st);

// -- legal.cpp and turn.cpp (legal.py, turn.py, hidden.py) -----------------------------------------------
const std::vector<int32_t>& legal_actions(State& st);
bool is_legal(State& st, int action);
void apply_action(State& st, int action);
State determinize(const State& st, int player, PyBitgen& rng);
void trade_actions(State& st, const Have& have, std::vector<int32_t>& out);  // appended to out

// -- scoring.cpp (scoring.py) ----------------------------------------------------------------------------
std::array<int, 7> breakdown(State& st, int p);  // the six categories, then the total
int great_hall_honour(State& st, const std::vector<bool>& net);  // the halls whose altar lies in net
int statue_honour(State& st, const std::vector<bool>& net);      // each tunnel's best statue in net
Ints ranks(State& st);

}  // namespace mk
