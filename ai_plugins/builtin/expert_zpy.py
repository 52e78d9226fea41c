"""The ``expert`` AI's 找朋友 decisions: determinized Monte-Carlo search on five seats with an
unknown friend (RULES.md "找朋友" §3-§10).

:class:`ai_plugins.builtin.expert.ExpertAI` hands every 找朋友 decision to a
:class:`ZpyExpert`. Each searched decision samples worlds (:func:`.simulate_zpy.sample_hidden`:
the other hands and, unless the seat buried it, the kitty, consistent with what the seat has
seen, the friend's copies included), tries every candidate in every world, plays the hand out
with the fast policy of :func:`.simulate_zpy.rollout_action` and scores the settled hand by the
levels the seat's final side gains or gives away (:func:`.simulate_zpy.utility`). All
candidates of a decision are compared on the same worlds, and the search overrules ``basic``'s
first choice only when the paired play-outs favour another clearly (:func:`pick`: a one-sided
t-test at 90% on the paired differences; stricter than 红五's gate, since early in a 31-card
hand a short thinking time allows only a few worlds).

- **play**: ``basic``'s best :data:`MAX_CANDIDATES` plays; a forced play (one candidate, or
  the last trick) is returned at once.
- **bury** (dealer or counterer): ``basic``'s bury and a few others (emptying one short side
  suit, the cheapest cards), each played out from the counter round on.
- **friend call**: ``basic``'s call and the other "first ace I lack" / "next copy of an ace I
  hold" calls, at most :data:`MAX_CALLS`, each played out from the kitty on (the bury in the
  play-outs is ``basic``'s).
- **declare** and **counter**: ``basic``'s heuristics (they are cheap, and a wrong trump is
  hard to judge from a partial hand in the time).

Thinking time: ``think_ms`` per play decision (default
:data:`ai_plugins.builtin.expert.DEFAULT_THINK_MS`), :data:`SLOW_DECISION_FACTOR` times that
for a bury or a call, always capped at 80% of the seat's ``budget_s``. ``options["samples"]``
fixes the number of sampled worlds instead (tests use it: decisions are then reproducible from
the seed).

:meth:`ZpyExpert.estimates` gives the same search's mean utility and catchers' points for each
candidate of a play, bury or call decision (the review 复盘 of recorded 找朋友 hands,
:mod:`ai_plugins.review`).
"""
from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from typing import Any, Callable, Sequence

from engine.cards import POINTS, SUITS, Card
from engine.order import TRUMP_INDEX
from engine.state import Bury, Play
from engine.zhaopengyou import CallFriend

from ..base import AISettings
from . import zpy_basic
from .basic import BasicAI, keep_value
from .expert import DEFAULT_THINK_MS, MIN_SAMPLES, estimate_rows
from .simulate_zpy import clone, hand_from_view, play_out, sample_hidden, sample_world, utility

MAX_CANDIDATES = 4
"""Plays compared per play decision (``basic``'s best ones)."""

MAX_BURIES = 4
"""Buries compared per bury decision."""

MAX_CALLS = 4
"""Friend calls compared per call decision."""

SLOW_DECISION_FACTOR = 3
"""A bury or a friend call (once a hand each, and worth more) gets this many times the
thinking time of a play (within the budget)."""


T_CRITICAL = {1: 3.08, 2: 1.89, 3: 1.64, 4: 1.53, 5: 1.48, 6: 1.44, 7: 1.41, 8: 1.40, 9: 1.38,
              10: 1.37, 15: 1.34, 20: 1.33, 30: 1.31}
"""One-sided 90% quantiles of Student's t by degrees of freedom (1.28 beyond 30): how many
standard errors a paired advantage needs before :func:`pick` overrules ``basic``. A fixed
number of standard errors would be far too lenient with the two or three worlds a short
thinking time allows early in a 31-card hand."""


def _t_critical(df: int) -> float:
    for k in sorted(T_CRITICAL, reverse=True):
        if df >= k:
            return T_CRITICAL[k] if df <= 30 else 1.28
    return T_CRITICAL[1]


def pick(samples: Sequence[Sequence[float]]) -> int:
    """The candidate to choose from per-world utilities ``samples[i][k]`` (world i, candidate
    k; candidate 0 is ``basic``'s choice): the best mean among those whose paired advantage
    over candidate 0 reaches :func:`_t_critical` standard errors, else 0."""
    n = len(samples)
    if n < 2:
        return 0
    need = _t_critical(n - 1)
    best, best_mean = 0, 0.0
    for k in range(1, len(samples[0])):
        diffs = [row[k] - row[0] for row in samples]
        mean = statistics.fmean(diffs)
        sd = statistics.stdev(diffs)
        if mean > best_mean and (sd == 0 or mean / (sd / n ** 0.5) >= need):
            best, best_mean = k, mean
    return best


class ZpyExpert:
    """Monte-Carlo search for 找朋友; see the module docstring. ``settings`` as for
    :class:`ai_plugins.builtin.expert.ExpertAI` (``options["think_ms"]``,
    ``options["samples"]``, ``seed``, ``budget_s``)."""

    def __init__(self, settings: AISettings | None = None) -> None:
        settings = settings or AISettings()
        self.seat = settings.seat
        self.rng = random.Random(settings.seed)
        options = dict(settings.options or {})
        think_ms = int(options.get("think_ms") or DEFAULT_THINK_MS)
        self.budget_s = settings.budget_s
        self.think_s = max(0.001, min(think_ms / 1000.0, 0.8 * settings.budget_s))
        samples = options.get("samples")
        self.samples: int | None = int(samples) if samples else None
        self.basic = BasicAI(AISettings(seat=settings.seat, seed=settings.seed))
        self._detail: list[list[tuple[float, int]]] | None = None  # estimates(): (utility, catchers' points)

    # -- the sampling loop -----------------------------------------------------------------
    def _loop(self, step: Callable[[], None], factor: float = 1.0) -> int:
        """Call ``step()`` until the thinking time (times ``factor``, within 80% of the budget)
        or the fixed sample count is used up (a step that would end past the thinking time, as
        long as the last one took, is not begun); at least
        :data:`ai_plugins.builtin.expert.MIN_SAMPLES` times. Returns the count."""
        think = min(self.think_s * factor, 0.8 * self.budget_s)
        deadline = time.perf_counter() + think
        i = 0
        last = 0.0  # how long the last step took: a step that would end past the deadline is not begun
        while True:
            if self.samples is not None:
                if i >= self.samples:
                    break
            elif i >= MIN_SAMPLES and time.perf_counter() + last >= deadline:
                break
            started = time.perf_counter()
            step()
            last = time.perf_counter() - started
            i += 1
        return i

    def _row(self, world: Any, actions: Sequence[Any], me: int) -> list[float]:
        """:func:`.simulate_zpy.utility` for ``me`` of each action applied to a copy of
        ``world`` and played out (the bury in a play-out is ``basic``'s)."""
        row = []
        detail = []
        for action in actions:
            g = clone(world)
            g.apply(action)
            play_out(g, self.rng, self._rollout_bury)
            row.append(utility(g, me))
            detail.append((row[-1], g.settlement.catcher_points))
        if self._detail is not None:
            self._detail.append(detail)
        return row

    def _rollout_bury(self, hand: Any) -> Bury:
        seat = hand.to_act
        view = hand.view(seat)
        return Bury(seat, tuple(self.basic.choose_bury(view, view.bury_count)))

    # -- 亮主 and 反牌: basic's (RULES.md "找朋友" §3, §5) --------------------------------------
    def choose_declaration(self, view: Any, options: Sequence) -> tuple[Card, ...]:
        """``basic``'s declaration (:func:`.zpy_basic.choose_declaration`)."""
        return zpy_basic.choose_declaration(view, options)

    def choose_counter(self, view: Any, options: Sequence) -> tuple[Card, ...]:
        """``basic``'s counter (:func:`.zpy_basic.choose_counter`)."""
        return zpy_basic.choose_counter(view, options)

    # -- play (§7) -------------------------------------------------------------------------
    def choose_play(self, view: Any, options: Any) -> tuple[Card, ...]:
        """The candidate with the best mean utility over sampled worlds (module docstring)."""
        ranked = self.basic.ranked_plays(view, options)
        cands = [p for _, p in ranked[:MAX_CANDIDATES]]
        if len(cands) <= 1 or len(view.hand) <= len(cands[0]):
            return cands[0] if cands else tuple(options.sample(self.rng))
        return cands[pick(self._rows(view, "play", cands))]

    # -- bury (§5) -------------------------------------------------------------------------
    def bury_candidates(self, view: Any, count: int) -> list[tuple[Card, ...]]:
        """``basic``'s bury first, then buries that empty one side suit (filled with the
        cheapest other cards), then the cheapest ``count`` cards; at most :data:`MAX_BURIES`,
        each a sorted tuple."""
        ctx = view.ctx
        hand = list(view.hand)
        counts = Counter(hand)
        sx = ctx.SUITX
        out = [tuple(sorted(self.basic.choose_bury(view, count)))]

        def cost(c: int) -> float:
            return keep_value(c, ctx, counts) + POINTS[c] * 3.0

        side: dict[int, list[Card]] = {}
        for c in hand:
            if sx[c] != TRUMP_INDEX:
                side.setdefault(sx[c], []).append(c)
        for suit_cards in sorted(side.values(), key=len):
            if len(suit_cards) > count:
                continue
            rest = sorted((counts - Counter(suit_cards)).elements(), key=lambda c: (cost(c), c))
            cand = tuple(sorted(suit_cards + rest[: count - len(suit_cards)]))
            if cand not in out:
                out.append(cand)
        cheapest = tuple(sorted(sorted(hand, key=lambda c: (cost(c), c))[:count]))
        if cheapest not in out:
            out.append(cheapest)
        return out[:MAX_BURIES]

    def choose_bury(self, view: Any, count: int) -> list[Card]:
        """The candidate bury with the best mean result in sampled play-outs."""
        cands = self.bury_candidates(view, count)
        if len(cands) == 1:
            return list(cands[0])
        return list(cands[pick(self._rows(view, "bury", cands))])

    # -- the friend call (§4) --------------------------------------------------------------
    def call_candidates(self, view: Any, calls: Sequence[tuple[Card, int]]) -> list[tuple[Card, int]]:
        """``basic``'s call first, then for each side suit (longest first) the next copy of
        its ace that the dealer does not hold, then of its king; at most :data:`MAX_CALLS`."""
        valid = set((Card(c), n) for c, n in calls)
        first = zpy_basic.choose_friend(view, calls)
        out = [(Card(first[0]), int(first[1]))]
        hand = Counter(view.hand)
        ctx = view.ctx
        side_len = Counter(ctx.SUITX[c] for c in view.hand if ctx.SUITX[c] != TRUMP_INDEX)
        suits = sorted(SUITS, key=lambda s: -side_len.get(SUITS.index(s), 0))
        for rank in ("A", "K"):
            for s in suits:
                card = Card.parse(rank + s)
                cand = (card, hand[card] + 1)
                if cand in valid and cand not in out:
                    out.append(cand)
        return out[:MAX_CALLS]

    def choose_friend(self, view: Any, calls: Sequence[tuple[Card, int]]) -> tuple[Card, int]:
        """The call with the best mean result in sampled play-outs (kitty, bury and play)."""
        cands = self.call_candidates(view, calls)
        if len(cands) == 1:
            return cands[0]
        return cands[pick(self._rows(view, "call", cands))]

    # -- the shared search of a decision, and its estimates (the review 复盘) ----------------
    def _world(self, view: Any, kind: str) -> Any:
        """One sampled world for a ``kind`` decision of ``view``: ``"play"`` (the voids seen
        so far respected), ``"bury"`` (the burier knows the kitty: it is in its hand) or
        ``"call"`` (the kitty sampled unless the seat buried it already)."""
        if kind == "play":
            return sample_world(view, self.rng)
        if kind == "bury":
            hands, _ = sample_hidden(view, self.rng, kitty_hidden=False, ctx=None)
            return hand_from_view(view, hands, ())
        kitty_known = view.buried is not None
        hands, kitty = sample_hidden(view, self.rng, kitty_hidden=not kitty_known, ctx=None)
        return hand_from_view(view, hands, tuple(view.buried) if kitty_known else kitty)

    def _rows(self, view: Any, kind: str, cands: Sequence[Any]) -> list[list[float]]:
        """Per-world utilities (:func:`.simulate_zpy.utility`) of each candidate of a
        ``kind`` decision (``"play"``, ``"bury"`` or ``"call"``: card tuples, or ``(card,
        nth)`` calls), all on the same sampled worlds; as many worlds as :meth:`_loop` allows
        (a bury or a call :data:`SLOW_DECISION_FACTOR` times a play's thinking time)."""
        me = view.seat
        if kind == "play":
            actions: list[Any] = [Play(me, tuple(p)) for p in cands]
        elif kind == "bury":
            actions = [Bury(me, tuple(c)) for c in cands]
        elif kind == "call":
            actions = [CallFriend(me, Card(c), int(n)) for c, n in cands]
        else:
            raise ValueError(f"unknown 找朋友 decision kind {kind!r} (play, bury or call)")
        rows: list[list[float]] = []

        def step() -> None:
            rows.append(self._row(self._world(view, kind), actions, me))

        self._loop(step, 1.0 if kind == "play" else SLOW_DECISION_FACTOR)
        return rows

    def estimates(self, view: Any, kind: str, cands: Sequence[Any]) -> list[dict]:
        """The search's estimate of each candidate of one decision, on the same sampled worlds
        (the review 复盘, :mod:`ai_plugins.review`; mirrors
        :meth:`ai_plugins.builtin.expert.ExpertAI.estimates`).

        ``kind``: ``"play"`` (``cands`` card tuples; a play-phase view), ``"bury"`` (card
        tuples of the kitty size; the burier's view) or ``"call"`` (``(card, nth)`` friend
        calls; the dealer's CALL_FRIEND view). Returns one dict a candidate, in the order
        given: ``{"gp": the mean of :func:`.simulate_zpy.utility` for the seat (levels its
        final side gains, negative when the other side gains, plus one level per ``step`` of
        catchers' points past the threshold: the unit this search maximises), "points": the
        mean catchers' card points (kitty included, RULES.md "找朋友" §8), "n": worlds}``.
        The world count is ``options["samples"]`` when set (fix it for reproducible numbers).
        Raises ValueError for an unknown ``kind``. Draws from this AI's random generator (use
        a fresh ``ZpyExpert`` per estimate for reproducibility)."""
        self._detail = []
        try:
            self._rows(view, kind, cands)
            detail = self._detail
        finally:
            self._detail = None
        return estimate_rows(detail, len(cands))


__all__ = ["ZpyExpert", "MAX_CANDIDATES", "MAX_BURIES", "MAX_CALLS", "SLOW_DECISION_FACTOR"]
