"""`demos-sim report`: HTML and Markdown with PNG plots, stamped, from a small run."""

import json
from pathlib import Path

import pytest

from demos_sim.cli import main

ROOT = Path(__file__).resolve().parents[2]
SMOKE = ROOT / "experiments" / "smoke.toml"
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("rep") / "smoke"
    assert main(["run", str(SMOKE), "--games", "1500", "--out", str(out), "--quiet"]) == 0
    return out


def test_report_builds_html_markdown_and_plots(results, capsys):
    assert main(["report", str(results)]) == 0
    assert "report.html" in capsys.readouterr().out
    meta = json.loads((results / "meta.json").read_text())
    # the grid sweeps a number (carre_points): its curve too (demos-sim sweep's plot)
    for name in ("win_share", "win_share_diff", "points", "rounds", "sweep_carre_points"):
        assert (results / "plots" / f"{name}.png").read_bytes().startswith(PNG)
    md = (results / "report.md").read_text()
    page = (results / "report.html").read_text()
    for text in (md, page):
        assert "smoke" in text and "carre_points=20" in text
        assert f"git {meta['git_revision']}" in text
        assert f"demos-sim {meta['version']}" in text
        assert "numba " + meta["versions"]["numba"] in text
        assert "1500 per grid point" in text
    assert "| seed | 1 |" in md
    assert "![Win share by side" in md and "(plots/win_share.png)" in md
    assert "<td>seed</td><td>1</td>" in page
    assert page.count('src="data:image/png;base64,') == 5
    assert "sweep of carre_points</b>: carre_points from 20 to 30 (2 values, each against " \
           "carre_points = 30 on the same 1,500 deals)" in page
    # answers first: the glance, then the plots, then the tables (collapsed, with CSV)
    assert page.index('id="summary"') < page.index('id="plots"') < page.index("<table")
    assert page.count('href="data:text/csv') == 2 and "<details open" not in page
    stamp = (f"<b>Rules contract {meta['contract']}</b> · demos-sim {meta['version']} · git "
             f"{meta['git_revision'][:10]} · seed 1 · <b>{meta['games_played']:,} games</b>")
    assert page.count(stamp) == 2                              # top and foot
    # the glance quotes the largest paired change of carre_points=20 with its interval
    win_table = md[md.index("## Win share by side"):md.index("## Other metrics")]
    ws = [ln for ln in win_table.splitlines() if ln.startswith("| 1 | 4 | carre_points=20 |")]
    assert len(ws) == 4
    diffs = [float(ln.split(" | ")[7]) for ln in ws]
    big = max(map(abs, diffs))          # (rounded: any side at the largest size will do)
    assert any(f"carre_points=20: largest change of a win share {d:+.2f} pp" in md
               for d in diffs if abs(d) == big)
    # every win-share row of the table is in the summary: 2 points × 4 seats
    assert sum(1 for line in md.splitlines() if line.startswith("| 1 | 4 | carre_points=20 |")
               and "0.0" in line) >= 4


def test_report_into_another_folder(results, tmp_path):
    assert main(["report", str(results), "--out", str(tmp_path / "rep")]) == 0
    assert (tmp_path / "rep" / "report.html").exists()
    assert (tmp_path / "rep" / "plots" / "rounds.png").exists()


def test_report_refuses_a_folder_that_is_not_a_finished_run(tmp_path, results, capsys):
    assert main(["report", str(tmp_path)]) == 2
    assert "no meta.json" in capsys.readouterr().err
    bad = tmp_path / "copy"
    bad.mkdir()
    for f in ("meta.json", "results.parquet", "histograms.parquet"):
        (bad / f).write_bytes((results / f).read_bytes())
    (bad / "results.parquet").write_bytes(b"PAR1 not the table meta.json describes")
    assert main(["report", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "results.parquet does not match meta.json" in err and err.count("\n") == 1


def test_damaged_meta_or_chunk_is_a_one_line_error(tmp_path):
    """A corrupt results file: one line, exit 2, no traceback."""
    import shutil
    import subprocess
    import sys

    from demos_sim.runner import load_experiment, run_experiment

    root = Path(__file__).resolve().parents[2]
    exp = load_experiment(root / "experiments" / "smoke.toml").with_games(300)
    out = tmp_path / "r"
    run_experiment(exp, out=out, quiet=True)
    bad = tmp_path / "bad"
    shutil.copytree(out, bad)
    (bad / "meta.json").write_text("{not json")
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "report", str(bad)],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "damaged" in p.stderr
    chunk = next((out / "chunks").rglob("*.npz"))
    chunk.write_bytes(b"garbage")
    p = subprocess.run([sys.executable, "-m", "demos_sim.cli", "run",
                        str(root / "experiments" / "smoke.toml"), "--games", "300",
                        "--out", str(out), "--quiet"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "unreadable" in p.stderr
