// The Python binding of the compiled search (search.hpp): ``_native.TreeSearch``, which
// agents/native_search.py wraps in the interface of agents/search_tree.Search.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "../../mk_env/mountain_king/native/bind.hpp"
#include "search.hpp"

namespace py = pybind11;

namespace mk {

namespace {

SearchConfig search_config(const py::dict& d) {
    SearchConfig c;
    c.c_puct = d["c_puct"].cast<double>();
    c.horizon = d["horizon"].cast<int>();
    c.rollout_horizon = d["rollout_horizon"].cast<int>();
    c.fpu_parent = d["fpu_parent"].cast<bool>();
    c.max_depth = d["max_depth"].cast<int>();
    c.min_width = d["min_width"].cast<int>();
    c.widen = d["widen"].cast<double>();
    c.widen_power = d["widen_power"].cast<double>();
    c.legal_actions = d["legal_actions"].cast<bool>();
    if (c.horizon < 1 || c.rollout_horizon < c.horizon || c.max_depth < 1 || c.min_width < 1 || !(c.c_puct > 0))
        throw std::invalid_argument("the search's settings are out of range (search_tree.SearchConfig checks them)");
    return c;
}

LeafEvaluation leaf_evaluation(const py::dict& d) {
    LeafEvaluation e;
    e.lookahead_depth = d["lookahead_depth"].cast<int>();
    e.temperature = d["temperature"].cast<double>();
    e.scale = d["scale"].cast<double>();
    e.rollout = d["rollout"].cast<bool>();
    e.rollout_decisions = d["rollout_decisions"].cast<int>();
    if (!(e.temperature > 0) || !(e.scale > 0) || e.rollout_decisions < 1)
        throw std::invalid_argument("the leaf evaluation's settings are out of range");
    return e;
}

const Heuristic* heuristic_of(const py::object& h) { return h.is_none() ? nullptr : &h.cast<const Heuristic&>(); }

}  // namespace

void bind_search(py::module_& m) {
    py::class_<TreeSearch>(m, "TreeSearch")
        .def(py::init([](const State& root, int seat, const py::dict& config) {
                 return new TreeSearch(root, seat, search_config(config));
             }),
             py::arg("root"), py::arg("seat"), py::arg("config"))
        .def("select", [](TreeSearch& s, const py::object& generator, const py::object& h) {
                 PyBitgen rng = bitgen_of(generator);
                 return s.select(rng, heuristic_of(h));
             })
        .def("leaf", [](TreeSearch& s, int i) {
                 const SearchLeaf& l = s.leaf(i);
                 return py::make_tuple(l.state, l.player, l.actions, l.needs_priors, l.depth, l.turns_left, l.node);
             })
        .def("expand_backup", &TreeSearch::expand_backup, py::arg("leaf"), py::arg("priors"), py::arg("values"),
             py::arg("noise") = std::vector<double>(), py::arg("noise_frac") = 0.0)
        .def("run_heuristic",
             [](TreeSearch& s, const py::object& generator, const Heuristic& h, const py::dict& ev, int simulations,
                double seconds) {
                 PyBitgen rng = bitgen_of(generator);
                 s.run_heuristic(rng, h, leaf_evaluation(ev), simulations, seconds);
             })
        .def_readonly("simulations", &TreeSearch::simulations)
        .def_property_readonly("seat", &TreeSearch::seat)
        .def_property_readonly("root", [](const TreeSearch& s) {
            const SearchNode& r = s.root();
            return py::make_tuple(r.actions, r.priors, r.n, r.w);
        });
}

}  // namespace mk
