"""One play path, one kernel decorator, short functions, no branch on a game's name — read
from the sources' syntax trees (:mod:`ast`), so a comment or a string that names these
things is not taken for them:

- no module of ``demos_sim`` outside ``demos_sim/runner/`` imports or builds a process pool
  (``concurrent.futures``' or loky's ``ProcessPoolExecutor``, a ``multiprocessing`` Pool,
  joblib's ``Parallel``, Dask's ``Client``/``LocalCluster`` or its ``"processes"``
  scheduler): games are played by the runner, on its backends. One process is not a pool
  (the explorer's engine, ``multiprocessing.get_context("spawn").Process``);
- no module outside ``demos_sim/runner/`` reaches a game's ``play`` (the
  :class:`demos_sim.game.Game` objects: ``get_game(...)``, an experiment's ``adapter``, a
  name bound to one, a parameter annotated with a game class, ``self`` in a game class).
  The policy checkers' ``play`` is not a game's ``play``. A game package calls its own
  players of games (``play_chunk``, ``play_games``, ``play_batch``, ``play_game``); no
  module outside the runner and the game packages reaches them (nor
  ``sim_common.play_rows``). A record's ``play_logged`` is not a chunk's play;
- no function of ``demos_sim`` is over :data:`MAX_LINES` lines (``def`` to its last line);
- numba's ``_nrt=False`` is written only in ``demos_sim/jit.py`` (the one decorator,
  ``demos_sim.jit.kernel``), in any Python source of the repository;
- no branch on a game's name (``game == "demos"``, ``name in ("protocole", …)``,
  ``case "assemblee":``) outside the game packages: a game's differences are the game's
  methods and attributes.

Each detector is also run on planted sources, which it must catch (and on near misses,
which it must leave alone)."""

from __future__ import annotations

import ast
import functools
import textwrap
from pathlib import Path

import pytest

from demos_sim.game import GAMES

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "demos_sim"
RUNNER = PACKAGE / "runner"
JIT = PACKAGE / "jit.py"
SOURCES = ("demos_sim", "benchmarks", "examples", "experiments", "tests")  # for _nrt
MAX_LINES = 150

GAME_NAMES = frozenset(GAMES)
GAME_PACKAGES = tuple(PACKAGE / v.split(":")[0].split(".")[1] for v in GAMES.values())
GAME_CLASSES = frozenset({"Game", *(v.split(":")[1] for v in GAMES.values())})

# process pools by qualified name (a context's or a module's Pool, any ProcessPoolExecutor:
# :func:`_is_pool`)
POOLS = frozenset({
    "joblib.Parallel", "joblib.parallel.Parallel", "joblib.parallel_backend",
    "joblib.parallel_config", "joblib.externals.loky.get_reusable_executor",
    "loky.get_reusable_executor",
    "distributed.Client", "distributed.LocalCluster", "distributed.client.Client",
    "distributed.deploy.LocalCluster", "distributed.deploy.local.LocalCluster",
    "dask.distributed.Client", "dask.distributed.LocalCluster",
})


def _files(*roots: Path):
    for root in roots:
        for p in sorted(root.rglob("*.py")):
            if "__pycache__" not in p.parts:
                yield p


@functools.lru_cache(maxsize=None)
def _parse(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


def _under(path: Path, *folders: Path) -> bool:
    return any(path == f or f in path.parents for f in folders)


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(ROOT))
    except ValueError:
        return str(path)


# ---------------------------------------------------------------- process pools
def _aliases(tree: ast.Module, module: str = "") -> dict[str, str]:
    """Local name -> the qualified name it was imported as (imports anywhere in the
    module; relative imports resolved against ``module``)."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    top = a.name.split(".")[0]
                    out[top] = top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = module.split(".")[:-node.level]
                base = ".".join([*parent, base] if base else parent)
            for a in node.names:
                out[a.asname or a.name] = f"{base}.{a.name}"
    return out


def _qualname(node: ast.AST, aliases: dict[str, str]) -> str | None:
    """``multiprocessing.get_context().Pool`` for ``mp.get_context("spawn").Pool`` after
    ``import multiprocessing as mp``; None when the root is not an imported name."""
    if isinstance(node, ast.Name):
        return aliases.get(node.id)
    if isinstance(node, ast.Attribute):
        q = _qualname(node.value, aliases)
        return None if q is None else f"{q}.{node.attr}"
    if isinstance(node, ast.Call):
        q = _qualname(node.func, aliases)
        return None if q is None else f"{q}()"
    return None


def _is_pool(q: str) -> bool:
    last = q.rsplit(".", 1)[-1]
    return (q in POOLS or last == "ProcessPoolExecutor"
            or (q.startswith("multiprocessing") and last == "Pool"))


def pool_uses(tree: ast.Module, module: str = "") -> list[tuple[int, str]]:
    """``(line, what)`` for every import or use of a process pool in ``tree``."""
    aliases = _aliases(tree, module)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                q = _aliases(ast.Module([node], []), module)[a.asname or a.name]
                if _is_pool(q):
                    found.add((node.lineno, f"imports {q}"))
        elif isinstance(node, (ast.Name, ast.Attribute)):
            q = _qualname(node, aliases)
            if q is not None and _is_pool(q):
                found.add((node.lineno, f"uses {q}"))
        elif isinstance(node, ast.Call):
            q = _qualname(node.func, aliases) or ""
            if q.split(".")[0] in ("dask", "distributed") and any(
                    k.arg == "scheduler" and isinstance(k.value, ast.Constant)
                    and k.value.value == "processes" for k in node.keywords):
                found.add((node.lineno, f"{q}(scheduler='processes')"))
    return sorted(found)


# ---------------------------------------------------------------- a game's play
def _annotation_names(node: ast.AST | None) -> set[str]:
    """The names an annotation mentions (``Game``, ``"DemosGame"``, ``Game | None``)."""
    if node is None:
        return set()
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            return _annotation_names(ast.parse(node.value, mode="eval").body)
        except SyntaxError:
            return set()
    return {n.id if isinstance(n, ast.Name) else n.attr for n in ast.walk(node)
            if isinstance(n, (ast.Name, ast.Attribute))}


def _game_valued(node: ast.AST, games: set[str]) -> bool:
    """Whether ``node`` is a Game object: ``get_game(...)``, a game class's instance, an
    experiment's ``adapter``, or a name in ``games``."""
    if isinstance(node, ast.Call):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) \
            else None
        return name == "get_game" or name in GAME_CLASSES
    if isinstance(node, ast.Attribute):
        return node.attr == "adapter"
    return isinstance(node, ast.Name) and node.id in games


def _own(scope: ast.AST):
    """The nodes of ``scope``, not looking into the functions and classes it defines
    (their own scopes)."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        n = stack.pop()
        yield n
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))


def _scope_games(scope: ast.AST, outer: set[str], in_game_class: bool) -> set[str]:
    """Names bound to a Game in ``scope`` (a module, class or function) or around it:
    parameters annotated with a game class, ``self`` in a game class's methods,
    assignments of a Game (to a fixed point: ``g = get_game(n); h = g``)."""
    games = set(outer)
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef)):
        args = scope.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs]
        for i, a in enumerate(params):
            if _annotation_names(a.annotation) & GAME_CLASSES:
                games.add(a.arg)
            elif i == 0 and in_game_class and a.arg == "self":
                games.add(a.arg)
    nodes = list(_own(scope))
    while True:
        before = len(games)
        for n in nodes:
            if isinstance(n, ast.Assign) and _game_valued(n.value, games):
                games |= {t.id for t in n.targets if isinstance(t, ast.Name)}
            elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name) and (
                    (n.value is not None and _game_valued(n.value, games))
                    or _annotation_names(n.annotation) & GAME_CLASSES):
                games.add(n.target.id)
            elif isinstance(n, ast.NamedExpr) and _game_valued(n.value, games):
                games.add(n.target.id)
        if len(games) == before:
            return games


def _game_class(node: ast.ClassDef) -> bool:
    return node.name in GAME_CLASSES or any(_annotation_names(b) & GAME_CLASSES
                                            for b in node.bases)


def game_play_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, what)`` for every ``.play`` reached on a Game object in ``tree`` (called
    or passed on), and ``Game.play`` unbound."""
    found = set()

    def visit(scope, outer: set[str], in_game_class: bool):
        games = _scope_games(scope, outer, in_game_class)
        for n in _own(scope):
            if isinstance(n, ast.Attribute) and n.attr == "play" and (
                    _game_valued(n.value, games)
                    or (isinstance(n.value, ast.Name) and n.value.id in GAME_CLASSES)):
                found.add((n.lineno, ast.unparse(n)))
            elif (isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
                  and n.func.id == "getattr" and len(n.args) >= 2
                  and _game_valued(n.args[0], games)
                  and isinstance(n.args[1], ast.Constant) and n.args[1].value == "play"):
                found.add((n.lineno, ast.unparse(n)))
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
                # a method sees the names around its class, not the class's own
                visit(n, outer if isinstance(scope, ast.ClassDef) else games, in_game_class)
            elif isinstance(n, ast.ClassDef):
                visit(n, games, _game_class(n))

    visit(tree, set(), False)
    return sorted(found)


# a game's own players of games, which its Game object's ``play`` calls (the records'
# ``play_logged`` and the policy checkers' ``check.play`` are not a way to play a chunk)
KERNEL_PLAYS = frozenset({"play_chunk", "play_games", "play_batch", "play_game"})
GAME_MODULES = tuple(f"demos_sim.{p.name}." for p in GAME_PACKAGES)


def _is_kernel_play(q: str) -> bool:
    q = q.replace("()", "")
    module, _, name = q.rpartition(".")
    return (q == "demos_sim.sim_common.play_rows"
            or (name in KERNEL_PLAYS and (module + ".").startswith(GAME_MODULES)))


def kernel_play_uses(tree: ast.Module, module: str = "") -> list[tuple[int, str]]:
    """``(line, what)`` for every import or use of a game package's players of games
    (``play_chunk``, ``play_batch``, …, and ``sim_common.play_rows``): a game's play
    reached around its Game object."""
    aliases = _aliases(tree, module)
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            local = _aliases(ast.Module([node], []), module)
            found |= {(node.lineno, f"imports {q}") for q in local.values()
                      if _is_kernel_play(q)}
        elif isinstance(node, ast.Attribute):
            q = _qualname(node, aliases)
            if q is not None and _is_kernel_play(q):
                found.add((node.lineno, f"uses {q}"))
    return sorted(found)


# ---------------------------------------------------------------- the other rules
def long_functions(tree: ast.Module, limit: int = MAX_LINES) -> list[tuple[int, str]]:
    """``(line, "name: N lines")`` for every function over ``limit`` lines."""
    return sorted((n.lineno, f"{n.name}: {n.end_lineno - n.lineno + 1} lines")
                  for n in ast.walk(tree)
                  if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                  and n.end_lineno - n.lineno + 1 > limit)


def nrt_flags(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, what)`` for every ``_nrt=`` keyword and ``"_nrt"`` dict key."""
    found = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            found |= {(k.value.lineno, f"_nrt={ast.unparse(k.value)}") for k in n.keywords
                      if k.arg == "_nrt"}
        elif isinstance(n, ast.Dict):
            found |= {(k.lineno, "'_nrt': …") for k in n.keys
                      if isinstance(k, ast.Constant) and k.value == "_nrt"}
    return sorted(found)


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in GAME_NAMES


def game_name_branches(tree: ast.Module) -> list[tuple[int, str]]:
    """``(line, the test)`` for every comparison with a game's name (``==``, ``!=``,
    ``is``, ``in`` a literal of names, a name ``in`` a string) and every ``case`` of one."""
    found = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Compare):
            operands = [n.left, *n.comparators]
            for i, op in enumerate(n.ops):
                a, b = operands[i], operands[i + 1]
                if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
                    hit = _is_name(a) or _is_name(b)
                elif isinstance(op, (ast.In, ast.NotIn)):
                    hit = _is_name(a) or (isinstance(b, (ast.Tuple, ast.List, ast.Set))
                                          and any(_is_name(e) for e in b.elts))
                else:
                    hit = False
                if hit:
                    found.add((n.lineno, ast.unparse(n)))
        elif isinstance(n, ast.MatchValue) and _is_name(n.value):
            found.add((n.lineno, f"case {ast.unparse(n.value)}"))
    return sorted(found)


# ---------------------------------------------------------------- the package
def _module(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def offences(rule, paths) -> list[str]:
    return [f"{_rel(p)}:{line}: {what}" for p in paths for line, what in rule(p)]


def test_no_process_pool_outside_the_runner():
    outside = [p for p in _files(PACKAGE) if not _under(p, RUNNER)]
    assert offences(lambda p: pool_uses(_parse(p), _module(p)), outside) == []


def test_no_game_play_outside_the_runner():
    outside = [p for p in _files(PACKAGE) if not _under(p, RUNNER)]
    assert offences(lambda p: game_play_uses(_parse(p)), outside) == []


def test_no_game_kernel_played_outside_the_runner_and_the_games():
    paths = [p for p in _files(PACKAGE) if not _under(p, RUNNER, *GAME_PACKAGES)]
    assert offences(lambda p: kernel_play_uses(_parse(p), _module(p)), paths) == []


def test_no_function_over_150_lines():
    assert offences(lambda p: long_functions(_parse(p)), _files(PACKAGE)) == []


def test_nrt_is_written_only_in_the_kernel_decorator():
    paths = [p for p in _files(*(ROOT / s for s in SOURCES)) if p != JIT]
    assert offences(lambda p: nrt_flags(_parse(p)), paths) == []
    assert nrt_flags(_parse(JIT)) != []          # where it is: the one decorator's flags


def test_no_branch_on_a_games_name_outside_the_game_packages():
    paths = [p for p in _files(PACKAGE) if not _under(p, *GAME_PACKAGES)]
    assert offences(lambda p: game_name_branches(_parse(p)), paths) == []


# ---------------------------------------------------------------- the detectors catch
def _src(text: str) -> ast.Module:
    return ast.parse(textwrap.dedent(text))


@pytest.mark.parametrize("text", [
    "from concurrent.futures import ProcessPoolExecutor",
    "import concurrent.futures as cf\nwith cf.ProcessPoolExecutor(2) as ex: pass",
    "import concurrent.futures\nconcurrent.futures.ProcessPoolExecutor()",
    "import multiprocessing as mp\npool = mp.get_context('spawn').Pool(2)",
    "import multiprocessing\nmultiprocessing.Pool(4)",
    "from multiprocessing import Pool as P",
    "from multiprocessing.pool import Pool",
    "from joblib import Parallel, delayed",
    "import joblib\njoblib.Parallel(n_jobs=2)(joblib.delayed(f)(x) for x in xs)",
    "from joblib.externals.loky import get_reusable_executor",
    "from dask.distributed import Client",
    "import distributed\ndistributed.LocalCluster(n_workers=2)",
    "import dask\ndask.compute(*tasks, scheduler='processes')",
    "def f():\n    from distributed import LocalCluster\n    return LocalCluster()",
])
def test_the_pool_detector_catches(text):
    assert pool_uses(_src(text)) != []


@pytest.mark.parametrize("text", [
    "import multiprocessing as mp\nproc = mp.get_context('spawn').Process(target=f)",
    "import joblib\nversion = joblib.__version__",
    "from concurrent.futures import ThreadPoolExecutor",
    "Pool = object\nPool()",                        # not imported: not multiprocessing's
    "import dask\ndask.compute(*tasks, scheduler='threads')",
    "# from joblib import Parallel\ntext = 'ProcessPoolExecutor'",
])
def test_the_pool_detector_leaves_alone(text):
    assert pool_uses(_src(text)) == []


def test_the_pool_detector_finds_the_runners_pools():
    """The runner's backends do build pools: read by the same detector, they show."""
    assert pool_uses(_parse(RUNNER / "backends.py"), "demos_sim.runner.backends") != []


def test_relative_imports_are_resolved():
    tree = _src("from .pool import Pool")
    assert pool_uses(tree, "multiprocessing.util") == [(1, "imports multiprocessing.pool.Pool")]


@pytest.mark.parametrize("text", [
    "from demos_sim.game import get_game\nget_game('demos').play(cfg, specs, (), 1, 0, 8)",
    "def warm(name):\n    ad = get_game(name)\n    ad.play(cfg, specs, (), 1, 0, 2)",
    "def f(name):\n    ad = get_game(name)\n    g = ad\n    return g.play",
    "def f(exp):\n    return exp.adapter.play(cfg, specs, (), 1, 0, 8)",
    "def f(g: Game):\n    be.submit(g.play, cfg)",
    "def f(g: 'DemosGame | None' = None):\n    g.play(cfg)",
    "ad = get_game('protocole')\ndef f():\n    return ad.play(cfg)",
    "def f():\n    return getattr(get_game('demos'), 'play')",
    "Game.play(g, cfg, specs, (), 1, 0, 8)",
    "g = ProtocoleGame()\ng.play(cfg)",
    "class MyGame(Game):\n    def rows(self):\n        return self.play(cfg)",
    "def f():\n    if (ad := get_game('demos')):\n        ad.play(cfg)",
])
def test_the_play_detector_catches(text):
    assert game_play_uses(_src(text)) != []


@pytest.mark.parametrize("text", [
    "diag = gc.play(fns, prm, config, key, reference, obs)",     # a policy checker
    "def f(gc: GameCheck):\n    return gc.play(fns)",
    "class Tuner:\n    def run(self):\n        return self.play(vec)",
    "rows = play_batch(cfg, keys, fns, params)",
    "def f(name):\n    ad = get_game(name)\n    return ad.make_config({}, 4, {})",
    "def f():\n    ad = get_game('demos')\ndef g():\n    return ad.play(cfg)",   # another scope
    "text = 'get_game(name).play(cfg)'",
])
def test_the_play_detector_leaves_alone(text):
    assert game_play_uses(_src(text)) == []


def test_the_play_detector_finds_the_runners_plays():
    """The runner does play the games (tasks.py, points.py): read by the same detector,
    its calls show; and the games' Game objects call their own chunk players."""
    assert game_play_uses(_parse(RUNNER / "tasks.py")) != []
    for package in GAME_PACKAGES:
        path = package / "game.py"
        assert kernel_play_uses(_parse(path), _module(path)) != [], path


@pytest.mark.parametrize("text, hits", [
    ("from demos_sim.demos.sim import play_chunk", 1),
    ("from demos_sim.protocole.engine import DIAG_LEN, play_batch as pb", 1),
    ("import demos_sim.assemblee.sim as S\nS.play_games(cfg, specs)", 1),
    ("from demos_sim import sim_common\nsim_common.play_rows(pb, cfg)", 1),
    ("def f():\n    from demos_sim.demos import engine\n    engine.play_game(fns)", 1),
    ("from demos_sim.demos.sim import CHUNK, chunk_game_keys, policy_tuple", 0),
    ("from demos_sim.demos.record import play_logged", 0),
    ("from demos_sim.explorer.decisions import play_decisions", 0),
    ("from mylib.sim import play_chunk", 0),
])
def test_the_kernel_play_detector(text, hits):
    assert len(kernel_play_uses(_src(text), "demos_sim.explorer.replay")) == hits


def test_the_length_rule_counts_from_def_to_the_last_line():
    body = "".join(f"    x{i} = {i}\n" for i in range(MAX_LINES - 1))
    assert long_functions(_src(f"def ok():\n{body}")) == []            # 150 lines
    long = _src(f"class C:\n    def long(self):\n    {body.replace(chr(10), chr(10) + '    ')}"
                "    return 0\n")
    assert long_functions(long) == [(2, f"long: {MAX_LINES + 1} lines")]


@pytest.mark.parametrize("text, hits", [
    ("@njit(cache=True, _nrt=False)\ndef f(x): return x", 1),
    ("FLAGS = {'cache': True, '_nrt': False}", 1),
    ("f = njit(**{'_nrt': False})(g)", 1),
    ("@kernel\ndef f(x): return x", 0),
    ("assert fn.targetoptions['_nrt'] is False", 0),
    ("doc = '``_nrt=False``: no reference counting'", 0),
])
def test_the_nrt_detector(text, hits):
    assert len(nrt_flags(_src(text))) == hits


@pytest.mark.parametrize("text, hits", [
    ("if game == 'demos':\n    pass", 1),
    ("if 'protocole' != g.name:\n    pass", 1),
    ("x = 1 if exp.game is 'assemblee' else 2", 1),
    ("if name in ('demos', 'protocole'):\n    pass", 1),
    ("if game == 'protocole' or 'protocole' in f:\n    pass", 2),
    ("match game:\n    case 'assemblee':\n        pass", 1),
    ("if game == 'demos_variants':\n    pass", 0),
    ("if game in GAMES:\n    pass", 0),
    ("stems = ('assemblee_public_goods_6p', 'demos')\nfor s in stems: pass", 0),
    ("title = {'demos': 'DĒMOS'}['demos']", 0),
])
def test_the_game_name_detector(text, hits):
    assert len(game_name_branches(_src(text))) == hits


# ------------------------------------------------------------------ plugins loaded once
# A process loads policy plugins through Game.load_plugins only (the main process when it
# reads the policies, restricted.lineup; a worker when it starts a task, the runner). The
# primitives it calls (Game.load_plugin, registry.load_plugin, L'Assemblée's
# load_extension) and the policy checker, which loads the one plugin it checks, are the
# only other callers.
PLUGIN_LOADERS_ALLOWED = {"demos_sim/game.py", "demos_sim/registry.py",
                          "demos_sim/assemblee/game.py",
                          "demos_sim/assemblee/policies/__init__.py",
                          "demos_sim/policy_check.py"}


def plugin_loads(tree: ast.Module) -> list[str]:
    """Calls of ``load_plugin``/``load_extension`` (a name or an attribute)."""
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")
            if name in ("load_plugin", "load_extension"):
                hits.append((node.lineno, name))
    return hits


def test_plugins_are_loaded_through_game_load_plugins_only():
    paths = [p for p in _files(PACKAGE)
             if str(p.relative_to(ROOT)) not in PLUGIN_LOADERS_ALLOWED]
    assert offences(lambda p: plugin_loads(_parse(p)), paths) == []


@pytest.mark.parametrize("text, hits", [
    ("for p in plugins:\n    ad.load_plugin(p)", 1),
    ("from demos_sim.registry import load_plugin\nload_plugin(x)", 1),
    ("ad.load_plugins(plugins)", 0),
])
def test_the_plugin_load_detector(text, hits):
    assert len(plugin_loads(_src(text))) == hits
