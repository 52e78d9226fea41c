"""``hongwu arena``: rank AIs against each other on duplicate deals.

Usage::

    hongwu arena --ai basic --ai random [--hands 200] [--decks 2] [--seed 7] [--jobs 4]
                 [--json result.json] [--budget 2.0] [--think-ms 500] [--plugin-dir DIR]
                 [--scheduler tcp://HOST:8786]

**Duplicate deals.** Card luck is large in a one-against-three game, so every deal (the
shuffle and the first bidder, both from the deal's seed) is played several times with the AIs
*rotated through the seats*; each AI then holds every seat's cards equally often and the luck
of the deal cancels out. With ``k`` AIs the line-ups are built as follows: for each ``i`` in
``0..k-1`` the sequence ``ai[i], ai[i+1], ...`` (cyclically) fills the four seats, and each of
its four rotations is kept once (duplicates dropped). That gives, per deal:

- 1 AI: ``AAAA`` (self-play, 1 line-up);
- 2 AIs: ``ABAB`` and ``BABA`` (2 line-ups; every seat sees both AIs; each AI always has one
  copy of itself and two of the other at the table, whoever becomes dealer);
- 3 AIs: the 12 rotations of ``ABCA``, ``BCAB``, ``CABC`` (each AI 16 seat-hands per deal);
- 4 AIs: the 4 rotations of ``ABCD``.

``--hands N`` is the number of deals; each is played once per line-up.

**Numbers per AI** (a "hand" is one seat-hand played by that AI): ``hands``; the mean game
points per hand with a 95% confidence interval (normal approximation over per-deal means, since
the line-ups of one deal are not independent); the dealer rate (share of its hands in which it
became dealer); the dealer success rate (share of those with a dealer final above 0,
RULES.md §10); the mean winning bid and mean dealer final when dealer; and ``faults``: the
number of its decisions lost to the stand-in ``basic`` AI (a fault of its own, or its seat
disabled or the AI dropped after too many faults; see :mod:`ai_plugins.faults`). After the
table, one block on standard error tells per AI why decisions were lost (counts per reason,
the first reason of each kind with file and line; tracebacks with ``-v``), whether it was
dropped, how much it printed, and decision threads left running. Individual faults go to the
DEBUG log only (``--debug``). What plugins print is captured (:mod:`ai_plugins.capture`).

**Reproducible.** Deal ``i`` uses ``engine.state.match_seed(seed, i + 1)``; each AI's seed is
derived from the deal seed, the line-up and the seat; results do not depend on ``--jobs``
(apart from decisions that hit the time budget, which depend on the machine's load).

Deals are split into chunks run by worker processes (``multiprocessing``, spawn start method,
``--jobs`` default: all cores); each worker discovers the plugins anew with the same options.
With ``--scheduler tcp://HOST:PORT`` the chunks run on a Dask cluster instead
(:mod:`ai_plugins.cluster`), with the same numbers.
Progress goes to standard error: a bar redrawn in place on a terminal, else a line each time
another tenth of the deals is done (``--quiet``: nothing).
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence, TextIO

from .base import AIError
from .capture import add_output_options, capture_output, configure_logging, log_level
from .faults import FaultLedger, format_fault_summary
from .manager import AIManager, add_discovery_options, report_problems
from .ratings import ci95_half_width
from .runner import DEFAULT_BUDGET_S, make_player, play_hand
from .specs import spec_label, spec_name, spec_player

log = logging.getLogger(__name__)


def lineups(k: int, seats: int = 4) -> list[tuple[int, ...]]:
    """Seat assignments for ``k`` AIs (indices 0..k-1), as documented in the module docstring.

    >>> lineups(2)
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    >>> len(lineups(3)), len(lineups(4)), lineups(1)
    (12, 4, [(0, 0, 0, 0)])

    Raises ValueError unless 1 <= k <= seats.
    """
    if not 1 <= k <= seats:
        raise ValueError(f"the arena takes 1 to {seats} AIs, not {k}")
    out: list[tuple[int, ...]] = []
    for i in range(k):
        base = tuple((i + j) % k for j in range(seats))
        for r in range(seats):
            rot = base[r:] + base[:r]
            if rot not in out:
                out.append(rot)
    return out


def label_names(names: Sequence[str]) -> list[str]:
    """Unique labels for the AIs: a repeated name gets ``#2``, ``#3``... (``basic``, ``basic#2``)."""
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(n if seen[n] == 1 else f"{n}#{seen[n]}")
    return out


@dataclass(frozen=True)
class ArenaConfig:
    """Everything a worker needs to replay its deals (picklable).

    ``ais``: names or ``module:object`` specs, in ``--ai`` order; ``deals``: number of deals;
    ``decks``: 2 or 3; ``seed``: the match seed (int); ``budget_s``: seconds per decision;
    ``options``: passed to every AI factory (e.g. ``{"think_ms": 500}``); ``plugin_dirs``,
    ``user_dir`` (True, False or a path), ``entry_points``: discovery, as for
    :class:`~ai_plugins.manager.AIManager`; ``log_level`` (a ``logging`` level) and
    ``plugin_log`` (a file path or None): how worker processes set up their log
    (:func:`ai_plugins.capture.configure_logging`); ``ruleset``: ``"hongwu"`` or
    ``"zhaopengyou"`` (five seats, three decks; see :mod:`ai_plugins.arena_zpy`);
    ``first_deal``: the index of the first deal played (0-based: deals ``first_deal`` to
    ``first_deal + deals - 1`` of the seed, so a run can be extended by later deals and the
    runs' ``per_deal`` lists joined; ValueError from :func:`run_arena` if negative).
    """

    ais: tuple[str, ...]
    deals: int = 100
    decks: int = 2
    seed: int = 0
    budget_s: float = DEFAULT_BUDGET_S
    options: dict[str, Any] = field(default_factory=dict)
    plugin_dirs: tuple[str, ...] = ()
    user_dir: Any = True
    entry_points: bool = True
    log_level: int = logging.WARNING
    plugin_log: str | None = None
    ruleset: str = "hongwu"
    first_deal: int = 0

    @property
    def seats(self) -> int:
        """Seats at the table: the ruleset's players (4 for 红五, 5 for 找朋友)."""
        from engine.ruleset import hongwu, zhaopengyou

        return (zhaopengyou() if self.ruleset == "zhaopengyou" else hongwu(self.decks)).players

    def manager(self) -> AIManager:
        """A plugin manager discovering as configured (``module:object`` AIs loaded too)."""
        return AIManager(self.plugin_dirs, [spec_name(a) for a in self.ais if ":" in spec_name(a)],
                         user_dir=self.user_dir, entry_points=self.entry_points)


@dataclass(frozen=True)
class SeatResult:
    """One seat-hand: ``ai`` (index into ``ais``), ``seat``, ``game_points``, ``dealer`` (bool),
    ``bid`` and ``dealer_final`` (the hand's, whoever was dealer), ``faults`` (decisions lost
    to the stand-in), ``lost_kinds`` (``((kind, n), ...)``, why), ``first_faults``
    (``((kind, reason, traceback), ...)`` for faults that were the first of their kind in the
    worker's run), ``dropped`` (why the AI was dropped, when it happened in this hand),
    ``printed`` (output lines captured), ``thread_left`` (a decision thread was still running
    when the hand ended), ``fault_events`` (faults of the seat-hand; a fault costs one decision,
    decisions of a disabled seat are lost without a new fault)."""

    ai: int
    seat: int
    game_points: int
    dealer: bool
    bid: int
    dealer_final: int
    faults: int
    lost_kinds: tuple[tuple[str, int], ...] = ()
    first_faults: tuple[tuple[str, str, str], ...] = ()
    dropped: str | None = None
    printed: int = 0
    thread_left: bool = False
    fault_events: int = 0


def deal_seed(seed: int, deal: int) -> int:
    """Seed of deal ``deal`` (0-based) of an arena with match seed ``seed``."""
    from engine.state import match_seed

    return int(match_seed(seed, deal + 1))


def ai_seed(dseed: int, lineup: int, seat: int) -> int:
    """The seed (32-bit int) given to the AI in ``seat`` (0-based) for line-up ``lineup`` (its
    index in :func:`lineups`) of the deal seeded ``dseed`` (:func:`deal_seed`), so a hand can be
    replayed decision by decision outside the arena (``benchmarks/auction_counterfactual.py``)."""
    return random.Random(dseed * 131 + lineup * 7 + seat).getrandbits(32)


def play_deal(config: ArenaConfig, deal: int, manager: AIManager | None = None,
              ledger: FaultLedger | None = None) -> list[SeatResult]:
    """Play deal ``deal`` once per line-up; returns one :class:`SeatResult` per seat-hand.

    ``ledger`` is the run's :class:`~ai_plugins.faults.FaultLedger` (default: a quiet one for
    this deal): an AI it has dropped is played by ``basic`` without being built. Raises :class:`~ai_plugins.base.AIError` only through ``config.manager()`` misuse; a faulty
    AI is replaced decision by decision (see :mod:`ai_plugins.runner`).
    """
    from engine.ruleset import hongwu
    from engine.state import Game

    manager = manager or config.manager()
    ledger = ledger if ledger is not None else FaultLedger(loud=False)
    dseed = deal_seed(config.seed, deal)
    if config.ruleset == "zhaopengyou":
        from .arena_zpy import play_zpy_deal

        return play_zpy_deal(config, deal, manager, lineups(len(config.ais), config.seats), dseed,
                             ledger)
    ruleset = hongwu(config.decks)
    out: list[SeatResult] = []
    for j, lineup in enumerate(lineups(len(config.ais))):
        game = Game.new(ruleset, seed=dseed)
        players = []
        for seat, ai in enumerate(lineup):
            name, budget, options = spec_player(config.ais[ai], config.budget_s, config.options)
            players.append(make_player(manager, name, seat, budget, ai_seed(dseed, j, seat),
                                       options=options, ledger=ledger))
        dropped_before = dict(ledger.dropped)
        try:
            st = play_hand(game, players)
        finally:
            for p in players:
                p.close()
        firsts = {id(f) for f in ledger.first.values()}
        for seat, ai in enumerate(lineup):
            p = players[seat]
            name = p.name
            newly = ledger.dropped.get(name) if name not in dropped_before else None
            dropped_before.setdefault(name, newly or "")
            out.append(SeatResult(
                ai, seat, st.game_points[seat], seat == st.dealer, st.bid, st.dealer_final,
                p.lost, tuple(sorted(p.lost_kinds.items())),
                tuple((f.kind, f.reason, f.traceback) for f in p.faults if id(f) in firsts),
                newly, p.sink.total_lines if p.sink is not None else 0, p.left_running,
                len(p.faults)))
    return out


def _run_chunk(config: ArenaConfig, deals: Sequence[int]) -> list[tuple[int, list[SeatResult]]]:
    """Worker entry point: play ``deals`` with one plugin manager and one fault ledger (an AI
    dropped in this batch stays dropped for the rest of it), plugin output captured and the
    log set up as ``config`` says."""
    if not logging.getLogger().handlers:  # a fresh worker process: set its log up
        configure_logging(config.log_level, config.plugin_log)
    with capture_output():
        manager = config.manager()
        ledger = FaultLedger(loud=False)
        ledger.adopt_running_threads()  # stuck threads of this worker's earlier batches
        return [(d, play_deal(config, d, manager, ledger)) for d in deals]


def _mean(xs: Sequence[float]) -> float | None:
    return statistics.fmean(xs) if xs else None


def _fault_report(rows: Sequence[SeatResult]) -> dict[str, Any]:
    """What :func:`ai_plugins.faults.format_fault_summary` takes, for one AI's seat-hands."""
    lost: dict[str, int] = {}
    first: dict[str, dict[str, str]] = {}
    dropped = None
    for r in rows:
        for kind, n in r.lost_kinds:
            lost[kind] = lost.get(kind, 0) + n
        for kind, reason, tb in r.first_faults:
            first.setdefault(kind, {"reason": reason, "traceback": tb})
        dropped = dropped or r.dropped
    return {"lost": lost, "faults": sum(r.fault_events for r in rows), "dropped": dropped,
            "threads_running": sum(r.thread_left for r in rows),
            "printed": sum(r.printed for r in rows), "first": first}


def summarize(config: ArenaConfig, results: dict[int, list[SeatResult]],
              names: Sequence[str] | None = None) -> dict[str, Any]:
    """The numbers the table and ``--json`` show.

    Returns ``{"seed", "decks", "deals", "first_deal", "lineups": ["ABAB", ...], "hands": [...],
    "ais": {label: {"hands",
    "mean_game_points", "ci95", "dealer_rate", "dealer_success_rate", "mean_bid",
    "mean_dealer_final", "faults", "fault_report", "per_deal", "by_role"}}}``; rates are fractions 0..1, ``ci95`` the
    half-width in game points; ``None`` where a number is undefined (no dealer hands, fewer
    than 2 deals). ``faults`` is the number of decisions lost to the stand-in; ``fault_report``
    says why (``{"lost": {kind: n}, "faults": fault events, "dropped": why or None,
    "threads_running", "printed", "first": {kind: {"reason", "traceback"}}}``); ``per_deal``
    the AI's mean game points of each deal, in deal order (so two runs on the same seed can be
    compared deal by deal: ``benchmarks/arena_paired.py``); ``by_role`` its game points split
    by who dealt (:func:`_by_role`; 红五 only). The top-level ``"hands"`` lists every hand
    played (:func:`_hand_records`; 红五 only), from which ``benchmarks/arena_split.py`` tells
    how much of an AI's lead comes from the auction and how much from playing the same hands.
    ``names``:
    the AIs' display names (default ``config.ais``), made unique by :func:`label_names`.
    """
    labels = label_names(list(names) if names is not None else config.ais)
    if config.ruleset == "zhaopengyou":
        from .arena_zpy import summarize_zpy

        lineup_names = ["".join("ABCDE"[i] for i in lu)
                        for lu in lineups(len(config.ais), config.seats)]
        return summarize_zpy(config, results, labels, lineup_names)
    letters = "ABCD"
    lus = lineups(len(config.ais))
    seats = len(lus[0])
    summary: dict[str, Any] = {
        "seed": config.seed, "decks": config.decks, "deals": len(results),
        "first_deal": config.first_deal, "budget_s": config.budget_s,
        "lineups": ["".join(letters[i] for i in lu) for lu in lus],
        "legend": {letters[i]: labels[i] for i in range(len(labels))},
        "ais": {},
    }
    for i, label in enumerate(labels):
        rows = [r for d in sorted(results) for r in results[d] if r.ai == i]
        per_deal = [
            statistics.fmean([r.game_points for r in results[d] if r.ai == i]) for d in sorted(results)
            if any(r.ai == i for r in results[d])
        ]
        dealer_rows = [r for r in rows if r.dealer]
        ci = ci95_half_width(per_deal)
        summary["ais"][label] = {
            "hands": len(rows),
            "mean_game_points": _mean([r.game_points for r in rows]),
            "ci95": ci,
            "dealer_rate": len(dealer_rows) / len(rows) if rows else None,
            "dealer_success_rate": (sum(r.dealer_final > 0 for r in dealer_rows) / len(dealer_rows)
                                    if dealer_rows else None),
            "mean_bid": _mean([r.bid for r in dealer_rows]),
            "mean_dealer_final": _mean([r.dealer_final for r in dealer_rows]),
            "faults": sum(r.faults for r in rows),
            "fault_report": _fault_report(rows),
            "per_deal": per_deal,
            "by_role": _by_role(results, i, seats),
        }
    summary["hands"] = _hand_records(results, seats)
    return summary


def _lineup_hands(results: dict[int, list[SeatResult]], seats: int
                  ) -> Iterator[tuple[int, int, list[SeatResult]]]:
    """``(deal, line-up index, the hand's seat results in seat order)`` for every hand, in deal
    order then line-up order. ``seats``: the seats of one line-up (the results of a deal come a
    line-up at a time, in seat order)."""
    for d in sorted(results):
        rows = results[d]
        for j, k in enumerate(range(0, len(rows) - seats + 1, seats)):
            yield d, j, rows[k:k + seats]


def _hand_records(results: dict[int, list[SeatResult]], seats: int) -> list[dict[str, Any]]:
    """One record a hand, in deal order then line-up order: ``{"deal": index, "lineup": index
    into the summary's ``lineups``, "dealer": seat, "bid": card points, "final": the dealer's
    final (RULES.md §10), "game_points": [each seat's, in seat order]}``. ``seats``: as for
    :func:`_lineup_hands`."""
    return [{"deal": d, "lineup": j, "dealer": next((r.seat for r in hand if r.dealer), None),
             "bid": hand[0].bid, "final": hand[0].dealer_final,
             "game_points": [r.game_points for r in hand]}
            for d, j, hand in _lineup_hands(results, seats)]


def _by_role(results: dict[int, list[SeatResult]], ai: int, seats: int) -> dict[str, Any]:
    """AI ``ai``'s hands split by who dealt (红五: one dealer a hand, RULES.md §2): ``dealt``
    (it was the dealer), ``own_kind_dealt`` (another seat of the same AI was), ``other_dealt``
    (another AI was); each ``{"hands": n, "mean_game_points": float or None}``. ``seats``: the
    seats of one line-up (the results of a deal come a line-up at a time, in seat order)."""
    tally: dict[str, list[int]] = {"dealt": [], "own_kind_dealt": [], "other_dealt": []}
    for _, _, hand in _lineup_hands(results, seats):
        dealer_ai = next((r.ai for r in hand if r.dealer), None)
        for r in hand:
            if r.ai != ai:
                continue
            role = "dealt" if r.dealer else "own_kind_dealt" if dealer_ai == ai else "other_dealt"
            tally[role].append(r.game_points)
    return {role: {"hands": len(v), "mean_game_points": _mean(v)} for role, v in tally.items()}


def format_faults(summary: dict[str, Any], *, verbose: bool = False) -> list[str]:
    """The per-AI block of fault reasons the arena prints after its table (empty when no AI
    lost a decision or printed anything)."""
    reports = {label: s["fault_report"] for label, s in summary["ais"].items()
               if "fault_report" in s}
    lines = format_fault_summary(reports, verbose=verbose)
    return ["faults (decisions lost to the basic AI, by reason):", *lines] if lines else []


def format_summary(summary: dict[str, Any]) -> list[str]:
    """The table ``hongwu arena`` prints, as lines."""
    if summary.get("ruleset") == "zhaopengyou":
        from .arena_zpy import format_zpy_summary

        return format_zpy_summary(summary)

    def num(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    head = ("AI", "hands", "game pts/hand (95% CI)", "dealer rate", "dealer success",
            "mean bid", "mean dealer final", "faults")
    rows = [head]
    for label, s in summary["ais"].items():
        gp = num(s["mean_game_points"], "+.2f")
        if s["ci95"] is not None:
            gp += f" ± {s['ci95']:.2f}"
        rows.append((
            label, str(s["hands"]), gp, num(s["dealer_rate"] and s["dealer_rate"] * 100, ".1f") + "%",
            num(s["dealer_success_rate"] and s["dealer_success_rate"] * 100, ".1f") + "%"
            if s["dealer_success_rate"] is not None else "-",
            num(s["mean_bid"], ".1f"), num(s["mean_dealer_final"], "+.1f"), str(s["faults"]),
        ))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [
        f"arena: {summary['deals']} deals x {len(summary['lineups'])} line-ups "
        f"({', '.join(summary['lineups'])}; " +
        ", ".join(f"{k}={v}" for k, v in summary["legend"].items()) +
        f"), {summary['decks']} decks, seed {summary['seed']}",
    ]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return lines


class Progress:
    """Progress of the deals on a stream (default standard error).

    On a terminal (``tty``; None: ``stream.isatty()``) a bar redrawn in place with ``\\r``:
    ``arena [####....] 12/40 deals 3.1s``. Anywhere else (a file, a pipe, CI logs) plain
    lines, one each time another tenth of the deals is done: ``arena: 12/40 deals (30%)
    3.1s``. ``enabled=False`` (``--quiet``) writes nothing. ``label`` starts every line
    (``"league"`` for ``hongwu league``).
    """

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool = True,
                 width: int = 30, tty: bool | None = None, label: str = "arena") -> None:
        self.total, self.done, self.width, self.label = total, 0, width, label
        self.stream = stream or sys.stderr
        self.enabled = enabled
        if tty is None:
            isatty = getattr(self.stream, "isatty", None)
            try:
                tty = bool(isatty()) if callable(isatty) else False
            except (OSError, ValueError):  # a closed or odd stream
                tty = False
        self.tty = tty
        self._tenths = 0  # tenths of the deals reported so far (lines mode)
        self.start = time.monotonic()

    def advance(self, n: int) -> None:
        """Count ``n`` more deals done and redraw the bar (or print a line per tenth)."""
        self.done += n
        if not self.enabled:
            return
        elapsed = time.monotonic() - self.start
        if not self.tty:
            tenths = 10 if self.done >= self.total else self.done * 10 // max(1, self.total)
            if tenths > self._tenths:
                self._tenths = tenths
                pct = 100 * self.done // max(1, self.total)
                self.stream.write(f"{self.label}: {self.done}/{self.total} deals ({pct}%) "
                                  f"{elapsed:.1f}s\n")
                self.stream.flush()
            return
        filled = int(self.width * self.done / max(1, self.total))
        bar = "#" * filled + "." * (self.width - filled)
        self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total} deals {elapsed:.1f}s")
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


#: One piece of work for an executor: a configuration and the deals (0-based) to play with it.
Work = tuple[ArenaConfig, Sequence[int]]
#: ``executor(work)`` plays every deal of every work item and yields, as chunks finish (in any
#: order), ``(item_index, [(deal, [SeatResult, ...]), ...])``; closing the generator early
#: cancels what is left. :func:`local_executor` is the default, ``ai_plugins.cluster`` the Dask one.
Executor = Callable[[Sequence[Work]], Iterator[tuple[int, list[tuple[int, list[SeatResult]]]]]]


def plan_chunks(deals: Sequence[int], workers: int) -> list[list[int]]:
    """Split ``deals`` into consecutive chunks, about four per worker (``workers`` >= 1)."""
    size = max(1, math.ceil(len(deals) / (max(1, workers) * 4)))
    return [list(deals[i:i + size]) for i in range(0, len(deals), size)]


def local_executor(jobs: int | None = None) -> Executor:
    """The default :data:`Executor`: ``jobs`` worker processes on this machine (None: all
    cores; spawn start method, each worker discovers the plugins anew), or with ``jobs=1``
    every deal in this process, one at a time. Errors raised by a deal propagate."""
    jobs = max(1, jobs or os.cpu_count() or 1)

    def run(work: Sequence[Work]) -> Iterator[tuple[int, list[tuple[int, list[SeatResult]]]]]:
        if jobs == 1 or sum(len(deals) for _c, deals in work) <= 1:
            with capture_output():  # plugins' output to the log, as in the workers
                for i, (config, deals) in enumerate(work):
                    manager = config.manager()
                    ledger = FaultLedger(loud=False)  # one run: an AI dropped stays dropped
                    for d in deals:
                        yield i, [(d, play_deal(config, d, manager, ledger))]
            return
        tasks = [(i, config, chunk) for i, (config, deals) in enumerate(work)
                 for chunk in plan_chunks(deals, jobs)]
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks)), mp_context=ctx) as pool:
            futures = {pool.submit(_run_chunk, config, chunk): i for i, config, chunk in tasks}
            try:
                for fut in as_completed(futures):
                    yield futures[fut], fut.result()
            finally:
                for fut in futures:
                    fut.cancel()

    return run


def run_arena(config: ArenaConfig, jobs: int | None = None,
              progress: Callable[[int], None] | None = None,
              executor: Executor | None = None) -> dict[str, Any]:
    """Play ``config.deals`` duplicate deals with ``jobs`` worker processes (None: all cores;
    1: in this process) and return :func:`summarize`'s dictionary.

    ``executor`` (default ``local_executor(jobs)``) runs the deals elsewhere, e.g. on a Dask
    cluster (:func:`ai_plugins.cluster.dask_executor`); the result does not depend on it.
    ``progress(n)`` is called as each chunk of ``n`` deals finishes. Raises
    :class:`~ai_plugins.base.AIError` if an AI name is unknown or clashes (checked first), and
    ValueError for an empty or too large AI list or a bad deck count.
    """
    if config.decks not in (2, 3):
        raise ValueError("decks must be 2 or 3")
    if config.first_deal < 0:
        raise ValueError("first_deal (--first-deal) must be 0 or more")
    if config.ruleset not in ("hongwu", "zhaopengyou"):
        raise ValueError(f"unknown ruleset {config.ruleset!r}")
    lineups(len(config.ais), config.seats)  # validates the AI count
    with capture_output():  # what plugins print while they are discovered stays out
        manager = config.manager()
        report_problems(manager.problems, log)  # once, here; the workers' managers stay quiet
        names = [spec_label(manager.resolve(spec_name(a)).name, a) for a in config.ais]
    executor = executor or local_executor(jobs)
    results: dict[int, list[SeatResult]] = {}
    for _item, got in executor([(config, range(config.first_deal, config.first_deal + config.deals))]):
        for d, rows in got:
            results[d] = rows
        if progress:
            progress(len(got))
    return summarize(config, results, names)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``arena`` sub-command to the ``hongwu`` parser's subparsers."""
    p = subparsers.add_parser(
        "arena", help="rank AIs against each other on duplicate deals",
        description="Play duplicate deals between AIs (each deal replayed with the AIs rotated "
                    "through the seats) and print per-AI statistics.")
    p.add_argument("--ai", action="append", required=True, metavar="NAME",
                   help="an AI name (see 'hongwu ai list') or module:object, optionally with its own options NAME@key=value,... (e.g. basic@blunder=0.35; budget=SECONDS sets its budget); give 1 to 4 times (1 to 5 with --ruleset zhaopengyou)")
    p.add_argument("--hands", type=int, default=100, metavar="N",
                   help="number of deals (default 100), not hands: each deal is played once "
                        "per line-up (2 AIs: 2 line-ups, 3 AIs: 12, 4 AIs: 4), so N deals give "
                        "each AI 4*N hands (16*N with 3 AIs)")
    p.add_argument("--first-deal", type=int, default=0, metavar="K",
                   help="play the seed's deals K to K+N-1 (0-based, default 0): extends an "
                        "earlier run of K deals on the same seed (benchmarks/arena_paired.py "
                        "joins the parts: a.json,b.json)")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2, help="decks (default 2)")
    p.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu",
                   help="hongwu (红五, default) or zhaopengyou (找朋友: five seats, 1 to 5 AIs, "
                        "ranked by level gain per hand)")
    p.add_argument("--seed", type=int, default=None,
                   help="match seed (default: random, printed so the run can be repeated)")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="worker processes (default: all cores; 1 runs in-process)")
    p.add_argument("--json", metavar="FILE", help="also write the numbers as JSON to FILE")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, metavar="SECONDS",
                   help=f"time budget per AI decision (default {DEFAULT_BUDGET_S:g})")
    p.add_argument("--think-ms", type=int, default=None, metavar="MS",
                   help="thinking time per decision for AIs that search (expert; default 500)")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help="a fixed number of samples per decision for AIs that sample (expert) "
                        "instead of a time: the same numbers on any machine or cluster")
    p.add_argument("--quiet", action="store_true",
                   help="no progress (else a bar on a terminal, a line per 10%% elsewhere)")
    add_discovery_options(p)
    add_output_options(p)
    from .cluster import add_scheduler_option

    add_scheduler_option(p)
    p.set_defaults(func=run_cli)
    return p


def run_cli(ns: argparse.Namespace) -> int:
    """Run the arena from parsed arguments; prints the table; exit code 0, or 2 on bad AIs."""
    if ns.hands < 1:
        print("error: --hands must be at least 1", file=sys.stderr)
        return 2
    level = log_level(ns, os.environ.get("HONGWU_LOG", "WARNING"))
    try:
        configure_logging(level, getattr(ns, "plugin_log", None))
    except OSError as exc:
        print(f"error: cannot open --plugin-log: {exc}", file=sys.stderr)
        return 2
    seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(2**31)
    options = {"think_ms": ns.think_ms} if ns.think_ms is not None else {}
    if ns.samples is not None:
        options["samples"] = ns.samples
    config = ArenaConfig(
        ais=tuple(ns.ai), deals=ns.hands, decks=ns.decks, seed=seed, budget_s=ns.budget,
        options=options, plugin_dirs=tuple(ns.plugin_dir), user_dir=not ns.no_user_plugins,
        log_level=level, plugin_log=getattr(ns, "plugin_log", None),
        ruleset=getattr(ns, "ruleset", "hongwu"), first_deal=ns.first_deal,
    )
    from .cluster import ClusterError, executor_from_args

    bar = Progress(ns.hands, enabled=not ns.quiet)
    try:
        summary = run_arena(config, ns.jobs, bar.advance, executor_from_args(ns))
    except (AIError, ValueError, ClusterError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in format_summary(summary):
        print(line)
    sys.stdout.flush()
    for line in format_faults(summary, verbose=level <= logging.INFO):
        print(line, file=sys.stderr)
    if ns.json:
        with open(ns.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
            fh.write("\n")
    return 0


__all__ = ["ArenaConfig", "SeatResult", "lineups", "play_deal", "run_arena", "summarize",
           "Work", "Executor", "plan_chunks", "local_executor",
           "format_summary", "format_faults", "add_parser", "run_cli"]
