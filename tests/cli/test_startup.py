"""Start-up loads nothing heavy: ``sejury --help``, ``sejury strategies`` and the commands' help
import no LangChain, LangGraph, model client, Docker, server or plotting library (those load inside
the commands that use them) and no pydantic-settings (the settings read the environment themselves),
``import sejury`` imports none of its submodules, and every public
name still resolves.  These tests assert which modules load, never how long it takes: speed is
measured by ``bench/startup.py``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

# top-level packages a start-up must not import (``langchain`` also covers ``langchain_core`` etc.)
HEAVY = ("langchain", "langgraph", "langsmith", "openai", "docker", "fastapi", "ray", "matplotlib", "numpy",
         "nltk", "tree_sitter", "codebleu", "pydantic_settings")
# sejury's own modules that bring those in
JUDGE_MODULES = ("sejury.api", "sejury.graph", "sejury.models", "sejury.agent", "sejury.estimate")

# runs the CLI as ``sejury ARGS`` would, then writes the loaded modules' names to a file
_CLI = """
import json, runpy, sys
args, out = json.loads(sys.argv[1]), sys.argv[2]
sys.argv = ["sejury", *args]
code = 0
try:
    runpy.run_module("sejury.cli", run_name="__main__")
except SystemExit as exc:
    code = exc.code or 0
with open(out, "w") as f:
    json.dump({"code": code, "modules": sorted(sys.modules)}, f)
"""


def python(code: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """A fresh interpreter (this one has imported everything already)."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={"PATH": "/usr/bin:/bin", "COLUMNS": "100", "HOME": str(cwd)})


def loaded_by(args: list[str], tmp_path: Path) -> set[str]:
    out = tmp_path / "modules.json"
    res = python(_CLI, json.dumps(args), str(out), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    found = json.loads(out.read_text())
    assert found["code"] == 0, res.stdout + res.stderr
    return set(found["modules"])


def heavy(modules: set[str]) -> list[str]:
    tops = {m.split(".")[0] for m in modules}
    return sorted(t for t in tops if any(t == h or t.startswith(h + "_") for h in HEAVY))


@pytest.mark.parametrize("args", [["--help"], ["strategies"], ["strategies", "--json"], ["judge", "--help"],
                                  ["batch", "--help"], ["rank", "--help"]], ids=" ".join)
def test_the_cli_starts_without_the_heavy_libraries(args: list[str], tmp_path: Path) -> None:
    modules = loaded_by(args, tmp_path)
    assert heavy(modules) == []
    assert not modules.intersection(JUDGE_MODULES)


def test_the_top_level_help_loads_no_juror(tmp_path: Path) -> None:
    modules = loaded_by(["--help"], tmp_path)
    assert "sejury.strategies" not in modules and "sejury.llm" not in modules


def test_the_languages_load_when_a_sample_names_one(tmp_path: Path) -> None:
    """The help loads no language module (Go's and Java's helpers among them); validating a
    sample's language looks the registry up and loads them all, aliases included."""
    loaded = {m for m in loaded_by(["--help"], tmp_path) if m.startswith("sejury.execution.languages.")}
    assert loaded <= {"sejury.execution.languages.base"}, loaded
    code = """
import sys
from sejury.schema import Sample
assert "sejury.execution.languages.python" not in sys.modules
sample = Sample.model_validate({"id": "s", "task": "code_generation", "problem": "p", "candidate": "c",
                                "language": " JS "})
print(sample.language, "sejury.execution.languages.go" in sys.modules)
"""
    res = python(code, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "javascript True"


def test_sejury_strategies_loads_the_specs_but_not_the_model_client(tmp_path: Path) -> None:
    modules = loaded_by(["strategies"], tmp_path)
    assert {"sejury.strategies.direct", "sejury.strategies.metrics"} <= modules
    assert "aiohttp" not in modules and "sejury.models.openai_compat" not in modules


def test_import_sejury_imports_no_submodule(tmp_path: Path) -> None:
    res = python("import json, sys, sejury; print(json.dumps(sorted(sys.modules)))", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    modules = set(json.loads(res.stdout))
    assert sorted(m for m in modules if m.startswith("sejury")) == ["sejury"]
    assert heavy(modules) == [] and "pydantic" not in modules


# each public name's home (what ``sejury/__init__.py`` imported eagerly before)
HOMES = {
    "sejury.api": ["Judge", "ajudge", "judge", "judge_many", "load_team_file"],
    "sejury.config": ["JudgeConfig"],
    "sejury.errors": ["InputError", "ModelError", "ModelSetupError", "SandboxError", "SejuryError"],
    "sejury.graph": ["JudgeContext", "build_graph"],
    "sejury.schema": ["Sample", "Scale", "Status", "Strategy", "StrategyResult", "Task", "TeamFile", "TraceEvent",
                      "Verdict"],
}


def test_every_public_name_resolves_in_a_fresh_process(tmp_path: Path) -> None:
    code = """
import importlib, json, sys
import sejury
from sejury import Judge, JudgeConfig, Sample, build_graph, judge
homes = json.loads(sys.argv[1])
assert sorted(sejury.__all__) == sorted(n for names in homes.values() for n in names), sejury.__all__
wrong = [n for home, names in homes.items() for n in names
         if getattr(sejury, n) is not getattr(importlib.import_module(home), n)]
assert wrong == [], wrong
assert set(sejury.__all__) <= set(dir(sejury))
star = {}
exec("from sejury import *", star)
assert set(sejury.__all__) <= set(star)
try:
    sejury.no_such_name
except AttributeError:
    print("ok", sejury.__version__)
"""
    res = python(code, json.dumps(HOMES), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "ok 0.1.0"


def test_the_roster_loads_the_jurors_when_first_read(tmp_path: Path) -> None:
    """The schema and the settings no longer import the jurors; naming one loads them."""
    code = """
import sys
from sejury.schema import TeamFile, parse_strategy
assert "sejury.strategies" not in sys.modules
assert parse_strategy("S2").value == "rethink"
assert TeamFile.model_validate({"strategies": ["S1", "s1-ref"]}).strategies[1].value == "direct_ref"
from sejury.config import JudgeConfig
config = JudgeConfig.build(model="fake", team="S1,S1@second", jury_models=["second=other"])
print([s.value for s in config.team])
"""
    res = python(code, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout.strip() == "['direct', 'direct@second']"


def test_the_ranking_commands_judge_is_still_an_attribute() -> None:
    """Tests replace ``sejury.cli.ranking.Judge``; it is ``sejury.api.Judge`` unless replaced."""
    from sejury.api import Judge
    from sejury.cli import ranking

    assert ranking.Judge is Judge
    with pytest.raises(AttributeError):
        ranking.no_such_name  # noqa: B018


def test_loading_pauses_the_garbage_collector_and_restores_it() -> None:
    import gc

    from sejury.cli.common import loading

    assert gc.isenabled()
    with pytest.raises(RuntimeError), loading():
        assert not gc.isenabled()
        raise RuntimeError("an import failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with loading():
            pass
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def test_loading_freezes_what_it_loaded_only_in_the_sejury_process(monkeypatch: pytest.MonkeyPatch) -> None:
    """``sejury`` (``cli.main``) freezes the heap ``loading`` made, so the run's collections skip it;
    a command run in-process (tests, CliRunner) freezes nothing."""
    import gc

    from sejury.cli import common

    assert gc.get_freeze_count() == 0
    with common.loading():
        pass
    assert gc.get_freeze_count() == 0
    monkeypatch.setattr(common, "FREEZE_LOADED", True)
    try:
        with common.loading():
            loaded = [{"module": i} for i in range(100)]
        assert gc.get_freeze_count() >= len(loaded) and gc.isenabled()
    finally:
        gc.unfreeze()
