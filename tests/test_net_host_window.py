"""``hongwu host`` with a window: the client opens in the LAN lobby, connected to the host's own
server with host rights (dummy SDL video driver; the server on 127.0.0.1, any free port)."""
from __future__ import annotations

import argparse
import time

import pytest

pygame = pytest.importorskip("pygame")

from tests.lan_helpers import host_args  # noqa: E402
from game import i18n, settings  # noqa: E402
from game.lan_cli import make_host_app  # noqa: E402
from net.cli import BackgroundHost, _ai_provider, host_config  # noqa: E402


@pytest.fixture(autouse=True)
def _config(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path / "config"))
    monkeypatch.setenv("HONGWU_STATE_DIR", str(tmp_path / "state"))
    yield
    i18n.set_language("en")




def click(app, key: str) -> None:
    """A real press + release on button ``key`` of the top screen."""
    app.step()
    button = next((b for b in app.top.buttons if b.key == key), None)
    assert button is not None and button.enabled, (key, [b.key for b in app.top.buttons])
    pos = button.rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
    app.step()


def wait(app, pred, what: str, limit_s: float = 20.0) -> None:
    """Run frames until ``pred()`` (bounded)."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        app.step()
        if pred():
            return
        time.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


def test_host_window_opens_in_the_lobby_and_the_first_hand_opens_the_table():
    ns = host_args("--ai", "1=random", "--ai", "2=random")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    try:
        app.step()
        lobby = app.top
        assert type(lobby).__name__ == "LanScreen" and lobby.state == "lobby"
        assert app.scene is None  # no table yet: the host waits in the lobby
        assert lobby.table.seat == 0 and lobby.table.host_rights
        assert lobby.handle.port == port and str(port) in lobby._lobby_line()
        keys = [b.key for b in lobby.buttons]
        assert "fill:3" in keys and "ready" in keys and "fill:0" not in keys
        click(app, "fill:3")
        wait(app, lambda: lobby.table.table["seats"][3]["kind"] == "ai", "an AI at seat 3")
        click(app, "ready")
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        assert app.table.seat == 0 and app._lan is not None
        wait(app, lambda: len(app.scene.view.hand) > 0, "the deal")
    finally:
        app.close()
        host.stop()
    assert not host.loop.is_running()  # closing the window stopped the server


def test_back_in_the_host_lobby_stops_the_server_and_shows_the_menu():
    ns = host_args()
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    app = make_host_app(host, port, ns)
    try:
        click(app, "back")
        assert type(app.top).__name__ == "MenuScene"
        assert not host.loop.is_running()
    finally:
        app.close()
        host.stop()


def test_host_command_runs_its_window_frames_headless(capsys):
    from game.cli import main

    code = main(["host", "--bind", "127.0.0.1", "--port", "0", "--no-discovery",
                 "--no-user-plugins", "--lang", "en", "--speed", "instant", "--mute",
                 "--max-frames", "15"])
    out = capsys.readouterr().out
    assert code == 3, out  # stopped by the frame limit, as `hongwu play --max-frames`
    assert "listening on 127.0.0.1:" in out and "LAN lobby" in out


# -- hongwu join HOST[:PORT] with a window -------------------------------------------------------
def join_args(*extra: str) -> argparse.Namespace:
    """Parsed ``hongwu join`` arguments for a loopback test host."""
    from game.lan_cli import add_join_parser

    sub = argparse.ArgumentParser().add_subparsers()
    return add_join_parser(sub).parse_args([*extra, "--no-user-plugins", "--lang", "en",
                                            "--speed", "instant", "--mute"])


def test_join_command_opens_its_window_in_the_lobby(monkeypatch, capsys):
    """The real ``hongwu join HOST:PORT`` runs window frames (dummy driver) in the LAN lobby,
    seated and ready, while the host waits for more players."""
    from game.cli import main
    from game.scenes.lan import LanScreen

    ns = host_args("--ai", "1=random")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    seen: list[tuple] = []
    update = LanScreen.update

    def spy(self):
        seen.append((self.mode, self.state, getattr(self.table, "seat", None),
                     self.app.scene is None, type(self.app.top).__name__))
        return update(self)

    monkeypatch.setattr(LanScreen, "update", spy)
    try:
        code = main(["join", f"127.0.0.1:{port}", "--name", "Ann", "--seat", "2",
                     "--no-user-plugins", "--lang", "en", "--speed", "instant", "--mute",
                     "--max-frames", "15"])
        out = capsys.readouterr().out
        assert code == 3, out  # stopped by the frame limit, as `hongwu play --max-frames`
        assert f"joined 127.0.0.1:{port} as Ann: seat 2" in out and "LAN lobby" in out
        assert len(seen) >= 10  # frames ran with the lobby on top, no table yet
        assert set(seen) == {("join", "lobby", 2, True, "LanScreen")}
        # the window closed the connection: Ann said bye, her seat is free again
        end = time.monotonic() + 5
        while host.call(lambda: host.server.rooms[0].seats[2].kind) != "empty":
            assert time.monotonic() < end
            time.sleep(0.01)
    finally:
        host.stop()


def test_join_window_goes_from_the_lobby_to_the_table_when_the_hand_starts():
    """make_join_app opens the lobby (ready said); the first hand then opens the table."""
    from game.lan_cli import make_join_app
    from net.remote_table import RemoteTable

    ns = host_args("--ai", "1=random", "--ai", "2=random", "--ai", "3=random")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None)
    port = host.start()
    table = RemoteTable("127.0.0.1", port, "Bob")
    app = make_join_app(table, join_args(f"127.0.0.1:{port}"))
    try:
        lobby = app.top
        assert type(lobby).__name__ == "LanScreen" and lobby.mode == "join"
        assert lobby.state == "lobby" and lobby.table is table and app.scene is None
        assert host.call(lambda: host.server.rooms[0].seats[0].ready) or \
            host.call(lambda: host.server.rooms[0].in_hand)  # the lobby said ready
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
        assert app.table is table and app.table.seat == 0
        wait(app, lambda: len(app.scene.view.hand) > 0, "the deal")
    finally:
        app.close()
        host.stop()


def test_a_resumed_windowed_host_takes_its_own_seat_back(tmp_path):
    from net.journal import Journal

    path = tmp_path / "host.sqlite3"
    ns = host_args("--ai", "1=random", "--ai", "2=random", "--ai", "3=random",
                   "--timer-play", "0", "--timer-bid", "0")
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None,
                          journal=Journal.open(path))
    port = host.start()
    app = make_host_app(host, port, ns)
    try:
        click(app, "ready")
        wait(app, lambda: type(app.top).__name__ == "TableScene", "the first hand")
    finally:
        host.stop()  # the host goes first, as in a crash: its player did not leave
        app.close()
    ns = host_args("--resume", "--port", str(port))
    host = BackgroundHost(host_config(ns), _ai_provider(ns), None,
                          journal=Journal.open(path, resume=True))
    port = host.start()
    assert host.journal.restored == 1
    app = make_host_app(host, port, ns)
    try:
        app.step()
        assert app.top.table.seat == 0
        seat0 = host.call(lambda: (host.server.rooms[0].seats[0].resumes,
                                   host.server.rooms[0].seats[0].name))
        assert seat0 == (1, "Host")
    finally:
        app.close()
        host.stop()


def test_host_profile_plays_the_window_seat_as_that_profile(tmp_path, monkeypatch, capsys):
    """``hongwu host --profile NAME``: the host's own seat carries the profile's name and title
    (relayed in its Seat map) and the window records its hands for that profile, with the
    coins the host clamped at a staked table."""
    from net.cli import ClientHooks

    monkeypatch.setenv("HONGWU_DATA_DIR", str(tmp_path / "data"))
    from game.career import open_store

    store = open_store()
    store.create_profile("Hu")
    store.close()
    seen = {}

    def window(host, port, ns):  # the real window, driven here until one hand is recorded
        app = make_host_app(host, port, ns)
        try:
            app.step()
            lobby = app.top
            seat = host.call(lambda: host.server.rooms[0].seats[0].to_wire())
            seen["seat"] = seat
            assert lobby.table.set_auto(True) is None
            click(app, "ready")
            wait(app, lambda: app.hands_done >= 1, "a hand settled", 40)
            seen["coins"] = app.table.coins()
        finally:
            app.close()
        return 0

    ns = host_args("--ai", "1=first-legal", "--ai", "2=first-legal", "--ai", "3=first-legal",
                   "--profile", "Hu", "--stake", "1000", "--no-journal", "--auto-delay", "0")
    ns.client_hooks = ClientHooks(host_window=window, join_window=ns.client_hooks.join_window,
                                  saved_house_rules=ns.client_hooks.saved_house_rules)
    assert ns.func(ns) == 0
    assert seen["seat"]["name"] == "Hu" and seen["seat"]["title"] == "赤脚"
    store = open_store()
    try:
        (record,) = store.records(store.profile("Hu").id)
        assert record.seat == 0 and record.stake == 1000
        assert record.my_coins == seen["coins"][0] == record.my_points * 1000
    finally:
        store.close()
    ns = host_args("--profile", "Nobody", "--no-journal")
    assert ns.func(ns) == 2 and "Nobody" in capsys.readouterr().err
