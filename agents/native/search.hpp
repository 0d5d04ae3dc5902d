// The information-set search of agents/search_tree.py, compiled: one tree of every player's decisions from the
// searcher's view, a fresh determinization per iteration, PUCT with the availability count and progressive
// widening, a horizon in changes of the player to move. The same arithmetic in the same order as the Python
// class, and the same draws from the caller's numpy generator, so the two choose alike from the same seed.
// Leaves are valued by the compiled heuristic (run_heuristic: search_eval.HeuristicEvaluator) or handed out
// (select / expand_backup) for any evaluator the caller has, a network's batched forward included.
#pragma once

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "heuristic.hpp"

namespace mk {

//: search_tree.SearchConfig (Dirichlet noise stays with the caller: it draws the noise, expand_backup takes
//: the mixed priors)
struct SearchConfig {
    double c_puct = 1.5;
    int horizon = 1, rollout_horizon = 1;  // already resolved (None: one round)
    bool fpu_parent = true;
    int max_depth = 60, min_width = 2;
    double widen = 2.0, widen_power = 0.5;
    bool legal_actions = false;  // a node's actions: every legal one, or the heuristic's candidates
};

//: search_eval.HeuristicEvaluator's settings
struct LeafEvaluation {
    int lookahead_depth = -1;  // leaves at fewer decisions from the root get lookahead priors; -1: every depth
    double temperature = 1.5, scale = 10.0;
    bool rollout = true;
    int rollout_decisions = 40;  // per seat, the safety cap of a rollout
};

struct SearchNode {
    int player = 0;
    Ints actions;
    std::unordered_map<int, int> index;
    std::vector<double> priors, n, w, avail;
    std::vector<int> order;
    int visits = 0;
    std::map<std::pair<int, int>, int> children;  // (action, player to move next) -> node
    bool expanded() const { return !actions.empty(); }
};

struct SearchLeaf {
    State state;
    int player = 0, node = -1, depth = 0, turns_left = 0;
    Ints actions;
    bool needs_priors = false, open = true;
    std::vector<std::pair<int, int>> path;  // (node, edge)
};

class TreeSearch {
   public:
    TreeSearch(const State& root, int seat, const SearchConfig& config);
    //: one walk down a fresh determinization: a leaf to value (its number), or -1 when the walk ended the game
    //: (its true returns already backed up)
    int select(PyBitgen& rng, const Heuristic* h);
    //: expand the leaf's node with priors over its actions (normalised here, then mixed with ``noise`` where
    //: given) and back the values up its path
    void expand_backup(int leaf, const std::vector<double>& priors, const std::vector<double>& values,
                       const std::vector<double>& noise = {}, double noise_frac = 0.0);
    //: the one-game loop valued by the compiled heuristic: until ``simulations`` iterations are done, or, with
    //: ``seconds`` > 0, until they have passed (at least one iteration)
    void run_heuristic(PyBitgen& rng, const Heuristic& h, const LeafEvaluation& ev, int simulations, double seconds);
    const SearchNode& root() const { return nodes_[0]; }
    SearchLeaf& leaf(int i) { return leaves_.at(i); }
    int seat() const { return seat_; }
    int simulations = 0;

   private:
    int choose(SearchNode& node, State& st);
    void backup(const std::vector<std::pair<int, int>>& path, const std::vector<double>& values);
    int make_leaf(State&& st, int node, std::vector<std::pair<int, int>>&& path, int depth, int changes, const Heuristic* h);
    State root_;
    int seat_;
    SearchConfig cfg_;
    std::vector<SearchNode> nodes_;
    std::vector<SearchLeaf> leaves_;  // handed out, not yet backed up (cleared when none is open)
};

//: search_eval.HeuristicEvaluator for one leaf: priors over its actions (empty when it needs none), then the
//: values per seat after the rollout (the leaf's state is played on)
std::vector<double> heuristic_priors(SearchLeaf& leaf, const Heuristic& h, const LeafEvaluation& ev);
std::vector<double> heuristic_values(SearchLeaf& leaf, const Heuristic& h, const LeafEvaluation& ev);
//: numpy's sum of a float64 array (its pairwise summation), so normalised priors round as the Python ones
double numpy_sum(const double* a, size_t n);

}  // namespace mk
