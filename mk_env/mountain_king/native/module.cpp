// The Python binding of the compiled engine (``mk_env.mountain_king.rules._native``): ``Rules`` (a game's fixed
// tables, from mk_env/mountain_king/rules/native_tables.py) and ``State`` (one game in progress). The Python
// class that serves the engine protocol with it is mk_env/mountain_king/rules/native.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "bind.hpp"
#include "engine.hpp"

namespace py = pybind11;
using namespace mk;

namespace {

const char* ARRAY_NAMES[N_ARRAY_FIELDS] = {
    "kind", "tile", "region", "hall_at", "statue", "pedestal", "buried", "reach", "gate_sq", "hall_altar",
    "workshop", "workshop_supply", "tunnel_supply", "supply", "horde", "horde_bribes", "horde_pedestal", "bag",
    "spellbook", "spell_runes", "track_value", "track_taken", "coronation", "storage", "storage_pedestals",
    "smoot", "tokens", "honour", "pedestal_points", "pedestal_tokens"};

Placements placements(const py::dict& d) {
    Placements pl;
    pl.count = d["count"].cast<int>();
    pl.max_cells = d["max_cells"].cast<int>();
    pl.max_nbrs = d["max_nbrs"].cast<int>();
    pl.piece = get<int>(d, "piece");
    pl.size = get<int>(d, "size");
    pl.cells = get<int>(d, "cells");
    pl.anchor = get<int>(d, "anchor");
    pl.nbrs = get<int>(d, "nbrs");
    pl.rubble = get<int>(d, "rubble");
    pl.sites_ptr = get<int>(d, "sites_ptr");
    pl.sites = get<int>(d, "sites");
    pl.index_ptr = get<int>(d, "index_ptr");
    pl.index = get<int>(d, "index");
    return pl;
}

std::shared_ptr<const Tables> make_tables(const py::dict& d) {
    auto t = std::make_shared<Tables>();
    t->n_players = d["n_players"].cast<int>();
    t->team_mode = d["team_mode"].cast<bool>();
    t->storage_of = get<int>(d, "storage_of");
    t->n_storages = d["n_storages"].cast<int>();
    t->teammates = d["teammates"].cast<std::vector<std::vector<int>>>();
    t->n_squares = d["n_squares"].cast<int>();
    t->tier = get<int>(d, "tier");
    t->neighbours = get<int>(d, "neighbours");
    t->site_squares = get<int>(d, "site_squares");
    t->buried_init = get<int>(d, "buried_init");
    t->statue_spots = get<int>(d, "statue_spots");
    t->start_sq = get<int>(d, "start_sq");
    t->start_mark = get<int>(d, "start_mark");
    t->start_clockwise = get<int>(d, "start_clockwise");
    t->tunnels = placements(d["tunnels"].cast<py::dict>());
    t->halls = placements(d["halls"].cast<py::dict>());
    t->tunnel_count = get<int>(d, "tunnel_count");
    t->tunnel_honour = get<int>(d, "tunnel_honour");
    t->statue_values = get<int>(d, "statue_values");
    t->hall_low = get<int>(d, "hall_low");
    t->hall_high = get<int>(d, "hall_high");
    t->pedestal_tokens = get<int>(d, "pedestal_tokens");
    t->coronation_tokens = get<int>(d, "coronation_tokens");
    t->pedestal_multiplier = d["pedestal_multiplier"].cast<int>();
    t->statues_per_clan = d["statues_per_clan"].cast<int>();
    t->pedestals_per_clan = d["pedestals_per_clan"].cast<int>();
    const std::vector<int> supply = get<int>(d, "supply_init");
    for (int r = 0; r < N_RESOURCES; ++r) t->supply_init[r] = supply.at(r);
    t->workshop_count = get<int>(d, "workshop_count");
    t->wild_carts_only = get<int>(d, "wild_carts_only");
    t->workshop_selection = d["workshop_selection"].cast<int>();
    t->chosen_workshops = get<int>(d, "chosen_workshops");
    t->spell_effect = get<int>(d, "spell_effect");
    t->spell_cascade = get<int>(d, "spell_cascade");
    t->spell_moves = get<int>(d, "spell_moves");
    for (const auto& options : d["spell_options"].cast<std::vector<std::vector<std::vector<int>>>>()) {
        std::vector<std::array<int, N_RESOURCES>> bundles;
        for (const auto& b : options) {
            std::array<int, N_RESOURCES> v{};
            for (int r = 0; r < N_RESOURCES; ++r) v[r] = b.at(r);
            bundles.push_back(v);
        }
        t->spell_options.push_back(bundles);
    }
    t->n_cards = d["n_cards"].cast<int>();
    t->n_starters = d["n_starters"].cast<int>();
    t->card_level = get<int>(d, "card_level");
    t->card_symbols = get<int>(d, "card_symbols");
    t->card_starting = d["card_starting"].cast<std::vector<std::vector<int>>>();
    t->trade_rate = d["trade_rate"].cast<int>();
    t->set_size = d["set_size"].cast<int>();
    t->retire_bribes = d["retire_bribes"].cast<int>();
    t->max_trolls = d["max_trolls"].cast<int>();
    t->runes_to_disintegrate = d["runes_to_disintegrate"].cast<int>();
    t->spellbook_size = d["spellbook_size"].cast<int>();
    t->action_size = d["action_size"].cast<int>();
    const std::vector<int> offset = get<int>(d, "offset"), sizes = get<int>(d, "block_size");
    if (offset.size() != N_BLOCKS || sizes.size() != N_BLOCKS) throw std::invalid_argument("layout blocks differ");
    for (int b = 0; b < N_BLOCKS; ++b) {
        t->offset[b] = offset[b];
        t->block_size[b] = sizes[b];
    }
    t->block_of.assign(t->action_size, 0);
    for (int b = 0; b < N_BLOCKS; ++b)
        for (int a = offset[b]; a < offset[b] + sizes[b]; ++a) t->block_of[a] = b;
    t->n_trade_gives = d["n_trade_gives"].cast<int>();
    t->trade_gives = get<int>(d, "trade_gives");
    t->conv_workshop = get<int>(d, "conv_workshop");
    t->conv_give = get<int>(d, "conv_give");
    t->conv_gain = get<int>(d, "conv_gain");
    t->conv_move_slot = get<int>(d, "conv_move_slot");
    t->conv_move_kind = get<int>(d, "conv_move_kind");
    t->smoot_support = d["smoot_support"].cast<std::vector<std::vector<int>>>();
    t->smoot_cone = d["smoot_cone"].cast<std::vector<std::vector<int>>>();
    t->horde_beneath = d["horde_beneath"].cast<std::vector<std::vector<int>>>();
    t->horde_row = get<int>(d, "horde_row");
    t->recruit_slots = get<int>(d, "recruit_slots");
    t->phase_names = d["phase_names"].cast<std::vector<std::string>>();
    const auto names = d["array_names"].cast<std::vector<std::string>>();
    if (names.size() != N_ARRAY_FIELDS) throw std::invalid_argument("the state's array fields differ");
    for (int f = 0; f < N_ARRAY_FIELDS; ++f)
        if (names[f] != ARRAY_NAMES[f]) throw std::invalid_argument("array field " + names[f] + " out of order");
    t->array_names = names;
    t->array_dtypes = d["array_dtypes"].cast<std::vector<char>>();
    t->array_shapes = d["array_shapes"].cast<std::vector<std::vector<int>>>();
    t->lists.clear();
    for (int cap : get<int>(d, "list_caps")) t->lists.push_back({0, cap});
    t->finish();
    return t;
}

int item_size(char dtype) { return dtype == 'h' ? 2 : dtype == 'i' ? 4 : 1; }

u128 to_u128(const py::int_& v) {
    const py::int_ mask(0xFFFFFFFFFFFFFFFFULL);
    const uint64_t lo = py::int_(v.attr("__and__")(mask)).cast<uint64_t>();
    const uint64_t hi = py::int_(v.attr("__rshift__")(64)).cast<uint64_t>();
    return (static_cast<u128>(hi) << 64) | lo;
}

py::int_ from_u128(u128 v) {
    py::int_ hi(static_cast<uint64_t>(v >> 64)), lo(static_cast<uint64_t>(v));
    return py::int_(hi.attr("__lshift__")(64).attr("__or__")(lo));
}

py::array view(py::object owner, State& st, int f) {
    const Tables& t = *st.t;
    const char dtype = t.array_dtypes[f];
    const int size = item_size(dtype);
    std::vector<py::ssize_t> shape(t.array_shapes[f].begin(), t.array_shapes[f].end()), strides(shape.size());
    py::ssize_t stride = size;
    for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
        strides[i] = stride;
        stride *= shape[i];
    }
    py::dtype dt = dtype == '?' ? py::dtype::of<bool>() : dtype == 'h' ? py::dtype::of<int16_t>()
                 : dtype == 'i' ? py::dtype::of<int32_t>() : py::dtype::of<int8_t>();
    return py::array(dt, shape, strides, st.arena.data() + t.array_offsets[f], owner);
}

py::object pending_tuple(const Pending& pd) {
    auto opt = [](int v) -> py::object { return v == NONE ? py::object(py::none()) : py::object(py::int_(v)); };
    auto seq = [](int n, const int* v) -> py::object {
        if (n == NONE) return py::none();
        py::tuple out(n);
        for (int i = 0; i < n; ++i) out[i] = v[i];
        return std::move(out);
    };
    py::object dig_for_spell = pd.dig_for_spell == NONE ? py::object(py::none()) : py::object(py::bool_(pd.dig_for_spell == 1));
    return py::make_tuple(opt(pd.spell), opt(pd.horde_slot), opt(pd.smoot_slot), seq(pd.n_bribes, pd.bribes),
                          opt(pd.recruit_card), opt(pd.dig), dig_for_spell, seq(pd.n_sites, pd.sites),
                          opt(pd.statue_square), opt(pd.statue_from_phase));
}

Pending pending_from(const py::sequence& v) {
    auto opt = [](const py::handle& h) { return h.is_none() ? NONE : h.cast<int>(); };
    auto seq = [](const py::handle& h, int* out, int& n) {
        if (h.is_none()) {
            n = NONE;
            return;
        }
        const auto values = h.cast<std::vector<int>>();
        if (values.size() > MAX_OWED) throw std::invalid_argument("pending list too long");
        n = static_cast<int>(values.size());
        for (int i = 0; i < n; ++i) out[i] = values[i];
    };
    Pending pd;
    pd.spell = opt(v[0]);
    pd.horde_slot = opt(v[1]);
    pd.smoot_slot = opt(v[2]);
    seq(v[3], pd.bribes, pd.n_bribes);
    pd.recruit_card = opt(v[4]);
    pd.dig = opt(v[5]);
    pd.dig_for_spell = v[6].is_none() ? NONE : (v[6].cast<bool>() ? 1 : 0);
    seq(v[7], pd.sites, pd.n_sites);
    pd.statue_square = opt(v[8]);
    pd.statue_from_phase = opt(v[9]);
    return pd;
}

py::array_t<int64_t> int_array(const std::vector<int32_t>& values) {
    py::array_t<int64_t> out(static_cast<py::ssize_t>(values.size()));
    auto* data = out.mutable_data();
    for (size_t i = 0; i < values.size(); ++i) data[i] = values[i];
    return out;
}

}  // namespace

PyBitgen mk::bitgen_of(const py::object& generator) {
    py::object capsule = generator.attr("bit_generator").attr("capsule");
    auto* bg = static_cast<BitgenT*>(PyCapsule_GetPointer(capsule.ptr(), "BitGenerator"));
    if (bg == nullptr) throw py::error_already_set();
    return PyBitgen{bg};
}

void Tables::finish() {
    array_offsets.assign(array_names.size(), 0);
    array_bytes.assign(array_names.size(), 0);
    size_t at = 0;
    for (size_t f = 0; f < array_names.size(); ++f) {
        size_t count = 1;
        for (int d : array_shapes[f]) count *= static_cast<size_t>(d);
        at = (at + 7) & ~static_cast<size_t>(7);
        array_offsets[f] = at;
        array_bytes[f] = count * item_size(array_dtypes[f]);
        at += array_bytes[f];
    }
    arena_bytes = (at + 7) & ~static_cast<size_t>(7);
    size_t pool = 0;
    for (auto& l : lists) {
        l.offset = static_cast<int>(pool);
        pool += 1 + static_cast<size_t>(l.cap);
    }
    pool_entries = pool;
    give_parts.clear();
    give_ptr.assign(1, 0);
    for (int g = 0; g < n_trade_gives; ++g) {
        for (int r = 0; r < N_RESOURCES; ++r)
            if (trade_gives[g * N_RESOURCES + r] > 0) give_parts.emplace_back(r, trade_gives[g * N_RESOURCES + r]);
        give_ptr.push_back(static_cast<int>(give_parts.size()));
    }
}

PYBIND11_MODULE(_native, m) {
    m.doc() = "The compiled rules engine of In the Hall of the Mountain King (see mk_env/mountain_king/rules/native.py)";
    py::list names;
    for (const char* name : ARRAY_NAMES) names.append(name);
    m.attr("ARRAY_FIELDS") = py::tuple(names);
    // the draws themselves, for the tests that hold them to numpy's (tests/native/test_native_chance.py)
    m.def("seeded_state", [](uint64_t seed) {
        const Pcg64 g = Pcg64::from_seed(seed_words(seed));
        return py::make_tuple(from_u128(g.state), from_u128(g.inc));
    });
    m.def("draw_integers", [](const py::object& generator, const std::vector<uint64_t>& highs) {
        PyBitgen rng = bitgen_of(generator);
        std::vector<int64_t> out;
        for (uint64_t h : highs) out.push_back(integers(rng, h));
        return out;
    });
    m.def("draw_permutation", [](const py::object& generator, int n) {
        PyBitgen rng = bitgen_of(generator);
        return permutation(rng, n);
    });
    m.def("pcg64_draws", [](const py::tuple& st, const std::vector<uint64_t>& highs, int n) {
        // the compiled engine's own generator from a numpy state: integers(h) for each h, then permutation(n)
        Pcg64 g;
        g.state = to_u128(st[0].cast<py::int_>());
        g.inc = to_u128(st[1].cast<py::int_>());
        g.has_uint32 = st[2].cast<int>();
        g.uinteger = st[3].cast<uint32_t>();
        std::vector<int64_t> out;
        for (uint64_t h : highs) out.push_back(integers(g, h));
        return py::make_tuple(out, permutation(g, n));
    });
    py::register_exception<Illegal>(m, "Illegal");
    bind_observer(m);
    bind_batch(m);
    bind_agents(m);
    bind_search(m);
    py::register_exception<Stalled>(m, "Stalled");

    py::class_<Tables, std::shared_ptr<Tables>>(m, "Rules")
        .def(py::init([](const py::dict& d) { return std::const_pointer_cast<Tables>(make_tables(d)); }))
        .def_property_readonly("action_size", [](const Tables& t) { return t.action_size; });

    py::class_<State>(m, "State")
        .def(py::init([](std::shared_ptr<Tables> t) { return State(t); }))
        .def("setup", [](State& st) { setup(st); })
        .def("legal_actions", [](State& st) { return int_array(legal_actions(st)); })
        .def("legal_list", [](State& st) { return legal_actions(st); })
        .def("is_legal", [](State& st, int a) { return a >= 0 && a < st.t->action_size && is_legal(st, a); })
        .def("apply", [](State& st, int a) { apply_action(st, a); })
        .def("clone", [](const State& st) { return State(st); })
        .def("determinize", [](const State& st, int player, const py::object& generator) {
            PyBitgen rng = bitgen_of(generator);
            return determinize(st, player, rng);
        })
        .def("invalidate", [](State& st) { st.invalidate(); })
        .def("array", [](py::object self, int f) { return view(self, self.cast<State&>(), f); })
        .def("list", [](const State& st, int l) { return st.list_values(l); })
        .def("set_list", [](State& st, int l, const std::vector<int>& v) { st.list_set(l, v); st.invalidate(); })
        .def_property("history", [](const State& st) { return st.history; },
                      [](State& st, const std::vector<int32_t>& v) { st.history = v; })
        .def("breakdown", [](State& st, int p) { return breakdown(st, p); })
        .def("ranks", [](State& st) { return ranks(st); })
        .def_property("pending", [](const State& st) { return pending_tuple(st.pending); },
                      [](State& st, const py::sequence& v) { st.pending = pending_from(v); st.invalidate(); })
        .def_property("rng_state",
                      [](const State& st) {
                          return py::make_tuple(from_u128(st.rng.state), from_u128(st.rng.inc), st.rng.has_uint32,
                                                st.rng.uinteger);
                      },
                      [](State& st, const py::tuple& v) {
                          st.rng.state = to_u128(v[0].cast<py::int_>());
                          st.rng.inc = to_u128(v[1].cast<py::int_>());
                          st.rng.has_uint32 = v[2].cast<int>();
                          st.rng.uinteger = v[3].cast<uint32_t>();
                      })
        .def_property("deck_unseen", [](const State& st) { return std::vector<int>(st.deck_unseen, st.deck_unseen + 3); },
                      [](State& st, const std::vector<int>& v) { for (int i = 0; i < 3; ++i) st.deck_unseen[i] = v.at(i); })
        .def_property("draft_placed",
                      [](const State& st) { return std::vector<int>(st.draft_placed, st.draft_placed + st.n()); },
                      [](State& st, const std::vector<int>& v) {
                          for (int i = 0; i < st.n(); ++i) st.draft_placed[i] = v.at(i);
                      })
#define MK_SCALAR(name)                                                                         \
    .def_property(#name, [](const State& st) { return st.name; }, [](State& st, decltype(State::name) v) { \
        st.name = v;                                                                              \
        st.invalidate();                                                                          \
    })
        MK_SCALAR(phase) MK_SCALAR(current) MK_SCALAR(turn) MK_SCALAR(board_version) MK_SCALAR(next_tile)
        MK_SCALAR(next_region) MK_SCALAR(spell_cast) MK_SCALAR(workshops_left) MK_SCALAR(active_site)
        MK_SCALAR(uses_left) MK_SCALAR(bribe_any) MK_SCALAR(ignore_rubble) MK_SCALAR(free_moves)
        MK_SCALAR(final_turns_left) MK_SCALAR(spell_unseen)
#undef MK_SCALAR
        ;
}
