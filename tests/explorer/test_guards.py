"""The explorer's guards, through Starlette's test client: a page id (``sid``) is a short
token of URL-safe characters and only a run makes a session (their number is bounded);
a request whose Host or Origin is not the server's own is refused (another web page the
user visits, or a DNS-rebinding name, cannot start runs); ``--host 0.0.0.0`` prints one
warning line; a sample game plays in the engine process under a time limit, so a slow
one neither stalls ``/status`` nor runs on: it is stopped with one line."""

from __future__ import annotations

import re
import threading
import time

import pytest

pytestmark = pytest.mark.filterwarnings("ignore:.*httpx.*")

BASE = "http://127.0.0.1:8050"             # serve()'s defaults: --host 127.0.0.1 --port 8050
QUICK = {"game": "demos", "v_carre_points": "40", "games": "100", "half_width": ""}
LONG = {**QUICK, "games": "400000"}


@pytest.fixture(scope="module")
def app():
    from demos_sim.explorer.app import create_app

    return create_app(inline=True)


@pytest.fixture(scope="module")
def client(app):
    from starlette.testclient import TestClient

    with TestClient(app, base_url=BASE) as c:
        c.explorer = app.state.explorer
        yield c


def _sid(client) -> str:
    return re.search(r'name="sid" value="([^"]+)"', client.get("/").text).group(1)


def _message(html: str) -> str:
    m = re.search(r'class="error"[^>]*>([^<]*)<', html)
    return m.group(1) if m else ""


# ---------------------------------------------------------------- page ids and sessions
def test_stop_and_status_with_unknown_ids_keep_nothing(client):
    before = len(client.explorer().sessions)
    for i in range(200):
        client.post("/stop", data={"sid": f"unknown-{i}"})
        client.get("/status", params={"sid": f"unknown-{i}"})
    assert len(client.explorer().sessions) == before


@pytest.mark.parametrize("sid", ["x" * 1_000_000, "x" * 65, "a b", "é", "<b>", ""])
def test_a_page_id_that_is_not_a_short_token_is_refused(client, sid):
    before = set(client.explorer().sessions)
    html = client.post("/run", data={**QUICK, "sid": sid}).text
    assert "page id" in _message(html), html[:300]
    assert set(client.explorer().sessions) == before
    assert len(html) < 20_000                       # the id is not echoed back


def test_the_number_of_sessions_is_bounded(client, monkeypatch):
    import demos_sim.explorer.app as app_mod

    monkeypatch.setattr(app_mod, "MAX_SESSIONS", 2)
    ex = client.explorer()
    for s in list(ex.sessions.values()):            # earlier tests' runs: end them
        if s.job is not None:
            s.job.cancel("test")
    ex.sessions.clear()
    a, b, c = "page-a", "page-b", "page-c"
    client.post("/run", data={**LONG, "sid": a})
    client.post("/run", data={**LONG, "sid": b})
    assert set(ex.sessions) == {a, b}
    html = client.post("/run", data={**QUICK, "sid": c}).text   # both still have runs
    assert "too many pages" in _message(html), html[:300]
    assert c not in ex.sessions
    for sid in (a, b):
        client.post("/stop", data={"sid": sid})
    t = time.monotonic()
    while any(ex.sessions[s].job.active for s in (a, b)) and time.monotonic() - t < 60:
        time.sleep(0.1)
    client.post("/run", data={**QUICK, "sid": c})   # a finished page's session gives way
    assert c in ex.sessions and len(ex.sessions) == 2


# ---------------------------------------------------------------- Host and Origin
@pytest.mark.parametrize("headers", [
    {"host": "evil.example:8050"},                           # DNS rebinding: a foreign name
    {"host": "127.0.0.1:8050", "origin": "http://evil.example"},
    {"host": "127.0.0.1:8050", "origin": "null"},            # sandboxed frame, file://
    {"host": "127.0.0.1:8050", "origin": "http://127.0.0.1:9999"},   # another local server
    {"host": "localhost.evil.example:8050"},
])
def test_a_foreign_host_or_origin_is_refused(client, headers):
    ex = client.explorer()
    sid = "cross-site"
    r = client.post("/run", data={**QUICK, "sid": sid}, headers=headers)
    assert r.status_code == 403 and "not this server" in r.text
    assert sid not in ex.sessions
    assert client.get("/", headers=headers).status_code == 403


@pytest.mark.parametrize("headers", [
    {}, {"origin": BASE}, {"host": "localhost:8050", "origin": "http://localhost:8050"},
    {"host": "[::1]:8050", "origin": "http://[::1]:8050"}, {"host": "LOCALHOST:8050"},
])
def test_the_servers_own_host_and_origin_are_served(client, headers):
    r = client.get("/", headers=headers)
    assert r.status_code == 200 and 'name="sid"' in r.text


def test_a_server_on_every_address_takes_ip_literals_not_foreign_names():
    from starlette.testclient import TestClient

    from demos_sim.explorer.app import create_app

    with TestClient(create_app(inline=True, host="0.0.0.0", port=9000)) as c:
        assert c.get("/", headers={"host": "192.168.1.20:9000"}).status_code == 200
        assert c.get("/", headers={"host": "evil.example:9000"}).status_code == 403
        assert c.get("/", headers={"host": "192.168.1.20:9000",
                                   "origin": "http://evil.example:9000"}).status_code == 403


@pytest.mark.parametrize("host,warned", [("0.0.0.0", True), ("::", True),
                                         ("127.0.0.1", False), ("localhost", False)])
def test_serving_on_every_address_prints_one_warning_line(monkeypatch, capsys, host, warned):
    import uvicorn

    from demos_sim.explorer.app import serve

    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: None)
    serve(host, 8050, inline=True)
    err = capsys.readouterr().err
    lines = [ln for ln in err.splitlines() if "warning" in ln]
    assert len(lines) == (1 if warned else 0), err
    if warned:
        assert host in lines[0] and "network" in lines[0]


# ---------------------------------------------------------------- sample games
def test_a_slow_sample_game_neither_stalls_the_server_nor_runs_past_its_limit(monkeypatch):
    """ismcts@6000 plays one DĒMOS game in about 4 s here (ismcts@1000: 0.64 s, measured),
    so game 2 of the sample (3 games) takes ~12 s; the limit is set to 2 s. Before, the
    game played in the server process and every /status waited for it."""
    import demos_sim.explorer.engine as engine_mod
    from starlette.testclient import TestClient

    from demos_sim.explorer.app import create_app

    monkeypatch.setattr(engine_mod, "REPLAY_LIMIT_S", 2.0)
    app = create_app(inline=False)
    with TestClient(app, base_url=BASE) as c:
        sid = _sid(c)
        out: dict = {}

        def ask():
            t = time.monotonic()
            out["html"] = c.post("/replay", data={"game": "demos", "v_carre_points": "40",
                                                  "bot_all": "ismcts@6000",
                                                  "sample": "2"}).text
            out["took"] = time.monotonic() - t

        th = threading.Thread(target=ask)
        th.start()
        waits = []
        while th.is_alive():
            t = time.monotonic()
            c.get("/status", params={"sid": sid})
            waits.append(time.monotonic() - t)
            time.sleep(0.05)
        th.join()
    assert len(waits) > 10 and max(waits) < 1.0, f"slowest /status: {max(waits):.1f} s"
    msg = _message(out["html"])
    assert "did not finish within 2 s" in msg and "smaller budget" in msg, out["html"][:400]
    assert "<b>Round " not in out["html"]
    assert out["took"] < 15           # child start + 2 s, not the ~12 s of the game


def test_a_sample_game_waits_for_the_engine_not_forever(client, monkeypatch):
    """A sample asked while another page's run holds the engine (one job at a time) is
    refused once it has waited REPLAY_WAIT_S, and leaves the run alone."""
    import demos_sim.explorer.app as app_mod

    monkeypatch.setattr(app_mod, "REPLAY_WAIT_S", 1.0)
    ex = client.explorer()
    sid = "busy-page"
    client.post("/run", data={**LONG, "sid": sid})
    job = ex.sessions[sid].job
    t = time.monotonic()
    while job.state in ("queued", "starting") and time.monotonic() - t < 60:
        time.sleep(0.05)
    html = client.post("/replay", data={"game": "demos", "v_carre_points": "40"}).text
    assert "busy" in _message(html), html[:300]
    assert job.active and not job.cancel_requested
    client.post("/stop", data={"sid": sid})
    t = time.monotonic()
    while job.active and time.monotonic() - t < 60:
        time.sleep(0.1)
    html = client.post("/replay", data={"game": "demos", "v_carre_points": "40"}).text
    assert "<b>Round " in html, html[:300]


def test_the_engine_is_free_as_soon_as_a_sample_game_has_answered():
    """A sample game ends with its "replay" (a search with its "solved"; the engine stops
    listening when the job is finished, whatever its last word): the engine takes the
    next job at once, in the same child process. Before, it waited for a "done" that never
    came until the sample game's time limit (30 s) ended the child."""
    from demos_sim.explorer.engine import Engine
    from demos_sim.explorer.form import read_form

    eng = Engine(inline=False)
    try:
        setup = read_form({"game": "demos", "v_carre_points": "40", "games": "4096",
                             "half_width": ""})
        first = eng.submit_replay(setup, "change", 0)
        t = time.monotonic()
        while first.active and time.monotonic() - t < 120:
            time.sleep(0.05)
        assert first.state == "done" and first.replay is not None, first.message
        pid = eng._proc.pid
        run = eng.submit(setup)
        while run.active and time.monotonic() - t < 240:
            time.sleep(0.05)
        assert run.state == "done", run.message
        assert eng._proc.pid == pid                  # the same engine process played both
        assert first.state == "done"                 # and the sample game kept its answer
    finally:
        eng.close()
