"""``python -m game``: the same as the ``hongwu`` command."""
import sys

from game.cli import main

sys.exit(main())
