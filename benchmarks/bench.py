"""Speed benchmark: ``python benchmarks/bench.py [--players 4] [--seconds 5] [--compare]``.

The same as ``mk-env bench`` (see training/bench.py); prints a table and the figures as JSON.
"""

import sys

from training.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench"] + sys.argv[1:]))
