// The batch API (batch.hpp): the rewards as mk_env/core/env/rewards.py defines them ("win", "margin", "dense"),
// the random opponents as mk_env/mountain_king/env/batch.py's Python twin draws them.
#include "batch.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace mk {

namespace {

constexpr float SCALE = 100.0f;  // points per unit of reward (rewards.SCALE)

std::vector<uint32_t> opponent_words(uint64_t seed) {  // numpy's default_rng([seed, 1])
    std::vector<uint32_t> words = seed_words(seed);
    words.push_back(1u);
    return words;
}

bool over(const State& st) { return st.phase == GAME_OVER; }

//: the game ``Game.new_initial_state(seed)`` makes: setup drawn from ``default_rng(seed)``
State new_game(std::shared_ptr<const Tables> tables, uint64_t seed) {
    State st(std::move(tables));
    st.rng = Pcg64::from_seed(seed_words(seed));
    setup(st);
    return st;
}

}  // namespace

int64_t play_random(std::shared_ptr<const Tables> tables, uint64_t seed, int games) {
    Pcg64 draws = Pcg64::from_seed(opponent_words(seed));
    int64_t decisions = 0;
    for (int k = 0; k < games; ++k) {
        State st = new_game(tables, seed + static_cast<uint64_t>(k));
        while (!over(st)) {
            const auto& legal = legal_actions(st);
            apply_action(st, legal[integers(draws, legal.size())]);
            ++decisions;
        }
    }
    return decisions;
}

Batch::Batch(std::shared_ptr<const Tables> tables, std::shared_ptr<const ObsTables> observer, int n_games,
             uint64_t seed_, int reward_, bool random_opponents_, int seat_)
    : t(std::move(tables)), ob(std::move(observer)), seed(seed_), reward(reward_), seat(seat_),
      random_opponents(random_opponents_), opponents(Pcg64::from_seed(opponent_words(seed_))) {
    if (n_games < 1) throw std::invalid_argument("a batch holds at least one game");
    if (ob->n != t->n_players) throw std::invalid_argument("the observer is of another player count");
    if (t->n_players > 8) throw std::invalid_argument("at most 8 players");
    if (reward < WIN || reward > DENSE) throw std::invalid_argument("no such reward scheme");
    if (seat >= t->n_players || seat < -1) throw std::invalid_argument("no such seat");
    games.reserve(n_games);
    for (int i = 0; i < n_games; ++i) games.emplace_back(t);
    learners.assign(n_games, -1);
    points.assign(n_games, {});
    boards.assign(n_games, {});
}

void Batch::start(int i) {
    const int64_t k = started++;
    State& st = games[i] = new_game(t, seed + static_cast<uint64_t>(k));
    learners[i] = random_opponents ? (seat >= 0 ? seat : static_cast<int>(k % t->n_players)) : -1;
    if (random_opponents) play_opponents(i, nullptr);
    for (int p = 0; p < t->n_players; ++p) points[i][p] = reward == DENSE ? breakdown(st, p)[6] : 0;
}

int Batch::random_action(State& st) {
    const auto& legal = legal_actions(st);
    return legal[integers(opponents, legal.size())];
}

void Batch::random_actions(int64_t* out) {
    for (int i = 0; i < size(); ++i) out[i] = over(games[i]) ? -1 : random_action(games[i]);
}

void Batch::apply(int i, int action, float* rewards) {
    State& st = games[i];
    apply_action(st, action);
    if (reward != DENSE || rewards == nullptr) return;
    for (int p = 0; p < t->n_players; ++p) {
        const int now = breakdown(st, p)[6];
        rewards[p] += static_cast<float>((now - points[i][p]) / static_cast<double>(SCALE));
        points[i][p] = now;
    }
}

void Batch::play_opponents(int i, float* rewards) {
    State& st = games[i];
    while (!over(st) && st.current != learners[i]) apply(i, random_action(st), rewards);
}

void Batch::finish(int i, float* rewards, int32_t* totals) {
    State& st = games[i];
    const int n = t->n_players;
    int total[8];
    for (int p = 0; p < n; ++p) totals[p] = total[p] = breakdown(st, p)[6];
    if (reward == MARGIN) {
        for (int p = 0; p < n; ++p) {
            int best = 0;
            bool any = false;
            for (int q = 0; q < n; ++q) {
                const auto& mates = t->teammates[p];
                if (std::find(mates.begin(), mates.end(), q) != mates.end()) continue;
                best = any ? std::max(best, total[q]) : total[q];
                any = true;
            }
            rewards[p] += any ? static_cast<float>(static_cast<double>(total[p] - best) / SCALE) : 0.f;
        }
        return;
    }
    const Ints rank = ranks(st);  // the win part of "win" and "dense" (scoring.returns)
    const bool all_tied = std::all_of(rank.begin(), rank.end(), [](int r) { return r == 0; });
    for (int p = 0; p < n; ++p) {
        double value;
        if (t->team_mode) value = all_tied ? 0.0 : (rank[p] == 0 ? 1.0 : -1.0);
        else value = rank[p] == 0 ? 1.0 : -1.0 / (n - 1);
        rewards[p] += static_cast<float>(value);
    }
}

void Batch::write_row(int i, const BatchOut& out) {
    State& st = games[i];
    const int player = st.current;
    write_observation(*ob, st, player, out.observations + static_cast<size_t>(i) * ob->size, &boards[i]);
    uint8_t* mask = out.masks + static_cast<size_t>(i) * t->action_size;
    std::memset(mask, 0, t->action_size);
    for (int a : legal_actions(st)) mask[a] = 1;
    out.seats[i] = player;
}

void Batch::reset(uint64_t seed_, const BatchOut& out) {
    seed = seed_;
    opponents = Pcg64::from_seed(opponent_words(seed));
    started = 0;
    for (int i = 0; i < size(); ++i) {
        start(i);
        write_row(i, out);
        out.terminated[i] = 0;
        std::fill(out.rewards + i * t->n_players, out.rewards + (i + 1) * t->n_players, 0.f);
        std::fill(out.totals + i * t->n_players, out.totals + (i + 1) * t->n_players, 0);
    }
}

void Batch::step(const int64_t* actions, const BatchOut& out) {
    const int n = t->n_players;
    for (int i = 0; i < size(); ++i) {  // every action checked before any is applied
        const int64_t a = actions[i];
        if (a < 0 || a >= t->action_size || !is_legal(games[i], static_cast<int>(a)))
            throw Illegal("game " + std::to_string(i) + ": action " + std::to_string(a) + " is not legal for seat " +
                          std::to_string(games[i].current));
    }
    for (int i = 0; i < size(); ++i) {
        float* rewards = out.rewards + i * n;
        int32_t* totals = out.totals + i * n;
        std::fill(rewards, rewards + n, 0.f);
        std::fill(totals, totals + n, 0);
        apply(i, static_cast<int>(actions[i]), rewards);
        if (random_opponents) play_opponents(i, rewards);
        out.terminated[i] = over(games[i]);
        if (out.terminated[i]) {
            finish(i, rewards, totals);
            start(i);
        }
        write_row(i, out);
    }
}

}  // namespace mk
