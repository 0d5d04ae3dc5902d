#!/usr/bin/env bash
# Run one library's recipe tests (docs/ecosystem.md) in a fresh virtual environment of its own.
#   bash tests/recipes/run_in_venv.sh LIB [TIME_LIMIT_S]     LIB: torchrl, tianshou, rllib or agilerl
# Creates ${MK_VENV_ROOT:-/tmp}/venv-LIB afresh, installs torch==2.13.0 first (the CPU build; never
# another torch), then this checkout and tests/recipes/requirements-LIB.txt, and runs
# tests/recipes/test_recipe_LIB.py (plus test_rllib.py for rllib) within TIME_LIMIT_S (default 900).
set -euo pipefail
cd "$(dirname "$0")/../.."
lib="${1:-}"
limit="${2:-900}"
requirements="tests/recipes/requirements-$lib.txt"
if [[ -z "$lib" || ! -f "$requirements" ]]; then
    known=$(cd tests/recipes && ls requirements-*.txt | sed 's/requirements-//; s/\.txt//' | paste -sd, -)
    echo "usage: bash tests/recipes/run_in_venv.sh LIB [TIME_LIMIT_S]; LIB is one of: $known" >&2
    exit 2
fi
venv="${MK_VENV_ROOT:-/tmp}/venv-$lib"
export PIP_DISABLE_PIP_VERSION_CHECK=1
start=$SECONDS
rm -rf "$venv"
python3 -m venv "$venv"
"$venv/bin/pip" install --quiet torch==2.13.0
modules=("tests/recipes/test_recipe_$lib.py")
package="."
if [[ "$lib" == rllib ]]; then    # the project's Ray tests play tournaments: the [tools] extra
    modules+=("tests/recipes/test_rllib.py")
    package=".[tools]"
fi
"$venv/bin/pip" install --quiet -e "$package" -r "$requirements"
installed=$((SECONDS - start))
status=0
timeout "$limit" "$venv/bin/python" -m pytest -q -p no:cacheprovider "${modules[@]}" || status=$?
echo "recipes $lib: venv and install ${installed}s, tests $((SECONDS - start - installed))s (exit $status)"
exit "$status"
