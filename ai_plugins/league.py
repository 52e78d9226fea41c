"""``hongwu league``: a round robin of AIs on duplicate deals, with a rating for each.

Usage::

    hongwu league --ai basic --ai random --ai expert [--hands 200] [--seed 7] [--think-ms 100]
                  [--ruleset hongwu|zhaopengyou]
                  [--jobs J | --scheduler tcp://HOST:8786] [--json FILE] [--plot FILE.png]
                  [--results FILE.jsonl] [--limit CHUNKS] [--bootstrap 200]

Every pair of AIs plays the same ``--hands`` deals as a two-AI arena (:mod:`ai_plugins.arena`:
line-ups ``ABAB`` and ``BABA``, the same seeds). A pair's *deal* is won by the AI with more game
points over both line-ups; :mod:`ai_plugins.ratings` fits Bradley–Terry ratings (Elo scale,
mean 0) on those outcomes, with a 95% bootstrap interval over deals.

**找朋友** (``--ruleset zhaopengyou``, RULES.md "找朋友"): every pair plays the same deals as a
two-AI 找朋友 arena (:mod:`ai_plugins.arena_zpy`: the ten line-ups ``ABABA``, ``BABAA``, ... that
rotate the two AIs through the five seats, each AI 25 seat-hands per deal). A pair's deal is won
by the AI with the higher mean level gain per hand over that deal's line-ups (equal: a tie, half
each); the table adds each AI's mean level gain per hand with a 95% interval over its
(pair, deal) means. Three decks always; ``--decks`` is refused.

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
from .arena_zpy import ZpySeatResult
from .base import AIError
from .manager import add_discovery_options, report_problems
from .ratings import PRIOR_TIES, ci95_half_width, rate
from .runner import DEFAULT_BUDGET_S
from .specs import spec_label, spec_name

log = logging.getLogger(__name__)

RESULTS_FORMAT = 1
"""Version of the ``--results`` file format (the ``league`` field of its header line)."""

#: ``{(i, j): {deal: [SeatResult, ...]}}``: the results of pair ``i < j`` (indices into ais);
#: :class:`~ai_plugins.arena_zpy.ZpySeatResult` rows at 找朋友.
PairResults = dict[tuple[int, int], dict[int, list[Any]]]

RULESETS = ("hongwu", "zhaopengyou")
"""The rulesets a league plays (``ArenaConfig.ruleset``)."""


def is_zpy(config: ArenaConfig) -> bool:
    """True for a 找朋友 league (``config.ruleset == "zhaopengyou"``)."""
    return config.ruleset == "zhaopengyou"


def pairs(k: int) -> list[tuple[int, int]]:
    """Every pair ``(i, j)``, ``i < j``, of ``k`` AIs, in order: ``pairs(3) == [(0, 1), (0, 2),
    (1, 2)]``."""
    return list(combinations(range(k), 2))


def pair_config(config: ArenaConfig, pair: tuple[int, int]) -> ArenaConfig:
    """The two-AI arena configuration of ``pair`` (``config.ais`` holds every AI)."""
    return dataclasses.replace(config, ais=(config.ais[pair[0]], config.ais[pair[1]]))


def header(config: ArenaConfig) -> dict[str, Any]:
    """The first line of a results file: what must match for it to be resumed. A 找朋友
    league adds ``"ruleset": "zhaopengyou"`` (红五 files keep the form they always had)."""
    head = {"league": RESULTS_FORMAT, "ais": list(config.ais), "decks": config.decks,
            "seed": config.seed, "budget_s": config.budget_s, "options": config.options}
    if config.ruleset != "hongwu":
        head["ruleset"] = config.ruleset
    return head


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
        keys = list(want) + [k for k in head if k not in want] if isinstance(head, dict) else []
        diff = ", ".join(f"{k}: file {head.get(k)!r}, now {want.get(k)!r}" for k in keys
                         if head.get(k) != want.get(k)) or "not a league header"
        raise ValueError(f"{path} holds another league ({diff}); give a new --results file")
    row_type = ZpySeatResult if is_zpy(config) else SeatResult
    for n, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
            pair = (int(entry["pair"][0]), int(entry["pair"][1]))
            for deal, rows in entry["results"]:
                done[pair][int(deal)] = [row_type(**r) for r in rows]
        except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            log.warning("%s line %d skipped (%s)", path, n, exc)
    return done


def deal_outcome(rows: Sequence[SeatResult]) -> float:
    """1, 0.5 or 0: the first AI of a pair's result on one 红五 deal (more game points wins)."""
    a = sum(r.game_points for r in rows if r.ai == 0)
    b = sum(r.game_points for r in rows if r.ai == 1)
    return 1.0 if a > b else 0.5 if a == b else 0.0


def _mean_gain(rows: Sequence[ZpySeatResult], ai: int) -> float | None:
    """Mean levels gained per seat-hand by AI ``ai`` (0 or 1) in ``rows`` (None: no hands)."""
    gains = [r.gain for r in rows if r.ai == ai]
    return statistics.fmean(gains) if gains else None


def zpy_deal_outcome(rows: Sequence[ZpySeatResult]) -> float:
    """1, 0.5 or 0: the first AI of a pair's result on one 找朋友 deal: the AI with the higher
    mean level gain per hand over the deal's line-ups wins, equal means tie (RULES.md "找朋友"
    §9–§10 for the gains). Raises ValueError when either AI has no seat-hand in ``rows``."""
    a, b = _mean_gain(rows, 0), _mean_gain(rows, 1)
    if a is None or b is None:
        raise ValueError("a 找朋友 deal needs seat-hands of both AIs")
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

    A 找朋友 league (``config.ruleset == "zhaopengyou"``) adds ``"ruleset": "zhaopengyou"``,
    rates on :func:`zpy_deal_outcome`, and instead of ``mean_game_points`` gives each AI
    ``mean_level_gain`` (levels per seat-hand) and ``ci95`` (half-width of its 95% interval,
    normal approximation over the AI's per-(pair, deal) means; None below 2 of them), and each
    pair ``a_mean_level_gain`` and ``b_mean_level_gain``.
    """
    zpy = is_zpy(config)
    labels = label_names(list(names) if names is not None else config.ais)
    k = len(labels)
    outcome = zpy_deal_outcome if zpy else deal_outcome
    outcomes = {p: {d: outcome(rows) for d, rows in by.items() if d < deals}
                for p, by in results.items()}
    rated = rate(k, outcomes, bootstrap=bootstrap, seed=config.seed)
    tally = {i: {"deals": 0, "won": 0, "lost": 0, "tied": 0, "points": [], "deal_means": []}
             for i in range(k)}
    pair_rows = []
    for (i, j), by in sorted(results.items()):
        o = outcomes[(i, j)]
        a_won = sum(1 for v in o.values() if v == 1.0)
        b_won = sum(1 for v in o.values() if v == 0.0)
        tied = len(o) - a_won - b_won
        pts: dict[int, list[float]] = {0: [], 1: []}
        for d in sorted(o):
            for r in by[d]:
                pts[r.ai].append(r.gain if zpy else r.game_points)
        for side, me, won, lost in ((0, i, a_won, b_won), (1, j, b_won, a_won)):
            t = tally[me]
            t["deals"] += len(o)
            t["won"] += won
            t["lost"] += lost
            t["tied"] += tied
            t["points"].extend(pts[side])
            if zpy:
                t["deal_means"].extend(_mean_gain(by[d], side) for d in sorted(o))
        row = {"a": labels[i], "b": labels[j], "deals": len(o), "a_won": a_won,
               "b_won": b_won, "tied": tied}
        if zpy:
            row["a_mean_level_gain"] = statistics.fmean(pts[0]) if pts[0] else None
            row["b_mean_level_gain"] = statistics.fmean(pts[1]) if pts[1] else None
        else:
            row["a_mean_game_points"] = statistics.fmean(pts[0]) if pts[0] else None
        pair_rows.append(row)
    ratings = {}
    for i, label in enumerate(labels):
        r, lo, hi = rated[i]
        t = tally[i]
        mean = statistics.fmean(t["points"]) if t["points"] else None
        ratings[label] = {"rating": r, "low": lo, "high": hi, "deals": t["deals"],
                          "won": t["won"], "lost": t["lost"], "tied": t["tied"]}
        if zpy:
            ratings[label].update(mean_level_gain=mean, ci95=ci95_half_width(t["deal_means"]))
        else:
            ratings[label]["mean_game_points"] = mean
    complete = all(len(o) == deals for o in outcomes.values())
    won_on = "higher mean level gain per hand" if zpy else "more game points"
    summary = {"seed": config.seed, "decks": config.decks, "deals": deals,
               "budget_s": config.budget_s, "options": config.options, "complete": complete,
               "method": f"Bradley-Terry on deals won ({won_on}; ties half, {PRIOR_TIES:g} "
                         f"virtual tied deal per pair), Elo scale, mean 0; 95% interval: "
                         f"{bootstrap} bootstrap resamples of the deals",
               "ratings": ratings, "pairs": pair_rows}
    if zpy:
        summary["ruleset"] = "zhaopengyou"
    return summary


def format_league(summary: dict[str, Any]) -> list[str]:
    """The table ``hongwu league`` prints, best rating first, as lines."""
    def num(x: Any, fmt: str) -> str:
        return "-" if x is None else format(x, fmt)

    def gain(s: dict[str, Any]) -> str:
        g = num(s["mean_level_gain"], ".3f")
        return g if s["ci95"] is None else f"{g} ± {s['ci95']:.3f}"

    zpy = summary.get("ruleset") == "zhaopengyou"
    ranked = sorted(summary["ratings"].items(), key=lambda kv: -kv[1]["rating"])
    head = ("rank", "AI", "rating", "95% interval", "deals", "won", "lost", "tied",
            "levels/hand (95% CI)" if zpy else "game pts/hand")
    rows = [head]
    for n, (label, s) in enumerate(ranked, start=1):
        interval = (f"[{s['low']:+.0f}, {s['high']:+.0f}]" if s["low"] is not None else "-")
        rows.append((str(n), label, f"{s['rating']:+.0f}", interval, str(s["deals"]),
                     str(s["won"]), str(s["lost"]), str(s["tied"]),
                     gain(s) if zpy else num(s["mean_game_points"], "+.2f")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    state = "" if summary["complete"] else " (incomplete: rerun with the same --results)"
    if zpy:
        lines = [f"league (找朋友): {len(ranked)} AIs, {summary['deals']} deals per pair "
                 f"(10 line-ups ABABA, BABAA, ...), 3 decks, seed {summary['seed']}{state}"]
    else:
        lines = [f"league: {len(ranked)} AIs, {summary['deals']} deals per pair "
                 f"(line-ups ABAB, BABA), {summary['decks']} decks, seed {summary['seed']}{state}"]
    for r in rows:
        lines.append("  ".join(c.ljust(w) if i in (0, 1) else c.rjust(w)
                               for i, (c, w) in enumerate(zip(r, widths))))
    if zpy:
        lines.append("pairs (deals won-lost-tied, levels/hand of each):")
        for p in summary["pairs"]:
            lines.append(f"  {p['a']} vs {p['b']}: {p['a_won']}-{p['b_won']}-{p['tied']} of "
                         f"{p['deals']}, {num(p['a_mean_level_gain'], '.3f')} vs "
                         f"{num(p['b_mean_level_gain'], '.3f')}")
        return lines
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
    is called with the deals of each finished chunk. ``config.ruleset`` is ``"hongwu"`` or
    ``"zhaopengyou"`` (then ``config.decks`` must be 3). Raises ValueError (fewer than 2 AIs,
    an unknown ruleset, bad decks or deals, a results file of another league) and
    :class:`~ai_plugins.base.AIError` (unknown or clashing AI).
    """
    if len(config.ais) < 2:
        raise ValueError("a league needs at least 2 AIs")
    if config.ruleset not in RULESETS:
        raise ValueError(f"unknown ruleset {config.ruleset!r} (known: {', '.join(RULESETS)})")
    if is_zpy(config) and config.decks != 3:
        raise ValueError("找朋友 (zhaopengyou) is played with 3 decks")
    if config.decks not in (2, 3):
        raise ValueError("decks must be 2 or 3")
    if deals < 1:
        raise ValueError("--hands must be at least 1")
    manager = config.manager()
    report_problems(manager.problems, log)
    names = [spec_label(manager.resolve(spec_name(a)).name, a) for a in config.ais]
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
    # the chart's bitmap font is ASCII only: the ruleset by its ASCII name
    game = "zhaopengyou " if summary.get("ruleset") == "zhaopengyou" else ""
    title = f"{game}league ratings, {summary['deals']} deals per pair, seed {summary['seed']}"
    Path(path).write_bytes(interval_chart(rows, title))


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``league`` sub-command to the ``hongwu`` parser's subparsers."""
    from .cluster import add_scheduler_option

    p = subparsers.add_parser(
        "league", help="rate AIs: every pair on duplicate deals, Bradley-Terry ratings",
        description="Play every pair of AIs on the same duplicate deals and rate each AI "
                    "(Bradley-Terry on deals won, Elo scale, 95% bootstrap interval).")
    p.add_argument("--ai", action="append", required=True, metavar="NAME",
                   help="an AI name (see 'hongwu ai list') or module:object, optionally NAME@key=value,... with its own options (budget=SECONDS its budget); at least twice")
    p.add_argument("--hands", type=int, default=100, metavar="N",
                   help="deals per pair (default 100); each is played in line-ups ABAB and BABA")
    p.add_argument("--decks", type=int, choices=(2, 3), default=None,
                   help="decks at 红五 (default 2; not with --ruleset zhaopengyou, always 3)")
    p.add_argument("--ruleset", choices=RULESETS, default="hongwu",
                   help="hongwu (红五, default: deals won on game points) or zhaopengyou "
                        "(找朋友: five seats, three decks, deals won on level gain per hand)")
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

    ruleset = getattr(ns, "ruleset", "hongwu")
    if ruleset == "zhaopengyou" and ns.decks is not None:
        print("error: --decks does not apply to --ruleset zhaopengyou (找朋友 is always "
              "played with three decks)", file=sys.stderr)
        return 2
    decks = 3 if ruleset == "zhaopengyou" else (ns.decks or 2)
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
    config = ArenaConfig(ais=tuple(ns.ai), deals=ns.hands, decks=decks, seed=seed,
                         budget_s=ns.budget, options=options,
                         plugin_dirs=tuple(ns.plugin_dir), user_dir=not ns.no_user_plugins,
                         ruleset=ruleset)
    k = len(ns.ai)
    bar = Progress(ns.hands * k * (k - 1) // 2, enabled=not ns.quiet, label="league")
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
           "deal_outcome", "zpy_deal_outcome", "write_plot", "add_parser", "run_cli",
           "RULESETS"]
