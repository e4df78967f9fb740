"""The docs are part of the product: the site builds with warnings as errors (broken links and
anchors included), the settings tables are made from the settings, every ``SEJURY_`` variable the
code reads is documented, the README stays short and links every page, and the README's
quickstart runs as shown (on the real model and sandbox)."""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.helpers.paths import ROOT

README = ROOT / "README.md"
BIN = Path(sys.executable).parent


def _nav_pages() -> list[str]:
    def walk(node: object) -> list[str]:
        if isinstance(node, str):
            return [node]
        if isinstance(node, dict):
            return [p for v in node.values() for p in walk(v)]
        if isinstance(node, list):
            return [p for v in node for p in walk(v)]
        return []

    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    return walk(config["nav"])


@pytest.mark.process
def test_the_site_builds_with_warnings_as_errors(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert res.returncode == 0, res.stderr[-4000:]
    assert (tmp_path / "site" / "configuration" / "index.html").is_file()


def test_the_settings_tables_are_made_from_the_settings() -> None:
    res = subprocess.run([sys.executable, str(ROOT / "scripts" / "settings_table.py"), "--check"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr


def test_every_variable_the_code_reads_is_documented() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    used: set[str] = set()
    for folder in ("sejury", "scripts", "tests", ".ci", "bench"):
        for path in (ROOT / folder).rglob("*"):
            if path.is_file() and path.suffix in ("", ".py", ".sh", ".pyt", ".js", ".txt", ".hpp", ".java"):
                used |= set(re.findall(r"\bSEJURY_[A-Z][A-Z0-9_]*[A-Z0-9]\b", path.read_text(errors="replace")))
    missing = sorted(v for v in used if f"`{v}`" not in page)
    assert not missing, f"not in docs/configuration.md: {missing}"


def test_the_readme_is_short_and_links_every_page() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < 250
    for page in _nav_pages():
        if page == "index.md":
            continue
        assert f"(docs/{page}" in text, f"the README does not link docs/{page}"


def _quickstart() -> list[list[str]]:
    """The commands of the README's quickstart block (the first ``bash`` block under "Quickstart")."""
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quickstart", 1)[1]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [line.split("  #", 1)[0].strip() for line in block.splitlines()]
    return [shlex.split(line) for line in lines if line and not line.startswith("#")]


def test_the_quickstart_block_is_what_the_test_runs() -> None:
    commands = _quickstart()
    assert commands and all(c[0].startswith(".venv/bin/sejury") or c[0] in ("sudo", "bash") for c in commands)


@pytest.mark.embedded
@pytest.mark.docker
def test_the_quickstart_runs_as_shown(tmp_path: Path) -> None:
    """Every judging command of the quickstart, as a user types it (the setup steps are the CI's
    own): the wrong run-length candidate fails, naming its failing test; the right one passes."""
    outputs = []
    for command in _quickstart():
        if command[0] in ("sudo", "bash"):
            continue  # setting up: .ci/run has done it
        args = [p for a in command[1:] for p in (sorted(glob.glob(str(ROOT / a))) if "*" in a else [a])]  # as a shell
        argv = [str(BIN / "sejury"), *args]
        res = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=1200,
                             env={**os.environ, "COLUMNS": "80"})
        assert res.returncode == 0, (command, res.stdout[-3000:], res.stderr[-3000:])
        outputs.append(res.stdout)
    text = "\n".join(outputs)
    wrong, right = text.split("own-tests-run-length-right", 1) if "own-tests-run-length-right" in text else (text, "")
    assert "FAIL at pass mark 50" in wrong and "against: Sample-tests: fails 1 of the sample's 3 tests" in wrong
    assert "PASS at pass mark 50" in right


def test_every_results_page_is_in_the_index_and_says_where_it_was_measured() -> None:
    results = ROOT / "docs" / "results"
    index = (results / "README.md").read_text(encoding="utf-8")
    for page in sorted(results.glob("2*.md")):
        assert f"]({page.name})" in index, f"{page.name} is not in docs/results/README.md"
        assert re.match(r"\d{4}-\d{2}-\d{2}-[a-z0-9-]+\.md$", page.name), page.name
        head = page.read_text(encoding="utf-8")[:3000].lower()
        assert "commit" in head and "machine" in head, f"{page.name}: no commit or machine in its header"
