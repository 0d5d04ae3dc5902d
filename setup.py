"""The compiled engines: built by the project's own ``pip install`` (pybind11, a C++17 compiler). Optional: where
the build fails the suite runs on its Python engines (a one-line notice says so when a game is made)."""

from glob import glob

from pybind11.setup_helpers import Pybind11Extension, build_ext
from setuptools import setup

native = Pybind11Extension(
    "mk_env.mountain_king.rules._native",
    # the engine, then the compiled agents (agents/native/: they take the engine's states as they are)
    sorted(glob("mk_env/mountain_king/native/*.cpp")) + sorted(glob("agents/native/*.cpp")),
    cxx_std=17,
    extra_compile_args=["-O2", "-ffp-contract=off"],  # float32 arithmetic as numpy does it (no fused multiply-adds)
)
native.optional = True  # a failed build leaves the Python engine (the reference) in charge

setup(ext_modules=[native], cmdclass={"build_ext": build_ext})
