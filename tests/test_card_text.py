"""Text on card faces is never drawn under 14 px (game.cards_render.MIN_TEXT_PX), at any card
size from a 16 px friend-call chip to a 1080p hand card, in both languages: the corner index
keeps at least the height of 14 px text (a wide "10" is squeezed sideways, not shrunk), the
decorative text that would come out smaller (the J/Q/K centre letter, a joker's English word)
is left off, and a face too narrow for anything beside its index shows rank and suit only."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

pygame = pytest.importorskip("pygame")

from engine.cards import Card  # noqa: E402
from game import fonts, i18n  # noqa: E402
from game.cards_render import COMPACT_BOX_PX, MIN_TEXT_PX, SUIT_COLOR, CardRenderer, index_text  # noqa: E402

WIDTHS = (16, 18, 22, 26, 30, 34, 40, 46, 56, 70, 90, 120, 160)
CARDS = [Card.parse(t) for t in ("2S", "10H", "JC", "QD", "KS", "AH", "5H", "SJ", "BJ")]


@pytest.fixture(autouse=True)
def _display():
    pygame.display.init()
    pygame.font.init()
    yield
    i18n.set_language("en")


def test_the_corner_index_is_never_shorter_than_14_px_text():
    floor = fonts.get_font(MIN_TEXT_PX, bold=True).get_height()
    for w in WIDTHS:
        for card in CARDS[:7]:
            text, compact = index_text(card, w, SUIT_COLOR[card.suit])
            assert text.get_height() >= floor, (str(card), w, text.get_size())
            assert compact == (int(w * 0.30) < COMPACT_BOX_PX and
                               fonts.get_font(MIN_TEXT_PX, bold=True).size(str(card)[:-1])[0] > w * 0.30)
            room = w - 2 * max(2, w // 18) if compact else w * 0.30  # the card's width, or the index box
            assert text.get_width() <= room, (str(card), w, text.get_width())


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_no_text_under_14_px_is_drawn_on_any_face(lang, monkeypatch):
    i18n.set_language(lang)
    drawn: list[tuple[str, int]] = []
    real_get = fonts.get_font

    class Spy:
        def __init__(self, font, size):
            self._f, self._s = font, size

        def render(self, text, *a, **k):
            drawn.append((str(text), self._s))
            return self._f.render(text, *a, **k)

        def __getattr__(self, name):
            return getattr(self._f, name)

    monkeypatch.setattr(fonts, "get_font", lambda size, bold=False: Spy(real_get(size, bold), int(size)))
    renderer = CardRenderer()
    for w in WIDTHS:
        for card in CARDS:
            for trump in (False, True):
                face = renderer.face(card, w, round(w * 1.42), trump)
                assert face.get_size() == (w, round(w * 1.42))
    assert drawn
    small = sorted({(t, px) for t, px in drawn if px < MIN_TEXT_PX and t.strip()})
    assert not small, small[:10]
    if lang == "en":  # big cards still carry the decorations
        assert any(t == "BIG" and px >= MIN_TEXT_PX for t, px in drawn)
        assert any(t == "K" and px > 20 for t, px in drawn)  # a centre letter
