"""The career store (game/career): real SQLite files in tmp_path; coins, titles and replays
from the engine (RULES.md §11, §12; docs/REPLAY.md)."""
import json
import sqlite3
import time

import pytest

from engine import replay as R
from engine.coins import DAY_CAP, HAND_CAP, at_daily_cap, clamp_coins, seat_changes
from engine.scoring import TITLES, title_for
from engine.state import Game, first_legal_action
from engine.titles import next_title, promotions
from game.career import (
    AVATARS, SCHEMA_VERSION, CareerError, Recorder, Store, load_replay, profile_summary, start_refusal, stats,
)
from game.career.coins_day import local_day, next_midnight
from game.career.store import APPLICATION_ID, MIGRATIONS, migrate


def played(seed):
    g = Game.new(seed=seed)
    while not g.is_over:
        g.apply(first_legal_action(g.view(g.to_act)))
    return g


class FakeTable:
    def __init__(self, game, names=("human", "basic", "random", "basic")):
        self.game, self.names = game, names


@pytest.fixture
def store(tmp_path):
    s = Store.open(tmp_path / "hongwu.db")
    yield s
    s.close()


# --- coins (RULES.md §12) -------------------------------------------------------------------
def test_clamp_per_hand_and_per_day():
    assert clamp_coins(5) == 5
    assert clamp_coins(60_000_000) == HAND_CAP
    assert clamp_coins(-60_000_000) == -HAND_CAP
    assert clamp_coins(20_000_000, day_net_so_far=70_000_000) == 10_000_000
    assert clamp_coins(-20_000_000, day_net_so_far=-75_000_000) == -5_000_000
    assert clamp_coins(20_000_000, day_net_so_far=DAY_CAP) == 0
    assert clamp_coins(-20_000_000, day_net_so_far=DAY_CAP) == -20_000_000  # back towards 0 is allowed
    assert at_daily_cap(DAY_CAP) and at_daily_cap(-DAY_CAP) and not at_daily_cap(DAY_CAP - 1)


def test_clamped_coins_are_not_zero_sum_but_game_points_are():
    gp = (18, -6, -6, -6)
    coins = seat_changes(gp, 10_000_000)
    assert sum(gp) == 0 and coins == (HAND_CAP, -HAND_CAP, -HAND_CAP, -HAND_CAP) and sum(coins) != 0
    with pytest.raises(ValueError):
        seat_changes(gp, -1)


# --- titles (RULES.md §11) ------------------------------------------------------------------
def test_next_title_and_progress():
    assert tuple(next_title(0)) == ("穿鞋", 5, 0.0)
    name, threshold, progress = next_title(7, "en")
    assert (name, threshold) == ("Bicycle", 10) and progress == pytest.approx(0.4)
    assert tuple(next_title(-50)) == ("穿鞋", 5, 0.0)
    assert tuple(next_title(10**6)) == (None, None, 1.0)


def test_promotions_lists_every_threshold_crossed():
    assert promotions(3, 4) == []
    assert promotions(4, 5) == ["穿鞋"]
    assert promotions(0, 25) == ["穿鞋", "单车", "三轮车"]
    assert promotions(25, 0) == []
    assert promotions(92897, 92898, "en") == ["God"]


# --- replays --------------------------------------------------------------------------------
def test_replay_round_trip_and_frames():
    g = played(7)
    rep = R.parse(R.dumps(g, seats=["a", "b", "c", "d"]))
    assert rep.header["format"] == R.FORMAT and rep.header["seed"] == 7
    assert R.verify(rep).settlement == g.settlement
    fs = R.frames(rep)
    assert len(fs) == len(g.tricks) + 1 and fs[0].trick_no == 0 and fs[-1].settlement == g.settlement
    assert sum(len(h) for h in fs[0].hands) == g.ruleset.players * g.ruleset.hand_size
    assert all(len(h) == 0 for h in fs[-1].hands) and fs[0].buried == g.buried
    text = "\n".join(R.text_lines(rep))
    assert "kitty buried" in text and "trick 1:" in text and "settlement" in text


def _with_failed_throw():
    """A hand in which a leader throws a whole side suit and the throw fails (RULES.md §7)."""
    from engine.state import IllegalAction, Phase, Play

    for seed in range(100):
        g = Game.new(seed=seed)
        while not g.is_over:
            seat = g.to_act
            if g.phase is Phase.PLAY and not g.current and not g.failed_throws:
                by_suit = {}
                for c in g.hand_of(seat):
                    by_suit.setdefault(g.ctx.SUITX[c], []).append(c)
                longest = max(by_suit.values(), key=len)
                if len(longest) > 2:
                    try:
                        g.apply(Play(seat, tuple(longest)))
                        continue
                    except IllegalAction:
                        pass
            g.apply(first_legal_action(g.view(seat)))
        if g.failed_throws:
            return g
    raise AssertionError("no failed throw in 100 hands")


def test_replay_of_a_failed_throw_reproduces():
    g = _with_failed_throw()
    rep = R.parse(R.dumps(g))
    attempted = [ev.attempted for ev in g.events if ev.kind == "throw_failed"]
    assert any(a.cards == attempted[0] for a in rep.actions if hasattr(a, "cards"))
    assert R.verify(rep).settlement == g.settlement


def test_replay_errors_name_the_line():
    lines = R.dumps(played(3)).splitlines()
    with pytest.raises(R.ReplayError) as e:
        R.parse("\n".join(lines[:5] + ["{not json"] + lines[6:]))
    assert e.value.line == 6
    bad = json.loads(lines[20])
    bad["seat"] = (bad["seat"] + 1) % 4
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse("\n".join(lines[:20] + [json.dumps(bad)] + lines[21:])))
    assert e.value.line == 21 and str(e.value).startswith("line 21:")
    head = json.loads(lines[0])
    head["settlement"]["game_points"] = [0, 0, 0, 0]
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse("\n".join([json.dumps(head)] + lines[1:])))
    assert e.value.line == 1
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse("\n".join(lines[:-1])))
    assert e.value.line == len(lines) - 1  # the last line of the truncated file
    with pytest.raises(R.ReplayError) as e:
        R.parse('{"format": "other", "version": 1, "decks": 2, "first_bidder": 0}')
    assert e.value.line == 1


def test_replay_from_a_deal_without_seed():
    g0 = played(11)
    hands = [ev.cards for ev in g0.events if ev.kind == "cards_dealt"]
    g = Game.from_deal(hands, g0.kitty, first_bidder=g0.first_bidder)
    for a in R.actions_from_events(g0.events):
        g.apply(a)
    rep = R.parse(R.dumps(g))
    assert rep.header["seed"] is None and "deal" in rep.header
    assert R.verify(rep).settlement == g0.settlement


# --- profiles -------------------------------------------------------------------------------
def test_profiles_create_list_use(store):
    a = store.create_profile("Ann")
    b = store.create_profile("Bo", "tiger")
    assert a.avatar == AVATARS[0] and b.avatar == "tiger" and a.points == 0 and a.last_played is None
    with pytest.raises(CareerError, match="already exists"):
        store.create_profile("ann")
    with pytest.raises(CareerError, match="avatar"):
        store.create_profile("Cy", "unicorn")
    with pytest.raises(CareerError):
        store.create_profile("")
    assert [p.name for p in store.profiles()] == ["Ann", "Bo"]
    assert store.current_profile() is None
    store.use_profile("Bo")
    assert store.current_profile().name == "Bo"
    with pytest.raises(CareerError, match="no profile named"):
        store.profile("Zed")


def test_file_settings(tmp_path):
    path = tmp_path / "hongwu.db"
    Store.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    conn.close()
    s = Store.open(path)
    assert s.conn.execute("PRAGMA foreign_keys").fetchone()[0] == 1 and s.set_aside is None
    s.close()


# --- recording ------------------------------------------------------------------------------
def test_recorder_records_hands_and_totals(store):
    store.create_profile("Ann")
    rec = Recorder(store, "Ann")
    total = 0
    for seed in range(5):
        g = played(seed)
        r = rec.hand_finished(FakeTable(g))
        total += g.settlement.game_points[0]
        assert r.points_after == total
        assert rec.hand_finished(FakeTable(g)) is None  # the same game is recorded once
    p = store.profile("Ann")
    assert p.points == total and p.hands == 5 and p.last_played is not None
    recs = store.records(p.id)
    assert [r.id for r in recs] == sorted(r.id for r in recs) and len(recs) == 5
    assert recs[0].seats == ("Ann", "basic", "random", "basic") and recs[0].seed == 0
    assert [r.id for r in store.records(p.id, last=2)] == [recs[3].id, recs[4].id]
    for r in recs:
        assert R.verify(load_replay(r.id, store)).settlement.game_points == r.game_points
    summary = profile_summary(store, "Ann")
    assert summary["title"] == title_for(total) and summary["hands"] == 5


def test_recorder_promotion(store):
    store.create_profile("Ann")
    rec = Recorder(store, "Ann")
    for seed in range(300):
        g = played(seed)
        if g.settlement.game_points[0] > 0:
            break
    store.conn.execute("UPDATE profiles SET points = 4")
    r = rec.record_game(g, ["Ann", "b", "c", "d"])
    assert r.points_before == 4 and r.promotions[0] == "穿鞋"


def test_coins_and_daily_cap(store, tmp_path):
    store.create_profile("Ann")
    now = [time.mktime((2026, 6, 1, 12, 0, 0, 0, 0, -1))]
    rec = Recorder(store, "Ann", stake=10_000_000, clock=lambda: now[0])
    day_net = 0
    for seed in range(40):
        if rec.refusal() is not None:
            break
        r = rec.hand_finished(FakeTable(played(seed)))
        assert abs(r.coins) <= HAND_CAP
        day_net += r.coins
        assert abs(day_net) <= DAY_CAP
    p = store.profile("Ann")
    assert p.coins == day_net == store.day_net(p.id, local_day(now[0]))
    # pretend the day ends at the cap: no staked hand until local midnight, free hands still
    store.conn.execute("UPDATE coin_days SET net = ?", (DAY_CAP,))
    refusal = rec.refusal()
    assert refusal is not None and refusal.until == next_midnight(now[0]) and "daily coin cap" in refusal.message
    assert refusal.until.hour == 0 and refusal.until.date().isoformat() == "2026-06-02"
    assert start_refusal(store, "Ann", 0, now[0]) is None
    now[0] += 86400  # the next day
    assert rec.refusal() is None


# --- statistics ----------------------------------------------------------------------------
def test_stats(store):
    store.create_profile("Ann")
    rec = Recorder(store, "Ann")
    games = [played(s) for s in range(12)]
    for g in games:
        rec.hand_finished(FakeTable(g))
    st = stats(store, "Ann")
    mine = [g.settlement.game_points[0] for g in games]
    dealt = [g for g in games if g.dealer == 0]
    assert st.hands == 12 and st.dealer_hands == len(dealt)
    assert st.dealer_wins == sum(g.settlement.dealer_won for g in dealt)
    assert st.best["game_points"] == max(mine) and st.worst["game_points"] == min(mine)
    assert st.series[-1] == sum(mine) == st.points
    assert st.red_fives_won == sum(1 for g in games for f, t in g.settlement.red_fives if t == 0)
    assert st.titles[0]["title"] == TITLES[0][1]
    assert [t["title"] for t in st.titles] == [x[1] for x in TITLES if x[0] <= max([0, *st.series])]
    assert stats(store, "Ann").as_dict(series=False).get("series") is None
    sampled = stats(store, "Ann", series_max=4).series
    assert 3 <= len(sampled) <= 8 and sampled[-1] == st.series[-1] and set(sampled) <= set(st.series)
    before = stats(store, "Ann")
    store.rebuild_totals()  # the running totals equal a recomputation from the records
    assert stats(store, "Ann") == before


def test_chart_draws_and_saves(tmp_path):
    import pygame

    surf = pygame.Surface((300, 150))
    plot = __import__("game.career.chart", fromlist=["x"]).draw_points_chart(surf, surf.get_rect(), [2, -4, 6, 12, 8])
    assert plot.w > 0 and surf.get_at((plot.x, plot.y + 2))[:3] != surf.get_at((1, 1))[:3]  # the axis is drawn
    line = sum(1 for x in range(plot.x + 1, plot.right) for y in range(plot.y, plot.bottom)
               if surf.get_at((x, y))[:3] == (250, 200, 60))
    assert line > 50
    from game.career import save_points_chart

    out = tmp_path / "c.png"
    save_points_chart(str(out), list(range(5000)))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- migrations and damaged files ----------------------------------------------------------
def test_migration_from_v1_keeps_the_data(tmp_path):
    path = tmp_path / "hongwu.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, target=1)
    conn.execute("INSERT INTO profiles(name, avatar, points, hands, created) VALUES ('Old', 'panda', 42, 1, 1.0)")
    conn.execute("INSERT INTO records(profile_id, time, ruleset, options, seed, seats, seat, dealer, bid, trump,"
                 " points, dealer_final, game_points, my_points, total_after)"
                 " VALUES (1, 1.0, 'hongwu', '{}', 5, '[\"Old\",\"a\",\"b\",\"c\"]', 0, 0, 60, 'S', 70, 10,"
                 " '[6,-2,-2,-2]', 6, 42)")
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    conn.close()
    s = Store.open(path)
    assert s.set_aside is None
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS) >= 2
    p = s.profile("Old")
    (r,) = s.records(p.id)
    assert p.points == 42 and r.coins == () and r.stake == 0 and r.game_points == (6, -2, -2, -2)
    st = stats(s, "Old")  # running totals and titles rebuilt from the v1 records
    assert st.dealer_hands == 1 and st.dealer_wins == 1 and st.mean_bid == 60
    assert [t["title"] for t in st.titles] == ["赤脚", "穿鞋", "单车", "三轮车", "卡车"]
    assert st.titles[-1]["record_id"] == r.id
    s.close()


def _aside(tmp_path):
    return sorted(p.name for p in tmp_path.iterdir() if ".damaged-" in p.name)


def test_not_sqlite_is_set_aside(tmp_path):
    path = tmp_path / "hongwu.db"
    path.write_bytes(b"my shopping list\n" * 100)
    s = Store.open(path)
    reason, moved = s.set_aside
    assert "not an SQLite" in reason and moved.read_bytes().startswith(b"my shopping list")
    assert _aside(tmp_path) == [moved.name] and s.profiles() == []
    s.close()


def test_foreign_sqlite_is_set_aside(tmp_path):
    path = tmp_path / "hongwu.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE photos(x)")
    conn.execute("INSERT INTO photos VALUES (1)")
    conn.commit()
    conn.close()
    s = Store.open(path)
    assert "another program" in s.set_aside[0]
    assert sqlite3.connect(s.set_aside[1]).execute("SELECT x FROM photos").fetchone() == (1,)
    s.close()


def test_corrupt_store_is_set_aside_not_emptied(tmp_path):
    path = tmp_path / "hongwu.db"
    s = Store.open(path)
    s.create_profile("Ann")
    rec = Recorder(s, "Ann")
    for seed in range(40):
        rec.hand_finished(FakeTable(played(seed)))
    s.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    data = bytearray(path.read_bytes())
    size = len(data)
    page = 4096
    for off in range(2 * page, size - page, page * 3):  # scribble over b-tree pages, keep the header
        data[off:off + 64] = b"\xff" * 64
    path.write_bytes(bytes(data))
    s = Store.open(path)
    assert s.set_aside is not None and s.set_aside[1].stat().st_size == size
    assert s.profiles() == []
    s.close()
