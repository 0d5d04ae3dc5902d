// The Python binding of the observation writer (observe.hpp): ``Observer(tables)`` from the dict that
// mk_env/mountain_king/env/native_observation.py builds from a Python observer, and its ``write``.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind.hpp"
#include "observe.hpp"

namespace py = pybind11;

namespace mk {

namespace {

ObsAt offsets(const py::dict& d) {
    ObsAt a;
    auto get = [&](const char* key) { return d[key].cast<int>(); };
#define MK_AT(name) a.name = get(#name);
    MK_AT(board) MK_AT(draft) MK_AT(horde) MK_AT(track) MK_AT(pending) MK_AT(players) MK_AT(spellbook)
    MK_AT(supply) MK_AT(smoots) MK_AT(turn) MK_AT(horde_w) MK_AT(track_w) MK_AT(players_w) MK_AT(spellbook_w)
    MK_AT(smoot_w) MK_AT(ch_altar) MK_AT(ch_network) MK_AT(ch_same_tunnel) MK_AT(ch_workshop)
    MK_AT(ch_pending_dig) MK_AT(ch_pending_statue) MK_AT(ch_pending_sites) MK_AT(ch_active_workshop)
    MK_AT(ch_used_workshop) MK_AT(square_lo) MK_AT(square_hi) MK_AT(horde_card) MK_AT(horde_bribes)
    MK_AT(horde_pedestal) MK_AT(smoot_card) MK_AT(smoot_tokens) MK_AT(pl_storage) MK_AT(pl_pedestals)
    MK_AT(pl_owned) MK_AT(pl_scores) MK_AT(pl_trolls) MK_AT(pl_gate_placed) MK_AT(pl_teammate) MK_AT(pl_acting)
    MK_AT(pl_draft_placed) MK_AT(sb_spell) MK_AT(sb_present) MK_AT(sb_runes) MK_AT(su_supply) MK_AT(su_tunnels)
    MK_AT(su_hall) MK_AT(su_workshop) MK_AT(su_bag) MK_AT(su_deck) MK_AT(su_spell_deck) MK_AT(su_coronation_tokens)
    MK_AT(tr_value) MK_AT(tr_taken) MK_AT(tu_phase) MK_AT(tu_spell_cast) MK_AT(tu_workshops_left)
    MK_AT(tu_uses_left) MK_AT(tu_bribe_any) MK_AT(tu_ignore_rubble) MK_AT(tu_free_moves) MK_AT(tu_turn)
    MK_AT(tu_coronation_complete) MK_AT(tu_final_turns_left) MK_AT(pe_spell) MK_AT(pe_smoot_slot)
    MK_AT(pe_horde_slot) MK_AT(pe_bribes_left) MK_AT(pe_recruit_card) MK_AT(pe_dig) MK_AT(pe_dig_for_spell)
    MK_AT(pe_statue_move_free) MK_AT(pe_sites_left) MK_AT(dr_hand) MK_AT(dr_deck_left)
#undef MK_AT
    return a;
}

std::shared_ptr<ObsTables> observer_tables(const py::dict& d) {
    auto t = std::make_shared<ObsTables>();
    t->size = d["size"].cast<int>();
    t->n = d["n"].cast<int>();
    t->hw = d["hw"].cast<int>();
    t->n_channels = d["n_channels"].cast<int>();
    t->at = offsets(d["at"].cast<py::dict>());
    t->static_board = get<float>(d, "static_board");
    t->square_table = get<float>(d, "square_table");
    t->n_codes = d["n_codes"].cast<int>();
    t->code_kind = get<int>(d, "code_kind");
    t->code_statue = get<int>(d, "code_statue");
    t->code_pedestal = get<int>(d, "code_pedestal");
    t->code_buried = get<int>(d, "code_buried");
    t->rubble_code = get<int>(d, "rubble_code");
    t->nbr_rows = get<int>(d, "nbr_rows");
    t->site_squares = get<int>(d, "site_squares");
    t->dig_cells = get<int>(d, "dig_cells");
    t->dig_piece = get<int>(d, "dig_piece");
    t->dig_max_cells = d["dig_max_cells"].cast<int>();
    t->card_features = get<float>(d, "card_features");
    t->cf_w = d["cf_w"].cast<int>();
    t->player_scale = get<float>(d, "player_scale");
    t->supply_scale = get<float>(d, "supply_scale");
    t->sym_max = get<float>(d, "sym_max");
    t->mate_flags = get<float>(d, "mate_flags");
    t->storage_of = get<int>(d, "storage_of");
    t->bribe_scale = d["bribe_scale"].cast<float>();
    t->runes_scale = d["runes_scale"].cast<float>();
    t->track_scale = d["track_scale"].cast<float>();
    t->max_free_moves = d["max_free_moves"].cast<double>();
    t->final_turns_max = d["final_turns_max"].cast<double>();
    t->max_bribes = d["max_bribes"].cast<double>();
    t->max_sites = d["max_sites"].cast<double>();
    t->n_starters = d["n_starters"].cast<double>();
    t->turn_cap = d["turn_cap"].cast<int>();
    if (static_cast<int>(t->static_board.size()) != t->n_channels * t->hw)
        throw std::invalid_argument("the static board channels do not match the board's shape");
    if (static_cast<int>(t->square_table.size()) != (t->at.square_hi - t->at.square_lo) * t->n_codes)
        throw std::invalid_argument("the square table does not match its channels");
    t->finish();
    return t;
}

float* writable(py::array_t<float, py::array::c_style>& out, py::ssize_t entries) {
    if (out.size() < entries) throw std::invalid_argument("the observation buffer is too small");
    return out.mutable_data();
}

}  // namespace

void bind_observer(py::module_& m) {
    py::class_<ObsTables, std::shared_ptr<ObsTables>>(m, "Observer")
        .def(py::init(&observer_tables))
        .def_property_readonly("size", [](const ObsTables& t) { return t.size; })
        .def("write",
             [](const ObsTables& t, const State& st, int player, py::array_t<float, py::array::c_style> out) {
                 if (player < 0 || player >= t.n) throw std::invalid_argument("no such player");
                 if (st.t->n_players != t.n) throw std::invalid_argument("the state has another player count");
                 write_observation(t, st, player, writable(out, t.size), &t.cache);
             },
             py::arg("state"), py::arg("player"), py::arg("out").noconvert());
}

}  // namespace mk
