// The compiled information-set search (search.hpp; agents/search_tree.py and the heuristic evaluator of
// agents/search_eval.py, line for line).
#include "search.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace mk {

namespace {

constexpr double VIRTUAL_LOSS = 1.0;

//: scoring.returns: +1 to each winner and -1/(n-1) to each other (teams: +1 / -1, a draw 0)
std::vector<double> true_returns(State& st) {
    const int n = st.n();
    const Ints r = ranks(st);
    std::vector<double> out(n);
    if (st.t->team_mode) {
        const bool draw = std::all_of(r.begin(), r.end(), [](int x) { return x == 0; });
        for (int q = 0; q < n; ++q) out[q] = draw ? 0.0 : (r[q] == 0 ? 1.0 : -1.0);
        return out;
    }
    for (int q = 0; q < n; ++q) out[q] = r[q] == 0 ? 1.0 : -1.0 / (n - 1);
    return out;
}

//: Node.add: the actions not yet known, with their priors; the prior order kept
void add_actions(SearchNode& node, const Ints& actions, const std::vector<double>& priors) {
    bool any = false;
    for (size_t k = 0; k < actions.size(); ++k) {
        if (node.index.count(actions[k])) continue;
        node.index[actions[k]] = static_cast<int>(node.actions.size());
        node.actions.push_back(actions[k]);
        node.priors.push_back(priors[k]);
        node.n.push_back(0.0), node.w.push_back(0.0), node.avail.push_back(0.0);
        any = true;
    }
    if (!any) return;
    node.order.resize(node.actions.size());
    std::iota(node.order.begin(), node.order.end(), 0);
    std::sort(node.order.begin(), node.order.end(), [&](int a, int b) {
        if (node.priors[a] != node.priors[b]) return node.priors[a] > node.priors[b];
        return node.actions[a] < node.actions[b];
    });
}

//: search_eval.play_to_horizon: the quick policy plays on until the player to move has changed
//: ``turns_left`` times (or the game ends, or the safety cap)
void play_to_horizon(State& st, int turns_left, const Heuristic& h, const LeafEvaluation& ev) {
    int changes = 0, player = current_player(st);
    for (int i = 0; i < ev.rollout_decisions * st.n(); ++i) {
        if (changes >= turns_left || st.phase == GAME_OVER) return;
        apply_action(st, quick_action(st, player, h));
        if (st.phase != GAME_OVER) {
            const int q = st.current;
            changes += q != player;
            player = q;
        }
    }
}

}  // namespace

double numpy_sum(const double* a, size_t n) {
    if (n < 8) {
        double res = 0.0;
        for (size_t i = 0; i < n; ++i) res += a[i];
        return res;
    }
    if (n <= 128) {
        double r[8];
        for (int j = 0; j < 8; ++j) r[j] = a[j];
        size_t i = 8;
        for (; i < n - (n % 8); i += 8)
            for (int j = 0; j < 8; ++j) r[j] += a[i + j];
        double res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
        for (; i < n; ++i) res += a[i];
        return res;
    }
    size_t n2 = n / 2;
    n2 -= n2 % 8;
    return numpy_sum(a, n2) + numpy_sum(a + n2, n - n2);
}

TreeSearch::TreeSearch(const State& root, int seat, const SearchConfig& config)
    : root_(root), seat_(seat), cfg_(config) {
    if (seat < 0 || seat >= root.n()) throw std::invalid_argument("Search: no such seat");
    nodes_.emplace_back();
    nodes_[0].player = seat;
}

int TreeSearch::select(PyBitgen& rng, const Heuristic* h) {
    State st = determinize(root_, seat_, rng);
    if (current_player(st) != seat_)
        throw std::invalid_argument("Search: it is another seat's decision, not the searcher's");
    int node = 0, depth = 0, changes = 0;
    std::vector<std::pair<int, int>> path;
    while (true) {
        if (!nodes_[node].expanded()) return make_leaf(std::move(st), node, std::move(path), depth, changes, h);
        const int i = choose(nodes_[node], st);
        if (i < 0)  // none of the node's actions is legal here: add this determinization's
            return make_leaf(std::move(st), node, std::move(path), depth, changes, h);
        SearchNode& nd = nodes_[node];
        const int a = nd.actions[i], player = nd.player;
        nd.n[i] += 1;
        nd.w[i] -= VIRTUAL_LOSS;
        path.emplace_back(node, i);
        apply_action(st, a);
        ++depth;
        if (st.phase == GAME_OVER) {
            backup(path, true_returns(st));
            return -1;
        }
        const int q = st.current;
        changes += q != player;
        if (changes >= cfg_.horizon || depth >= cfg_.max_depth) {
            SearchLeaf leaf{std::move(st)};
            leaf.player = q, leaf.depth = depth, leaf.turns_left = cfg_.rollout_horizon - changes;
            leaf.path = std::move(path);
            leaves_.push_back(std::move(leaf));
            return static_cast<int>(leaves_.size()) - 1;
        }
        const auto key = std::make_pair(a, q);
        auto found = nodes_[node].children.find(key);
        int child;
        if (found == nodes_[node].children.end()) {
            child = static_cast<int>(nodes_.size());
            nodes_[node].children.emplace(key, child);
            nodes_.emplace_back();
            nodes_.back().player = q;
        } else {
            child = found->second;
        }
        node = child;
    }
}

int TreeSearch::make_leaf(State&& st, int node, std::vector<std::pair<int, int>>&& path, int depth, int changes,
                          const Heuristic* h) {
    SearchLeaf leaf{std::move(st)};
    leaf.player = current_player(leaf.state);
    if (cfg_.legal_actions) {
        const auto& legal = legal_actions(leaf.state);
        leaf.actions.assign(legal.begin(), legal.end());
    } else {
        if (h == nullptr) throw std::invalid_argument("Search: the candidate actions need the heuristic's tables");
        leaf.actions = candidates(leaf.state, leaf.player, *h);
    }
    leaf.needs_priors = true;
    leaf.node = node, leaf.depth = depth, leaf.turns_left = cfg_.rollout_horizon - changes;
    leaf.path = std::move(path);
    leaves_.push_back(std::move(leaf));
    return static_cast<int>(leaves_.size()) - 1;
}

int TreeSearch::choose(SearchNode& node, State& st) {
    const int width = std::max(cfg_.min_width,
                               static_cast<int>(std::ceil(cfg_.widen * std::pow(static_cast<double>(node.visits),
                                                                                cfg_.widen_power))));
    node.visits += 1;
    const double total = numpy_sum(node.n.data(), node.n.size());
    const double unvisited = cfg_.fpu_parent && total > 0 ? numpy_sum(node.w.data(), node.w.size()) / total : 0.0;
    int best = -1, seen = 0;
    double best_score = -std::numeric_limits<double>::infinity();
    for (int i : node.order) {
        if (!is_legal(st, node.actions[i])) continue;
        node.avail[i] += 1;
        const double q = node.n[i] != 0 ? node.w[i] / node.n[i] : unvisited;
        const double score = q + cfg_.c_puct * node.priors[i] * std::sqrt(node.avail[i]) / (1 + node.n[i]);
        if (score > best_score) best = i, best_score = score;
        if (++seen >= width) break;
    }
    if (best < 0) node.visits -= 1;
    return best;
}

void TreeSearch::expand_backup(int i, const std::vector<double>& priors, const std::vector<double>& values,
                               const std::vector<double>& noise, double noise_frac) {
    if (i < 0 || i >= static_cast<int>(leaves_.size()) || !leaves_[i].open)
        throw std::invalid_argument("expand_backup: no such leaf waiting (each select() gives one leaf to back up once)");
    SearchLeaf& leaf = leaves_[i];
    if (static_cast<int>(values.size()) != root_.n())
        throw std::invalid_argument("expand_backup: values must have one entry per seat");
    for (double v : values)
        if (!(std::abs(v) <= 1 + 1e-6)) throw std::invalid_argument("expand_backup: values must be finite and in [-1, 1]");
    if (leaf.needs_priors) {
        if (priors.size() != leaf.actions.size())
            throw std::invalid_argument("expand_backup: priors must be one finite non-negative weight per leaf action");
        for (double p : priors)
            if (!std::isfinite(p) || p < 0)
                throw std::invalid_argument("expand_backup: priors must be one finite non-negative weight per leaf action");
        const double total = numpy_sum(priors.data(), priors.size());
        std::vector<double> norm(priors.size());
        for (size_t k = 0; k < priors.size(); ++k)
            norm[k] = total > 0 ? priors[k] / total : 1.0 / std::max<size_t>(1, priors.size());
        if (!noise.empty()) {  // the caller's Dirichlet noise on the root's first priors (self-play exploration)
            if (noise.size() != norm.size()) throw std::invalid_argument("expand_backup: one noise weight per prior");
            for (size_t k = 0; k < norm.size(); ++k) norm[k] = (1 - noise_frac) * norm[k] + noise_frac * noise[k];
        }
        add_actions(nodes_[leaf.node], leaf.actions, norm);
    }
    leaf.open = false;
    backup(leaf.path, values);
    if (std::none_of(leaves_.begin(), leaves_.end(), [](const SearchLeaf& l) { return l.open; })) leaves_.clear();
}

void TreeSearch::backup(const std::vector<std::pair<int, int>>& path, const std::vector<double>& values) {
    for (const auto& [node, i] : path) {
        SearchNode& nd = nodes_[node];
        nd.w[i] += VIRTUAL_LOSS + values[nd.player];
    }
    simulations += 1;
}

void TreeSearch::run_heuristic(PyBitgen& rng, const Heuristic& h, const LeafEvaluation& ev, int budget,
                               double seconds) {
    using Clock = std::chrono::steady_clock;
    const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (true) {
        if (seconds > 0) {
            if (simulations > 0 && Clock::now() >= deadline) return;
        } else if (budget - simulations <= 0) {
            return;
        }
        const int i = select(rng, &h);
        if (i < 0) continue;
        const std::vector<double> priors = leaves_[i].needs_priors ? heuristic_priors(leaves_[i], h, ev)
                                                                   : std::vector<double>();
        const std::vector<double> values = heuristic_values(leaves_[i], h, ev);
        expand_backup(i, priors, values);
    }
}

std::vector<double> heuristic_priors(SearchLeaf& leaf, const Heuristic& h, const LeafEvaluation& ev) {
    const Ints& actions = leaf.actions;
    const size_t k = actions.size();
    if (k == 1) return {1.0};
    if (ev.lookahead_depth < 0 || leaf.depth < ev.lookahead_depth) {
        std::vector<double> z = lookahead_values(leaf.state, leaf.player, actions, h);
        const double top = *std::max_element(z.begin(), z.end());
        for (double& x : z) x = std::exp((x - top) / ev.temperature);
        const double total = numpy_sum(z.data(), k);
        for (double& x : z) x = x / total;
        return z;
    }
    const int quick = quick_action(leaf.state, leaf.player, h);
    std::vector<double> pri(k, 0.5 / (k - 1));
    const auto at = std::find(actions.begin(), actions.end(), quick);
    if (at != actions.end()) pri[at - actions.begin()] = 0.5;
    return pri;
}

std::vector<double> heuristic_values(SearchLeaf& leaf, const Heuristic& h, const LeafEvaluation& ev) {
    State& st = leaf.state;
    if (ev.rollout) play_to_horizon(st, leaf.turns_left, h, ev);
    // search_eval.state_values: the true returns at the end, else each seat's margin over the best other seat
    if (st.phase != GAME_OVER) settle(st, st.current, h);
    if (st.phase == GAME_OVER) return true_returns(st);
    const int n = st.n();
    std::vector<double> v(n), out(n);
    for (int q = 0; q < n; ++q) v[q] = evaluate(st, q, h);
    for (int q = 0; q < n; ++q) {
        double other = -std::numeric_limits<double>::infinity();
        for (int r = 0; r < n; ++r)
            if (r != q) other = std::max(other, v[r]);
        out[q] = std::tanh((v[q] - other) / ev.scale);
    }
    return out;
}

}  // namespace mk
