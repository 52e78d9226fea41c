"""Career speed: the cost of recording a hand, and statistics over a large store.

1. Plays hands (random legal actions, as benchmarks/engine_speed.py) and records each for a
   profile in a real SQLite file (WAL): prints the median ms of playing a hand and of
   recording it (Recorder.record_game: coins, replay text, one transaction), same run.
   Target (issue 10): recording ≤ 2 ms a hand. The same for 找朋友 hands (a quarter as many).
2. Generates a store of 100,000 hands for one profile (rows inserted directly; the replay
   texts are short placeholders, statistics never read them) and prints the median ms of
   ``game.career.stats`` over it (and of opening the store, with its quick_check).
   Target: ≤ 200 ms.

    python benchmarks/career_speed.py [--hands N] [--big N] [--repeats R]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.engine_speed import play_hand  # noqa: E402
from engine.ruleset import hongwu  # noqa: E402
from game.career import Recorder, Store, stats  # noqa: E402


def bench_recording(folder: Path, hands: int) -> tuple[float, float]:
    """(median ms to play a hand, median ms to record it)."""
    store = Store.open(folder / "rec.db")
    store.create_profile("Bench")
    rec = Recorder(store, "Bench", stake=1000)
    rs = hongwu()
    play_ms, rec_ms = [], []
    for i in range(hands):
        t0 = time.perf_counter()
        g = play_hand(rs, i, [0])
        t1 = time.perf_counter()
        rec.record_game(g, ["Bench", "basic", "basic", "basic"])
        t2 = time.perf_counter()
        play_ms.append((t1 - t0) * 1000)
        rec_ms.append((t2 - t1) * 1000)
    store.close()
    return statistics.median(play_ms), statistics.median(rec_ms)


def bench_zpy_recording(folder: Path, hands: int) -> tuple[float, float]:
    """找朋友: (median ms to play a hand with first legal actions, median ms to record it with
    Recorder.zpy_hand_finished: replay text, records + replays + zpy_hands, one transaction)."""
    from engine.match import MatchOver, ZpyMatch
    from engine.ruleset import zhaopengyou
    from engine.zhaopengyou import first_legal_action

    store = Store.open(folder / "zpy.db")
    store.create_profile("Bench")
    rec = Recorder(store, "Bench")
    match = ZpyMatch(zhaopengyou(), seed=1)
    play_ms, rec_ms = [], []
    for i in range(hands):
        t0 = time.perf_counter()
        while not match.hand.is_over:
            match.hand.apply(first_legal_action(match.hand))
        t1 = time.perf_counter()
        rec.zpy_hand_finished(match, ["Bench", "basic", "basic", "basic", "basic"])
        t2 = time.perf_counter()
        play_ms.append((t1 - t0) * 1000)
        rec_ms.append((t2 - t1) * 1000)
        try:
            match.next_hand()
        except MatchOver:  # the game ended: a new match
            match = ZpyMatch(zhaopengyou(), seed=i + 2)
    store.close()
    return statistics.median(play_ms), statistics.median(rec_ms)


def generate(path: Path, n: int) -> None:
    """A store with one profile and ``n`` plausible records (random results)."""
    store = Store.open(path)
    p = store.create_profile("Big")
    rng = random.Random(1)
    total, rows = 0, []
    t = time.time() - n * 60
    for i in range(n):
        dealer = rng.randrange(4)
        d = rng.choice((-3, -2, -1, 1, 2, 3)) * 2
        gp = [d] * 4
        gp[dealer] = -3 * d
        total += gp[0]
        rows.append((p.id, t + i * 60, "2026-01-01", "hongwu", "{}", i, '["Big","a","b","c"]', 0, dealer,
                     rng.randrange(60, 101, 5), "S", rng.randrange(0, 200, 5), rng.randrange(-100, 100, 5),
                     json.dumps(gp), json.dumps([g * 10 for g in gp]), 10, gp[0], gp[0] * 10, total,
                     rng.random() < 0.1, rng.random() < 0.1))
    c = store.conn
    c.execute("BEGIN")
    c.executemany("INSERT INTO records(profile_id, time, day, ruleset, options, seed, seats, seat, dealer, bid, trump,"
                  " points, dealer_final, game_points, coins, stake, my_points, my_coins, total_after,"
                  " red_fives_won, red_fives_lost) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    c.execute("INSERT INTO replays(record_id, text) SELECT id, '{}' FROM records")
    c.execute("UPDATE profiles SET points = ?, hands = ? WHERE id = ?", (total, n, p.id))
    c.execute("COMMIT")
    store.rebuild_totals()
    c.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    store.close()


def main(argv=None) -> int:
    """Run both parts and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=200, help="hands played and recorded (part 1)")
    ap.add_argument("--big", type=int, default=100_000, help="records in the generated store (part 2)")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="hongwu-career-bench-") as tmp:
        folder = Path(tmp)
        play, rec = bench_recording(folder, args.hands)
        print(f"hand played (random legal): median {play:.2f} ms; recorded: median {rec:.2f} ms "
              f"({args.hands} hands, same run; target <= 2 ms)")
        zplay, zrec = bench_zpy_recording(folder, max(1, args.hands // 4))
        print(f"找朋友 hand played (first legal actions): median {zplay:.2f} ms; recorded: median {zrec:.2f} ms "
              f"({max(1, args.hands // 4)} hands)")
        big = folder / "big.db"
        t0 = time.perf_counter()
        generate(big, args.big)
        print(f"generated {args.big:,} records in {time.perf_counter() - t0:.1f} s "
              f"({big.stat().st_size / 1e6:.1f} MB)")
        opens, stat_ms, chart_ms = [], [], []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            store = Store.open(big)
            t1 = time.perf_counter()
            st = stats(store, "Big")
            t2 = time.perf_counter()
            stats(store, "Big", series_max=1000)
            t3 = time.perf_counter()
            store.close()
            opens.append((t1 - t0) * 1000)
            stat_ms.append((t2 - t1) * 1000)
            chart_ms.append((t3 - t2) * 1000)
        assert st.hands == args.big and len(st.series) == args.big
        print(f"open (with quick_check): median {statistics.median(opens):.0f} ms")
        print(f"stats over {args.big:,} hands, full series: median {statistics.median(stat_ms):.0f} ms; "
              f"series of <= 1000 points (a chart): median {statistics.median(chart_ms):.0f} ms (target <= 200 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
