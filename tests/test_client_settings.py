"""Settings live in a JSON file under the config dir (never in the checkout); sound never fails."""
from __future__ import annotations

import json
from pathlib import Path

from game import settings
from game.audio import Audio

ROOT = Path(__file__).resolve().parent.parent


def test_config_dir_override(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    assert settings.config_dir() == tmp_path
    s = settings.load()
    assert s == settings.Settings()
    s.lang, s.speed, s.seats, s.muted = "zh", "fast", ["human", "random", "basic", "basic"], True
    assert settings.save(s)
    data = json.loads((tmp_path / settings.SETTINGS_FILE).read_text(encoding="utf-8"))
    assert data["lang"] == "zh" and data["speed"] == "fast"
    assert settings.load() == s


def test_bad_file_gives_defaults(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    (tmp_path / settings.SETTINGS_FILE).write_text("{not json", encoding="utf-8")
    assert settings.load() == settings.Settings()
    (tmp_path / settings.SETTINGS_FILE).write_text('{"speed": "warp", "volume": 7, "seats": [1]}', encoding="utf-8")
    s = settings.load()
    assert s.speed == "normal" and s.volume == 1.0 and s.seats == settings.Settings().seats


def test_default_dir_is_not_the_checkout(monkeypatch):
    monkeypatch.delenv(settings.CONFIG_ENV, raising=False)
    d = settings.config_dir().resolve()
    assert ROOT not in d.parents and d != ROOT


def test_interactive_run_saves_settings(tmp_path, monkeypatch):
    monkeypatch.setenv(settings.CONFIG_ENV, str(tmp_path))
    from game.app import App, Options

    app = App(Options(seats=["human", "random", "basic", "basic"], lang="zh", speed="fast", audio=False,
                      user_plugins=False, size=(800, 480)))
    try:
        app.step()
        app._on_toolbar("speed")  # fast -> instant
        app._on_toolbar("lang")   # zh -> en
        app._on_toolbar("sound")
    finally:
        app.close()
    s = settings.load()
    assert s.seats == ["human", "random", "basic", "basic"]
    assert s.speed == "instant" and s.lang == "en" and s.muted


def test_audio_is_silent_without_device(monkeypatch):
    import pygame

    def boom(*a, **k):
        raise pygame.error("no audio device")

    monkeypatch.setattr(pygame.mixer, "get_init", lambda: False)
    monkeypatch.setattr(pygame.mixer, "init", boom)
    a = Audio()
    assert not a.available
    a.play("deal")
    a.play("nonexistent")


def test_audio_with_dummy_driver_plays_everything():
    a = Audio(volume=0.2)
    for name in ("deal", "play", "ruff", "trick_won", "red_five", "win", "lose", "click"):
        a.play(name)
    a.muted = True
    a.play("win")
