"""The career from the command line, as real subprocesses on a real SQLite file: profiles,
demo hands recorded under a profile, records, stats, replays, coin caps, and kill -9
(issue 10 "Done when"; README "Career")."""
import json
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.coins import DAY_CAP, HAND_CAP
from engine.scoring import title_for

ROOT = Path(__file__).resolve().parents[1]
RESULT = re.compile(r"^hand (\d+): dealer seat \d bid \d+ final [+-]\d+ game points \[([^\]]*)\]$")


@pytest.fixture
def env(tmp_path):
    e = dict(os.environ, HONGWU_DATA_DIR=str(tmp_path / "data"), HONGWU_CONFIG_DIR=str(tmp_path / "cfg"),
             SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    return e


def hongwu(env, *args, check=True, timeout=180):
    p = subprocess.run([sys.executable, "-m", "game", *args], env=env, cwd=ROOT, capture_output=True,
                       text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError(f"hongwu {' '.join(args)} exited {p.returncode}: {p.stderr}")
    return p


def demo(env, *extra, hands=1):
    return hongwu(env, "play", "--seats", "basic,basic,basic,basic", "--hands", str(hands), "--speed", "instant",
                  "--mute", *extra)


def seat0_points(stdout):
    return [int(m.group(2).split(",")[0]) for m in map(RESULT.match, stdout.splitlines()) if m]


def test_five_demo_hands_in_two_runs(env, tmp_path):
    assert "created" in hongwu(env, "profile", "new", "Ann", "--avatar", "tiger").stdout
    a = demo(env, "--profile", "Ann", "--seed", "5", hands=2)
    b = demo(env, "--profile", "Ann", "--seed", "6", hands=3)
    gained = seat0_points(a.stdout) + seat0_points(b.stdout)
    assert len(gained) == 5
    show = json.loads(hongwu(env, "profile", "show", "Ann", "--json").stdout)
    assert show["points"] == sum(gained) and show["title"] == title_for(sum(gained)) and show["hands"] == 5
    assert show["avatar"] == "tiger" and show["next_title"] and 0 <= show["progress"] <= 1
    recs = json.loads(hongwu(env, "records", "--profile", "Ann", "--json").stdout)
    assert [r["my_points"] for r in recs] == gained and [r["id"] for r in recs] == sorted(r["id"] for r in recs)
    assert all(r["seats"][0] == "Ann" and r["coins"] == [0, 0, 0, 0] for r in recs)
    assert len(json.loads(hongwu(env, "records", "--profile", "Ann", "--last", "2", "--json").stdout)) == 2
    st = json.loads(hongwu(env, "stats", "--profile", "Ann", "--json", "--plot", str(tmp_path / "p.png")).stdout)
    assert st["hands"] == 5 and st["series"][-1] == sum(gained)
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"
    # the text names the hand that reached each title (README "Statistics")
    text = hongwu(env, "stats", "--profile", "Ann").stdout
    wanted = ", ".join(t["title"] if t["record_id"] is None else f"{t['title']} (#{t['record_id']})"
                       for t in st["titles"])
    assert f"titles reached: {wanted}\n" in text
    # the selected profile is the default of play / records / show
    hongwu(env, "profile", "use", "Ann")
    demo(env, "--seed", "7")
    assert json.loads(hongwu(env, "profile", "show", "--json").stdout)["hands"] == 6
    assert "* Ann" in hongwu(env, "profile", "list").stdout


def test_replay_export_verify_and_tampered(env, tmp_path):
    hongwu(env, "profile", "new", "Bo")
    demo(env, "--profile", "Bo", "--seed", "9", hands=2)
    rid = json.loads(hongwu(env, "records", "--profile", "Bo", "--json").stdout)[1]["id"]
    f = tmp_path / "hand.jsonl"
    hongwu(env, "replay", str(rid), "--export", str(f))
    lines = f.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["format"] == "hongwu-replay" and header["seats"][0] == "Bo" and len(lines) > 45
    assert hongwu(env, "replay", str(f), "--verify").returncode == 0
    assert hongwu(env, "replay", str(rid), "--verify").returncode == 0
    text = hongwu(env, "replay", str(f)).stdout
    assert "trick 1:" in text and "kitty buried" in text and "Bo" in text
    # tamper: another seat plays line 40's cards -> refused at line 40
    bad = json.loads(lines[39])
    bad["seat"] = (bad["seat"] + 1) % 4
    t = tmp_path / "tampered.jsonl"
    t.write_text("\n".join(lines[:39] + [json.dumps(bad)] + lines[40:]) + "\n")
    p = hongwu(env, "replay", str(t), "--verify", check=False)
    assert p.returncode == 1 and "line 40:" in p.stderr
    # tamper: the recorded result -> line 1
    header["settlement"]["dealer_final"] += 5
    t.write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    p = hongwu(env, "replay", str(t), "--verify", check=False)
    assert p.returncode == 1 and "line 1:" in p.stderr
    t.write_text("\n".join(lines[:3] + ["garbage"] + lines[4:]))
    p = hongwu(env, "replay", str(t), "--verify", check=False)
    assert p.returncode == 1 and "line 4:" in p.stderr
    assert hongwu(env, "replay", "999999", check=False).returncode == 2


def test_coin_caps_hold_at_a_large_stake(env):
    hongwu(env, "profile", "new", "Cy")
    p = demo(env, "--profile", "Cy", "--seed", "3", "--stake", "10000000", hands=6)
    recs = json.loads(hongwu(env, "records", "--profile", "Cy", "--json").stdout)
    assert 1 <= len(recs) <= 6
    net = 0
    for r in recs:
        assert all(abs(c) <= HAND_CAP for c in r["coins"]) and r["stake"] == 10_000_000
        assert r["coins"][1:] == [max(-HAND_CAP, min(HAND_CAP, g * 10_000_000)) for g in r["game_points"][1:]]
        net += r["my_coins"]
        assert abs(net) <= DAY_CAP
    assert json.loads(hongwu(env, "profile", "show", "Cy", "--json").stdout)["coins"] == net
    if len(recs) < 6:  # the run stopped at the day's cap
        assert p.returncode == 4 and "daily coin cap" in p.stderr


def test_daily_cap_refuses_a_staked_start(env):
    hongwu(env, "profile", "new", "Di")
    from game.career import Store, local_day

    s = Store.open(Path(env["HONGWU_DATA_DIR"]) / "hongwu.db")
    pid = s.profile("Di").id
    s.conn.execute("INSERT INTO coin_days(profile_id, day, net, hands) VALUES (?, ?, ?, 4)",
                   (pid, local_day(), -DAY_CAP))
    s.close()
    p = hongwu(env, "play", "--profile", "Di", "--stake", "5", "--seats", "basic,basic,basic,basic", "--hands", "1",
               "--speed", "instant", "--mute", check=False)
    assert p.returncode == 4 and "daily coin cap" in p.stderr and "00:00" in p.stderr and "hand 1" not in p.stdout
    assert demo(env, "--profile", "Di").returncode == 0  # a hand without a stake moves no coins: allowed
    p = hongwu(env, "play", "--profile", "Nobody", "--hands", "1", check=False)
    assert p.returncode == 2 and "no profile named" in p.stderr


def test_damaged_database_is_reported_and_moved(env):
    data = Path(env["HONGWU_DATA_DIR"])
    data.mkdir(parents=True)
    (data / "hongwu.db").write_text("not a database at all")
    p = hongwu(env, "profile", "list")
    assert "moved to" in p.stderr and "not an SQLite" in p.stderr
    moved = [f for f in data.iterdir() if f.name.startswith("hongwu.db.damaged-")]
    assert len(moved) == 1 and moved[0].read_text() == "not a database at all"


def test_nothing_lost_on_kill_9(env):
    """SIGKILL a 200-hand demo at random moments, 10 times: the file stays sound and every hand
    whose result line was printed is recorded (recorded before the line is printed)."""
    hongwu(env, "profile", "new", "Ed")
    db = Path(env["HONGWU_DATA_DIR"]) / "hongwu.db"
    rng = random.Random(1234)
    printed_total = 0
    for run in range(10):
        before = sqlite3.connect(db).execute("SELECT count(*) FROM records").fetchone()[0]
        proc = subprocess.Popen([sys.executable, "-m", "game", "play", "--profile", "Ed", "--seats",
                                 "basic,basic,basic,basic", "--hands", "200", "--speed", "instant", "--mute",
                                 "--seed", str(run)], env=env, cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL, text=True)
        try:
            # wait for the first result line, then a random while, then kill
            first = proc.stdout.readline()
            time.sleep(rng.uniform(0.0, 1.5))
        finally:
            proc.send_signal(signal.SIGKILL)
            rest, _ = proc.communicate(timeout=30)
        printed = [line for line in (first + rest).splitlines() if RESULT.match(line)]
        printed_total += len(printed)
        conn = sqlite3.connect(db)
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rows = conn.execute("SELECT text FROM replays WHERE record_id > (SELECT coalesce(max(id), 0) FROM records) - ?",
                            (len(printed) + 1,)).fetchall()
        after = conn.execute("SELECT count(*) FROM records").fetchone()[0]
        conn.close()
        assert after - before >= len(printed), f"run {run}: {len(printed)} printed, {after - before} recorded"
        assert after - before <= len(printed) + 1  # at most the hand being printed when killed
        hands = {json.loads(r[0].split("\n", 1)[0])["hand_no"] for r in rows}
        assert {int(RESULT.match(line).group(1)) for line in printed} <= hands
    assert printed_total >= 10
    p = hongwu(env, "profile", "show", "Ed", "--json")
    assert p.stderr == "" and json.loads(p.stdout)["hands"] >= printed_total


def test_the_stats_text_names_the_record_that_reached_a_title():
    from game.career.cli import _title_reached

    assert _title_reached({"title": "穿鞋", "record_id": 2}) == "穿鞋 (#2)"
    assert _title_reached({"title": "赤脚", "record_id": None}) == "赤脚"
