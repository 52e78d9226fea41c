"""找朋友 over the LAN in the window client (PROTOCOL.md section 14, issue 16): a real 找朋友 host
on 127.0.0.1 (any free port) with basic AIs or headless basic joins in seats 1-4 and the
pygame client (dummy SDL driver) in seat 0, driven by real mouse events through whole hands:
declare or pass, call the friend as the dealer, bury, counter or pass, play, the settlement,
the next hand. The window's views never show what seat 0 may not see, and a dropped
connection mid-hand resumes the seat."""
from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

pygame = pytest.importorskip("pygame")

from engine.zhaopengyou import ZPhase  # noqa: E402
from game import i18n, settings  # noqa: E402
from game.lan_cli import add_host_parser, make_host_app  # noqa: E402
from net.cli import BackgroundHost, _ai_provider, host_config  # noqa: E402
from net.remote_table import Resynced  # noqa: E402

#: a host seed whose first hand makes seat 0 (the window, declaring whenever it can) the
#: dealer, so the test calls a friend and buries through the window
DEALER_SEED = 1
ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    yield
    i18n.set_language("en")


def host_args(*extra: str) -> argparse.Namespace:
    """Parsed ``hongwu host --ruleset zhaopengyou`` arguments for a loopback test host (the
    declaration and counter windows long enough for a loaded test machine)."""
    sub = argparse.ArgumentParser().add_subparsers()
    return add_host_parser(sub).parse_args([
        "--bind", "127.0.0.1", "--port", "0", "--no-discovery", "--no-user-plugins",
        "--ai-delay", "0", "--lang", "en", "--speed", "instant", "--mute",
        "--ruleset", "zhaopengyou", "--timer-deal", "30", "--timer-counter", "30", *extra])


def button(app: Any, key: str) -> Any:
    """The enabled button ``key`` of the top screen, or None."""
    return next((b for b in app.top.buttons if b.key == key and b.enabled), None)


#: how :func:`click_at` presses: ``"mouse"`` (button 1) or ``"touch"`` (a one-finger tap)
POINTER = {"via": "mouse"}


def click_at(app: Any, pos: tuple[int, int]) -> None:
    """A real mouse press and release (or a finger tap, see :data:`POINTER`) at ``pos``,
    then one frame."""
    if POINTER["via"] == "touch":
        from tests.client_driver import tap

        tap(app, pos)
        return
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step()


def click(app: Any, key: str) -> bool:
    """Click button ``key`` if it is there and enabled (True when clicked)."""
    b = button(app, key)
    if b is None:
        return False
    click_at(app, b.rect.center)
    return True


def key(app: Any, button_key: str, k: int) -> bool:
    """Press keyboard key ``k`` (a real KEYDOWN/KEYUP) when button ``button_key`` is there and
    enabled, the key doing what that button does (True when pressed)."""
    if button(app, button_key) is None:
        return False
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    app.step()
    return True


def wait(app: Any, pred: Any, what: str, limit_s: float = 30.0) -> None:
    """Run frames until ``pred()`` (bounded in time)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        app.step()
        if pred():
            return
        time.sleep(0.005)
    raise AssertionError(f"timed out waiting for {what}")


def select(app: Any, cards: Any) -> None:
    """Raise exactly ``cards`` in the hand by clicking them (real mouse events)."""
    for _ in range(len(cards) * 3 + 10):
        sc = app.scene
        hand = sc.hand
        want: list[int] = []
        for c in cards:
            idx = next((i for i, h in enumerate(hand.cards) if h == c and i in hand.selected and i not in want), None)
            if idx is None:
                idx = next(i for i, h in enumerate(hand.cards) if h == c and i not in want)
            want.append(idx)
        todo = sorted(hand.selected - set(want)) + [i for i in want if i not in hand.selected]
        if not todo:
            return
        pt = hand.click_point(sc.layout, todo[0])
        click_at(app, (int(pt[0]), int(pt[1])))
    raise AssertionError("could not select the cards")


class Watch:
    """Records the events the window's table hands the scene and checks every view the scene
    shows against what seat 0 may see (PROTOCOL.md section 14, hidden information)."""

    def __init__(self, table: Any) -> None:
        self.table = table
        self.events: list[Any] = []
        self.revealed = False
        self.views = 0
        real = table.poll

        def poll() -> list[Any]:
            out = real()
            for ev in out:
                self.events.append(ev)
                if ev.kind == "friend_revealed":
                    self.revealed = True
                elif ev.kind == "hand_started":
                    self.revealed = False
                elif ev.kind == "card_dealt":
                    assert (ev.cards is not None) == (ev.seat == table.seat), ev  # only its own cards
            return out

        table.poll = poll

    def check(self, v: Any) -> None:
        """One view of seat 0: its own cards only, the kitty only while it buries, no friend
        before the reveal, no settlement before the end."""
        self.views += 1
        assert v.seat == 0
        if v.kitty is not None:
            assert v.burier == 0 and v.phase is ZPhase.BURY
        if v.buried is not None and v.settlement is None:
            assert v.burier == 0
        if v.friend is not None and v.settlement is None:
            assert self.revealed, "the friend was named before the reveal"
        if v.phase is not ZPhase.SETTLE:
            assert v.settlement is None
        if v.phase in (ZPhase.DEAL, ZPhase.COUNTER) and v.to_act not in (None, 0):
            raise AssertionError(f"another seat's window was named: {v.to_act}")


def play_hand(app: Any, watch: Watch, host: Any = None, on_play: Any = None,
              limit_s: float = 150.0, keyboard: bool = False, pass_first: bool = False,
              never_declare: bool = False, counter: bool = False) -> set[str]:
    """Play seat 0's part of one 找朋友 hand by mouse until the settlement shows: declare the
    strongest offer whenever asked (pass when nothing is offered), pass counters, call the
    chooser's first allowed friend, bury the first 7 cards, play the basic AI's choice.
    ``on_play(app)`` runs once at seat 0's first play turn; ``keyboard``: declare, pass, call,
    bury and play with keys (1-4, 0, Enter; cards still raised by mouse); ``pass_first``: let
    the first declaration window offered pass; ``never_declare``: pass every one; ``counter``:
    counter (反牌) with the first offer when asked. Returns what seat 0 did."""
    from ai_plugins.runner import SafePlayer

    brain = SafePlayer(None, "basic", 0, seed=1)
    did: set[str] = set()
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        app.step()
        sc = app.scene
        v = sc.view
        watch.check(v)
        if sc.show_settlement and v.settlement is not None:
            did.add("settled")
            return did
        if not v.my_turn:
            time.sleep(0.002)
            continue
        if v.phase in (ZPhase.DEAL, ZPhase.COUNTER):
            if v.phase is ZPhase.COUNTER and counter and v.legal_declarations:
                if click(app, "declare:0"):
                    did.add("counter")
            elif v.phase is ZPhase.DEAL and v.legal_declarations and not never_declare \
                    and not (pass_first and "pass" not in did):
                n = min(len(v.legal_declarations), 4)
                if (key(app, f"declare:{n - 1}", pygame.K_1 + n - 1) if keyboard
                        else click(app, f"declare:{len(v.legal_declarations) - 1}")):
                    did.add("declare")
            elif key(app, "declare:pass", pygame.K_0) if keyboard else click(app, "declare:pass"):
                did.add("pass" if v.phase is ZPhase.DEAL else "counter_pass")
        elif v.phase is ZPhase.CALL_FRIEND:
            if key(app, "fr:call", pygame.K_RETURN) if keyboard else click(app, "fr:call"):
                did.add("call_friend")
        elif v.phase is ZPhase.BURY:
            select(app, list(v.hand[: v.bury_count]))
            if key(app, "bury", pygame.K_RETURN) if keyboard else click(app, "bury"):
                did.add("bury")
        elif v.phase is ZPhase.PLAY:
            if "play" not in did:
                if host is not None:  # the window holds exactly seat 0's cards, no other
                    room = host.server.rooms[0]
                    real = host.call(lambda: tuple(room.game.hand_of(0)))
                    assert Counter(v.hand) == Counter(real)
                if on_play is not None and "on_play" not in did:
                    did.add("on_play")
                    on_play(app)
                    continue
            act = brain.fallback_action(v)
            select(app, list(act.cards))
            if key(app, "play", pygame.K_RETURN) if keyboard else click(app, "play"):
                did.add("play")
    raise AssertionError(f"the hand did not end (did {sorted(did)}, phase {app.scene.view.phase})")


def open_table(ns: argparse.Namespace) -> tuple[Any, Any]:
    """A started host and its window (host's own seat 0), Ready clicked, the table open."""
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    return host, app


def join_app(host: Any, port: int) -> Any:
    """``hongwu join 127.0.0.1:PORT`` with a window (``make_join_app``) in seat 0."""
    from game.lan_cli import add_join_parser, make_join_app
    from net.remote_table import RemoteTable

    sub = argparse.ArgumentParser().add_subparsers()
    jns = add_join_parser(sub).parse_args([f"127.0.0.1:{port}", "--no-user-plugins", "--lang", "en",
                                           "--speed", "instant", "--mute"])
    table = RemoteTable("127.0.0.1", port, "Ann", seat=0)
    return make_join_app(table, jns)


@pytest.mark.parametrize("mode", ["host", "join"])
def test_zpy_window_plays_a_hand_and_deals_the_next(mode):
    """``hongwu host --ruleset zhaopengyou`` with a window (the host's own seat 0), or
    ``hongwu join`` with a window on a headless-style host: the lobby shows five seats and the
    ruleset; Ready opens the 找朋友 table; seat 0 declares, calls the friend, buries, passes
    the counter round, plays every trick by mouse; the settlement shows the levels and Next
    hand deals hand 2. The host's window plays by mouse, the joined one by keyboard."""
    ns = host_args("--seed", str(DEALER_SEED), *[a for s in range(1, 5) for a in ("--ai", f"{s}=basic")])
    if mode == "host":
        host, app = open_table(ns)
    else:
        host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
        app = join_app(host, host.start())
    try:
        lobby = app.top  # before the first frame: a joined seat says ready by itself
        assert type(lobby).__name__ == "LanScreen" and lobby.state == "lobby"
        assert lobby.table.seat_count == 5 and len(lobby._seats()) == 5
        assert lobby.table.is_zhaopengyou and len(lobby.table.names) == 5
        if mode == "host":
            app.step()
            fills = [b.key for b in lobby.buttons if b.key.startswith("fill:")]
            assert fills == [f"fill:{i}" for i in range(1, 5)]
            assert click(app, "ready")
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        sc = app.scene
        assert sc.zpy and len(sc.names) == 5 and app.table.seat == 0
        assert app.table.chat("你好") is None  # chat at a 找朋友 table: RemoteTable's, as for 红五
        wait(app, lambda: any(line.text == "你好" and line.seat == 0 for line in sc.chat.session.history),
             "the chat line back from the host")
        watch = Watch(app.table)
        # the first deal window seat 0 is asked in: the host's timer on its plate, Declare lit
        wait(app, lambda: sc.view.my_turn and app.table.countdown() is not None, "seat 0's deal window")
        assert sc.view.phase is ZPhase.DEAL and sc.view.legal_declarations
        assert app.table.countdown()[0] == 0 and 0 < app.table.countdown()[1] <= 30
        assert button(app, "declare:pass") is not None and button(app, "declare:0") is not None
        did = play_hand(app, watch, host, keyboard=mode == "join", pass_first=mode == "join")
        v = sc.view
        assert {"declare", "call_friend", "bury", "play", "settled"} <= did, did
        assert ("pass" in did) == (mode == "join")
        assert v.dealer == 0 and v.settlement is not None
        assert len(app.table.levels()) == 5 and app.table.levels() == tuple(v.settlement.levels)
        assert watch.views > 20
        assert app.results and app.results[-1].startswith("hand 1: dealer 0")
        assert click(app, "next")
        wait(app, lambda: app.scene.view.hand_no == 2 and app.scene.view.phase is ZPhase.DEAL
             and not app.scene.show_settlement, "hand 2")
        assert app.table.hand_no == 2
    finally:
        app.close()
        host.stop()
    assert not host.loop.is_running()


def test_zpy_window_with_four_headless_joins_resumes_after_a_drop(tmp_path):
    """Four real ``hongwu join --headless`` processes (basic AI) in seats 1-4; the window in
    seat 0 plays; its connection is cut at its first play turn; it reconnects with its token
    (RemoteTable's backoff), the view is the seat's again and the hand plays to its end."""
    ns = host_args()
    host, app = open_table(ns)
    procs: list[subprocess.Popen] = []
    try:
        app.step()
        lobby = app.top
        port = lobby.table.port
        for seat in range(1, 5):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "game", "join", f"127.0.0.1:{port}", "--headless", "--seat", str(seat),
                 "--name", f"bot{seat}", "--ai", "basic", "--no-user-plugins", "--fresh"],
                cwd=ROOT, stdout=subprocess.DEVNULL, stderr=open(tmp_path / f"join{seat}.log", "w")))
        wait(app, lambda: all(s.get("kind") == "human" for s in lobby.table.table["seats"][1:]), "four joins", 60)
        assert click(app, "ready")
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand", 60)
        watch = Watch(app.table)
        cut: list[bool] = []

        def drop(app: Any) -> None:
            def abort() -> None:
                for s in host.server.sessions:
                    if s.seat == 0:
                        s.writer.transport.abort()
            host.call(abort)
            cut.append(True)
            wait(app, lambda: any(isinstance(e, Resynced) for e in watch.events), "the resync", 60)
            assert app.table.connected and app.table.seat == 0
            assert app.scene.view.seat == 0 and app.scene.view.phase is ZPhase.PLAY

        did = play_hand(app, watch, host, on_play=drop)
        assert cut and "settled" in did and "play" in did
    finally:
        app.close()
        host.stop()
        for p in procs:
            try:
                p.wait(timeout=20)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(5)


def test_zpy_host_command_opens_its_window(capsys):
    """The real ``hongwu host --ruleset zhaopengyou`` (no ``--headless``) is no longer refused:
    it runs window frames in the LAN lobby (stopped by the frame limit, status 3)."""
    from game.cli import main

    code = main(["host", "--ruleset", "zhaopengyou", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--no-user-plugins", "--lang", "en", "--speed", "instant", "--mute", "--max-frames", "15",
                 "--ai", "4=basic"])
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert "listening on 127.0.0.1:" in captured.out and "LAN lobby" in captured.out


#: a host seed where seat 0, passing every declaration window, is asked in the counter round
COUNTER_SEED = 31


def test_zpy_window_counters_by_touch():
    """Seat 0 plays by touch (finger taps): it passes every declaration window, counters (反牌)
    when the counter round asks it, re-buries the kitty it takes and plays the hand out."""
    ns = host_args("--seed", str(COUNTER_SEED), *[a for s in range(1, 5) for a in ("--ai", f"{s}=basic")])
    host, app = open_table(ns)
    try:
        app.step()
        assert click(app, "ready")  # the lobby by mouse, the table by touch
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        POINTER["via"] = "touch"
        watch = Watch(app.table)
        did = play_hand(app, watch, host, never_declare=True, counter=True)
        assert {"pass", "counter", "bury", "play", "settled"} <= did, did
        assert "declare" not in did and "call_friend" not in did
        assert any(ev.kind == "declared" and ev.seat == 0 and ev.phase == "counter" for ev in watch.events)
    finally:
        POINTER["via"] = "mouse"
        app.close()
        host.stop()


def test_zpy_observer_window_watches_hands_and_sees_no_cards():
    """``hongwu join --observe`` with a window at a 找朋友 table of five AIs: the table scene
    opens, hands are settled one after another (a result line each) and no view it shows holds
    a card in hand, a kitty or the friend before the reveal."""
    from game.lan_cli import add_join_parser, make_join_app
    from net.remote_table import RemoteTable

    ns = host_args("--seed", "1", *[a for s in range(5) for a in ("--ai", f"{s}=basic")])
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    sub = argparse.ArgumentParser().add_subparsers()
    jns = add_join_parser(sub).parse_args([f"127.0.0.1:{port}", "--observe", "--no-user-plugins", "--lang", "en",
                                           "--speed", "instant", "--mute"])
    table = RemoteTable("127.0.0.1", port, "Obs", observer=True)
    app = make_join_app(table, jns)
    try:
        wait(app, lambda: app.scene is not None, "the table scene")
        watch = Watch(table)
        end = time.monotonic() + 60
        while time.monotonic() < end and len(app.results) < 2:
            app.step()
            v = app.scene.view
            assert v.seat is None and v.hand == () and v.kitty is None
            if v.friend is not None and v.settlement is None:
                assert watch.revealed
        assert len(app.results) >= 2, app.results
        assert len(app.scene.names) == 5 and table.seat is None
    finally:
        app.close()
        host.stop()


def test_join_screen_lists_a_zpy_host_found_on_the_lan_and_opens_its_lobby(monkeypatch):
    """A real 找朋友 host announcing on 127.0.0.1 (a free UDP port): the join screen lists it
    with the ruleset named; clicking it connects to a five-seat lobby."""
    import socket

    from game.lan_cli import _remote_app_class, _remote_options, add_join_parser
    from game.scenes import lan

    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    s.bind(("127.0.0.1", 0))
    free_udp = s.getsockname()[1]
    s.close()
    monkeypatch.setattr(lan.LanScreen, "discover_port", free_udp)
    ns = host_args("--ai", "1=basic")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), ["127.0.0.1"], free_udp)
    host.start()
    sub = argparse.ArgumentParser().add_subparsers()
    jns = add_join_parser(sub).parse_args(["--no-user-plugins", "--lang", "en", "--speed", "instant", "--mute"])
    app = _remote_app_class()(_remote_options(jns, menu=True))
    try:
        app.push_screen(lan.LanScreen(app, "join"))
        scr = app.top
        wait(app, lambda: button(app, "found:0") is not None, "the host found on the LAN")
        assert "Finding Friends 找朋友" in button(app, "found:0").label
        assert click(app, "found:0")
        wait(app, lambda: scr.state == "lobby", "the lobby")
        assert len(scr._seats()) == 5 and scr.table.is_zhaopengyou
    finally:
        app.close()
        host.stop()


def test_a_joined_window_gets_the_deal_card_by_card_and_can_declare_mid_deal():
    """``hongwu join`` with a window at a host pacing its deal (``--deal-pace``): the window's
    table receives a view for every dealt card (never two cards at once, its own cards only,
    in deal order) and seat 0's first declaration window opens before the deal is over, the
    Declare button lit. An unpaced host would hand over every card up to the window at once."""
    from game.lan_cli import add_join_parser, make_join_app
    from net.remote_table import RemoteTable

    ns = host_args("--seed", str(DEALER_SEED), "--deal-pace", "0.004", "--hands", "1",
                   *[a for s in range(1, 5) for a in ("--ai", f"{s}=basic")])
    config = host_config(ns)
    assert config.tables[0].deal_card_s == 0.004
    host = BackgroundHost(config, _ai_provider(ns), None)
    port = host.start()
    sub = argparse.ArgumentParser().add_subparsers()
    jns = add_join_parser(sub).parse_args([f"127.0.0.1:{port}", "--no-user-plugins", "--lang", "en",
                                           "--speed", "instant", "--mute"])
    table = RemoteTable("127.0.0.1", port, "Ann", seat=0)
    installed: list[tuple[int, int, tuple[str, ...]]] = []  # (hand, cards dealt, hand) per view
    real = table._set_view

    def set_view(hand_no: int, events: int, wire_view: dict[str, Any], resync: bool = False) -> None:
        if wire_view.get("phase") == "deal":
            installed.append((hand_no, wire_view["cards_dealt"], tuple(wire_view["hand"])))
        real(hand_no, events, wire_view, resync)

    table._set_view = set_view  # type: ignore[method-assign]
    app = make_join_app(table, jns)
    try:
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        sc = app.scene
        wait(app, lambda: sc.view.my_turn and sc.view.phase is ZPhase.DEAL, "seat 0's first deal window")
        v = sc.view
        deal_size = 54 * v.ruleset.decks - v.bury_count  # the kitty is not dealt
        assert 0 < v.cards_dealt < deal_size and v.legal_declarations
        assert button(app, "declare:0") is not None and button(app, "declare:pass") is not None
        assert Counter(sc.hand.cards) == Counter(v.hand)  # the window shows exactly its own cards
        seen = [(n, h) for hand_no, n, h in installed if hand_no == 1]
        assert len(seen) >= v.cards_dealt  # a view for every card dealt so far
        for (n0, h0), (n1, h1) in zip(seen, seen[1:]):
            assert n1 - n0 in (0, 1), (n0, n1)  # one card at a time
            assert len(h1) - len(h0) in (0, 1) and Counter(h0) <= Counter(h1)
        host_hand = host.call(lambda: tuple(host.server.rooms[0].game.hand_of(0)))
        assert Counter(v.hand) == Counter(host_hand)  # nothing dealt to seat 0 is missing
        assert click(app, "declare:0")
        wait(app, lambda: any(hand_no == 1 and n > v.cards_dealt for hand_no, n, _ in installed),
             "the deal going on after the declaration")
    finally:
        app.close()
        host.stop()
