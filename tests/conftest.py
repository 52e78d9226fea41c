"""Shared test setup: headless SDL, and user data kept out of the real home directory."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# --- client (game/): settings never touch the real user folder --------------------------------
import tempfile as _tempfile

os.environ["HONGWU_CONFIG_DIR"] = _tempfile.mkdtemp(prefix="hongwu-test-config-")
os.environ["HONGWU_DATA_DIR"] = _tempfile.mkdtemp(prefix="hongwu-test-data-")  # the career database
# --- net/: reconnect tokens and the host's journal never touch the real user state folder -----
os.environ["HONGWU_STATE_DIR"] = _tempfile.mkdtemp(prefix="hongwu-test-state-")
