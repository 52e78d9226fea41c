"""A window table records its hands for the profile: seat 0 human, auto-played (托管)."""
import io

import pytest

pygame = pytest.importorskip("pygame")

from engine import replay as R  # noqa: E402
from game.app import App, Options  # noqa: E402
from game.career import Recorder, Store  # noqa: E402


def test_window_table_with_autoplay_records_for_the_profile(tmp_path):
    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Ann")
    rec = Recorder(store, "Ann", stake=3)
    out = io.StringIO()
    app = App(Options(seats=["human", "basic", "basic", "basic"], seed=11, speed="instant", hands=2, audio=False,
                      save_settings=False, max_frames=20000, user_plugins=False, out=out, recorder=rec))
    app.scene.toggle_auto(True)
    advanced = 0
    for _ in range(20000):
        if not app.step([]):
            break
        if app.hands_done > advanced:  # the settlement was shown: deal the next (as the button does)
            advanced = app.hands_done
            app.next_hand()
    app.close()
    lines = [ln for ln in out.getvalue().splitlines() if ln.startswith("hand ")]
    recs = store.records(store.profile("Ann").id)
    assert len(lines) == len(recs) == 2
    for line, r in zip(lines, recs):
        assert r.seats[0] == "Ann" and r.seats[1] == "basic"
        assert line.endswith("[" + ",".join(f"{g:+d}" for g in r.game_points) + "]")
        assert r.my_coins == r.game_points[0] * 3
        assert R.verify(R.parse(store.replay_text(r.id))).settlement.game_points == r.game_points
    assert rec.last.record_id == recs[-1].id and rec.last.points_after == store.profile("Ann").points
    store.close()


def test_the_next_hand_is_refused_at_the_daily_cap(tmp_path, capsys):
    from engine.coins import DAY_CAP

    store = Store.open(tmp_path / "hongwu.db")
    store.create_profile("Ann")
    rec = Recorder(store, "Ann", stake=10_000_000)
    app = App(Options(seats=["basic"] * 4, seed=3, speed="instant", hands=5, audio=False, save_settings=False,
                      max_frames=20000, user_plugins=False, out=io.StringIO(), recorder=rec))
    for _ in range(20000):
        if app.hands_done or not app.step([]):
            break
    assert app.hands_done == 1 and abs(store.profile("Ann").coins) == 20_000_000
    store.conn.execute("UPDATE coin_days SET net = ?", (-DAY_CAP,))
    app.next_hand()
    assert not app.running and app.exit_code == 4 and "daily coin cap" in capsys.readouterr().err
    app.close()
    store.close()
