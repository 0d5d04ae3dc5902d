// The parts of the Python binding kept in their own files (module.cpp calls each).
#pragma once

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <vector>

#include "../../core/native/chance.hpp"

namespace mk {

//: the bit generator of a numpy ``Generator`` (draws taken from it advance the Python generator)
PyBitgen bitgen_of(const pybind11::object& generator);

//: the list ``d[key]`` of a table dict as a vector (every binding reads its tables this way)
template <class T>
std::vector<T> get(const pybind11::dict& d, const char* key) {
    return d[key].cast<std::vector<T>>();
}

void bind_observer(pybind11::module_& m);  // bind_observe.cpp
void bind_batch(pybind11::module_& m);     // bind_batch.cpp
void bind_agents(pybind11::module_& m);    // agents/native/bind_agents.cpp: the compiled heuristic
void bind_search(pybind11::module_& m);    // agents/native/bind_search.cpp: the compiled search

}  // namespace mk
