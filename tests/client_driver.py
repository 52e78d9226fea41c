"""Drive the real client with pygame mouse events (shared by the client tests)."""
from __future__ import annotations

import pygame

from game.app import App, Options


def make_app(seats=("human", "basic", "basic", "basic"), *, seed=7, size=(1280, 720), lang="en",
             speed="instant", hands=1, table=None, clock=None, max_frames=20000) -> App:
    """A real client App in a (dummy-driver) window, no sound, nothing saved."""
    opts = Options(seats=list(seats), seed=seed, size=size, lang=lang, speed=speed, hands=hands,
                   audio=False, save_settings=False, max_frames=max_frames, user_plugins=False)
    kwargs = {"table": table}
    if clock is not None:
        kwargs["clock"] = clock
    return App(opts, **kwargs)


def click(app: App, pos, button: int = 1) -> bool:
    """Post a real mouse press + release at ``pos`` and run one frame; returns app.step()."""
    pos = (int(pos[0]), int(pos[1]))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button))
    return app.step()


def button(app: App, key: str):
    """The on-screen button with ``key`` (AssertionError if absent)."""
    for b in app.scene.buttons:
        if b.key == key:
            return b
    raise AssertionError(f"no button {key!r}; have {[b.key for b in app.scene.buttons]}")


def press(app: App, key: str) -> bool:
    """Click the centre of button ``key``."""
    b = button(app, key)
    assert b.enabled, f"button {key} is disabled"
    assert app.window.get_rect().contains(b.rect), f"button {key} off-screen: {b.rect}"
    return click(app, b.rect.center)


def select_cards(app: App, cards) -> bool:
    """Raise exactly ``cards`` (engine cards, a multiset) in the hand by clicking cards.

    Makes at most one click per frame; returns True once the selection matches.
    """
    hand = app.scene.hand
    want: list[int] = []
    pool = list(enumerate(hand.cards))
    for c in cards:
        # prefer an index that is already selected
        idx = next((i for i, h in pool if h == c and i in hand.selected and i not in want), None)
        if idx is None:
            idx = next(i for i, h in pool if h == c and i not in want)
        want.append(idx)
    extra = sorted(hand.selected - set(want))
    missing = [i for i in want if i not in hand.selected]
    todo = (extra + missing)[:1]
    if not todo:
        return True
    click(app, hand.click_point(app.scene.layout, todo[0]))
    return False


# -- keyboard and touch ---------------------------------------------------------------------------
def key(app: App, k: int, *, up: bool = True, step: bool = True) -> bool:
    """Post a real KEYDOWN (and KEYUP unless ``up=False``) for key ``k``; run one frame."""
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    if up:
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=k, mod=0, unicode="", scancode=0))
    return app.step() if step else True


def finger(app: App, kind: str, pos, finger_id: int = 0) -> None:
    """Post a touch event (``"down"``, ``"up"``, ``"move"``) at window pixel ``pos`` (converted to
    the normalised 0..1 coordinates SDL uses); does not run a frame."""
    w, h = app.window.get_size()
    x, y = (pos[0] + 0.5) / w, (pos[1] + 0.5) / h
    etype = {"down": pygame.FINGERDOWN, "up": pygame.FINGERUP, "move": pygame.FINGERMOTION}[kind]
    pygame.event.post(pygame.event.Event(etype, touch_id=1, finger_id=finger_id, x=x, y=y, dx=0.0, dy=0.0,
                                         pressure=1.0))


def tap(app: App, pos) -> bool:
    """A one-finger tap at ``pos``; runs one frame."""
    finger(app, "down", pos)
    finger(app, "up", pos)
    return app.step()


def crafted_table(hands, kitty, *, first_bidder=0, speed="instant", clock=None, seat_kinds=None):
    """A LocalTable playing ``Game.from_deal(hands, kitty)`` with first-legal AIs in seats 1-3
    (the human in seat 0)."""
    from engine.state import Game
    from game.table import FirstLegalPlayer, LocalTable

    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    kwargs = {"clock": clock} if clock is not None else {}
    table = LocalTable(seat_kinds or ["human", "first", "first", "first"], seed=1, speed=speed,
                       players=players, **kwargs)
    table.game = Game.from_deal(hands, kitty, table.ruleset, first_bidder=first_bidder)
    table._outbox = [e.for_seat(table.seat) for e in table.game.events]
    table._view_cache = None
    return table


#: a deal where the human (seat 0, dealer with trump ♥) leads ♥5 and seat 1 must follow with
#: its only trump, its own ♥5 (captured: the first of equal cards wins), then leads ♣4 and
#: seat 2, void in clubs, ruffs.
RED_FIVE_DEAL = (
    ["5H 4C BJ BJ SJ SJ 2S 2S 2C 2C 2D 2D 3D 3D AS AS AC AC AD KD KD QD QD JD JD",
     "5H 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 5C 6C 7C 8C 9C 10C JC QC KC 4D 5D 6D 7D",
     "2H 2H 3H 3H 4H 4H 6H 6H 7H 7H 8H 8H 9H 9H 10H 10H JH JH QH QH KH KH AH AH AD",
     "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 3C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 8D 9D"],
    "4D 5D 6D 7D 10D 10D 8D 9D",
)


#: a deal (from tests/test_engine_state.py) where seat 0, the dealer at 60 with trump ♠ after
#: burying the jokers and the 3s, leads ♦A ♦Q as a throw that fails: seat 1 holds ♦K, so only
#: ♦Q is played.  :func:`throw_table` turns it so that any seat is the thrower.
THROW_DEAL = (
    ["AD QD 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4H 6H 7H 8H 9H 10H JH QH KH AH 4S 5S",
     "KD 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 4H 6H 7H 8H 9H 10H JH QH KH AH 6S 7S 8S",
     "4D 5D 6D 7D 8D 9D 10D JD 3D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 9S 10S JS QS",
     "KS AS 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 3H 3H 5H 5H 2S 2S 2H 2H 2C 2C 2D 2D"],
    "BJ BJ SJ SJ 3C 3C 3S 3S",
)
THROW_BURY = ("BJ", "SJ", "3C", "3S")
THROW_ATTEMPT = ("AD", "QD")


def throw_action(view):
    """What the thrower of :data:`THROW_DEAL` does in ``view`` (its turn): bid 60, trump ♠,
    bury the jokers and 3s, lead ♦A ♦Q once; afterwards the first legal action."""
    from engine.state import Bid, Bury, ChooseTrump, Phase, Play, first_legal_action

    seat = view.seat
    if view.phase == Phase.BID:
        return Bid(seat, 60 if not any(a for s, a in view.bids if s == seat) else None)
    if view.phase == Phase.TRUMP:
        return ChooseTrump(seat, "S")
    if view.phase == Phase.BURY:
        return Bury(seat, tuple(c for c in view.hand if str(c) in THROW_BURY))
    if view.phase == Phase.PLAY and view.trick_no == 1 and not view.current_trick:
        return Play(seat, tuple(c for c in view.hand if str(c) in THROW_ATTEMPT)[:2])
    return first_legal_action(view)


class ThrowerPlayer:
    """An AI seat playing :func:`throw_action` when it is the thrower, else passing and
    playing the first legal card."""

    def __init__(self, seat: int, thrower: int) -> None:
        self.seat, self.thrower = seat, thrower

    def act(self, view):
        """The action for ``view``."""
        from engine.state import Bid, Phase, first_legal_action

        if self.seat == self.thrower:
            return throw_action(view)
        if view.phase == Phase.BID:
            return Bid(self.seat, None)
        return first_legal_action(view)

    def fallback_action(self, view, reason=None):
        """Same as :meth:`act`."""
        return self.act(view)

    def close(self) -> None:
        """Nothing to release."""


def throw_table(thrower: int, *, speed="instant", clock=None):
    """A LocalTable (human in seat 0) on :data:`THROW_DEAL` turned so that ``thrower`` makes
    the failed throw of the first trick (seat ``thrower + 1`` holds the ♦K that beats it)."""
    from engine.state import Game
    from game.table import LocalTable

    hands, kitty = THROW_DEAL
    turned = [hands[(s - thrower) % 4] for s in range(4)]
    players = {s: ThrowerPlayer(s, thrower) for s in (1, 2, 3)}
    kwargs = {"clock": clock} if clock is not None else {}
    table = LocalTable(["human", "first", "first", "first"], seed=1, speed=speed, players=players, **kwargs)
    table.game = Game.from_deal(turned, kitty, table.ruleset, first_bidder=thrower)
    table._outbox = [e.for_seat(table.seat) for e in table.game.events]
    table._view_cache = None
    return table


def loopback_lan(monkeypatch) -> None:
    """Make the client's LAN host listen on 127.0.0.1, on any free port, and announce nothing
    (for tests that open "Host a LAN game")."""
    import functools

    import net.server
    from game.scenes import lan

    monkeypatch.setattr(lan.LanScreen, "port", 0)
    monkeypatch.setattr(lan.LanScreen, "announce", None)
    monkeypatch.setattr(net.server, "ServerConfig", functools.partial(net.server.ServerConfig, bind="127.0.0.1"))


def open_host_lobby(app: App, seconds: float = 20.0):
    """Open "Host a LAN game" in ``app`` and run frames until its lobby is up (at most
    ``seconds``); returns the LAN screen.  AssertionError with the screen's error otherwise."""
    import time

    app.open_lan("host")
    scr = app.top
    end = time.monotonic() + seconds
    while scr.state != "lobby" and time.monotonic() < end:
        app.step()
        time.sleep(0.01)
    assert scr.state == "lobby", scr.error
    return scr
