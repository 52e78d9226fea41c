"""The built-in ``random`` AI: every decision uniformly at random among the legal ones.

Useful as a baseline in the arena and to shake out engine and client bugs. Reproducible: all
choices come from ``random.Random(settings.seed)``.
"""
from __future__ import annotations

import random
from typing import Any, Sequence

from ..base import PASS, AISettings
from ..hookspecs import hookimpl

VERSION = "1.0"


class RandomAI:
    """Uniform over legal actions (RULES.md §2–§8), from a seeded generator.

    Bids: pass or any legal amount, each equally likely. Trump: any suit. 找朋友 declarations
    and counters: pass or any legal one, each equally likely; the friend: any valid call.
    Bury: ``count``
    cards of the hand drawn without replacement. Play: ``PlayOptions.sample`` (uniform over the
    legal follows; when leading, a random non-empty set of cards of one effective suit, so
    throws are often tried and fail).
    """

    def __init__(self, settings: AISettings | None = None) -> None:
        settings = settings or AISettings()
        self.rng = random.Random(settings.seed)

    def choose_bid(self, view: Any, bids: Sequence[int]) -> int:
        """``PASS`` or one of ``bids``, uniformly."""
        return self.rng.choice((PASS, *bids))

    def choose_trump(self, view: Any, suits: Sequence[str]) -> str:
        """One of ``suits``, uniformly."""
        return self.rng.choice(tuple(suits))

    def choose_bury(self, view: Any, count: int) -> list:
        """``count`` cards of ``view.hand`` drawn without replacement."""
        return self.rng.sample(list(view.hand), count)

    def choose_play(self, view: Any, options: Any) -> tuple:
        """``options.sample(rng)``: one legal play."""
        return tuple(options.sample(self.rng))

    # 找朋友 (RULES.md "找朋友" §3-§5)
    rulesets = ("hongwu", "zhaopengyou")

    def choose_declaration(self, view: Any, options: Sequence) -> tuple:
        """Pass or one of ``options``, each equally likely."""
        return self.rng.choice(((), *options))

    def choose_counter(self, view: Any, options: Sequence) -> tuple:
        """Pass or one of ``options``, each equally likely."""
        return self.rng.choice(((), *options))

    def choose_friend(self, view: Any, calls: Sequence) -> tuple:
        """One of ``calls``, uniformly."""
        return self.rng.choice(tuple(calls))


@hookimpl
def register_ais(register) -> None:
    """Register ``random``."""
    register("random", RandomAI, VERSION)
