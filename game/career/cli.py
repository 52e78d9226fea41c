"""``hongwu profile``, ``records``, ``stats`` and ``replay`` (wired in :mod:`game.cli`), and
the ``--profile`` / ``--stake`` part of ``hongwu play`` (:func:`recorder_for_play`).
README "Career" describes them; exit codes: 0 done, 1 a replay that does not verify, 2 bad
input (unknown profile or record, bad name), 4 the daily coin cap refuses a hand."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

EXIT_BAD = 2
EXIT_CAPPED = 4


def _open(cmd: str):
    from game.career import open_store

    store = open_store()
    if store.set_aside:
        reason, moved = store.set_aside
        print(f"hongwu {cmd}: the career database was unusable ({reason}); it was moved to {moved} "
              "and a new one started", file=sys.stderr)
    return store


def _when(t: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t)) if t else "never"


def _profile_of(store: Any, name: str | None, cmd: str):
    """The named profile, or the current one; raises CareerError when there is neither."""
    from game.career import CareerError

    if name:
        return store.profile(name)
    p = store.current_profile()
    if p is None:
        raise CareerError("no profile given and none selected (hongwu profile use NAME, or --profile NAME)")
    return p


# --- profile -------------------------------------------------------------------------------
def add_profile_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``hongwu profile new|list|use|show``."""
    from game.career.store import AVATARS

    p = sub.add_parser("profile", help="player profiles (career: titles, coins, records)",
                       description="Create, list, select and show player profiles (README \"Career\").")
    ps = p.add_subparsers(dest="profile_cmd", metavar="new|list|use|show")
    n = ps.add_parser("new", help="create a profile")
    n.add_argument("name")
    n.add_argument("--avatar", choices=AVATARS, default=None, help="avatar (default: the first unused)")
    n.add_argument("--json", action="store_true")
    ls = ps.add_parser("list", help="list the profiles")
    ls.add_argument("--json", action="store_true")
    u = ps.add_parser("use", help="select the profile that plays (seat 0) from now on")
    u.add_argument("name")
    s = ps.add_parser("show", help="a profile's standing: points, title, next title, coins, hands")
    s.add_argument("name", nargs="?", default=None, help="default: the selected profile")
    s.add_argument("--json", action="store_true")
    s.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the titles (default zh)")
    p.set_defaults(func=run_profile)
    return p


def run_profile(ns: argparse.Namespace) -> int:
    """Run ``hongwu profile ...``; returns the exit code."""
    from game.career import CareerError, profile_summary

    cmd = getattr(ns, "profile_cmd", None)
    if cmd is None:
        print("hongwu profile: choose new, list, use or show (hongwu profile --help)", file=sys.stderr)
        return EXIT_BAD
    store = _open("profile")
    try:
        if cmd == "new":
            p = store.create_profile(ns.name, ns.avatar)
            if ns.json:
                print(json.dumps(profile_summary(store, p.name), ensure_ascii=False))
            else:
                print(f"profile {p.name} created (avatar {p.avatar})")
        elif cmd == "list":
            rows = [profile_summary(store, p.name) for p in store.profiles()]
            if ns.json:
                print(json.dumps(rows, ensure_ascii=False))
            elif not rows:
                print("no profiles yet: hongwu profile new NAME")
            for r in rows if not ns.json else ():
                mark = "*" if r["current"] else " "
                print(f"{mark} {r['name']}: {r['points']} points ({r['title']}), {r['coins']:,} coins, "
                      f"{r['hands']} hands, last played {_when(r['last_played'])}")
        elif cmd == "use":
            p = store.use_profile(ns.name)
            print(f"profile {p.name} selected")
        else:
            p = _profile_of(store, ns.name, "profile")
            r = profile_summary(store, p.name, ns.lang)
            if ns.json:
                print(json.dumps(r, ensure_ascii=False))
            else:
                nxt = (f"{r['next_title']} at {r['next_threshold']} ({r['progress']:.0%} of the way)"
                       if r["next_title"] else "none (top title)")
                print(f"name: {r['name']}\navatar: {r['avatar']}\npoints: {r['points']}\ntitle: {r['title']}\n"
                      f"next title: {nxt}\ncoins: {r['coins']:,}\nhands: {r['hands']}\n"
                      f"created: {_when(r['created'])}\nlast played: {_when(r['last_played'])}")
        return 0
    except CareerError as exc:
        print(f"hongwu profile: {exc}", file=sys.stderr)
        return EXIT_BAD
    finally:
        store.close()


# --- records -------------------------------------------------------------------------------
def add_records_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``hongwu records [--profile NAME] [--last N] [--json]``."""
    p = sub.add_parser("records", help="a profile's recorded hands (战绩), oldest first")
    p.add_argument("--profile", default=None, help="default: the selected profile")
    p.add_argument("--last", type=int, default=None, metavar="N", help="only the newest N hands")
    p.add_argument("--json", action="store_true", help="one JSON list")
    p.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default=None,
                   help="only this game's hands (default: both)")
    p.set_defaults(func=run_records)
    return p


def run_records(ns: argparse.Namespace) -> int:
    """Run ``hongwu records``; returns the exit code."""
    from game.career import CareerError

    store = _open("records")
    try:
        p = _profile_of(store, ns.profile, "records")
        recs = store.records(p.id, ns.last, getattr(ns, "ruleset", None))
        zpy = {z.record_id: z for z in store.zpy_hands(p.id)} if any(r.ruleset == "zhaopengyou" for r in recs) else {}
        if ns.json:
            print(json.dumps([_record_dict(r, zpy) for r in recs], ensure_ascii=False))
            return 0
        for r in recs:
            if r.id in zpy:
                print(_zpy_line(r, zpy[r.id]))
                continue
            gp = ",".join(f"{g:+d}" for g in r.game_points)
            coins = f" coins {r.my_coins:+,}" if r.stake else ""
            print(f"#{r.id} {_when(r.time)} dealer seat {r.dealer} ({r.seats[r.dealer]}) bid {r.bid} trump {r.trump} "
                  f"points {r.points} final {r.dealer_final:+d} game points [{gp}] you {r.my_points:+d}{coins}")
        if not recs:
            print(f"no recorded hands for {p.name} yet")
        return 0
    except CareerError as exc:
        print(f"hongwu records: {exc}", file=sys.stderr)
        return EXIT_BAD
    finally:
        store.close()


def _record_dict(r: Any, zpy: dict) -> dict:
    """A record's JSON form; a 找朋友 record also carries its ``zpy_hands`` fields."""
    d = r.as_dict()
    if r.id in zpy:
        d.update({k: v for k, v in zpy[r.id].as_dict().items() if k not in ("record_id",)})
    return d


def _zpy_line(r: Any, z: Any) -> str:
    """One ``hongwu records`` line of a 找朋友 hand."""
    from engine.zhaopengyou import LEVEL_NAMES

    lv = lambda vs: " ".join(LEVEL_NAMES[v] for v in vs)  # noqa: E731
    friend = "alone" if z.alone or z.friend is None else f"seat {z.friend}"
    return (f"#{r.id} {_when(r.time)} 找朋友 match {z.match_id} hand {z.hand_no}: dealer seat {z.dealer} "
            f"({r.seats[z.dealer]}), friend {friend} ({z.friend_call}), trump {z.trump}, level "
            f"{LEVEL_NAMES[z.level]}, catchers {z.catcher_points}, {z.winner} win, levels {lv(z.levels_before)} -> "
            f"{lv(z.levels_after)}, you {z.my_gain:+d} level(s)")


# --- stats ---------------------------------------------------------------------------------
def add_stats_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``hongwu stats [--profile NAME] [--json] [--plot FILE.png]``."""
    p = sub.add_parser("stats", help="a profile's statistics (and a chart of its game points)")
    p.add_argument("--profile", default=None, help="default: the selected profile")
    p.add_argument("--json", action="store_true")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="also draw game points over time (找朋友: the match's levels per seat) as PNG")
    p.add_argument("--ruleset", choices=("hongwu", "zhaopengyou"), default="hongwu",
                   help="which game's statistics (default hongwu)")
    p.add_argument("--match", default=None, metavar="ID",
                   help="找朋友: the match whose level history is charted (default: the latest)")
    p.set_defaults(func=run_stats)
    return p


def _title_reached(title: dict) -> str:
    """One entry of ``stats``' titles line: the title and the record that reached it,
    ``穿鞋 (#2)``; the first title, held from the start, has no record."""
    rid = title.get("record_id")
    return title["title"] if rid is None else f"{title['title']} (#{rid})"


def run_stats(ns: argparse.Namespace) -> int:
    """Run ``hongwu stats``; returns the exit code."""
    from game.career import CareerError, stats

    if getattr(ns, "ruleset", "hongwu") == "zhaopengyou":
        return run_zpy_stats(ns)
    if getattr(ns, "match", None):
        print("hongwu stats: --match is for --ruleset zhaopengyou", file=sys.stderr)
        return EXIT_BAD
    store = _open("stats")
    try:
        p = _profile_of(store, ns.profile, "stats")
        st = stats(store, p.name)
    except CareerError as exc:
        print(f"hongwu stats: {exc}", file=sys.stderr)
        return EXIT_BAD
    finally:
        store.close()
    if ns.plot:
        from game.career.chart import save_points_chart

        try:
            save_points_chart(ns.plot, st.series, title=f"{st.profile}: game points")
        except Exception as exc:  # pygame.error or OSError: say so, no traceback
            print(f"hongwu stats: cannot write {ns.plot}: {exc}", file=sys.stderr)
            return EXIT_BAD
    if ns.json:
        print(json.dumps(st.as_dict(), ensure_ascii=False))
        return 0

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x:.0%}"

    print(f"profile: {st.profile}\nhands: {st.hands}\ndealer: {st.dealer_hands} ({pct(st.dealer_rate)}), "
          f"made it {st.dealer_wins} ({pct(st.dealer_success_rate)})\n"
          f"mean bid as dealer: {'-' if st.mean_bid is None else f'{st.mean_bid:.1f}'}")
    for label, h in (("best", st.best), ("worst", st.worst)):
        print(f"{label} hand: " + (f"#{h['id']} {h['game_points']:+d} game points" if h else "-"))
    print(f"red fives captured: {st.red_fives_won}, lost: {st.red_fives_lost}\ncoins: {st.coins:+,}\n"
          f"points: {st.points}\ntitles reached: " + ", ".join(_title_reached(t) for t in st.titles))
    if ns.plot:
        print(f"chart written to {ns.plot}")
    return 0


def run_zpy_stats(ns: argparse.Namespace) -> int:
    """Run ``hongwu stats --ruleset zhaopengyou [--match ID] [--json] [--plot FILE]``."""
    from engine.zhaopengyou import LEVEL_NAMES
    from game.career import CareerError, zpy_stats

    store = _open("stats")
    try:
        p = _profile_of(store, ns.profile, "stats")
        st = zpy_stats(store, p.name, ns.match)
        me = store.zpy_hands(p.id, st.match_id)[0].seat if st.match_id else None
    except CareerError as exc:
        print(f"hongwu stats: {exc}", file=sys.stderr)
        return EXIT_BAD
    finally:
        store.close()
    if ns.plot:
        from game.career.chart import save_levels_chart

        try:
            save_levels_chart(ns.plot, st.levels, title=f"{st.profile}: Finding Friends match {st.match_id or '-'}, levels per seat",
                              labels=st.match_seats or None, highlight=me)
        except Exception as exc:  # pygame.error or OSError: say so, no traceback
            print(f"hongwu stats: cannot write {ns.plot}: {exc}", file=sys.stderr)
            return EXIT_BAD
    if ns.json:
        print(json.dumps(st.as_dict(), ensure_ascii=False))
        return 0

    def pct(x: float | None) -> str:
        return "-" if x is None else f"{x:.0%}"

    mean = "-" if st.mean_catcher_points is None else f"{st.mean_catcher_points:.1f}"
    print(f"profile: {st.profile} (找朋友)\nhands: {st.hands} in {st.matches} match(es)\n"
          f"dealer: {st.dealer_hands} ({pct(st.dealer_rate)})\nfriend: {st.friend_hands} ({pct(st.friend_rate)})\n"
          f"on the dealer's side: {st.dealer_side_hands}, won {st.dealer_side_wins} "
          f"({pct(st.dealer_side_win_rate)})\nas a catcher: {st.catcher_hands}, won {st.catcher_wins}\n"
          f"mean catchers' points: {mean}\nlevels gained: {st.levels_gained}\ngames won: {st.games_won}")
    if st.match_id:
        print(f"match {st.match_id}: hands {st.match_hands[0]}..{st.match_hands[-1]}")
        for s, series in enumerate(st.levels):
            name = st.match_seats[s] if s < len(st.match_seats) else f"seat {s}"
            print(f"  seat {s} ({name}): " + " ".join(LEVEL_NAMES[v] for v in series))
    if ns.plot:
        print(f"chart written to {ns.plot}")
    return 0


# --- replay --------------------------------------------------------------------------------
def add_replay_parser(sub: Any) -> argparse.ArgumentParser:
    """Register ``hongwu replay ID|FILE [--export FILE] [--verify]``."""
    p = sub.add_parser("replay", help="replay a recorded hand (回放): export, verify, or show it",
                       description="SOURCE is a record id (hongwu records) or a replay file (docs/REPLAY.md). "
                                   "Without options the hand opens in the replay viewer window when a display "
                                   "is available, else (or with --text) it is printed trick by trick, every "
                                   "hand face up.")
    p.add_argument("source", metavar="ID|FILE")
    p.add_argument("--export", default=None, metavar="FILE", help="write the replay file")
    p.add_argument("--verify", action="store_true",
                   help="re-run it through the engine: exit 0 when it reproduces the recorded settlement, "
                        "1 (with the line) when it does not or is malformed")
    p.add_argument("--text", action="store_true",
                   help="print it as text even when a display is available (without one, text is printed)")
    p.add_argument("--lang", choices=("zh", "en"), default=None, help="language of the viewer window")
    p.add_argument("--max-frames", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=run_replay)
    return p


def run_replay(ns: argparse.Namespace) -> int:
    """Run ``hongwu replay``; returns the exit code."""
    from engine import replay as R
    from game.career import CareerError, db_path, load_replay

    src = ns.source
    store = None
    try:
        is_id = src.isdigit() and not Path(src).exists()
        if is_id:
            if not db_path().exists():
                raise CareerError(f"no record with id {src} (no career database yet)")
            store = _open("replay")
            text = store.replay_text(int(src))
        else:
            text = Path(src).read_text(encoding="utf-8")
    except CareerError as exc:
        print(f"hongwu replay: {exc}", file=sys.stderr)
        return EXIT_BAD
    except (OSError, UnicodeDecodeError) as exc:
        print(f"hongwu replay: cannot read {src}: {exc}", file=sys.stderr)
        return EXIT_BAD
    finally:
        if store is not None:
            store.close()
    if ns.export:
        try:
            Path(ns.export).write_text(text, encoding="utf-8")
        except OSError as exc:
            print(f"hongwu replay: cannot write {ns.export}: {exc}", file=sys.stderr)
            return EXIT_BAD
        print(f"replay written to {ns.export}")
    try:
        rep = R.parse(text)
        if ns.verify:
            R.verify(rep)
            print(f"{src}: the replay reproduces the recorded settlement")
        elif not ns.export:
            from game.replay_window import display_available, run_viewer

            if getattr(ns, "text", False) or not display_available():
                print("\n".join(R.text_lines(rep)))
            else:
                R.frames(rep)  # malformed: reported here, before any window opens
                review = (db_path(), int(src)) if is_id else (None, None)  # the review 复盘 marks
                return run_viewer(rep, lang=getattr(ns, "lang", None), max_frames=getattr(ns, "max_frames", None),
                                  review=review)
    except R.ReplayError as exc:
        print(f"hongwu replay: {src}: {exc}", file=sys.stderr)
        return 1
    return 0


# --- hongwu play --profile / --stake ---------------------------------------------------------
def add_play_options(p: argparse.ArgumentParser) -> None:
    """Add ``--profile NAME`` and ``--stake N`` to ``hongwu play``."""
    p.add_argument("--profile", default=None, metavar="NAME",
                   help="record the hands for this profile (seat 0 is its); default: the selected one "
                        "(hongwu profile use NAME), if any")
    p.add_argument("--stake", type=int, default=0, metavar="N",
                   help="coins per game point (default 0: no coins; RULES.md §12)")


def recorder_for_play(ns: argparse.Namespace) -> tuple[Any, str | None, int]:
    """The :class:`~game.career.Recorder` for a ``hongwu play`` run, from ``--profile`` or the
    selected profile: ``(recorder or None, message or None, exit code)``. Without a profile
    and without a career database nothing is opened (``(None, None, 0)``). A message with a
    non-zero code means: print it and do not start (unknown profile, bad stake, daily cap)."""
    from game.career import CareerError, Recorder, db_path

    name, stake = getattr(ns, "profile", None), getattr(ns, "stake", 0) or 0
    if stake < 0:
        return None, "--stake must be 0 or more coins per game point", EXIT_BAD
    if name is None and not db_path().exists():
        return (None, "--stake needs a profile (--profile NAME)", EXIT_BAD) if stake else (None, None, 0)
    store = _open("play")
    try:
        p = store.profile(name) if name else store.current_profile()
        if p is None:
            store.close()
            return (None, "--stake needs a profile (--profile NAME)", EXIT_BAD) if stake else (None, None, 0)
        rec = Recorder(store, p.name, stake)
        refusal = rec.refusal()
    except CareerError as exc:
        store.close()
        return None, str(exc), EXIT_BAD
    if refusal is not None:
        store.close()
        return None, refusal.message, EXIT_CAPPED
    return rec, None, 0


# --- hongwu join --profile -------------------------------------------------------------------
def add_join_profile(p: argparse.ArgumentParser, command: str = "join") -> argparse.ArgumentParser:
    """Add ``--profile NAME`` to ``hongwu join`` or (``command="host"``) ``hongwu host``
    (the host's window only): the seat plays as that profile (its title on every plate) and
    its hands are recorded for it, from what the client saw, with the coins the host clamped
    at a staked table (RULES.md §12). ``hongwu join --headless --profile`` records the
    找朋友 hands its seat plays (a headless 红五 join records none). For ``host`` the player
    name defaults to the profile's (the host keys its coin caps by name). The run function
    is wrapped so an unknown profile is refused (exit 2) before anything starts."""
    p.add_argument("--profile", default=None, metavar="NAME",
                   help="play and record the hands of the window's seat as this profile "
                        "(README \"Career\")")
    inner = p.get_default("func")

    def run(ns: argparse.Namespace) -> int:
        from game.career import CareerError, Recorder

        if ns.profile is not None and command == "host" and getattr(ns, "headless", False):
            print("hongwu host: --profile is for the host's window (a headless host has no seat "
                  "of its own); ignored", file=sys.stderr)
        if ns.profile is None or (command == "host" and getattr(ns, "headless", False)):
            return inner(ns)
        store = _open(command)
        try:
            ns.career_recorder = Recorder(store, ns.profile)
            from engine.scoring import title_for

            ns.career_title = title_for(ns.career_recorder.profile.points, "zh")  # on the others' plates
            if command == "host" and getattr(ns, "player", None) == "Host":
                ns.player = ns.career_recorder.profile.name[:24]  # the name the host's caps use
        except CareerError as exc:
            store.close()
            print(f"hongwu {command}: {exc}", file=sys.stderr)
            return EXIT_BAD
        try:
            return inner(ns)
        finally:
            store.close()

    p.set_defaults(func=run)
    return p
