// The Python binding of the compiled agents (``_native.Heuristic`` and the heuristic's pieces), built into the
// engine's extension so that a compiled state passes to them as it is; agents/native_heuristic.py builds the
// weights and constants from the Python modules and serves the evaluation-module interface with them.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "../../mk_env/mountain_king/native/bind.hpp"
#include "heuristic.hpp"

namespace py = pybind11;

namespace mk {

namespace {

std::shared_ptr<Heuristic> make_heuristic(std::shared_ptr<Tables> tables, const py::dict& d) {
    auto h = std::make_shared<Heuristic>();
    h->t = tables;
    const auto resource = get<double>(d, "resource");
    const auto horizon = get<double>(d, "horizon");
    const auto rank = get<int>(d, "block_rank");
    if (resource.size() != N_RESOURCES || horizon.size() != N_ASSETS || rank.size() != N_BLOCKS)
        throw std::invalid_argument("heuristic tables: resource, horizon or block_rank has the wrong length");
    std::copy(resource.begin(), resource.end(), h->resource.begin());
    std::copy(horizon.begin(), horizon.end(), h->horizon.begin());
    std::copy(rank.begin(), rank.end(), h->block_rank.begin());
    auto num = [&](const char* key) { return d[key].cast<double>(); };
    h->troll = num("troll"), h->symbol = num("symbol"), h->pedestal = num("pedestal"), h->reach = num("reach");
    h->dig_potential = num("dig_potential"), h->dig_this_turn = num("dig_this_turn"), h->statue = num("statue");
    h->buried = num("buried"), h->workshop = num("workshop"), h->held_token = num("held_token");
    h->recruit_rate = num("recruit_rate"), h->new_kind_worth = num("new_kind_worth"), h->tolerance = num("tolerance");
    h->max_digs = d["max_digs"].cast<int>(), h->max_trades = d["max_trades"].cast<int>();
    h->max_any_gives = d["max_any_gives"].cast<int>(), h->settle_limit = d["settle_limit"].cast<int>();
    h->sub_phase.assign(N_PHASES, false);
    for (int ph : get<int>(d, "sub_phases")) h->sub_phase.at(ph) = true;
    h->symbol_totals = get<double>(d, "symbol_totals");
    for (int any : get<int>(d, "give_any")) h->give_any.push_back(any != 0);
    h->honour_min = d["honour_min"].cast<int>(), h->honour_max = d["honour_max"].cast<int>();
    h->option_items = d["option_items"].cast<std::vector<std::vector<std::vector<std::pair<int, int>>>>>();
    if (h->symbol_totals.size() != static_cast<size_t>(tables->n_cards) ||
        h->give_any.size() != tables->conv_workshop.size() || h->option_items.size() != tables->spell_effect.size())
        throw std::invalid_argument("heuristic tables do not match the game's cards, conversions or spells");
    return h;
}

//: the state's tables must be the heuristic's (a state of another game would read past its tables)
State& checked(State& st, const Heuristic& h, int p) {
    if (st.t != h.t) throw std::invalid_argument("this state belongs to another game than the heuristic's tables");
    if (p < 0 || p >= st.n()) throw std::invalid_argument("no such player");
    return st;
}

//: a decision to take: the game is not over (the quick policy and the choice have nothing to pick from then)
State& playing(State& st, const Heuristic& h, int p) {
    checked(st, h, p);
    if (st.phase == GAME_OVER) throw std::invalid_argument("the game is over: there is no decision to take");
    return st;
}

}  // namespace

void bind_agents(py::module_& m) {
    py::class_<Heuristic, std::shared_ptr<Heuristic>>(m, "Heuristic")
        .def(py::init(&make_heuristic), py::arg("rules"), py::arg("tables"))
        .def("evaluate", [](const Heuristic& h, State& st, int p) { return evaluate(checked(st, h, p), p, h); })
        .def("own_turns_left", [](const Heuristic& h, State& st, int p) { return own_turns_left(checked(st, h, p), p, h); })
        .def("potential", [](const Heuristic& h, State& st, int p, double ahead, bool open_now) {
            return potential(checked(st, h, p), p, ahead, open_now, h);
        })
        .def("candidates", [](const Heuristic& h, State& st, int p) { return candidates(checked(st, h, p), p, h); })
        .def("dig_scores", [](const Heuristic& h, State& st, int p, const Ints& args) {
            return dig_scores(checked(st, h, p), p, args);
        })
        .def("quick_action", [](const Heuristic& h, State& st, int p) { return quick_action(playing(st, h, p), p, h); })
        .def("settle", [](const Heuristic& h, State& st, int p) { settle(checked(st, h, p), p, h); })
        .def("lookahead_values", [](const Heuristic& h, State& st, int p, const Ints& actions) {
            for (int a : actions)
                if (!is_legal(checked(st, h, p), a)) throw std::invalid_argument("an action to look ahead is not legal");
            return lookahead_values(st, p, actions, h);
        })
        .def("best_action", [](const Heuristic& h, State& st, int p) { return best_action(playing(st, h, p), p, h); });
}

}  // namespace mk
