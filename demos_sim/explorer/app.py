"""The explorer's web app (Starlette): one page, HTML fragments swapped in by htmx.

Routes — every one answers HTML (a fragment, or the page), never a traceback: bad input
is a message in the page.

===================  =========================================================
``GET /``            the page (a new page id: its runs, polls and heartbeat)
``GET /setup``       the form of another game (settings, players, bots, variants)
``GET /seats``       the bot of every seat for the players and mode chosen
``POST /run``        validate and queue the what-if (cancels this page's previous run)
``GET /status``      the results so far; also the page's heartbeat (polled every 0.5 s)
``POST /stop``       stop this page's run (its figures so far stay)
``POST /export``     the setup as an experiment file, checked by the runner's parser
``POST /export.toml``  the same file as a download
``POST /replay``     a sample game of the setup, round by round
``POST /sweep``      validate and queue a sweep of one numeric setting (cancels this
                     page's previous sweep or search)
``POST /solve``      validate and queue a search for the value that meets a target
``GET /sweep-status``  the sweep's or search's results so far (polled like ``/status``)
``POST /sweep-stop``   stop this page's sweep or search
===================  =========================================================

A sweep and a search are jobs of the engine like a what-if (one at a time, in the engine
process, stopped by Stop, by a new one from the same page or when the page stops
polling); a page has one what-if and one sweep or search.

Guards. A page id (``sid``, issued with the page) is 1–64 letters, digits, ``-`` or
``_`` (:data:`SID_RE`); only ``POST /run`` makes a session for it (``/status`` and
``/stop`` never do), and at most :data:`MAX_SESSIONS` are kept: a new one replaces the
least recently seen page without a run in progress, or is refused. Every request whose
``Host``, or ``Origin`` when it has one, is not this server's own (``localhost``,
``127.0.0.1``, ``[::1]`` or the address it listens on, with its port) is refused with
403 (:class:`SameOrigin`): another web site the user visits cannot start runs, nor read
the page through a DNS-rebinding name. A sample game plays in the engine process, in
turn, under the engine's time limit (``engine.REPLAY_LIMIT_S``); it waits at most
:data:`REPLAY_WAIT_S` for the engine to be free.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import math
import re
import secrets
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from demos_sim import ConfigError
from demos_sim.explorer import charts
from demos_sim.explorer.engine import HEARTBEAT_S, Engine, Job, replay_limit_message
from demos_sim.explorer.form import (Setup, bots, read_form, read_settings, read_solve,
                                     read_sweep, rule_groups, setting_fields, sweep_knobs,
                                     to_toml)
from demos_sim.game import GAMES, get_game
from demos_sim.runner.units import pct, pct_ci, pp, pp_ci

HERE = Path(__file__).resolve().parent
POLL_MS = 500
SESSION_IDLE_S = 3600.0
MAX_SESSIONS = 256         # pages with a session (one is made by a page's first run)
SID_RE = re.compile(r"[A-Za-z0-9_-]{1,64}")     # a page id: secrets.token_urlsafe(9) is 12
BAD_SID = ("the page id is not valid (1 to 64 letters, digits, '-' or '_'): "
           "reload the page")
REPLAY_WAIT_S = 20.0       # a sample game waits this long for the engine, then is refused
REPLAY_GRACE_S = 2.0       # past the engine's own limit, the page stops waiting for a sample
BUSY = ("the engine is busy with another page's run (one run at a time): show the sample "
        "game again when it has finished")
LOOPBACK = ("localhost", "127.0.0.1", "::1")
WILDCARD = ("0.0.0.0", "::", "")

env = Environment(loader=FileSystemLoader(str(HERE / "templates")),
                  autoescape=select_autoescape(["html"]), trim_blocks=True, lstrip_blocks=True)


@dataclass
class Session:
    last_seen: float = field(default_factory=time.monotonic)
    job: Job | None = None
    sweep: Job | None = None               # the page's sweep or search

    def busy(self) -> bool:
        return any(j is not None and j.active for j in (self.job, self.sweep))


class Explorer:
    """The app's state: the engine and every page's session."""

    def __init__(self, inline: bool = False):
        self.engine = Engine(inline=inline)
        self.sessions: dict[str, Session] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        threading.Thread(target=self._watchdog, name="explorer-heartbeat", daemon=True).start()

    def find(self, sid: str) -> Session | None:
        """The page's session, seen now; None when there is none (nothing is made)."""
        with self._lock:
            s = self.sessions.get(sid)
            if s is not None:
                s.last_seen = time.monotonic()
            return s

    def open(self, sid: str) -> Session:
        """The page's session, made when it has none (``sid`` already checked against
        :data:`SID_RE`). With :data:`MAX_SESSIONS` kept, the least recently seen pages
        without a run in progress make room; ConfigError when every page has one."""
        with self._lock:
            s = self.sessions.get(sid)
            if s is None:
                if len(self.sessions) >= MAX_SESSIONS:
                    idle = sorted((x.last_seen, k) for k, x in self.sessions.items()
                                  if not x.busy())
                    for _, k in idle[:len(self.sessions) - MAX_SESSIONS + 1]:
                        del self.sessions[k]
                if len(self.sessions) >= MAX_SESSIONS:
                    raise ConfigError(f"too many pages have runs in progress ({MAX_SESSIONS}):"
                                      " stop one, or run again when one has finished")
                s = self.sessions[sid] = Session()
            s.last_seen = time.monotonic()
            return s

    def _watchdog(self) -> None:
        """Stop the runs of pages that stopped polling (closed, navigated away)."""
        while not self._stop.wait(1.0):
            now = time.monotonic()
            with self._lock:
                for sid, s in list(self.sessions.items()):
                    for j in (s.job, s.sweep):
                        if j is not None and j.active and now - s.last_seen > HEARTBEAT_S:
                            j.cancel("the page stopped polling")
                    if now - s.last_seen > SESSION_IDLE_S and not s.busy():
                        del self.sessions[sid]

    def close(self) -> None:
        self._stop.set()
        self.engine.close()


def valid_sid(sid: str) -> bool:
    return SID_RE.fullmatch(sid) is not None


class SameOrigin:
    """ASGI middleware: 403 for a request whose ``Host``, or ``Origin`` when present, is
    not this server (a loopback name or the address it listens on, and its port). Bound to
    every address (``0.0.0.0``, ``::``), it also takes this machine's name and any IP
    literal: a DNS-rebinding attack needs a host *name* of the attacker's."""

    def __init__(self, app, host: str = "127.0.0.1", port: int = 8050):
        self.app, self.port = app, port
        bound = host.strip("[]").lower()
        self.names = {*LOOPBACK, bound}
        self.any_ip = bound in WILDCARD
        if self.any_ip:
            self.names |= {socket.gethostname().lower(), socket.getfqdn().lower()}

    def ours(self, netloc: str) -> bool:
        try:
            u = urlsplit("//" + netloc)
            name, port = u.hostname, u.port
        except ValueError:
            return False
        if not name or u.username is not None or u.path or u.query or u.fragment:
            return False
        if (80 if port is None else port) != self.port:
            return False
        if name in self.names:
            return True
        if self.any_ip:
            try:
                ipaddress.ip_address(name)
                return True
            except ValueError:
                return False
        return False

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        host = origin = None
        for k, v in scope["headers"]:
            if k == b"host":
                host = v.decode("latin-1")
            elif k == b"origin":
                origin = v.decode("latin-1")
        why = ""
        if host is None or not self.ours(host):
            why = f"Host {host!r:.80}"
        elif origin is not None:
            scheme, sep, netloc = origin.partition("://")
            if scheme.lower() != "http" or not sep or not self.ours(netloc):
                why = f"Origin {origin!r:.80}"
        if why:
            text = (f"forbidden: {why} is not this server (the explorer answers only its own "
                    "pages, opened as http://127.0.0.1 or http://localhost)\n")
            return await PlainTextResponse(text, status_code=403)(scope, receive, send)
        return await self.app(scope, receive, send)


def _html(template: str, **kw) -> HTMLResponse:
    return HTMLResponse(env.get_template(template).render(**kw))


def _error(message: str) -> HTMLResponse:
    return _html("error.html", message=message)


# ---------------------------------------------------------------- the form
# query keys that are not form fields (the URL of a shared page)
NOT_FIELDS = ("sid", "run")


def _seats(game: str, form) -> tuple[int | None, str]:
    """Seats of the setup in ``form`` (None and the reason when it is not valid yet)."""
    g = get_game(game)
    try:
        settings = read_settings(g, form)
        raw = str(form.get("players", "") or "").strip()
        try:
            players = int(raw) if raw else None
        except ValueError:
            raise ConfigError(f"players must be a whole number, got {raw!r}") from None
        return g.players_of(g.make_config(settings, players, {})), ""
    except ConfigError as e:
        return None, str(e)


def _values(form) -> dict:
    """The form's values as the page was asked for (a shared link's query string)."""
    return {k: str(form.get(k, "") or "") for k in form.keys() if k not in NOT_FIELDS}


def _seats_context(game: str, form) -> dict:
    g = get_game(game)
    n, err = _seats(game, form)
    return {"bots": {b.name: b for b in bots(g)}, "seats": n, "seat_error": err,
            "values": _values(form)}


def _setup_context(game: str, sid: str, form=None) -> dict:
    g = get_game(game)
    form = form if form is not None else {}
    return {"sid": sid, "games": {name: get_game(name).title for name in GAMES},
            "game": g.name, "title": g.title, "settings": setting_fields(g),
            "groups": rule_groups(g), "knobs": sweep_knobs(g),
            "default_players": _seats(game, {k: v for k, v in form.items()
                                              if k != "players"})[0],
            **_seats_context(game, form)}


# ---------------------------------------------------------------- the results
def _side(label: str) -> str:
    if label.isdigit():
        return f"seat {label}"
    if label == "all":
        return "the team"
    return f"side {label}"


def _pct(v: float, short: bool = False, bare: bool = False) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return f"{v * 100:.3g}%" if short else f"{v * 100:.1f}" + ("" if bare else "%")


def _num(v: float, short: bool = False, bare: bool = False) -> str:
    if v is None or not math.isfinite(v):
        return "–"
    return f"{v:.4g}" if short else f"{v:.2f}"


def _results_context(job: Job | None, sid: str) -> dict:
    ctx = {"sid": sid, "job": job, "poll_ms": POLL_MS, "charts": [], "rows": [],
           "sentence": "", "progress": 0.0, "widest": None}
    if job is None:
        return ctx
    s: Setup = job.setup
    g = get_game(s.game)
    ctx["target"] = None if s.half_width is None else s.half_width * 100
    ctx["max_games"] = s.games
    ctx["progress"] = (1.0 if job.state == "done" else
                       min(1.0, job.games / s.games) if s.games else 0.0)
    if not job.rows:
        return ctx
    rows = job.rows
    ws = [r for r in rows if r["metric"] == "win_share"]
    widths = [(r["diff_ci_high"] - r["diff_ci_low"]) / 2 for r in ws
              if math.isfinite(r["diff_ci_high"]) and math.isfinite(r["diff_ci_low"])]
    ctx["widest"] = max(widths) * 100 if widths else None
    cooperative = g.cooperative(s.config())        # P5: one result for the whole team
    if cooperative:
        ws = ws[:1]
    moved = [r for r in ws if r["moved"]]
    so_far = " so far" if job.active else ""
    if moved and cooperative:
        r = moved[0]
        ctx["sentence"] = f"The change moves the team's win rate by {r['diff'] * 100:+.1f} pp{so_far}."
    elif moved:
        ctx["sentence"] = (f"The change moves the win share of "
                           + ", ".join(f"{_side(r['side'])} by {r['diff'] * 100:+.1f} pp"
                                       for r in moved) + f"{so_far}.")
    else:
        ctx["sentence"] = (f"No win share has moved beyond its 95% interval{so_far} "
                           "(which does not show them equal: see the intervals).")

    def ci(point, metric, side):
        return job.cis.get(f"{point}|{metric}|{side}", [math.nan] * 3)

    label = (lambda side: "the team") if cooperative else _side
    groups = [(label(r["side"]), [("reference", *ci(0, "win_share", r["side"])),
                                  ("this setup", *ci(1, "win_share", r["side"]))]) for r in ws]
    groups.append(("no winner", [("reference", *ci(0, "no_winner", "all")),
                                 ("this setup", *ci(1, "no_winner", "all"))]))
    what = "team" if cooperative else ("side" if any(not r["side"].isdigit() for r in ws)
                                       else "seat")
    ctx["charts"].append(charts.bars(groups, _pct, f"Win share by {what} and no-winner "
                                                   "share, 95% intervals", css_id="chart-share"))
    diffs = [(label(r["side"]), r["diff"] * 100, r["diff_ci_low"] * 100,
              r["diff_ci_high"] * 100, bool(r["moved"])) for r in ws]
    nw = next((r for r in rows if r["metric"] == "no_winner"), None)
    if nw is not None:
        diffs.append(("no winner", nw["diff"] * 100, nw["diff_ci_low"] * 100,
                      nw["diff_ci_high"] * 100, bool(nw["moved"])))
    ctx["charts"].append(charts.differences(diffs, "Paired difference, this setup − "
                                                   "reference (percentage points, 95%)"))
    length = g.length
    lr = next((r for r in rows if r["metric"] == length), None)
    if lr is not None:
        ctx["charts"].append(charts.bars(
            [(f"{length} / game", [("reference", *ci(0, length, "all")),
                                   ("this setup", *ci(1, length, "all"))])],
            _num, f"Game length ({length} per game), 95% intervals; paired difference "
                  f"{lr['diff']:+.3f} [{lr['diff_ci_low']:+.3f}, {lr['diff_ci_high']:+.3f}]",
            percent=False, css_id="chart-length"))
    for r in rows:
        q = g.quantity(r["metric"])
        f = _pct if q.rate or r["metric"] == "win_share" else _num
        scale = 100 if f is _pct else 1
        unit = " pp" if f is _pct else ""
        ctx["rows"].append({
            "figure": r["metric"].replace("_", " "), "side": r["side"],
            "description": r["description"], "reference": f(r["reference"]),
            "changed": f(r["changed"]),
            "diff": f"{r['diff'] * scale:+.2f}{unit}",
            "ci": f"[{r['diff_ci_low'] * scale:+.2f}, {r['diff_ci_high'] * scale:+.2f}]",
            "moved": bool(r["moved"])})
    return ctx


# ---------------------------------------------------------------- sweeps and searches
def _level(r: dict) -> str:
    if r["rate"]:
        return f"{pct(r['mean'])} {pct_ci(r['ci_low'], r['ci_high'])}"
    return f"{r['mean']:.2f} [{r['ci_low']:.2f}, {r['ci_high']:.2f}]"


def _effect(r: dict) -> str:
    if r["reference"]:
        return "reference"
    if r["rate"]:
        return f"{pp(r['diff'])} {pp_ci(r['diff_ci_low'], r['diff_ci_high'])}"
    return f"{r['diff']:+.2f} [{r['diff_ci_low']:+.2f}, {r['diff_ci_high']:+.2f}]"


def _sweep_context(job: Job | None, sid: str) -> dict:
    """What sweep.html shows of a sweep or a search: the state, the verdict sentence, the
    curves (PNG), the table with shares in % and effects in pp; a search's values played
    and its answer."""
    import base64

    ctx = {"sid": sid, "job": job, "poll_ms": POLL_MS, "rows": [], "png": "",
           "probes": [], "progress": 0.0}
    if job is None:
        return ctx
    games = job.args.get("games") or 0
    if job.kind == "sweep":
        ctx["progress"] = 1.0 if job.state == "done" else (min(1.0, job.games / games)
                                                           if games else 0.0)
        ctx["png"] = base64.b64encode(job.png).decode("ascii") if job.png else ""
        ctx["rows"] = [{"figure": r["figure"], "who": r["who"], "value": r["value"],
                        "level": _level(r), "effect": _effect(r), "moved": bool(r["moved"]),
                        "games": r["games"]} for r in job.rows]
    else:
        for p in job.probes:
            ctx["probes"].append({
                **p, "sides": [{**x, "share": pct(x["share_won"], 1),
                                "ci": pct_ci(x["low"], x["high"], 1)} for x in p["sides"]]})
    return ctx


# ---------------------------------------------------------------- downloads
def result_document(job: Job) -> dict:
    """A what-if's result as a download: the setup (seed, configuration, bots of both
    sides), the contract and simulator versions, the games played, and every row of the
    comparison (shares and their differences as fractions, as ``compare --json``)."""
    from demos_sim import __version__
    from demos_sim.provenance import CONTRACT, git_revision

    return {"contract": CONTRACT, "version": __version__, "git_revision": git_revision(),
            "state": job.state, "games": job.games, "reference": job.reference,
            "change": job.change, "setup": job.setup.describe(),
            "units": "shares and their differences are fractions (0.01 = 1 pp)",
            "rows": job.rows}


CSV_HEAD = ("contract", "version", "game", "seed", "games", "reference", "change")


def result_csv_text(job: Job) -> str:
    """The rows of :func:`result_document` as CSV, each with the seed, the contract and
    the two setups, and the whole configuration as JSON in a ``setup`` column."""
    import csv
    import io

    doc = result_document(job)
    cols = list(job.rows[0]) if job.rows else []
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow([*CSV_HEAD, *cols, "setup"])
    setup = json.dumps(doc["setup"], sort_keys=True, default=str)
    for r in job.rows:
        w.writerow([doc["contract"], doc["version"], job.setup.game, job.setup.seed,
                    job.games, job.reference, job.change, *(r[c] for c in cols), setup])
    return out.getvalue()


# ---------------------------------------------------------------- routes
async def _sample_game(job: Job) -> str:
    """Wait for the sample game ``job`` without holding the server; "" when it has its
    replay, else the message. The engine stops it past its limit (and the page stops
    waiting a little later, which the inline engine needs)."""
    asked = time.monotonic()
    while job.active:
        now = time.monotonic()
        if job.running_since is None and now - asked > REPLAY_WAIT_S:
            job.cancel("the engine stayed busy")
            return BUSY
        if (job.running_since is not None and job.limit_s is not None
                and now - job.running_since > job.limit_s + REPLAY_GRACE_S):
            job.cancel("past its time limit")
            return replay_limit_message(job.limit_s)
        await asyncio.sleep(0.05)
    if job.state == "error":
        return job.message
    return "" if job.replay is not None else "the sample game was stopped"


def _export_text(form) -> str:
    """The setup of ``form`` as an experiment file that the runner reads (ConfigError
    saying why when it does not)."""
    from demos_sim.runner.experiment import loads_experiment

    text = to_toml(read_form(form))
    loads_experiment(text, "whatif.toml")          # the runner reads it, or we say why
    return text


async def _on_error(request: Request, exc: Exception):
    return _error(f"something went wrong: {type(exc).__name__}: {exc}")


class Routes:
    """The route handlers of one app, around its :class:`Explorer` (made by the first
    request that needs it, so that making the app starts no engine)."""

    def __init__(self, inline: bool = False):
        self.inline = inline
        self._ex: Explorer | None = None

    def ex(self) -> Explorer:
        if self._ex is None:
            self._ex = Explorer(inline=self.inline)
        return self._ex

    def close(self) -> None:
        if self._ex is not None:
            self._ex.close()

    def routes(self) -> list:
        return [
            Route("/", self.page), Route("/setup", self.setup), Route("/seats", self.seats),
            Route("/run", self.run, methods=["POST"]), Route("/status", self.status),
            Route("/stop", self.stop, methods=["POST"]),
            Route("/export", self.export, methods=["POST"]),
            Route("/export.toml", self.export_file, methods=["POST"]),
            Route("/replay", self.replay, methods=["POST"]),
            Route("/result.json", self.result_json), Route("/result.csv", self.result_csv),
            Route("/sweep", self.sweep, methods=["POST"]),
            Route("/solve", self.solve, methods=["POST"]),
            Route("/sweep-status", self.sweep_status),
            Route("/sweep-stop", self.sweep_stop, methods=["POST"]),
            Mount("/static", StaticFiles(directory=str(HERE / "static")), name="static"),
        ]

    def _known(self, sid: str) -> tuple[Session | None, str]:
        """The page's session (None when it has none) and the id to write back."""
        if not valid_sid(sid):
            return None, ""
        return self.ex().find(sid), sid

    # ------------------------------------------------------------ the page and its form
    async def page(self, request: Request):
        sid = secrets.token_urlsafe(9)
        game = request.query_params.get("game", "demos")
        if game not in GAMES:
            game = "demos"
        # a shared link: the form as its query string says (read on load), run at once
        # when it says run=1
        return _html("page.html", **_setup_context(game, sid, request.query_params),
                     autorun=request.query_params.get("run") == "1")

    async def setup(self, request: Request):
        game = request.query_params.get("game", "demos")
        if game not in GAMES:
            return _error(f"unknown game {game!r} (available: {', '.join(GAMES)})")
        sid = request.query_params.get("sid", "")
        if sid and not valid_sid(sid):
            return _error(BAD_SID)
        return _html("setup.html", **_setup_context(game, sid))

    async def seats(self, request: Request):
        form = request.query_params
        game = str(form.get("game", ""))
        if game not in GAMES:
            return _error("unknown game")
        return _html("seats.html", **_seats_context(game, form))

    # ------------------------------------------------------------ the what-if
    async def run(self, request: Request):
        form = await request.form()
        sid = str(form.get("sid", ""))
        if not valid_sid(sid):
            return _html("results.html", **_results_context(None, ""), error=BAD_SID)
        old = self.ex().find(sid)
        try:
            setup_ = read_form(form)
            from demos_sim.analysis.core.whatif import plan
            await run_in_threadpool(plan, **setup_.plan_args())   # refuse now what the run would
            sess = self.ex().open(sid)
        except ConfigError as e:
            return _html("results.html", **_results_context(old and old.job, sid),
                         error=str(e), oob=True)
        if sess.job is not None:
            sess.job.cancel("a new run from the same page")
        sess.job = self.ex().engine.submit(setup_)
        return _html("results.html", **_results_context(sess.job, sid), oob=True)

    async def status(self, request: Request):
        sess, sid = self._known(request.query_params.get("sid", ""))
        return _html("results.html", **_results_context(sess and sess.job, sid))

    async def stop(self, request: Request):
        form = await request.form()
        sess, sid = self._known(str(form.get("sid", "")))
        if sess is not None and sess.job is not None:
            sess.job.cancel("stopped from the page")
        return _html("results.html", **_results_context(sess and sess.job, sid))

    def _result(self, request: Request) -> Job | None:
        sess, _ = self._known(request.query_params.get("sid", ""))
        job = sess and sess.job
        return job if job is not None and job.rows else None

    async def result_json(self, request: Request):
        job = self._result(request)
        if job is None:
            return PlainTextResponse("no result yet: run a what-if first\n", status_code=404)
        return Response(json.dumps(result_document(job), indent=1, default=str),
                        media_type="application/json", headers={
                            "Content-Disposition": 'attachment; filename="whatif.json"'})

    async def result_csv(self, request: Request):
        job = self._result(request)
        if job is None:
            return PlainTextResponse("no result yet: run a what-if first\n", status_code=404)
        return Response(result_csv_text(job), media_type="text/csv", headers={
            "Content-Disposition": 'attachment; filename="whatif.csv"'})

    # ------------------------------------------------------------ the experiment file
    async def export(self, request: Request):
        form = await request.form()
        try:
            text = await run_in_threadpool(_export_text, form)
        except ConfigError as e:
            return _error(str(e))
        return _html("export.html", text=text)

    async def export_file(self, request: Request):
        form = await request.form()
        try:
            text = await run_in_threadpool(_export_text, form)
        except ConfigError as e:
            return Response(f"error: {e}\n", media_type="text/plain", status_code=400)
        return Response(text, media_type="application/toml", headers={
            "Content-Disposition": 'attachment; filename="whatif.toml"'})

    # ------------------------------------------------------------ a sample game
    async def replay(self, request: Request):
        form = await request.form()
        try:
            setup_ = read_form(form)
            which = "against" if str(form.get("sample_of", "")) == "reference" else "change"
            raw = str(form.get("sample", "") or "0").strip() or "0"
            if not (raw.isascii() and raw.isdigit()) or int(raw) > 999:   # not "²"
                raise ConfigError(f"sample game must be a number from 0 to 999, got {raw!r}")
        except ConfigError as e:
            return _error(str(e))
        job = self.ex().engine.submit_replay(setup_, which, int(raw))   # played in the engine
        message = await _sample_game(job)
        if message:
            return _error(message)
        return _html("replay.html", rep=job.replay, index=int(raw),
                     which="the reference" if which == "against" else "this setup")

    # ------------------------------------------------------------ sweeps and searches
    async def _tool(self, request: Request, kind: str):
        """Queue a sweep or a search of this page (validated first: a bad value is one
        line by the Run bar and in the panel, and nothing is played)."""
        form = await request.form()
        sid = str(form.get("sid", ""))
        if not valid_sid(sid):
            return _html("sweep.html", **_sweep_context(None, ""), error=BAD_SID, oob=True)
        old = self.ex().find(sid)
        try:
            if kind == "sweep":
                args = read_sweep(form)
                from demos_sim.analysis.core.sweep import plan_sweep

                # refuse now what the run would (values outside the rules, the bots)
                await run_in_threadpool(plan_sweep, **{k: v for k, v in args.items()
                                                       if k != "title"})
            else:
                args = await run_in_threadpool(read_solve, form)
            setup_ = read_form(form)
            sess = self.ex().open(sid)
        except ConfigError as e:
            return _html("sweep.html", **_sweep_context(old and old.sweep, sid),
                         error=str(e), oob=True)
        if sess.sweep is not None:
            sess.sweep.cancel("a new sweep or search from the same page")
        sess.sweep = self.ex().engine.submit_kind(kind, setup_, args)
        return _html("sweep.html", **_sweep_context(sess.sweep, sid), oob=True)

    async def sweep(self, request: Request):
        return await self._tool(request, "sweep")

    async def solve(self, request: Request):
        return await self._tool(request, "solve")

    async def sweep_status(self, request: Request):
        sess, sid = self._known(request.query_params.get("sid", ""))
        return _html("sweep.html", **_sweep_context(sess and sess.sweep, sid))

    async def sweep_stop(self, request: Request):
        form = await request.form()
        sess, sid = self._known(str(form.get("sid", "")))
        if sess is not None and sess.sweep is not None:
            sess.sweep.cancel("stopped from the page")
        return _html("sweep.html", **_sweep_context(sess and sess.sweep, sid))


def create_app(inline: bool = False, host: str = "127.0.0.1", port: int = 8050) -> Starlette:
    """The explorer's app, served at ``host:port`` (the Host and Origin it accepts);
    ``inline=True`` plays runs in a thread (tests), else in a child process.
    ``app.state.explorer()`` is its :class:`Explorer` (made on first use)."""
    handlers = Routes(inline=inline)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        handlers.close()

    app = Starlette(routes=handlers.routes(), exception_handlers={Exception: _on_error},
                    lifespan=lifespan, middleware=[Middleware(SameOrigin, host=host, port=port)])
    app.state.explorer = handlers.ex
    return app


def serve(host: str = "127.0.0.1", port: int = 8050, inline: bool = False) -> None:
    import uvicorn

    print(f"demos-sim explorer: http://{host}:{port}/  (Ctrl-C to stop)", flush=True)
    if not _loopback(host):
        print(f"warning: --host {host} makes the explorer reachable from the network: anyone "
              f"who can reach port {port} can start runs on this machine (there is no login); "
              "the default, 127.0.0.1, serves this machine only", file=sys.stderr, flush=True)
    uvicorn.run(create_app(inline=inline, host=host, port=port), host=host, port=port,
                log_level="warning")


def _loopback(host: str) -> bool:
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False
