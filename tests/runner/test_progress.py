"""Progress of ``demos-sim run`` off a terminal: whole lines (games, share, rate, time
left), not a bar redrawn with carriage returns; nothing with --quiet. Pure: no game is
played (a fake clock and stream)."""

from __future__ import annotations

import io

from demos_sim.runner import run as R


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def _bar(total, initial=0):
    clock, out = Clock(), io.StringIO()
    return R.PlainProgress(total, initial, "demo", out, clock=clock), clock, out


def _step(bar, clock, t, n):
    clock.t = t
    bar.update(n)


def test_a_line_per_tenth_at_most_every_10_s_and_at_least_every_minute():
    bar, clock, out = _bar(1000)
    _step(bar, clock, 5, 50)      # 50 of 1000: under a tenth, 5 s: no line
    _step(bar, clock, 8, 60)      # 110: a tenth, but 8 s after the start: no line
    _step(bar, clock, 12, 10)     # 120 at 12 s: a line
    _step(bar, clock, 30, 10)     # 130: 10 more games only, 18 s later: no line
    _step(bar, clock, 73, 10)     # 140, 61 s after the last line: a line
    bar.close()
    # the rate since the first update (5 s, 50 games): 70 games / 7 s = 10 games/s;
    # 880 left / 10 = 88 s = 1 min 28 s. 90 / 68 s = 1.32 games/s (shown 1);
    # 860 left × 68 / 90 = 649.8 s = 10 min 50 s
    assert out.getvalue() == (
        "demo: 120 of 1,000 games (12%), 10 games/s, about 1 min 28 s left\n"
        "demo: 140 of 1,000 games (14%), 1 games/s, about 10 min 50 s left\n")


def test_the_wait_before_the_first_games_is_left_out_of_the_rate():
    """A first run: the kernels compile for 100 s before the first chunk of 100 games
    ends, then a chunk every 10 s; the time left is read from the chunks, not the wait."""
    bar, clock, out = _bar(1000)
    _step(bar, clock, 100, 100)   # the first line: no rate yet, the wait
    for k in range(1, 10):
        _step(bar, clock, 100 + 10 * k, 100)
    lines = out.getvalue().splitlines()
    assert lines[0] == "demo: 100 of 1,000 games (10%), the first after 1 min 40 s"
    # at 110 s: 100 games in the 10 s since the first = 10 games/s, 800 left = 80 s
    # (over the whole run it would read 200 / 110 s = 1.8 games/s, 7 min 20 s left)
    assert lines[1] == "demo: 200 of 1,000 games (20%), 10 games/s, about 1 min 20 s left"
    assert lines[-1] == "demo: 1,000 of 1,000 games (100%), 10 games/s"


def test_resumed_games_count_as_done_but_not_in_the_rate():
    bar, clock, out = _bar(1000, initial=500)
    _step(bar, clock, 20, 100)    # 600 done, the first 100 played after 20 s
    _step(bar, clock, 30, 100)    # 200 played, 100 in the 10 s since: 10 games/s, 30 s left
    _step(bar, clock, 50, 300)    # all done: 400 played in the 30 s since = 13 games/s
    assert out.getvalue().splitlines() == [
        "demo: 600 of 1,000 games (60%), the first after 20 s",
        "demo: 700 of 1,000 games (70%), 10 games/s, about 30 s left",
        "demo: 1,000 of 1,000 games (100%), 13 games/s"]
    assert "\r" not in out.getvalue()


def test_durations():
    assert R._duration(42.4) == "42 s"
    assert R._duration(185) == "3 min 05 s"
    assert R._duration(2 * 3600 + 7 * 60 + 30) == "2 h 07 min"


def test_lines_off_a_terminal_a_bar_on_one_nothing_when_quiet(monkeypatch):
    class Stream(io.StringIO):
        def __init__(self, tty):
            super().__init__()
            self.tty = tty

        def isatty(self):
            return self.tty

    monkeypatch.setattr(R.sys, "stderr", Stream(False))
    assert isinstance(R.progress_bar(100, 0, False, "x"), R.PlainProgress)
    quiet = R.progress_bar(100, 0, True, "x")          # quiet: a disabled bar, no lines
    assert not isinstance(quiet, R.PlainProgress) and quiet.disable
    monkeypatch.setattr(R.sys, "stderr", Stream(True))
    bar = R.progress_bar(100, 0, False, "x")
    assert not isinstance(bar, R.PlainProgress) and not bar.disable
    bar.close()
