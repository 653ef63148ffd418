"""Import rules that import-linter does not check (its contracts run in `make test`): no
module imports another module's private names, and every analysis follows the protocol."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "demos_sim"



def _module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def private_imports(package: Path = PACKAGE) -> set[tuple[str, str, str]]:
    """``(importer, module, name)`` for every ``from M import _name`` across modules of
    ``package`` (imports inside functions included)."""
    found = set()
    for path in sorted(package.rglob("*.py")):
        importer = _module_name(path, package)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 \
                    and node.module.split(".")[0] == package.name and node.module != importer:
                for alias in node.names:
                    if alias.name.startswith("_") and not alias.name.startswith("__"):
                        found.add((importer, node.module, alias.name))
    return found


def test_no_module_imports_another_modules_private_names():
    assert private_imports() == set()


def test_the_scan_finds_private_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def _x(): pass\n_y = 1\n")
    (pkg / "sub" / "__init__.py").write_text("from pkg.a import _y\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from pkg.a import _x, __doc__, z\n")
    assert private_imports(pkg) == {("pkg.sub", "pkg.a", "_y"), ("pkg.sub.b", "pkg.a", "_x")}


def test_every_analysis_follows_the_protocol():
    from demos_sim.analysis.core import protocol
    from demos_sim.analysis.suite import ANALYSES, module

    for name, path in ANALYSES.items():
        mod = module(name)                      # protocol.check: TITLE, METHOD, tables, …
        assert path.startswith("demos_sim.analysis.questions."), path
        assert not hasattr(mod, "build"), f"{name}: runs are declared, not driven"
        declared = [a for a in protocol.DECLARED if hasattr(mod, a)]
        assert declared, f"{name} declares no runs"
        for t in protocol.tunes(mod):
            assert protocol.experiment_path(t.file).exists(), t.file
        for stem in getattr(mod, "EXPERIMENTS", []):
            assert protocol.experiment_path(stem).exists(), stem
