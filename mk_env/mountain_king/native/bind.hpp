// The parts of the Python binding kept in their own files (module.cpp calls each).
#pragma once

#include <pybind11/pybind11.h>

namespace mk {

void bind_observer(pybind11::module_& m);  // bind_observe.cpp
void bind_batch(pybind11::module_& m);     // bind_batch.cpp

}  // namespace mk
