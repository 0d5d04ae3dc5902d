// The batch API, compiled: N games of one configuration stepped in one call, each step writing the acting seat's
// observation, the legal mask, every seat's reward and the ends of games into the caller's preallocated arrays,
// a finished game replaced at once by the next one. The Python class is mk_env/mountain_king/env/batch.py (it
// has a Python twin of every step, for machines without the compiled engine).
#pragma once

#include <memory>
#include <vector>

#include "engine.hpp"
#include "observe.hpp"

namespace mk {

enum Reward : int { WIN = 0, MARGIN = 1, DENSE = 2 };

//: where one step writes (rows: one per game)
struct BatchOut {
    float* observations = nullptr;  // [N, observation size]
    uint8_t* masks = nullptr;       // [N, action size]
    float* rewards = nullptr;       // [N, players]
    uint8_t* terminated = nullptr;  // [N]
    int32_t* seats = nullptr;       // [N]: whose observation the row holds (the seat to act)
    int32_t* totals = nullptr;      // [N, players]: a game that ended at this step: its final points, else 0
};

//: whole games of uniformly random legal play from ``seed``, ``seed + 1``, ... (the actions drawn as the batch's
//: random opponents draw them): the decisions made, for the engine's own speed with no observation written
int64_t play_random(std::shared_ptr<const Tables> tables, uint64_t seed, int games);

class Batch {
   public:
    Batch(std::shared_ptr<const Tables> tables, std::shared_ptr<const ObsTables> observer, int n_games,
          uint64_t seed, int reward, bool random_opponents, int seat);

    //: start every game afresh from ``seed`` (game k: ``seed + k``; the opponents drawn anew) and write the rows
    void reset(uint64_t seed, const BatchOut& out);
    //: apply ``actions[i]`` in game i (all checked first: an illegal one changes nothing and is named)
    void step(const int64_t* actions, const BatchOut& out);
    //: a uniformly random legal action of each game (the batch's own generator), for benchmarks and baselines
    void random_actions(int64_t* out);

    int size() const { return static_cast<int>(games.size()); }
    const State& game(int i) const { return games.at(i); }
    int learner(int i) const { return learners.at(i); }
    int64_t started = 0;  // games begun so far: game k of the batch is the one ``Game.new_initial_state(seed + k)`` makes

   private:
    std::shared_ptr<const Tables> t;
    std::shared_ptr<const ObsTables> ob;
    std::vector<State> games;
    std::vector<int> learners;               // the learner's seat per game (-1: every seat acts through ``step``)
    std::vector<std::array<int, 8>> points;  // dense: each seat's points at the game's last step
    std::vector<BoardCache> boards;          // per game: its board channels, as last written
    uint64_t seed;
    int reward, seat;
    bool random_opponents;
    Pcg64 opponents;  // the random opponents' and random_actions' draws

    void start(int i);
    void play_opponents(int i, float* rewards);
    void apply(int i, int action, float* rewards);
    void finish(int i, float* rewards, int32_t* totals);
    void write_row(int i, const BatchOut& out);
    int random_action(State& st);
};

}  // namespace mk
