"""Hong Wu pygame-ce client (scenes, table rendering, input, i18n, audio)."""
import os

# pygame prints a greeting on import; the game's own output (demo result lines) stays clean.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
