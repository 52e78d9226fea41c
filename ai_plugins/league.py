"""``hongwu league``: a round robin of AIs on duplicate deals, with a rating for each.

Usage::

    hongwu league --ai basic --ai random --ai expert [--hands 200] [--seed 7] [--think-ms 100]
                  [--jobs J | --scheduler tcp://HOST:8786] [--json FILE] [--plot FILE.png]
                  [--results FILE.jsonl] [--limit CHUNKS] [--bootstrap 200]

Every pair of AIs plays the same ``--hands`` deals as a two-AI arena (:mod:`ai_plugins.arena`:
line-ups ``ABAB`` and ``BABA``, the same seeds). A pair's *deal* is won by the AI with more game
points over both line-ups; :mod:`ai_plugins.ratings` fits Bradley–Terry ratings (Elo scale,
mean 0) on those outcomes, with a 95% bootstrap interval over deals.

**Resumable.** With ``--results FILE`` a header line and then every finished chunk of deals
are appended to FILE as JSON lines; a rerun with the same FILE skips the deals already there
and gives the same final numbers (the file must come from the same AIs, decks, seed, budget
and options, else it is refused). ``--limit N`` stops after N more chunks (to split a long
league into sessions, and for tests). A line cut short by a crash is ignored.
"""
from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import random
import statistics
import sys
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, Sequence

from .arena import (ArenaConfig, Executor, Progress, SeatResult, label_names, local_executor)
from .base import AIError
from .manager import add_discovery_options, report_problems
from .ratings import PRIOR_TIES, rate
from .runner import DEFAULT_BUDGET_S

log = logging.getLogger(__name__)

RESULTS_FORMAT = 1
"""Version of the ``--results`` file format (the ``league`` field of its header line)."""

#: ``{(i, j): {deal: [SeatResult, ...]}}``: the results of pair ``i < j`` (indices into ais).
PairResults = dict[tuple[int, int], dict[int, list[SeatResult]]]


def pairs(k: int) -> list[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of ``k`` AIs, in order: ``pairs(3) == [(0, 1), (0, 2),
    (1, 2)]``."""
    return list(combinations(range(k), 2))


def pair_config(config: ArenaConfig, pair: tuple[int, int]) -> ArenaConfig:
    """The two-AI arena configuration of ``pair`` (``config.ais`` holds every AI)."""
    return dataclasses.replace(config, ais=(config.ais[pair[0]], config.ais[pair[1]]))


def header(config: ArenaConfig) -> dict[str, Any]:
    """The first line of a results file: what must match for it to be resumed."""
    return {"league": RESULTS_FORMAT, "ais": list(config.ais), "decks": config.decks,
            "seed": config.seed, "budget_s": config.budget_s, "options": config.options}


def load_results(path: Path, config: ArenaConfig) -> PairResults:
    """Read a results file written by :func:`run_league` for ``config`` (missing: empty).

    Raises ValueError when its header belongs to another league. Lines that do not parse
    (a write cut short) are skipped with a warning.
    """
    done: PairResults = {p: {} for p in pairs(len(config.ais))}
    if not path.exists():
        return done
    with path.open(encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    if not lines:
        return done
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path} is not a league results file: {exc}") from exc
    want = json.loads(json.dumps(header(config)))
    if head != want:
        diff = ", ".join(f"{k}: file {head.get(k)!r}, now {v!r}" for k, v in want.items()
                         if head.get(k) != v)
        raise ValueError(f"{path} holds another league ({diff}); give a new --results file")
    for n, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            pair = (int(entry["pair"][0]), int(entry["pair"][1]))
            for deal, rows in entry["results"]:
                done[pair][int(deal)] = [SeatResult(**r) for r in rows]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            log.warning("%s line %d skipped (%s)", path, n, exc)
    return done


def deal_outcome(rows: Sequence[SeatResult]) -> float:
    """1, 0.5 or 0: the first AI of a pair's result on one deal (more game points wins)."""
    a = sum(r.game_points for r in rows if r.ai == 0)
    b = sum(r.game_points for r in rows if r.ai == 1)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def summarize_league(config: ArenaConfig, deals: int, results: PairResults,
                     bootstrap: int = 200, names: Sequence[str] | None = None) -> dict[str, Any]:
    """The numbers the table, ``--json`` and ``--plot`` show.

    Returns ``{"seed", "decks", "deals", "budget_s", "options", "complete", "method",
    "ratings": {label: {"rating", "low", "high", "deals", "won", "lost", "tied",
    "mean_game_points"}}, "pairs": [{"a", "b", "deals", "a_won", "b_won", "tied",
    "a_mean_game_points"}]}``; only deals ``< deals`` count; ratings in Elo points (mean 0),
    ``low``/``high`` the 95% interval (None without deals), ``mean_game_points`` per seat-hand.
    ``names``: the AIs' display names (default ``config.ais``; see PLUGINS.md "One name
    everywhere"), made unique by :func:`~ai_plugins.arena.label_names`.
    """
    labels = label_names(list(names) if names is not None else config.ais)
    k = len(labels)
    outcomes = {p: {d: deal_outcome(rows) for d, rows in by.items() if d < deals}
                for p, by in results.items()}
    rated = rate(k, outcomes, bootstrap=bootstrap, seed=config.seed)
    tally = {i: {"deals": 0, "won": 0, "lost": 0, "tied": 0, "points": [], } for i in range(k)}
    pair_rows = []
    for (i, j), by in sorted(results.items()):
        o = outcomes[(i, j)]
        a_won = sum(1 for v in o.values() if v == 1.0)
        b_won = sum(1 for v in o.values() if v == 0.0)
        tied = len(o) - a_won - b_won
        pts = {0: [], 1: []}
        for d in sorted(o):
            for r in by[d]:
                pts[r.ai].append(r.game_points)
        for side, me, won, lost in ((0, i, a_won, b_won), (1, j, b_won, a_won)):
            t = tally[me]
            t["deals"] += len(o)
            t["won"] += won
            t["lost"] += lost
            t["tied"] += tied
            t["points"].extend(pts[side])
        pair_rows.append({"a": labels[i], "b": labels[j], "deals": len(o), "a_won": a_won,
                          "b_won": b_won, "tied": tied,
                          "a_mean_game_points": statistics.fmean(pts[0]) if pts[0] else None})
    ratings = {}
    for i, label in enumerate(labels):
        r, lo, hi = rated[i]
        t = tally[i]
        ratings[label] = {"rating": r, "low": lo, "high": hi, "deals": t["deals"],
                          "won": t["won"], "lost": t["lost"], "tied": t["tied"],
                          "mean_game_points": statistics.fmean(t["points"]) if t["points"]
                          else None}
    complete = all(len(o) == deals for o in outcomes.values())
    return {"seed": config.seed, "decks": config.decks, "deals": deals,
            "budget_s": config.budget_s, "options": config.options, "complete": complete,
            "method": f"Bradley-Terry on deals won (ties half, {PRIOR_TIES:g} virtual tied deal "
                      f"per pair), Elo scale, mean 0; 95% interval: {bootstrap} bootstrap "
                      f"resamples of the deals",
            "ratings": ratings, "pairs": pair_rows}


def format_league(summary: dict[str, Any]) -> list[str]:
    """The table ``hongwu league`` prints, best rating first, as lines."""
    def num(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    ranked = sorted(summary["ratings"].items(), key=lambda kv: -kv[1]["rating"])
    head = ("rank", "AI", "rating", "95% interval", "deals", "won", "lost", "tied",
            "game pts/hand")
    rows = [head]
    for n, (label, s) in enumerate(ranked, start=1):
        interval = (f"[{s['low']:+.0f}, {s['high']:+.0f}]" if s["low"] is not None else "-")
        rows.append((str(n), label, f"{s['rating']:+.0f}", interval, str(s["deals"]),
                     str(s["won"]), str(s["lost"]), str(s["tied"]),
                     num(s["mean_game_points"], "+.2f")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    state = "" if summary["complete"] else " (incomplete: rerun with the same --results)"
    lines = [f"league: {len(ranked)} AIs, {summary['deals']} deals per pair "
             f"(line-ups ABAB, BABA), {summary['decks']} decks, seed {summary['seed']}{state}"]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i in (0, 1) else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    lines.append("pairs (deals won-lost-tied, first AI's game pts/hand):")
    for p in summary["pairs"]:
        lines.append(f"  {p['a']} vs {p['b']}: {p['a_won']}-{p['b_won']}-{p['tied']} of "
                     f"{p['deals']}, {num(p['a_mean_game_points'], '+.2f')}")
    return lines


def run_league(config: ArenaConfig, deals: int, *, executor: Executor | None = None,
               jobs: int | None = None, results_file: str | Path | None = None,
               limit: int | None = None, bootstrap: int = 200,
               progress: Callable[[int], None] | None = None) -> dict[str, Any]:
    """Play every pair of ``config.ais`` (2 or more) on ``deals`` duplicate deals and return
    :func:`summarize_league`'s dictionary.

    ``executor`` (default ``local_executor(jobs)``) runs the chunks, e.g. on Dask;
    ``results_file`` appends each finished chunk and resumes from what it holds; ``limit``
    stops after that many chunks of this run (``complete`` is then False); ``progress(n)``
    is called with the deals of each finished chunk. Raises ValueError (fewer than 2 AIs,
    bad decks or deals, a results file of another league) and
    :class:`~ai_plugins.base.AIError` (unknown or clashing AI).
    """
    if len(config.ais) < 2:
        raise ValueError("a league needs at least 2 AIs")
    if config.decks not in (2, 3):
        raise ValueError("decks must be 2 or 3")
    if deals < 1:
        raise ValueError("--hands must be at least 1")
    manager = config.manager()
    report_problems(manager.problems, log)
    names = [manager.resolve(name).name for name in config.ais]
    path = Path(results_file) if results_file else None
    results = load_results(path, config) if path else {p: {} for p in pairs(len(config.ais))}
    todo = [(p, [d for d in range(deals) if d not in results[p]]) for p in results]
    todo = [(p, ds) for p, ds in todo if ds]
    already = sum(len(by) for by in results.values())
    if progress and already:
        progress(already)
    executor = executor or local_executor(jobs)
    out = None
    if path is not None:
        fresh = not path.exists() or path.stat().st_size == 0
        if not fresh:
            with path.open("rb") as fh:
                fh.seek(-1, 2)
                cut = fh.read(1) != b"\n"  # a last line cut short: start a new line
        out = path.open("a", encoding="utf-8")
        if not fresh and cut:
            out.write("\n")
        if fresh:
            out.write(json.dumps(header(config)) + "\n")
            out.flush()
    try:
        if todo and limit != 0:
            work = [(pair_config(config, p), ds) for p, ds in todo]
            gen = executor(work)
            try:
                for count, (item, got) in enumerate(gen, start=1):
                    pair = todo[item][0]
                    for d, rows in got:
                        results[pair][d] = rows
                    if out is not None:
                        line = {"pair": list(pair),
                                "results": [[d, [dataclasses.asdict(r) for r in rows]]
                                            for d, rows in got]}
                        out.write(json.dumps(line) + "\n")
                        out.flush()
                    if progress:
                        progress(len(got))
                    if limit is not None and count >= limit:
                        break
            finally:
                close = getattr(gen, "close", None)
                if close:
                    close()
    finally:
        if out is not None:
            out.close()
    return summarize_league(config, deals, results, bootstrap, names)


def write_plot(summary: dict[str, Any], path: str | Path) -> None:
    """Write the ratings and their intervals as a PNG chart to ``path`` (best first)."""
    from .png_chart import interval_chart

    ranked = sorted(summary["ratings"].items(), key=lambda kv: -kv[1]["rating"])
    rows = [(label, s["rating"], s["low"], s["high"]) for label, s in ranked]
    title = f"league ratings, {summary['deals']} deals per pair, seed {summary['seed']}"
    Path(path).write_bytes(interval_chart(rows, title))


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``league`` sub-command to the ``hongwu`` parser's subparsers."""
    from .cluster import add_scheduler_option

    p = subparsers.add_parser(
        "league", help="rate AIs: every pair on duplicate deals, Bradley-Terry ratings",
        description="Play every pair of AIs on the same duplicate deals and rate each AI "
                    "(Bradley-Terry on deals won, Elo scale, 95% bootstrap interval).")
    p.add_argument("--ai", action="append", required=True, metavar="NAME",
                   help="an AI name (see 'hongwu ai list') or module:object; at least twice")
    p.add_argument("--hands", type=int, default=100, metavar="N",
                   help="deals per pair (default 100); each is played in line-ups ABAB and BABA")
    p.add_argument("--decks", type=int, choices=(2, 3), default=2, help="decks (default 2)")
    p.add_argument("--seed", type=int, default=None,
                   help="match seed (default: random, printed; needed to resume)")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="local worker processes (default: all cores; 1 runs in-process)")
    p.add_argument("--budget", type=float, default=DEFAULT_BUDGET_S, metavar="SECONDS",
                   help=f"time budget per AI decision (default {DEFAULT_BUDGET_S:g})")
    p.add_argument("--think-ms", type=int, default=None, metavar="MS",
                   help="thinking time per decision for AIs that search (expert; default 500)")
    p.add_argument("--samples", type=int, default=None, metavar="N",
                   help="a fixed number of samples per decision for AIs that sample (expert) "
                        "instead of a time: the same numbers on any machine or cluster")
    p.add_argument("--json", metavar="FILE", help="also write the numbers as JSON to FILE")
    p.add_argument("--plot", metavar="FILE.png", help="also draw the ratings as a PNG chart")
    p.add_argument("--results", metavar="FILE",
                   help="append every finished chunk to FILE (JSON lines) and resume from it")
    p.add_argument("--limit", type=int, default=None, metavar="CHUNKS",
                   help="stop after this many chunks (resume later with the same --results)")
    p.add_argument("--bootstrap", type=int, default=200, metavar="B",
                   help="bootstrap resamples for the intervals (default 200; 0: none)")
    p.add_argument("--quiet", action="store_true", help="no progress on standard error")
    add_discovery_options(p)
    add_scheduler_option(p)
    p.set_defaults(func=run_cli)
    return p


def run_cli(ns: argparse.Namespace) -> int:
    """Run the league from parsed arguments; prints the table; 0, or 2 on bad input."""
    from .cluster import ClusterError, executor_from_args

    if ns.seed is None and ns.results:
        print("error: --results needs --seed (a resumed league must replay the same deals)",
              file=sys.stderr)
        return 2
    seed = ns.seed if ns.seed is not None else random.SystemRandom().randrange(2**31)
    if ns.seed is None:
        print(f"seed {seed}", file=sys.stderr)
    options = {"think_ms": ns.think_ms} if ns.think_ms is not None else {}
    if ns.samples is not None:
        options["samples"] = ns.samples
    config = ArenaConfig(ais=tuple(ns.ai), deals=ns.hands, decks=ns.decks, seed=seed,
                         budget_s=ns.budget, options=options,
                         plugin_dirs=tuple(ns.plugin_dir), user_dir=not ns.no_user_plugins)
    k = len(ns.ai)
    bar = Progress(ns.hands * k * (k - 1) // 2, enabled=not ns.quiet)
    try:
        summary = run_league(config, ns.hands, executor=executor_from_args(ns), jobs=ns.jobs,
                             results_file=ns.results, limit=ns.limit, bootstrap=ns.bootstrap,
                             progress=bar.advance)
    except (AIError, ValueError, ClusterError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for line in format_league(summary):
        print(line)
    if ns.json:
        with open(ns.json, "w", encoding="utf-8") as fh:
            json.dump(summary, fh, indent=2)
            fh.write("\n")
    if ns.plot:
        write_plot(summary, ns.plot)
    return 0


__all__ = ["run_league", "summarize_league", "format_league", "load_results", "pairs",
           "deal_outcome", "write_plot", "add_parser", "run_cli"]
