"""The interaction the README promises, driven by real pygame events (issue 9, item 6): the
上一轮 view held or tapped (key, mouse, touch), Esc opening the menu in every phase, points
counting up to exactly the score, bubbles and notices inside the window and above flying
cards, and a legible trump pip."""
from __future__ import annotations

import pytest

pygame = pytest.importorskip("pygame")

from engine.state import Phase  # noqa: E402
from game.input import HOLD_S  # noqa: E402
from game.scenes import hud  # noqa: E402
from game.scenes.animation import Flight  # noqa: E402
from game.table import FirstLegalPlayer, LocalTable  # noqa: E402
from tests.client_driver import button, finger, key, make_app, press, select_cards  # noqa: E402


def _table(seed=8, speed="instant", clock=None):
    players = {s: FirstLegalPlayer(s) for s in (1, 2, 3)}
    kw = {"clock": clock} if clock is not None else {}
    return LocalTable(["human", "first", "first", "first"], seed=seed, speed=speed, players=players, **kw)


def _act(app, trump="H") -> None:
    """The human's move by clicks when it is its turn: lowest bid, ``trump``, bury/play the
    first legal cards."""
    v = app.scene.view
    if not v.my_turn or app.scene.dealing or app.scene.show_settlement:
        return
    if v.phase == Phase.BID:
        press(app, f"bid:{v.legal_bids()[0]}")
    elif v.phase == Phase.TRUMP:
        press(app, f"trump:{trump}")
    elif v.phase == Phase.BURY:
        if select_cards(app, v.hand[: v.bury_count]):
            press(app, "bury")
    elif v.phase == Phase.PLAY:
        if select_cards(app, next(iter(v.play_options()))):
            press(app, "play")


def _luminance(c) -> float:
    def lin(x):
        x /= 255
        return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4
    return 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2])


def _ratio(a, b) -> float:
    """WCAG contrast ratio of colours ``a`` and ``b``."""
    la, lb = sorted((_luminance(a), _luminance(b)))
    return (lb + 0.05) / (la + 0.05)


def _contrast(surf: pygame.Surface) -> float:
    """WCAG contrast between the lightest and darkest pixel of ``surf``."""
    lums = [_luminance(surf.get_at((x, y))) for x in range(surf.get_width()) for y in range(surf.get_height())]
    return (max(lums) + 0.05) / (min(lums) + 0.05)


# -- 上一轮: hold shows, a tap toggles ---------------------------------------------------------------
def _to_last_trick(app):
    for _ in range(3000):
        app.step()
        v = app.scene.view
        if v.tricks and v.my_turn and not app.scene.timeline.busy():
            return
        _act(app)
    raise AssertionError("no finished trick")


def test_last_trick_button_held_with_mouse_or_finger_shows_while_held():
    now = [100.0]
    app = make_app(table=_table(clock=lambda: now[0]), clock=lambda: now[0])
    try:
        _to_last_trick(app)
        sc = app.scene
        pos = button(app, "help:last").rect.center
        # mouse held: shown at once, hidden on release
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1))
        app.step()
        assert sc.show_last
        now[0] += HOLD_S + 0.1
        pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1))
        app.step()
        assert not sc.show_last
        # a short click toggles on, the next one off
        press(app, "help:last")
        assert sc.show_last and button(app, "help:last").selected
        press(app, "help:last")
        assert not sc.show_last
        now[0] += 1.0  # out of the mouse-echo window before touching
        # finger held: shown while down, hidden on lift
        finger(app, "down", pos)
        app.step()
        assert sc.show_last
        now[0] += HOLD_S + 0.1
        finger(app, "up", pos)
        app.step()
        assert not sc.show_last
        # a tap toggles
        finger(app, "down", pos)
        finger(app, "up", pos)
        app.step()
        assert sc.show_last
        now[0] += 1.0
        # the L key: a tap closes it again, a hold shows it only while held
        key(app, pygame.K_l)
        assert not sc.show_last
        key(app, pygame.K_l, up=False)
        assert sc.show_last
        now[0] += HOLD_S + 0.1
        pygame.event.post(pygame.event.Event(pygame.KEYUP, key=pygame.K_l, mod=0, unicode="", scancode=0))
        app.step()
        assert not sc.show_last
    finally:
        app.close()


# -- Esc: the menu in every phase, raised cards or not ------------------------------------------------
def test_escape_opens_the_menu_in_every_phase_even_with_cards_raised():
    app = make_app(table=_table(seed=3))
    seen = set()
    try:
        for _ in range(20000):
            app.step()
            sc = app.scene
            v = sc.view
            phase = "settle" if sc.show_settlement else v.phase.value
            if phase not in seen and (v.my_turn or phase == "settle") and not sc.dealing:
                seen.add(phase)
                raised = phase in ("bury", "play") and sc.panel.selectable
                if raised:
                    sc.hand.selected.clear()
                    app.step()
                    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=sc.hand.click_point(sc.layout, 0), button=1))
                    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=sc.hand.click_point(sc.layout, 0), button=1))
                    app.step()
                    assert sc.hand.selected, phase
                key(app, pygame.K_ESCAPE)
                assert type(app.top).__name__ == "PauseOverlay", phase
                key(app, pygame.K_ESCAPE)  # Esc resumes
                assert app.screens == [], phase
                if raised:
                    assert sc.hand.selected, "Esc left the raised cards alone"
                    key(app, pygame.K_BACKSPACE)
                    assert not sc.hand.selected and app.screens == [], "Backspace lowers them"
            if phase == "settle":
                break
            _act(app)
        assert seen >= {"bid", "trump", "bury", "play", "settle"}, seen
    finally:
        app.close()


# -- a hand at normal speed: counts, bubbles and notices ----------------------------------------------
def _play_animated(size, check, frames=40000, dt=1 / 30):
    """Play one hand at normal speed on a fake clock, ``check(app)`` after every frame."""
    import time

    now = [100.0]
    table = _table(seed=8, speed="normal", clock=lambda: now[0])
    app = make_app(table=table, clock=lambda: now[0], speed="normal", size=size)
    app.options.fps = 0  # the fake clock paces the hand; no real frame waits
    try:
        for _ in range(frames):
            now[0] += dt
            app.step()
            if table.busy:  # let the AI worker answer before the next simulated frame
                time.sleep(0.001)
            check(app)
            if (app.scene.show_settlement or app.scene.view.phase == Phase.SETTLE) and not app.scene.timeline.busy():
                break
            _act(app)
        else:
            raise AssertionError("the hand did not end")
    finally:
        app.close()


def test_points_count_up_monotonically_and_end_exactly_on_the_score():
    history: list[tuple[list[int], list[int]]] = []

    def check(app):
        sc = app.scene
        if sc.view.phase == Phase.PLAY or sc.view.tricks:
            history.append((list(sc.points_shown), list(sc.view.points_won)))

    _play_animated((1280, 720), check)
    assert history
    counted = False
    for (a, _ra), (b, rb) in zip(history, history[1:]):
        for s in range(4):
            assert b[s] >= a[s], f"seat {s} counted back {a[s]} -> {b[s]}"
            assert b[s] <= rb[s], f"seat {s} overshot: {b[s]} > {rb[s]}"
            counted |= a[s] < b[s] < rb[s]
    assert counted, "no in-between value: the points did not count up"
    shown, real = history[-1]
    assert shown == real


def test_points_count_of_two_quick_tricks_for_one_seat_never_goes_back():
    now = [100.0]
    app = make_app(table=_table(seed=8, speed="normal", clock=lambda: now[0]), clock=lambda: now[0], speed="normal")
    try:
        app.step()
        sc = app.scene
        sc.timeline.clear()
        start = sc.points_shown[1]
        vals = []
        sc._count_points(1, 10)
        for i in range(40):
            now[0] += 0.02
            if i == 5:
                sc._count_points(1, 20)  # the next trick lands while the first still counts
            sc.timeline.update(now[0])
            vals.append(sc.points_shown[1])
        assert vals == sorted(vals) and vals[-1] == start + 30
    finally:
        app.close()


@pytest.mark.parametrize("size", [(800, 480), (1920, 1080)])
def test_bubbles_and_notices_stay_inside_the_window(size):
    seen = {"points": 0, "notices": 0}

    def check(app):
        sc = app.scene
        screen = app.window.get_rect()
        for a in sc.timeline.find("callout"):
            for img, pos, _alpha in a.sprites(sc.clock()):
                r = pygame.Rect(pos, img.get_size())
                assert screen.contains(r), f"{a.key} bubble {r} clipped by the window {screen}"
                if a.key[1] == "points":
                    seen["points"] += 1
        for box, *_rest in sc.notice_boxes():
            assert screen.contains(box), f"notice {box} clipped by the window {screen}"
            seen["notices"] += 1

    _play_animated(size, check)
    assert seen["points"] and seen["notices"]


def test_a_notice_is_drawn_over_a_card_flying_across_it():
    now = [100.0]
    app = make_app(table=_table(seed=8, speed="normal", clock=lambda: now[0]), clock=lambda: now[0],
                   speed="normal", size=(800, 480))
    try:
        for _ in range(3000):
            now[0] += 1 / 30
            app.step()
            if app.scene.view.phase == Phase.PLAY and not app.scene.timeline.busy():
                break
            _act(app)
        sc = app.scene
        sc.toast("A notice over the cards", notice=True, seconds=30)
        app.step()
        (box, *_rest), = sc.notice_boxes()
        lay = sc.layout
        face = sc.renderer.face(sc.view.hand[0], lay.trick_w, lay.trick_h)
        r = face.get_rect(center=box.center)
        sc.timeline.add(Flight(("play", 9, 9), [face], [r], [r.copy()], now[0], 60.0))
        app.step()
        frame = sc.frame()
        assert frame.background.get_rect().contains(box)
        screen = pygame.Surface(app.window.get_size())
        screen.blit(frame.background, (0, 0))
        for img, pos, alpha in frame.sprites:
            img = img.copy() if alpha is not None else img
            if alpha is not None:
                img.set_alpha(alpha)
            screen.blit(img, pos)
        got = pygame.image.tobytes(screen.subsurface(box), "RGB")
        assert got == pygame.image.tobytes(frame.background.subsurface(box), "RGB"), "the card covers the notice"
    finally:
        app.close()


# -- the trump pip -------------------------------------------------------------------------------------
@pytest.mark.parametrize("suit", ["S", "C", "H"])
def test_trump_pip_is_legible_on_the_cloth(suit):
    app = make_app(table=_table(seed=8), size=(800, 480))
    try:
        for _ in range(3000):
            app.step()
            v = app.scene.view
            if v.trump and not app.scene.dealing:
                break
            _act(app, trump=suit)
        sc = app.scene
        assert sc.view.trump == suit
        sc.invalidate()
        app.step()
        probe = app.window.copy()
        badge = hud.draw_info(probe, sc.layout, sc.view, sc.names, 1)
        assert badge is not None and sc.layout.info_rect.contains(badge)
        on_screen = app.window.subsurface(badge)
        w, h = on_screen.get_size()
        symbol = min((on_screen.get_at((x, y)) for x in range(w // 4, 3 * w // 4) for y in range(h // 4, 3 * h // 4)),
                     key=_luminance)
        ground = on_screen.get_at((w // 2, 2))  # the badge just inside its top edge
        assert _ratio(symbol, ground) >= 4.5, (symbol, ground)
        # its rim against the cloth-coloured panel around it
        around = app.window.get_at((badge.x - 2, badge.centery))
        assert _ratio(ground, around) >= 3, (ground, around)
        # the trump call-out bubble uses the same badge
        assert _contrast(hud.suit_badge(suit, 30)) >= 4.5
    finally:
        app.close()
