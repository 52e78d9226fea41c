"""The career for 找朋友 hands (issue 16, Deliver 3): replay files written, parsed, re-run and
verified (tampering caught with its line), frames for a viewer, hands recorded under a profile
by real ``hongwu play`` subprocesses on a real SQLite file, records, statistics, the levels
chart PNG, the schema migration, and kill -9 during a recording run (README "Career";
docs/REPLAY.md "找朋友"; docs/CAREER_API.md "找朋友")."""
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import replay as R
from engine import replay_zpy as Z
from engine.match import ZpyMatch
from engine.ruleset import zhaopengyou
from engine.zhaopengyou import ZpyHand, first_legal_action

ROOT = Path(__file__).resolve().parents[1]
RESULT = re.compile(r"^hand (\d+): dealer \d, friend .*levels after ([2-9JQKA0 1]+)")
SEATS = "basic,basic,basic,basic,basic"


@pytest.fixture
def env(tmp_path):
    return dict(os.environ, HONGWU_DATA_DIR=str(tmp_path / "data"), HONGWU_CONFIG_DIR=str(tmp_path / "cfg"),
                SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))


def hongwu(env, *args, check=True, timeout=240):
    p = subprocess.run([sys.executable, "-m", "game", *args], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError(f"hongwu {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def zpy_demo(env, *extra, hands=3, check=True):
    return hongwu(env, "play", "--ruleset", "zhaopengyou", "--seats", SEATS, "--hands", str(hands),
                  "--speed", "instant", *extra, check=check)


def play_out(hand):
    """Finish ``hand`` with the simplest legal actions (no AI): enough for replays."""
    while not hand.is_over:
        hand.apply(first_legal_action(hand))
    return hand


def match_hands(ruleset, seed, k):
    """The first ``k`` settled hands of a ZpyMatch (played with first legal actions)."""
    m = ZpyMatch(ruleset, seed=seed)
    out = []
    for i in range(k):
        out.append(play_out(m.hand))
        if i + 1 < k:
            m.next_hand()
    return out


# --- the replay format -----------------------------------------------------------------------
@pytest.mark.parametrize("options", [{}, {"friend_call_time": "after_bury"}, {"no_declaration": "kitty_flip"}])
def test_replays_of_a_match_verify_and_step(options):
    """Every hand of a match (hand 1 draws its first-card seat, later ones are given it, levels
    and the declaring right carried over) re-runs to the recorded settlement; frames are 'after
    the bury' then one per trick, the last with the settlement."""
    for hand in match_hands(zhaopengyou(**options), 11, 3):
        rep = R.parse(Z.dumps(hand, seats=["Ann", "a", "b", "c", "d"], match_id="m"))
        assert isinstance(rep, Z.ZpyReplay) and rep.header["ruleset"] == "zhaopengyou"
        assert rep.header["levels"] == list(hand.levels) and rep.header["first_card"] == hand.first_card
        again = R.verify(rep)
        assert again.settlement == hand.settlement and again.friend == hand.friend
        fs = R.frames(rep)
        assert len(fs) == len(hand.tricks) + 1
        assert fs[0].trick_no == 0 and fs[0].last_trick is None and fs[0].settlement is None
        assert sum(len(h) for h in fs[0].hands) == 155 and len(fs[0].buried) == 7 and len(fs[0].kitty) == 7
        assert fs[-1].settlement == hand.settlement and all(not any(f.hands) for f in fs[-1:])
        assert [f.trick_no for f in fs] == list(range(len(fs)))
        if hand.friend is not None:  # unknown at the start, revealed in some frame, and stays
            known = [f.friend for f in fs]
            assert known[0] is None or hand.friend == hand.dealer
            assert known[-1] == hand.friend
        text = R.text_lines(rep)
        assert text[0].startswith("replay 找朋友") and text[-1].startswith("settlement:")


def test_a_seedless_hand_is_stored_by_its_stack():
    hand = play_out(ZpyHand.new(zhaopengyou(no_declaration="kitty_flip"), None))
    rep = R.parse(Z.dumps(hand))
    assert rep.header["seed"] is None and len(rep.header["deal"]["stack"]) == 162
    assert R.verify(rep).settlement == hand.settlement


def _tamper(text, line_no, edit):
    lines = text.split("\n")
    lines[line_no - 1] = edit(lines[line_no - 1])
    return "\n".join(lines)


def test_tampered_replays_fail_with_their_line():
    hand = match_hands(zhaopengyou(), 3, 1)[0]
    text = Z.dumps(hand)
    lines = text.rstrip("\n").split("\n")
    # the settlement: catchers' points changed -> line 1
    h = json.loads(lines[0])
    h["settlement"]["catcher_points"] += 5
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse("\n".join([json.dumps(h)] + lines[1:])))
    assert e.value.line == 1 and "catcher_points" in str(e.value)
    # levels after changed -> line 1
    h = json.loads(lines[0])
    h["settlement"]["levels"][0] += 1
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse("\n".join([json.dumps(h)] + lines[1:])))
    assert e.value.line == 1
    # a play swapped for another seat's -> the engine refuses that line
    k = next(i for i, x in enumerate(lines) if json.loads(x).get("a") == "play" and i > 1) + 1
    bad = _tamper(text, k, lambda x: json.dumps({**json.loads(x), "seat": (json.loads(x)["seat"] + 1) % 5}))
    with pytest.raises(R.ReplayError) as e:
        R.verify(R.parse(bad))
    assert e.value.line == k and str(e.value).startswith(f"line {k}:")
    # malformed lines
    with pytest.raises(R.ReplayError) as e:
        R.parse(_tamper(text, 3, lambda x: '{"a":"shout","seat":1}'))
    assert e.value.line == 3
    with pytest.raises(R.ReplayError) as e:
        R.parse(_tamper(text, 1, lambda x: x.replace('"levels":[2,2,2,2,2]', '"levels":[2,2]')))
    assert e.value.line == 1
    with pytest.raises(R.ReplayError) as e:  # cut short: blamed on the last line
        R.verify(R.parse("\n".join(lines[:-1])))
    assert e.value.line == len(lines) - 1


# --- recording under a profile (subprocesses) -----------------------------------------------
def test_recorded_hands_records_replays_stats_and_chart(env, tmp_path):
    hongwu(env, "profile", "new", "Ann")
    a = zpy_demo(env, "--profile", "Ann", "--seed", "5", hands=3)
    printed = [m.groups() for m in map(RESULT.match, a.stdout.splitlines()) if m]
    assert len(printed) == 3
    b = zpy_demo(env, "--profile", "Ann", hands=2)  # no seed given: one is drawn, replays still verify
    assert len([x for x in b.stdout.splitlines() if RESULT.match(x)]) == 2
    recs = json.loads(hongwu(env, "records", "--profile", "Ann", "--ruleset", "zhaopengyou", "--json").stdout)
    assert len(recs) == 5 and all(r["ruleset"] == "zhaopengyou" and r["seats"][0] == "Ann" for r in recs)
    assert all(r["seat"] == 0 and r["my_points"] == 0 and r["coins"] == [0] * 5 for r in recs)
    first, second = recs[:3], recs[3:]
    assert len({r["match_id"] for r in first}) == 1 and first[0]["match_id"] != second[0]["match_id"]
    assert [r["hand_no"] for r in first] == [1, 2, 3] and [r["hand_no"] for r in second] == [1, 2]
    for prev, nxt in zip(first, first[1:]):  # a match's levels carry over hand to hand
        assert nxt["levels_before"] == prev["levels_after"]
    names = {"2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10, "J": 11, "Q": 12, "K": 13,
             "A": 14}
    assert [r["levels_after"] for r in first] == [[names[x] for x in lv.split()] for _, lv in printed]
    assert hongwu(env, "records", "--profile", "Ann", "--ruleset", "hongwu", "--json").stdout.strip() == "[]"
    text_list = hongwu(env, "records", "--profile", "Ann", "--ruleset", "zhaopengyou").stdout.splitlines()
    assert len(text_list) == 5 and all("找朋友 match" in x for x in text_list)
    # no game points, no coins, no 红五 hand count: the title stays 红五's
    show = json.loads(hongwu(env, "profile", "show", "Ann", "--json").stdout)
    assert show["points"] == 0 and show["coins"] == 0 and show["hands"] == 0 and show["last_played"]
    # replays: export and verify every record; a tampered export fails with its line
    for r in recs:
        assert hongwu(env, "replay", str(r["id"]), "--verify").returncode == 0
    out = tmp_path / "h.jsonl"
    hongwu(env, "replay", str(recs[1]["id"]), "--export", str(out))
    assert hongwu(env, "replay", str(out), "--verify").returncode == 0
    assert "trick 1:" in hongwu(env, "replay", str(out)).stdout
    lines = out.read_text(encoding="utf-8").rstrip("\n").split("\n")
    k = next(i for i, x in enumerate(lines) if json.loads(x).get("a") == "bury") + 1
    bury = json.loads(lines[k - 1])
    bury["cards"] = bury["cards"][:-1]
    lines[k - 1] = json.dumps(bury)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    p = hongwu(env, "replay", str(bad), "--verify", check=False)
    assert p.returncode == 1 and f"line {k}:" in p.stderr
    # statistics: as computed from the records
    st = json.loads(hongwu(env, "stats", "--profile", "Ann", "--ruleset", "zhaopengyou", "--json").stdout)
    assert st["hands"] == 5 and st["matches"] == 2
    assert st["dealer_hands"] == sum(r["dealer"] == 0 for r in recs)
    assert st["friend_hands"] == sum(r["friend"] == 0 for r in recs)
    side = [r for r in recs if 0 in r["dealer_side"]]
    assert st["dealer_side_hands"] == len(side)
    assert st["dealer_side_wins"] == sum(r["winner"] == "dealer" for r in side)
    assert st["mean_catcher_points"] == pytest.approx(sum(r["catcher_points"] for r in recs) / 5)
    assert st["levels_gained"] == sum(r["levels_after"][0] - r["levels_before"][0] for r in recs)
    assert st["match_id"] == second[0]["match_id"] and st["match_hands"] == [1, 2]  # the latest match
    assert [s[-1] for s in st["levels"]] == second[-1]["levels_after"]
    # the chart of the first match
    png = tmp_path / "levels.png"
    p = hongwu(env, "stats", "--profile", "Ann", "--ruleset", "zhaopengyou", "--match", first[0]["match_id"],
               "--plot", str(png))
    assert "chart written" in p.stdout and "seat 0 (Ann)" in p.stdout
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import pygame

    img = pygame.image.load(str(png))
    assert img.get_size() == (800, 400)
    from game.career.chart import SEAT_COLORS

    colors = {tuple(img.get_at((x, y)))[:3] for x in range(0, 800, 2) for y in range(0, 400, 2)}
    assert SEAT_COLORS[0] in colors and len(colors & set(SEAT_COLORS[:5])) >= 3
    p = hongwu(env, "stats", "--profile", "Ann", "--ruleset", "zhaopengyou", "--match", "nope", check=False)
    assert p.returncode == 2 and "no 找朋友 hands of match" in p.stderr


def test_stake_is_refused_and_hongwu_stats_ignore_zpy_hands(env):
    hongwu(env, "profile", "new", "Bo")
    p = zpy_demo(env, "--profile", "Bo", "--stake", "10", check=False)
    assert p.returncode == 2 and "no coins" in p.stderr
    p = zpy_demo(env, "--profile", "Nobody", check=False)
    assert p.returncode == 2 and "no profile named" in p.stderr
    hongwu(env, "play", "--seats", "basic,basic,basic,basic", "--hands", "2", "--speed", "instant", "--mute",
           "--profile", "Bo", "--seed", "3")
    zpy_demo(env, "--profile", "Bo", "--seed", "4", hands=2)
    st = json.loads(hongwu(env, "stats", "--profile", "Bo", "--json").stdout)
    assert st["hands"] == 2 and len(st["series"]) == 2
    both = json.loads(hongwu(env, "records", "--profile", "Bo", "--json").stdout)
    assert [r["ruleset"] for r in both] == ["hongwu", "hongwu", "zhaopengyou", "zhaopengyou"]
    assert json.loads(hongwu(env, "profile", "show", "Bo", "--json").stdout)["hands"] == 2


# --- the store and the recorder API ---------------------------------------------------------
def test_recorder_api_groups_a_match_and_records_once(tmp_path):
    from game.career import Recorder, Store, zpy_stats

    store = Store.open(tmp_path / "c.db")
    store.create_profile("Cy")
    rec = Recorder(store, "Cy", clock=lambda: 1_800_000_000.0)
    m = ZpyMatch(zhaopengyou(), seed=9)
    assert rec.zpy_hand_finished(m, ["x"] * 5) is None  # not settled yet
    ids = []
    for k in range(3):
        play_out(m.hand)
        got = rec.zpy_hand_finished(m, ["x", "y", "z", "u", "v"])
        assert got is not None and got.hand_no == k + 1
        assert rec.zpy_hand_finished(m, ["x"] * 5) is None  # the same hand again: nothing new
        ids.append(got.match_id)
        m.next_hand()
    assert len(set(ids)) == 1
    m2 = ZpyMatch(zhaopengyou(), seed=10)
    play_out(m2.hand)
    other = rec.zpy_hand_finished(m2)
    assert other.match_id != ids[0]
    rows = store.zpy_hands(store.profile("Cy").id, ids[0])
    assert [r.hand_no for r in rows] == [1, 2, 3] and rows[0].seats == ("Cy", "y", "z", "u", "v")
    st = zpy_stats(store, "Cy", ids[0])
    assert st.levels[0][0] == 2 and all(len(s) == 4 for s in st.levels)
    assert store.profile("Cy").hands == 0
    store.close()


def test_a_v2_store_migrates_to_the_zpy_schema(tmp_path):
    from game.career.store import MIGRATIONS, SCHEMA_VERSION, Store, migrate

    path = tmp_path / "old.db"
    conn = sqlite3.connect(path, isolation_level=None)
    migrate(conn, 2)
    conn.execute("INSERT INTO profiles(name, avatar, created) VALUES ('Di', 'panda', 0)")
    conn.close()
    s = Store.open(path)
    assert s.conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == len(MIGRATIONS) >= 3
    assert s.zpy_hands(s.profile("Di").id) == []
    s.close()


def test_nothing_lost_on_kill_9_while_recording_zpy(env):
    """SIGKILL a long 找朋友 recording run at three moments: the file stays sound and every hand
    whose result line was printed is recorded (recorded before the line is printed)."""
    hongwu(env, "profile", "new", "Ed")
    db = Path(env["HONGWU_DATA_DIR"]) / "hongwu.db"
    total = 0
    for run, wait in enumerate((0.0, 0.4, 1.0)):
        before = sqlite3.connect(db).execute("SELECT count(*) FROM zpy_hands").fetchone()[0]
        proc = subprocess.Popen([sys.executable, "-m", "game", "play", "--ruleset", "zhaopengyou", "--profile", "Ed",
                                 "--seats", SEATS, "--hands", "200", "--speed", "instant", "--seed", str(run)],
                                env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            first = proc.stdout.readline()
            time.sleep(wait)
        finally:
            proc.send_signal(signal.SIGKILL)
            rest, _ = proc.communicate(timeout=60)
        printed = [int(m.group(1)) for m in map(RESULT.match, (first + rest).splitlines()) if m]
        assert printed, f"run {run}: no hand finished before the kill"
        total += len(printed)
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        after = conn.execute("SELECT count(*) FROM zpy_hands").fetchone()[0]
        hands = {r[0] for r in conn.execute("SELECT hand_no FROM zpy_hands ORDER BY record_id DESC LIMIT ?",
                                            (after - before,))}
        orphans = conn.execute("SELECT count(*) FROM records r LEFT JOIN zpy_hands z ON z.record_id = r.id"
                               " WHERE z.record_id IS NULL").fetchone()[0]
        conn.close()
        assert len(printed) <= after - before <= len(printed) + 1
        assert set(printed) <= hands and orphans == 0
    recs = json.loads(hongwu(env, "records", "--profile", "Ed", "--ruleset", "zhaopengyou", "--json").stdout)
    assert len(recs) >= total
    assert hongwu(env, "replay", str(recs[-1]["id"]), "--verify").returncode == 0


def test_a_given_first_card_is_kept_when_the_drawn_seat_deals_the_same_top_cards():
    """Seed 107375944391782 with the first card given to seat 0 (a match's second hand, as
    recorded by ``hongwu play``): drawing the seat from the seed would also give seat 0 and
    deal the same first twenty cards, but not the same stack (the shuffle redraws indices
    that are too large, so the two generator streams realign only partway). The replay keeps
    the given seat and verifies; so do hands with a drawn or a given seat on other seeds."""
    rs = zhaopengyou()
    given = play_out(ZpyHand.new(rs, 107375944391782, hand_no=2, levels=[2, 2, 4, 4, 4], eligible=[2, 3, 4],
                                 first_card=0))
    lines = Z.dumps(given).splitlines()
    header = json.loads(lines[0])
    assert header["first_card"] == 0 and "draw_first_card" not in header
    Z.verify(Z.parse_lines(header, lines[1:]))
    for seed in range(8):
        for first in (None, seed % rs.players):
            hand = play_out(ZpyHand.new(rs, seed, hand_no=1 if first is None else 2, first_card=first))
            lines = Z.dumps(hand).splitlines()
            Z.verify(Z.parse_lines(json.loads(lines[0]), lines[1:]))


def test_a_replay_wrongly_flagged_as_drawing_its_first_card_still_verifies():
    """A record written before the fix above may say ``draw_first_card`` for a hand whose seat
    was given; its actions do not play through that way, so the given seat is used and the
    replay verifies (stored records stay readable); a tampered action still fails."""
    given = play_out(ZpyHand.new(zhaopengyou(), 107375944391782, hand_no=2, levels=[2, 2, 4, 4, 4],
                                 eligible=[2, 3, 4], first_card=0))
    lines = Z.dumps(given).splitlines()
    header = dict(json.loads(lines[0]), draw_first_card=True)
    hand = Z.verify(Z.parse_lines(header, lines[1:]))
    assert hand.first_card == 0 and hand.settlement == given.settlement
    bad = [x.replace('"a":"play"', '"a":"bury"', 1) if i == len(lines) - 3 else x for i, x in enumerate(lines[1:])]
    with pytest.raises(R.ReplayError):
        Z.verify(Z.parse_lines(header, bad))
