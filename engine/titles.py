"""Titles 等级 from accumulated game points: the current one, the next one, promotions
(RULES.md §11; the table itself is :data:`engine.scoring.TITLES`)."""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass

from engine.scoring import TITLES, title_for

_THRESHOLDS = [t[0] for t in TITLES]


def title_index(points: int) -> int:
    """Index into :data:`engine.scoring.TITLES` of the title for ``points`` (0 below 0)."""
    return max(0, bisect_right(_THRESHOLDS, points) - 1)


@dataclass(frozen=True)
class NextTitle:
    """The title after the current one: ``name`` (in the asked language), ``threshold``
    (accumulated game points that reach it), ``progress`` (0.0–1.0 of the way from the current
    title's threshold to it; 1.0 and ``name`` None at the top title 神)."""

    name: str | None
    threshold: int | None
    progress: float

    def __iter__(self):  # allows ``name, threshold, progress = next_title(p)``
        return iter((self.name, self.threshold, self.progress))


def next_title(points: int, lang: str = "zh") -> NextTitle:
    """The next title for accumulated ``points`` and how far along it is (RULES.md §11).
    ``lang`` "zh" or "en". At the top title: ``NextTitle(None, None, 1.0)``."""
    i = title_index(points)
    if i + 1 >= len(TITLES):
        return NextTitle(None, None, 1.0)
    lo, (hi, zh, en) = TITLES[i][0], TITLES[i + 1]
    progress = min(1.0, max(0.0, (points - lo) / (hi - lo)))
    return NextTitle(zh if lang == "zh" else en, hi, progress)


def promotions(before: int, after: int, lang: str = "zh") -> list[str]:
    """Titles newly reached when the total goes from ``before`` to ``after`` game points, lowest
    first (empty when none, or when the total fell): the client's promotion moment (RULES.md §11)."""
    a, b = title_index(before), title_index(after)
    col = 1 if lang == "zh" else 2
    return [TITLES[k][col] for k in range(a + 1, b + 1)]


__all__ = ["NextTitle", "next_title", "promotions", "title_for", "title_index"]
