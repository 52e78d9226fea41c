"""The pause overlay (Esc during a game) and the settings screen.

:class:`PauseOverlay` dims the table and offers Resume, Rules, New game, Settings and Quit to
menu (keys ``resume``, ``rules``, ``new``, ``settings``, ``menu``); Esc resumes.  While it is
open a local game is frozen: no AI acts and no countdown runs (the app pauses its game clock).

:class:`SettingsScreen` changes language, speed, sound (on/off and volume) and full screen;
each change applies at once and is saved (keys ``lang:zh`` ``lang:en``, ``speed:<speed>``,
``sound:on`` ``sound:off``, ``vol:-`` ``vol:+``, ``full:on`` ``full:off``, ``back``); the
renderer (``render:auto`` ``render:gpu`` ``render:software``, the choice ``--renderer`` also
saves) is saved at once and used from the next start, which the note under the rows says
while the choice differs from the running window's; and the
table preferences of :mod:`game.scenes.table_extras` (``smart:on`` ``smart:off``,
``trumps:left`` ``trumps:right``, ``suits:<order>``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import pygame

from game.i18n import _
from game.pacing import SPEEDS
from game.scenes.menu import Choice, FormScreen, Screen, draw_form_panel
from game.scenes.newgame import LANGUAGE_NAMES
from game.scenes.table_extras import TABLE_KEYS, table_rows
from game.settings import RENDERERS
from game.widgets import ACCENT, Button, draw_text

if TYPE_CHECKING:  # pragma: no cover
    from game.app import App

VOLUME_STEP = 0.1


def N_(message: str) -> str:
    """Mark a message for the catalog (translated where shown)."""
    return message


#: the renderer choices' labels (``game.settings.RENDERERS``)
RENDERER_LABELS = {"auto": N_("Automatic"), "gpu": N_("GPU"), "software": N_("Software")}


class PauseOverlay(Screen):
    """The in-game menu over the dimmed table (see the module docstring)."""

    opaque = False

    def build(self) -> list[Button]:
        """The overlay's column of buttons."""
        m = self.metrics
        items = [("resume", _("Resume"), "primary"), ("rules", _("Rules"), "normal"),
                 ("new", _("New game"), "normal"), ("settings", _("Settings"), "normal"),
                 ("menu", _("Quit to menu"), "flat")]
        total = len(items) * (m.button_h + m.gap) - m.gap
        title_h = round(m.title * 0.7) + m.gap * 2
        top = (m.h - total - title_h) // 2 + title_h
        return self.column(items, top)

    def on_button(self, button: Button) -> None:
        """Resume, or open the chosen screen."""
        key = button.key
        if key == "resume":
            self.app.resume()
        elif key == "rules":
            self.app.open_rules()
        elif key == "new":
            self.app.open_new_game()
        elif key == "settings":
            self.app.open_settings()
        elif key == "menu":
            self.app.show_menu()

    def on_back(self) -> None:
        """Esc resumes the game."""
        self.app.resume()

    def draw(self, surf: pygame.Surface, force: bool = False) -> list[pygame.Rect]:
        """Always drawn (the table under it is redrawn every frame)."""
        return super().draw(surf, True)

    def draw_content(self, surf: pygame.Surface) -> None:
        """Dim the table; a panel behind the buttons with the title."""
        m = self.metrics
        shade = pygame.Surface(surf.get_size(), pygame.SRCALPHA)
        shade.fill((0, 0, 0, 140))
        surf.blit(shade, (0, 0))
        if not self.buttons:
            return
        box = self.buttons[0].rect.unionall([b.rect for b in self.buttons])
        title_h = round(m.title * 0.7) + m.gap * 2
        box = box.inflate(m.margin * 6, m.margin * 4)
        box.h += title_h
        box.y -= title_h
        draw_form_panel(surf, box)
        draw_text(surf, _("Paused"), round(m.title * 0.7), ACCENT, (box.centerx, box.y + m.gap), anchor="midtop",
                  bold=True, max_width=box.w - 2 * m.margin)


class SettingsScreen(FormScreen):
    """Language, speed, sound, volume, full screen and renderer (see the module docstring)."""

    def title_text(self) -> str:
        """"Settings"."""
        return _("Settings")

    def rows(self) -> list[tuple[str, list[Choice]]]:
        """One row per setting, showing the current values."""
        app = self.app
        muted = app.audio.muted
        vol = round(app.audio.volume * 100)
        full = bool(app.settings.fullscreen)
        return [
            (_("Language"), [Choice(f"lang:{lg}", name, app.lang == lg) for lg, name in LANGUAGE_NAMES.items()]),
            (_("Speed"), [Choice(f"speed:{sp}", _(sp), app.speed == sp) for sp in SPEEDS]),
            (_("Sound"), [Choice("sound:on", _("On"), not muted), Choice("sound:off", _("Off"), muted)]),
            (_("Volume"), [Choice("vol:-", "−", style="normal", enabled=vol > 0, weight=0.4),
                           Choice("vol:value", f"{vol}%", style="flat", enabled=False),
                           Choice("vol:+", "+", style="normal", enabled=vol < 100, weight=0.4)]),
            (_("Full screen"), [Choice("full:on", _("On"), full), Choice("full:off", _("Off"), not full)]),
            (_("Renderer"), [Choice(f"render:{r}", _(RENDERER_LABELS[r]), app.settings.renderer == r)
                             for r in RENDERERS]),
        ] + table_rows(app.settings) + [
            (_("AI X-ray"), [Choice("xray:on", _("On"), bool(app.settings.xray)),
                                         Choice("xray:off", _("Off"), not app.settings.xray)])]

    def note(self) -> str:
        """The real state: whether changes are saved, whether there is sound at all, and a
        renderer chosen here that the next start will use."""
        app = self.app
        saved = _("Saved automatically") if app.options.save_settings else _("Not saved: this session only")
        if not app.audio.available:
            saved = _("{saved} · no sound output").format(saved=saved)
        chosen = app.settings.renderer
        if chosen != app.options.renderer and chosen in RENDERER_LABELS:  # a renderer change waits for a restart
            saved += "\n" + _("Renderer: {name} from the next start").format(name=_(RENDERER_LABELS[chosen]))
        return saved

    def on_button(self, button: Button) -> None:
        """Apply (and save) one change."""
        app = self.app
        head, _sep, arg = button.key.partition(":")
        if head == "lang":
            app.set_language(arg)
        elif head == "speed":
            app.set_speed(arg)
        elif head == "sound":
            app.set_muted(arg == "off")
        elif head == "vol":
            step = VOLUME_STEP if arg == "+" else -VOLUME_STEP
            app.set_volume(round(app.audio.volume + step, 2))
            if app.audio.muted and step > 0:
                app.set_muted(False)
        elif head == "full":
            app.set_fullscreen(arg == "on")
        elif head == "render":
            app.set_renderer(arg)
        elif head == "xray":
            app.set_xray(arg == "on")
        elif head in TABLE_KEYS:
            app.set_table_prefs(**{TABLE_KEYS[head]: arg if head == "suits" else arg in ("on", "left")})
        elif button.key == "back":
            app.pop_screen(self)
