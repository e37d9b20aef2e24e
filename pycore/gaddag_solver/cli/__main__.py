"""``python -m gaddag_solver.cli``: the same as ``gaddag-solver``."""

import sys

from . import main

sys.exit(main())
