"""The event log both game kernels write for records: fixed-width int64 events.

``log[0]`` is the write position (starting at ``EV_W``), ``log[1]`` the overflow flag;
each event is ``EV_W`` words: type, then up to five arguments.
"""

from demos_sim.jit import kernel

EV_W = 6


@kernel(inline=True)
def log_event(on, log, t, a, b, c, d, e):
    """Append one event when ``on`` (the configuration's log flag) is set."""
    if on == 0:
        return
    i = log[0]
    if i + EV_W >= log.shape[0]:
        log[1] = 1  # overflow flag; the record layer refuses the game
        return
    log[i] = t
    log[i + 1] = a
    log[i + 2] = b
    log[i + 3] = c
    log[i + 4] = d
    log[i + 5] = e
    log[0] = i + EV_W
