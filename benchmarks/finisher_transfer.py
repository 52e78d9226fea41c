"""What the two decision harnesses share for valuations by other finishers.

``play_decisions.py`` and ``bury_decisions.py`` both pickle positions as tuples whose item 3
holds, per candidate, the game points it made when some AI finished the real deal on every
seat (item 0 is ``basic``'s own choice, the baseline). ``--revalue`` writes such a pickle
again with another finisher and ``--transfer`` compares several of them (docs/EXPERT_NOTES.md
"Tried after 1.7: what a decision's value owes to who finishes the hand"). The helpers here load
and check those pickles, pick choices from them and score choices on them; each script prints its
own report. Not a script: imported by the two harnesses (their folder is on ``sys.path`` when they
run).
"""
from __future__ import annotations

import argparse
import pickle
from typing import Sequence

VALUES = 3
"""Index, in every pickled position, of the candidates' game points (item 0 the baseline)."""


def load_valuations(paths: Sequence[str], what: str) -> list[list[tuple]]:
    """The pickled positions of each file of ``paths``; SystemExit naming ``what`` (e.g.
    "positions", "buries") unless every file holds as many positions with as many candidates
    each, in the same order."""
    refs = []
    for path in paths:
        with open(path, "rb") as f:
            refs.append(pickle.load(f))
    first = refs[0]
    for ref in refs[1:]:
        if len(ref) != len(first) or any(len(x[2]) != len(y[2]) for x, y in zip(first, ref)):
            raise SystemExit(f"the files hold different {what}")
    return refs


def best_choices(ref: Sequence[tuple]) -> list[int]:
    """Per position of ``ref``, the index of its best candidate by its own values (the first
    of equals): an oracle's choice."""
    return [x[VALUES].index(max(x[VALUES])) for x in ref]


def consensus_choices(others: Sequence[Sequence[tuple]]) -> list[int]:
    """Per position, the index of the candidate best by the mean of the values of ``others``
    (valuations of the same positions; the first of equals)."""
    out = []
    for n, x in enumerate(others[0]):
        mean = [sum(o[n][VALUES][k] for o in others) for k in range(len(x[2]))]
        out.append(mean.index(max(mean)))
    return out


def scored(ref: Sequence[tuple], choices: Sequence[int]) -> list[float]:
    """Per position, what the candidate ``choices[n]`` gains over the baseline (item 0) by
    the values of ``ref``, in game points."""
    return [x[VALUES][k] - x[VALUES][0] for x, k in zip(ref, choices)]


def add_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """The ``--revalue``, ``--finisher``, ``--plugin-dir`` and ``--transfer`` options of both
    harnesses, ``what`` naming their positions in the help ("positions", "buries")."""
    p.add_argument("--revalue", nargs=2, metavar=("SRC", "DST"),
                   help="value SRC's candidates again with --finisher on every seat, into DST")
    p.add_argument("--finisher", default="basic", help="with --revalue: the AI that finishes the hands")
    p.add_argument("--plugin-dir", action="append", default=[],
                   help="with --revalue: a drop-in plugin folder (repeatable), e.g. docs/examples")
    p.add_argument("--transfer", nargs="+", metavar="FILE",
                   help=f"how far two or more valuations of the same {what} agree")
