// The heuristic agent of In the Hall of the Mountain King, compiled: the same evaluation, candidates, quick
// policy and one-ply lookahead as agents/heuristic*.py (each function names the Python function it follows),
// on the compiled engine's states. The Python modules are the reference: tests/native/test_native_heuristic.py
// compares the two decision by decision. Its weights and constants come from the Python modules
// (agents/native_heuristic.py builds them), so nothing here is tuned apart from them.
#pragma once

#include <array>
#include <memory>
#include <utility>
#include <vector>

#include "../../mk_env/mountain_king/native/engine.hpp"

namespace mk {

//: the assets whose potential fades with the own turns left (heuristic_eval.HORIZON), in this order
enum Asset : int { A_RESOURCES, A_TROLLS, A_PEDESTALS, A_REACH, A_STATUES, A_BURIED, A_WORKSHOPS, N_ASSETS };

//: the heuristic's weights (heuristic_eval.Weights) and constants, and the content reads it needs
struct Heuristic {
    std::shared_ptr<const Tables> t;  // the game these were built for
    // -- Weights ------------------------------------------------------------------------------------------
    std::array<double, N_RESOURCES> resource{};
    double troll = 0, symbol = 0, pedestal = 0, reach = 0, dig_potential = 0, dig_this_turn = 0, statue = 0,
           buried = 0, workshop = 0, held_token = 0;
    // -- constants ------------------------------------------------------------------------------------------
    double recruit_rate = 0, new_kind_worth = 0;
    std::array<double, N_ASSETS> horizon{};
    int max_digs = 0, max_trades = 0, max_any_gives = 0, settle_limit = 16;
    double tolerance = 1e-9;
    std::array<int, N_BLOCKS> block_rank{};  // candidates.BLOCK_RANK (1 where it names none)
    std::vector<bool> sub_phase;             // heuristic_quick.SUB_PHASES, per phase
    // -- content ----------------------------------------------------------------------------------------------
    std::vector<double> symbol_totals;    // per troll card: its symbols summed
    std::vector<bool> give_any;           // per conversion: its workshop spends any two resources
    int honour_min = 0, honour_max = 0;   // the tunnel sizes the honour table lists
    //: per spell, per option: (resource, count) in the pack's order (the Python sum's order)
    std::vector<std::vector<std::vector<std::pair<int, int>>>> option_items;
};

//: the seat to move, -1 once the game is over (GameState.current_player)
inline int current_player(const State& st) { return st.phase == GAME_OVER ? -1 : st.current; }
//: the pedestals in p's storage (its team's, in the team game)
inline int stored_pedestals(State& st, int p) {
    int total = 0;
    for (int c = 0; c < N_CLANS; ++c) total += st.storage_pedestals(st.t->storage_of[p])[c];
    return total;
}

// -- heuristic_eval.py --------------------------------------------------------------------------------------
double own_turns_left(State& st, int p, const Heuristic& h);
bool step2_open(State& st, int p);
double evaluate(State& st, int p, const Heuristic& h);
double potential(State& st, int p, double ahead, bool open_now, const Heuristic& h);
int best_affordable_honour(const Heuristic& h, const Have& have, int max_size = -1);
int largest_placeable(State& st, int p);
std::vector<bool> workshop_kinds_touched(State& st, int p);  // per workshop kind
int count_kinds(const std::vector<bool>& kinds);
double dot(const std::array<double, N_RESOURCES>& w, const int* counts);

// -- heuristic_candidates.py --------------------------------------------------------------------------------
//: the legal actions grouped by block, as arguments within the block
using ByBlock = std::array<Ints, N_BLOCKS>;
ByBlock split_blocks(State& st);
int preferred(const Heuristic& h, const State& st, const Ints& actions, const std::vector<double>& values);
Ints candidates(State& st, int p, const Heuristic& h);
Ints distinct_uses(State& st, const Ints& args, const Heuristic& h);
Ints useful_trades(State& st, int p, const Ints& args, const Heuristic& h);
Ints top_digs(State& st, int p, const Ints& args, int k);
std::vector<double> dig_scores(State& st, int p, const Ints& args);

// -- heuristic_quick.py --------------------------------------------------------------------------------------
int quick_action(State& st, int p, const Heuristic& h);
double establish_worth(State& st, int p, int kind, const Heuristic& h);
int best_workshop_use(State& st, int p, const Heuristic& h);
void settle(State& st, int p, const Heuristic& h);

// -- heuristic.py ----------------------------------------------------------------------------------------------
std::vector<double> lookahead_values(State& st, int p, const Ints& actions, const Heuristic& h);
int best_action(State& st, int p, const Heuristic& h);

}  // namespace mk
