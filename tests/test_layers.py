"""The package's shape: no import cycle between sejury's top-level packages at load time, and no
module over 350 lines (``scripts/check_layers.py``)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.helpers.paths import ROOT, load_script

check_layers = load_script(ROOT / "scripts" / "check_layers.py")


def test_the_package_has_no_import_cycle_and_no_long_module() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_layers.py")], capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr


def test_the_check_sees_a_cycle_and_skips_what_does_not_run_at_load() -> None:
    assert check_layers.cycle({"api": {"checks"}, "checks": {"review"}, "review": {"api"}}) is not None
    assert check_layers.cycle({"api": {"checks"}, "checks": {"review"}}) is None
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from sejury.api import Judge\n"
                     "def f():\n    import sejury.cli\nfrom sejury.schema import Sample\nfrom . import merge\n")
    assert check_layers.load_time_imports(tree, "sejury.graph") == {
        "sejury.schema", "sejury.schema.Sample", "sejury.graph", "sejury.graph.merge"}


def test_the_langgraph_entry_starts_nothing_at_import(tmp_path: Path) -> None:
    """``langgraph.json``'s graph is a factory: importing its module builds no judge, so no model
    server is started (the embedded model is the default) until the server asks for the graph."""
    run_dir = tmp_path / "run"
    res = subprocess.run([sys.executable, "-c", "import sejury.langgraph_app as p; assert p._built == []; print('ok')"],
                         capture_output=True, text=True, timeout=120,
                         env={**os.environ, "SEJURY_RUN_DIR": str(run_dir), "SEJURY_MODEL": "embedded"})
    assert res.returncode == 0 and res.stdout.strip() == "ok", res.stderr
    assert not run_dir.exists() or not any(run_dir.iterdir()), "a model server was started"
    assert "sejury/langgraph_app.py:graph" in (ROOT / "langgraph.json").read_text()


def test_the_environment_is_read_in_two_homes_only() -> None:
    """``SEJURY_*`` variables are read by the settings (``config.py``, ``EnvSettings``) and by
    ``paths.py``, nowhere else."""
    read = re.compile(r"""(environ(\.get)?[\[(]|getenv\()\s*["']SEJURY_""")
    readers = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sejury").rglob("*.py")
                     if read.search(p.read_text(encoding="utf-8")) and p.name not in ("paths.py", "config.py"))
    assert readers == [], readers
