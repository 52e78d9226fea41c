"""Sound effects: the WAVs under ``assets/sounds`` played on game events.

Everything here is optional: with no audio device, no mixer, or missing files the client
stays silent and logs once at debug/info level; nothing raises.
"""
from __future__ import annotations

import logging
from pathlib import Path

log = logging.getLogger(__name__)

#: sound names the client uses (files ``<name>.wav``)
SOUNDS = ("deal", "play", "ruff", "trick_won", "red_five", "win", "lose", "click", "promotion")


def sounds_dir() -> Path:
    """Directory holding the sound files (``assets/sounds``), whether or not it exists."""
    try:
        import assets  # the project's asset package

        base = Path(getattr(assets, "__file__", "") or ".").resolve().parent
    except ImportError:  # pragma: no cover
        base = Path(__file__).resolve().parent.parent / "assets"
    return base / "sounds"


class Audio:
    """Plays named sounds with a volume (0.0..1.0) and a mute switch.

    ``Audio(enabled=False)`` never touches the mixer (used by tests and benchmarks).
    """

    def __init__(self, volume: float = 0.7, muted: bool = False, enabled: bool = True) -> None:
        self.volume = min(1.0, max(0.0, volume))
        self.muted = muted
        self._sounds: dict[str, object] = {}
        self.available = False
        if enabled:
            self._init()

    def _init(self) -> None:
        try:
            import pygame

            if not pygame.mixer.get_init():
                pygame.mixer.init()
        except Exception as exc:  # no device, no driver, no mixer module: silent
            log.info("sound disabled: %s", exc)
            return
        folder = sounds_dir()
        for name in SOUNDS:
            path = folder / f"{name}.wav"
            if not path.exists():
                continue
            try:
                self._sounds[name] = pygame.mixer.Sound(str(path))
            except Exception as exc:
                log.info("cannot load %s: %s", path, exc)
        self.available = True
        log.debug("sounds loaded: %s", sorted(self._sounds))

    def set_volume(self, volume: float) -> None:
        """Set the volume, clamped to 0.0..1.0."""
        self.volume = min(1.0, max(0.0, volume))

    def play(self, name: str) -> None:
        """Play sound ``name`` (one of :data:`SOUNDS`) unless muted; unknown names are ignored."""
        if self.muted or not self.available or self.volume <= 0:
            return
        snd = self._sounds.get(name)
        if snd is None:
            return
        try:
            snd.set_volume(self.volume)  # type: ignore[attr-defined]
            snd.play()  # type: ignore[attr-defined]
        except Exception as exc:  # pragma: no cover - device vanished
            log.debug("sound %s failed: %s", name, exc)
