"""``hongwu play --ruleset zhaopengyou``: 找朋友 matches without a window (AIs only).

There is no 找朋友 table window yet: every seat must be an AI and ``--speed instant`` given;
otherwise this says so and exits with status 2. With ``--profile NAME`` (or a selected
profile) every finished hand is recorded for that profile, seat 0 (README "Career"); a run
without ``--seed`` then draws one, so every hand can be replayed. ``--stake`` is refused:
找朋友 hands carry no coins (RULES.md §12). It prints one result line per hand
(:func:`engine.zhaopengyou.result_line`); ``--hands N`` stops after N hands, ``--match`` plays
until the game ends (找朋友 rules §10) or ``--max-hands`` hands, whichever comes first.
The seats share one :class:`~ai_plugins.faults.FaultLedger` (faults, drops, the summary block
logged at the end), as at a 红五 table; what plugins print is kept out of the result lines by
the capture that ``hongwu play`` sets up (:mod:`ai_plugins.capture`).
"""
from __future__ import annotations

import argparse
import sys
from typing import TextIO

from engine.match import ZpyMatch
from engine.ruleset import zhaopengyou
from engine.state import match_seed

DEFAULT_MAX_HANDS = 300
"""Hands after which ``--match`` stops when nobody has won the game yet."""

HEADLESS_ONLY = ("hongwu play: 找朋友 (--ruleset zhaopengyou) is headless for now: give five AI seats "
                 "(e.g. --seats basic,basic,basic,basic,basic) and --speed instant; a table window "
                 "for it is still to come")


def parse_options(texts: list[str]) -> dict:
    """``--option NAME=VALUE`` texts -> a mapping for :meth:`ZhaoPengyouOptions.from_mapping`:
    bools accept true/false, yes/no, on/off, 1/0; ints a decimal number; ``must_play_levels``
    a comma-separated list of levels (``5,10,K``); the rest (enums) their text. Raises
    ValueError with a message for people (the form, an unknown name, a bad value)."""
    from dataclasses import fields

    from engine.ruleset import ZhaoPengyouOptions

    kinds = {f.name: f.type for f in fields(ZhaoPengyouOptions)}
    out: dict = {}
    for text in texts:
        name, sep, raw = text.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name:
            raise ValueError(f"a 找朋友 option is written NAME=VALUE, not {text!r}")
        if name not in kinds:
            raise ValueError(f"unknown 找朋友 option {name!r}; options: {', '.join(kinds)}")
        kind = str(kinds[name])
        if name == "must_play_levels":
            out[name] = [v for v in raw.split(",") if v.strip()]
        elif kind == "bool":
            low = raw.lower()
            if low not in ("true", "yes", "on", "1", "false", "no", "off", "0"):
                raise ValueError(f"option {name} takes true or false, not {raw!r}")
            out[name] = low in ("true", "yes", "on", "1")
        elif kind == "int":
            try:
                out[name] = int(raw, 10)
            except ValueError:
                raise ValueError(f"option {name} takes a whole number, not {raw!r}") from None
        else:
            out[name] = raw
    ZhaoPengyouOptions.from_mapping(dict(out))  # the checks of the options themselves
    return out


def run(ns: argparse.Namespace, out: TextIO | None = None) -> int:
    """Play the 找朋友 match asked for by ``hongwu play`` arguments ``ns``; returns the exit
    status: 0 done, 2 for options that need a window or are invalid."""
    out = out or sys.stdout
    if getattr(ns, "stake", 0):
        print("hongwu play: 找朋友 hands carry no coins (RULES.md §12): --stake is for 红五",
              file=sys.stderr)
        return 2
    if getattr(ns, "rule", None):
        print("hongwu play: --rule sets 红五 house rules; use --option NAME=VALUE with --ruleset zhaopengyou",
              file=sys.stderr)
        return 2
    try:
        ruleset = zhaopengyou(**parse_options(list(getattr(ns, "option", None) or [])))
    except (TypeError, ValueError) as exc:
        print(f"hongwu play: {exc}", file=sys.stderr)
        return 2
    n = ruleset.players
    seats = ns.seats or ["basic"] * n
    if ns.speed != "instant" or "human" in seats:
        print(HEADLESS_ONLY, file=sys.stderr)
        return 2
    if len(seats) != n:
        print(f"hongwu play: 找朋友 needs {n} seats, {len(seats)} given (--seats a,b,c,d,e)", file=sys.stderr)
        return 2
    if ns.hands is None and not ns.match:
        print("hongwu play: give --hands N or --match with --ruleset zhaopengyou", file=sys.stderr)
        return 2
    max_hands = ns.max_hands if ns.max_hands is not None else DEFAULT_MAX_HANDS
    if max_hands < 1:
        print("hongwu play: --max-hands must be at least 1", file=sys.stderr)
        return 2
    from ai_plugins.manager import AIManager, report_problems

    manager = AIManager(plugin_dirs=list(ns.plugin_dir), ai_specs=list(ns.ai), user_dir=not ns.no_user_plugins)
    report_problems(manager.problems)
    errors = []
    for kind in dict.fromkeys(seats):
        try:
            manager.resolve(kind)
        except Exception as exc:
            errors.append(f"seat {seats.index(kind)}: {exc}")
    if errors:
        for line in errors:
            print(f"hongwu play: error: {line}", file=sys.stderr)
        return 2
    recorder = None
    if hasattr(ns, "profile"):  # --profile NAME, or the selected profile (hongwu profile use)
        from game.career.cli import recorder_for_play

        recorder, message, code = recorder_for_play(ns)
        if message:
            print(f"hongwu play: {message}", file=sys.stderr)
            return code
    try:
        return _play(ns, ruleset, seats, max_hands, manager, recorder, out)
    finally:
        if recorder is not None:
            recorder.store.close()


def _play(ns: argparse.Namespace, ruleset, seats: list[str], max_hands: int, manager, recorder, out: TextIO) -> int:
    """Play the match; with ``recorder`` (a :class:`game.career.Recorder`) every finished hand
    is recorded for its profile (seat 0) before its result line is printed (README "Career")."""
    from ai_plugins.matches import play_match
    from ai_plugins.faults import FaultLedger
    from ai_plugins.runner import make_player

    if recorder is not None and ns.seed is None:  # a replay deals again from the seed
        import random

        ns.seed = random.SystemRandom().getrandbits(40)
    base = ns.seed if ns.seed is not None else None
    ledger = FaultLedger()  # one per match: an AI dropped for one seat is dropped for all
    players = [make_player(manager, kind, seat, ns.ai_budget,
                           seed=(match_seed(base, 10_000 + seat) if base is not None else seat),
                           ledger=ledger)
               for seat, kind in enumerate(seats)]
    from ai_plugins.hookspecs import DEFAULT_RULESETS

    for seat, p in enumerate(players):
        if p.ai is not None and "zhaopengyou" not in tuple(getattr(p.ai, "rulesets", DEFAULT_RULESETS)):
            print(f"hongwu play: note: seat {seat}: {seats[seat]} does not play 找朋友; basic plays that seat",
                  file=sys.stderr)
    match = ZpyMatch(ruleset, seed=ns.seed, max_hands=ns.hands if ns.hands is not None else max_hands)

    def report(hand) -> None:
        from engine.zhaopengyou import result_line

        if recorder is not None:
            recorder.zpy_hand_finished(match, list(seats))
        print(result_line(hand), file=out, flush=True)

    from game.table import report_faults

    try:
        played = play_match(match, players, on_hand=report)
    finally:
        for p in players:
            p.close()
        report_faults(players)  # one warning block (standard error): lost decisions by reason
    if ns.match and not match.game_over:
        print(f"match stopped after {played} hands without a game winner (--max-hands {max_hands})",
              file=out, flush=True)
    elif match.game_over:
        print(f"game over after {played} hands: seat {', '.join(map(str, match.winners))} won",
              file=out, flush=True)
    return 0
