"""Every notebook in notebooks/ executes against a small run of its analysis.

The notebooks load an analysis's CSV tables from ``$DEMOS_SIM_ANALYSES/<name>`` (the
committed ``results/analyses`` by default) and redraw its plots; here they run against
the session's small runs (:func:`conftest.small_analysis`), so a notebook that no longer
matches its analysis fails the suite.
"""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("*.ipynb"))
# analyses that read other analyses' sections
NEEDS = {"robustness": ["variants"]}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, small_analysis, monkeypatch):
    for dep in NEEDS.get(path.stem, []):
        small_analysis(dep)
    out = small_analysis(path.stem)
    monkeypatch.setenv("DEMOS_SIM_ANALYSES", str(out))
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=300, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # the plots cell displayed at least one image
    assert any("image/png" in o.get("data", {}) for o in outputs)
