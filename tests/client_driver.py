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
