// The Python binding of the batch API (batch.hpp): ``Batch(rules, observer, ...)`` and its steps into the
// arrays mk_env/mountain_king/env/batch.py preallocates (each checked: dtype, C order, shape; never converted).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <mutex>

#include "batch.hpp"
#include "bind.hpp"

namespace py = pybind11;

namespace mk {

namespace {

template <class T>
T* rows(py::array& a, const char* name, py::ssize_t n, py::ssize_t width) {
    const bool shaped = width < 0 ? (a.ndim() == 1 && a.shape(0) == n) : (a.ndim() == 2 && a.shape(0) == n && a.shape(1) == width);
    if (!py::isinstance<py::array_t<T>>(a) || !(a.flags() & py::array::c_style) || !a.writeable() || !shaped)
        throw std::invalid_argument(std::string("the batch's ") + name + " array has the wrong dtype, order or shape");
    return static_cast<T*>(a.mutable_data());
}

BatchOut outputs(const Batch& b, const Tables& t, int size, py::array obs, py::array masks, py::array rewards,
                 py::array terminated, py::array seats, py::array totals) {
    const py::ssize_t n = b.size();
    BatchOut out;
    out.observations = rows<float>(obs, "observations", n, size);
    out.masks = reinterpret_cast<uint8_t*>(rows<bool>(masks, "action_masks", n, t.action_size));
    out.rewards = rows<float>(rewards, "rewards", n, t.n_players);
    out.terminated = reinterpret_cast<uint8_t*>(rows<bool>(terminated, "terminated", n, -1));
    out.seats = rows<int32_t>(seats, "seats", n, -1);
    out.totals = rows<int32_t>(totals, "final_points", n, t.n_players);
    return out;
}

}  // namespace

void bind_batch(py::module_& m) {
    struct Bound {
        std::shared_ptr<Tables> t;
        std::shared_ptr<ObsTables> ob;
        Batch batch;
        std::mutex busy;  // one step at a time: the GIL is released while a step runs
    };
    m.def("play_random", [](std::shared_ptr<Tables> t, uint64_t seed, int games) {
        py::gil_scoped_release release;
        return play_random(t, seed, games);
    });
    py::class_<Bound>(m, "Batch")
        .def(py::init([](std::shared_ptr<Tables> t, std::shared_ptr<ObsTables> ob, int n, uint64_t seed, int reward,
                         bool random_opponents, int seat) {
            return new Bound{t, ob, Batch(t, ob, n, seed, reward, random_opponents, seat)};
        }))
        .def("reset",
             [](Bound& b, uint64_t seed, py::array obs, py::array masks, py::array rewards, py::array terminated,
                py::array seats, py::array totals) {
                 const BatchOut out = outputs(b.batch, *b.t, b.ob->size, obs, masks, rewards, terminated, seats, totals);
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> hold(b.busy);
                 b.batch.reset(seed, out);
             })
        .def("step",
             [](Bound& b, py::array actions, py::array obs, py::array masks, py::array rewards, py::array terminated,
                py::array seats, py::array totals) {
                 const int64_t* a = rows<int64_t>(actions, "actions", b.batch.size(), -1);
                 const BatchOut out = outputs(b.batch, *b.t, b.ob->size, obs, masks, rewards, terminated, seats, totals);
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> hold(b.busy);
                 b.batch.step(a, out);
             })
        .def("random_actions",
             [](Bound& b, py::array out) {
                 int64_t* a = rows<int64_t>(out, "actions", b.batch.size(), -1);
                 py::gil_scoped_release release;
                 std::lock_guard<std::mutex> hold(b.busy);
                 b.batch.random_actions(a);
             })
        .def("state", [](Bound& b, int i) {
            py::gil_scoped_release release;
            std::lock_guard<std::mutex> hold(b.busy);
            return State(b.batch.game(i));
        })
        .def("learner", [](const Bound& b, int i) { return b.batch.learner(i); })
        .def_property_readonly("started", [](const Bound& b) { return b.batch.started; });
}

}  // namespace mk
