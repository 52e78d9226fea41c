"""A LAN client records the 找朋友 hands it plays (issue 16): a real 找朋友 host on 127.0.0.1
(first-legal AIs in four seats, a short match: ``game_end=reach_a``, 20-point rungs), a client
in seat 2 with a profile, real SQLite files in ``tmp_path``. The client rebuilds every hand from
the events it received and the seed the host sends once the hand is over (net/zpy_log.py,
PROTOCOL.md section 14); its profile then holds the rows, replays that verify, statistics and
the levels chart of the match, as a local 找朋友 match does (tests/test_career_zpy.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine import replay as R
from game.career import Recorder, Store, zpy_stats
from game.zpy_table import zpy_first_legal
from net.ai import AIProvider
from net.cli import BackgroundHost
from net.remote_table import RemoteTable
from net.server import ServerConfig, Timers
from net.testing import fast_table

ROOT = Path(__file__).resolve().parents[1]
#: a short 找朋友 match: the game ends when a seat reaches A; 20-point rungs (3-7 hands with
#: first-legal players), no redeals
SHORT = {"game_end": "reach_a", "step": 20, "max_redeals": 0}
ME = 2


def start_host(seed: int = 7, **kw) -> BackgroundHost:
    """A running 找朋友 host: seat ``ME`` free, the others first-legal AIs, no timers."""
    cfg = ServerConfig(bind="127.0.0.1", port=0, rate=10_000, burst=10_000, tables=[
        fast_table("Z", ruleset="zhaopengyou", options=dict(SHORT), seed=seed,
                   timers=Timers(bid=0, trump=0, bury=0, play=0, deal=0, call_friend=0, counter=0),
                   ai_seats={s: "first-legal" for s in range(5) if s != ME}, **kw)])
    h = BackgroundHost(cfg, AIProvider(use_plugins=False, user_plugins=False), announce=None)
    h.port = h.start()
    return h


@pytest.fixture
def host():
    h = start_host()
    yield h
    h.stop()


def play_match(table: RemoteTable, rec: Recorder, max_hands: int = 12, limit_s: float = 120.0) -> list:
    """Play seat ``ME`` with first-legal actions until the game is over, recording each
    settled hand as the window does; returns the ZpyRecorded per hand."""
    got = []
    end = time.monotonic() + limit_s
    assert table.ready() is None and table.wait_for_hand(10)
    while time.monotonic() < end and len(got) < max_hands:
        settled = False
        for ev in table.poll():
            if ev.kind == "hand_settled":
                settled = True
        if settled:
            hand = table.settled_zpy_hand()
            assert hand is not None, table.zpy_problem
            r = rec.zpy_lan_hand_finished(hand, list(table.names), table.seat, table.table_key)
            assert r is not None
            got.append(r)
            if hand.settlement.game_over:
                return got
            assert table.next_hand() is None
            continue
        v = table.view()
        if v.my_turn and v.phase.value != "settle":
            assert table.submit(zpy_first_legal(v)) is None
        time.sleep(0.002)
    raise AssertionError(f"the match did not end: {len(got)} hands recorded")


def test_a_lan_client_records_every_hand_of_its_match(host, tmp_path):
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Bo")
    rec = Recorder(store, "Bo")
    table = RemoteTable("127.0.0.1", host.port, "Bo", seat=ME)
    try:
        got = play_match(table, rec)
        assert len(got) >= 2
        pid = store.profile("Bo").id
        rows = store.zpy_hands(pid)
        assert [z.hand_no for z in rows] == list(range(1, len(got) + 1))
        assert len({z.match_id for z in rows}) == 1  # one LAN match
        assert all(z.seat == ME and z.seats[ME] == "Bo" for z in rows)
        for prev, nxt in zip(rows, rows[1:]):
            assert nxt.levels_before == prev.levels_after
        assert rows[-1].game_over and max(rows[-1].levels_after) == 14
        for z in rows:  # each replay re-deals from the seed and verifies
            rep = R.parse(store.replay_text(z.record_id))
            assert rep.header["seed"] is not None and rep.header["seat"] == ME
            assert R.verify(rep).settlement.levels == tuple(z.levels_after)
        st = zpy_stats(store, "Bo")
        assert st.hands == len(rows) and st.matches == 1 and st.games_won == int(ME in rows[-1].game_winners)
        assert [s[-1] for s in st.levels] == list(rows[-1].levels_after)
        assert [s[0] for s in st.levels] == [2] * 5
        # the same hand is recorded once
        assert rec.zpy_lan_hand_finished(table.settled_zpy_hand(), list(table.names), ME, table.table_key) is None
        # the match is over: the host deals no further hand
        assert table.match_over and table.next_hand() is not None
    finally:
        table.close()
        store.close()


# --- hongwu join --profile: the window ---------------------------------------------------------
def _env(tmp_path: Path) -> dict[str, str]:
    return dict(os.environ, HONGWU_DATA_DIR=str(tmp_path / "data"), HONGWU_CONFIG_DIR=str(tmp_path / "cfg"),
                HONGWU_STATE_DIR=str(tmp_path / "state"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy",
                PYTHONPATH=str(ROOT))


def hongwu(env: dict[str, str], *args: str, check: bool = True, timeout: float = 240) -> subprocess.CompletedProcess:
    """``hongwu ARGS`` as a real subprocess."""
    p = subprocess.run([sys.executable, "-m", "game", *args], env=env, cwd=ROOT, capture_output=True, text=True,
                       timeout=timeout)
    if check and p.returncode != 0:
        raise AssertionError(f"hongwu {' '.join(args)} exited {p.returncode}: {p.stdout}\n{p.stderr}")
    return p


@pytest.fixture
def profile_env(tmp_path, monkeypatch):
    """A data dir with profile "Cy" (made by ``hongwu profile new``), the test process using it."""
    env = _env(tmp_path)
    for k in ("HONGWU_DATA_DIR", "HONGWU_CONFIG_DIR", "HONGWU_STATE_DIR"):
        monkeypatch.setenv(k, env[k])
    hongwu(env, "profile", "new", "Cy")
    yield env
    from game import i18n

    i18n.set_language("en")


def press(app, b, via: str) -> None:
    """Press button ``b`` of the top screen: a mouse click, a one-finger tap, or Enter."""
    import pygame

    if via == "touch":
        from tests.client_driver import tap

        tap(app, b.rect.center)
        return
    if via == "keyboard":
        events = [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0),
                  pygame.event.Event(pygame.KEYUP, key=pygame.K_RETURN, mod=0, unicode="\r", scancode=0)]
    else:
        events = [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=b.rect.center, button=1),
                  pygame.event.Event(pygame.MOUSEBUTTONUP, pos=b.rect.center, button=1)]
    for ev in events:
        pygame.event.post(ev)
    app.step()


@pytest.mark.parametrize("via", ["mouse", "touch", "keyboard"])
def test_join_window_with_a_profile_records_the_match_and_leaves_when_it_is_over(profile_env, via):
    """``hongwu join HOST --profile Cy`` (its real command line: the profile wrapper, the
    connection, the window in the LAN lobby) at a 找朋友 host; the seat on auto-play (托管),
    Next hand pressed after every hand. When a seat has passed A the settlement says "Match
    over" and offers Leave to menu instead of New match; pressing it closes the connection and
    shows the main menu. The profile then holds every hand of the match."""
    pytest.importorskip("pygame")
    import dataclasses

    from game.lan_cli import HOOKS, add_join_parser, make_join_app
    from game.scenes.menu import MenuScene
    from game.scenes.zpy_panels import lan_match_over

    h = start_host(seed=11)
    seen: dict = {"hands": 0, "leave": None}
    pressed: set = set()  # the hands whose settlement button was pressed

    def drive(table, ns) -> int:
        app = make_join_app(table, ns)
        try:
            end = time.monotonic() + 180
            steps = 0
            while time.monotonic() < end and steps < 200_000:
                steps += 1
                app.step([])
                sc = app.scene
                if sc is None or app.screens:
                    if seen["leave"] is not None and isinstance(app.top, MenuScene):
                        return 0
                    time.sleep(0.002)
                    continue
                if not table.auto and table.view().phase.value != "settle":
                    app._on_toolbar("auto")
                b = next((x for x in sc.buttons if x.key in ("next", "leave") and x.enabled), None)
                if b is not None and sc.view.hand_no in pressed:
                    b = None  # Next hand pressed for this hand already: the host is dealing the next
                if b is not None:
                    pressed.add(sc.view.hand_no)
                if b is not None and b.key == "next":
                    seen["hands"] += 1
                    assert not lan_match_over(sc, sc.view) and b.label == "Next hand"
                    press(app, b, via)
                elif b is not None and b.key == "leave":
                    seen["hands"] += 1
                    assert lan_match_over(sc, sc.view) and sc.view.settlement.game_over
                    assert b.label == "Leave to menu" and "New match" not in [x.label for x in sc.buttons]
                    seen["leave"] = table
                    press(app, b, via)
                    assert app.scene is None and table.closed  # left: the connection is closed
                time.sleep(0.002)
            raise AssertionError(f"the match did not end in the window ({seen['hands']} hands)")
        finally:
            app.close()

    try:
        sub = __import__("argparse").ArgumentParser().add_subparsers()
        ns = add_join_parser(sub).parse_args([f"127.0.0.1:{h.port}", "--profile", "Cy", "--seat", str(ME), "--name",
                                              "Cy", "--fresh", "--lang", "en", "--speed", "instant", "--mute"])
        ns.client_hooks = dataclasses.replace(HOOKS, join_window=drive)
        assert ns.func(ns) == 0
    finally:
        h.stop()
    assert seen["leave"] is not None and seen["hands"] >= 2
    env = profile_env
    recs = json.loads(hongwu(env, "records", "--profile", "Cy", "--ruleset", "zhaopengyou", "--json").stdout)
    assert len(recs) == seen["hands"]
    assert all(r["seat"] == ME and r["seats"][ME] == "Cy" for r in recs)
    assert len({r["match_id"] for r in recs}) == 1 and sorted(r["hand_no"] for r in recs) == list(range(1, len(recs) + 1))
    assert any(r["game_over"] for r in recs)
    if via != "mouse":
        return
    for r in (recs[0], recs[-1]):  # the real CLI re-deals the hand from its seed and checks it
        assert hongwu(env, "replay", str(r["id"]), "--verify").returncode == 0
    store = Store.open(Path(env["HONGWU_DATA_DIR"]) / "hongwu.db")
    try:
        for r in recs:
            assert R.verify(R.parse(store.replay_text(r["id"]))).settlement.levels == tuple(r["levels_after"])
    finally:
        store.close()
    st = json.loads(hongwu(env, "stats", "--profile", "Cy", "--ruleset", "zhaopengyou", "--json").stdout)
    assert st["hands"] == len(recs) and st["matches"] == 1
    last = max(recs, key=lambda r: r["hand_no"])
    assert [s[-1] for s in st["levels"]] == last["levels_after"] and st["match_hands"] == list(range(1, len(recs) + 1))
    png = Path(env["HONGWU_DATA_DIR"]) / "levels.png"
    p = hongwu(env, "stats", "--profile", "Cy", "--ruleset", "zhaopengyou", "--plot", str(png))
    assert f"seat {ME} (Cy)" in p.stdout and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- hongwu join --headless --profile ----------------------------------------------------------
def test_headless_join_with_a_profile_records_the_match_and_stops_when_it_is_over(tmp_path):
    """``hongwu join HOST --headless --profile Di`` as a real process: its AI plays seat 2 of
    a whole 找朋友 match; it says the game is over and exits 0 (the host deals no further
    hand), and the profile holds every hand, their replays verify and the statistics count
    them; ``--wait`` and ``timeout`` bound the run."""
    env = _env(tmp_path)
    hongwu(env, "profile", "new", "Di")
    h = start_host(seed=5)
    try:
        p = hongwu(env, "join", f"127.0.0.1:{h.port}", "--headless", "--profile", "Di", "--name", "Di", "--seat",
                   str(ME), "--ai", "first-legal", "--fresh", "--wait", "30", "--no-user-plugins", timeout=180)
    finally:
        h.stop()
    lines = p.stdout.splitlines()
    results = [x for x in lines if x.startswith("hand ")]
    assert "the game is over: the host deals no further hand" in lines and "not recorded" not in p.stderr
    recs = json.loads(hongwu(env, "records", "--profile", "Di", "--ruleset", "zhaopengyou", "--json").stdout)
    assert len(recs) == len(results) >= 2
    assert all(r["seat"] == ME and r["seats"][ME] == "Di" for r in recs) and len({r["match_id"] for r in recs}) == 1
    by_no = {r["hand_no"]: r for r in recs}
    names = {11: "J", 12: "Q", 13: "K", 14: "A"}
    for line in results:  # the levels the host sent are the levels recorded
        no = int(line.split(":")[0].split()[1])
        after = line.split(" -> ")[1].split(",")[0].split()
        assert after == [names.get(v, str(v)) for v in by_no[no]["levels_after"]]
    assert hongwu(env, "replay", str(recs[0]["id"]), "--verify").returncode == 0
    st = json.loads(hongwu(env, "stats", "--profile", "Di", "--ruleset", "zhaopengyou", "--json").stdout)
    assert st["hands"] == len(recs) and st["matches"] == 1


# --- what a seat receives, and what it cannot rebuild ------------------------------------------
def _seen_frames(hand, seat: int, seed: bool = True):
    """The ``event`` notifications the host sends ``seat`` for the settled engine ``hand``
    (through the host's own encoder), then the view."""
    from net import zpy_codec

    out = []
    for i, ev in enumerate(hand.events):
        wire = zpy_codec.event_out(ev.for_seat(seat), hand.levels, hand.buried or (),
                                   hand.seed if seed and ev.kind == "hand_settled" else None)
        out.append(("event", {"hand_no": hand.hand_no, "n": i, "event": wire}))
        if i == 2:
            out.append(("view", {"hand_no": hand.hand_no, "events": 3, "view": zpy_codec.view_out(hand.view(seat))}))
    return out


def _played(seed: int, pass_deals: int = 0, **options):
    """A settled hand with random legal actions; every seat passes in the first
    ``pass_deals`` deals (so they are redealt)."""
    import random

    from engine.ruleset import zhaopengyou
    from engine.zhaopengyou import Pass, ZPhase, ZpyHand

    h = ZpyHand.new(zhaopengyou(**options), seed)
    rng = random.Random(seed)
    while not h.is_over:
        if h.phase is ZPhase.DEAL and h.deal_no <= pass_deals:
            h.apply(Pass(h.to_act))
        else:
            h.apply(rng.choice(list(h.legal_actions())))
    return h


@pytest.mark.parametrize("seed", [3, 8])
def test_the_log_rebuilds_the_hosts_hand_redeals_included(seed):
    from engine import replay_zpy
    from net.zpy_log import ZpyHandLog

    for passes in (0, 2):
        h = _played(seed, passes)
        assert h.deal_no == passes + 1
        for seat in (0, 4):
            log = ZpyHandLog()
            for method, params in _seen_frames(h, seat):
                log.feed(method, params, seat)
            got = log.rebuilt()
            assert got is not None, log.problem
            assert got.settlement == h.settlement and got.seed == h.seed and got.deal_no == h.deal_no
            assert replay_zpy.dumps(got, seat=seat) == replay_zpy.dumps(h, seat=seat)


def test_a_gap_a_late_join_a_wrong_event_or_no_seed_is_not_rebuilt():
    from net.zpy_log import ZpyHandLog

    h = _played(4)
    frames = _seen_frames(h, 1)

    def run(frames):
        log = ZpyHandLog()
        for method, params in frames:
            log.feed(method, params, 1)
        return log

    gap = run(frames[:40] + frames[41:])  # one event missed (a reconnect)
    assert gap.rebuilt() is None and "not every event" in gap.problem
    late = run(frames[10:])  # joined mid-hand
    assert late.rebuilt() is None and "not every event" in late.problem
    old = run(_seen_frames(h, 1, seed=False))  # a host that does not send the seed
    assert old.rebuilt() is None and "no seed" in old.problem
    k = next(i for i, (m, p) in enumerate(frames) if m == "event" and p["event"]["kind"] == "cards_played")
    bad = [(m, dict(p)) for m, p in frames]
    ev = dict(bad[k][1]["event"])
    ev["seat"] = (ev["seat"] + 1) % 5  # another seat's play: not the host's hand
    bad[k][1]["event"] = ev
    wrong = run(bad)
    assert wrong.rebuilt() is None and wrong.problem


def test_the_seed_reaches_a_seat_only_in_hand_settled(host):
    """Every frame a seated client receives over a real socket during a whole hand: a
    ``seed`` with a value appears only in the ``hand_settled`` event's settlement."""
    import asyncio

    from net.bot import Bot
    from net.client import Client

    frames: list = []

    async def main() -> None:
        client = await Client.connect("127.0.0.1", host.port, timeout=5)
        try:
            await client.hello("Ed", seat=ME)

            class Player:
                def act(self, view):
                    return zpy_first_legal(view)

            await Bot(client, Player(), hands=1, on_message=lambda m, p: frames.append((m, p))).run(timeout=60)
        finally:
            await client.close()

    asyncio.run(main())

    def seeds(x, path=""):
        if isinstance(x, dict):
            for k, v in x.items():
                if k == "seed" and v is not None:
                    yield path + "/seed"
                yield from seeds(v, f"{path}/{k}")
        elif isinstance(x, list):
            for v in x:
                yield from seeds(v, path)

    found = [(m, p.get("event", {}).get("kind"), s) for m, p in frames for s in seeds(p)]
    assert found == [("event", "hand_settled", "/event/settlement/seed")]
