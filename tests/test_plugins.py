"""One registry (``sejury.registry``) for jurors, languages and model backends: a package outside
sejury adds each with one module and an entry point, and a broken plug-in is reported without
taking the others down.  The toy package is written to disk with its installed metadata and used
by a fresh interpreter, as an installed plug-in would be; its model is a scripted LangChain chat
model (wiring only)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sejury.errors import ModelSetupError
from sejury.execution import languages
from sejury.models import BACKENDS, ModelSettings, model_label
from sejury.registry import Registry
from sejury.roster import JURORS

TOY = {
    # the backend: models named echo:NAME, answered by a scripted chat model
    "echo.py": """
        from langchain_core.language_models.fake_chat_models import FakeListChatModel
        from sejury.models.base import Backend

        def build(settings):
            return FakeListChatModel(responses=["Reasons:\\n- reads fine\\nScore: 70"] * 4)

        BACKEND = Backend(name="echo", rank=5, forms="'echo:NAME'", accepts=lambda s: s.model.startswith("echo:"),
                          label=lambda s: "echo/" + s.model.partition(":")[2], build=build)
    """,
    # the language: its aliases, how tests split, a harness (never run here)
    "toylang.py": """
        import re
        from sejury.execution.languages import Harness, Language, Suite

        LANGUAGE = Language(name="toylang", aliases=("tl",), split=lambda tests, names: Suite("", tests.split(";")),
                            defined_names=lambda program: set(), test_line=re.compile(r"check"),
                            harness=lambda program, suite, active, per_test: Harness({"p.toy": program}, "true"))
    """,
    # the juror: a metric with no model call (the candidate's length against the reference's)
    "juror.py": """
        from sejury.roster import Kind
        from sejury.scoring import ParsedReply
        from sejury.strategies.base import Outcome, StrategySpec, needs_reference

        async def run(sample, ctx, rec, feed):
            sizes = sorted([len(sample.candidate), len(sample.reference)])
            return Outcome(ParsedReply(score=round(100 * sizes[0] / sizes[1])))

        SPEC = StrategySpec(value="length", paper_name="Len", kind=Kind.METRIC, run=run, rank=500,
                            applies=needs_reference(), version=lambda: "length-1")
    """,
    "broken.py": "raise RuntimeError('this plug-in is broken on purpose')\n",
}
ENTRY_POINTS = """
[sejury.backends]
echo = toyplug.echo

[sejury.languages]
toylang = toyplug.toylang

[sejury.strategies]
length = toyplug.juror:SPEC
broken = toyplug.broken
"""
USE = """
import json, warnings
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    from sejury import Judge, Sample
    from sejury.execution import languages
    from sejury.models import BACKENDS
    sample = Sample(id="x", task="code_generation", language="TL", problem="Add two numbers.",
                    candidate="def add(a, b): return a + b", reference="def add(x, y): return x + y")
    verdict = Judge(model="echo:toy", team="S1,length", cache=False, traces=False, merge="mean").judge(sample)
print(json.dumps({"language": sample.language, "runner": languages.get("tl").name,
                  "backends": [b.name for b in BACKENDS], "model": verdict.model,
                  "scores": {k: r.score for k, r in verdict.strategies.items()}, "score": verdict.score,
                  "warnings": [str(w.message) for w in caught]}))
"""


@pytest.fixture
def toy_plugin(tmp_path: Path) -> Path:
    package = tmp_path / "toyplug"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name, text in TOY.items():
        (package / name).write_text(textwrap.dedent(text))
    meta = tmp_path / "toyplug-0.1.dist-info"
    meta.mkdir()
    (meta / "METADATA").write_text("Metadata-Version: 2.1\nName: toyplug\nVersion: 0.1\n")
    (meta / "entry_points.txt").write_text(ENTRY_POINTS)
    return tmp_path


def test_a_plugin_package_adds_a_backend_a_language_and_a_juror_by_entry_points(toy_plugin: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy_plugin), os.environ.get("PYTHONPATH", "")])}
    res = subprocess.run([sys.executable, "-c", USE], capture_output=True, text=True, env=env, timeout=300,
                         cwd=toy_plugin)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["language"] == "toylang" and out["runner"] == "toylang"  # the alias, read by the schema
    assert out["backends"][0] == "echo"  # rank 5: tried before the built-in backends
    assert out["model"].startswith("echo/toy#")
    assert out["scores"] == {"direct": 70, "length": 100} and out["score"] == 85
    # the broken plug-in is named, with its error; the others loaded
    assert [w for w in out["warnings"] if "did not load" in w] == [
        "sejury: the strategy plug-in 'broken' (toyplug.broken, entry point group 'sejury.strategies') "
        "did not load: RuntimeError: this plug-in is broken on purpose"]


def test_without_the_plugin_its_names_are_unknown() -> None:
    assert languages.get("tl") is None and "length" not in JURORS and "echo" not in BACKENDS
    with pytest.raises(ModelSetupError, match="unknown model 'echo'"):
        model_label(ModelSettings(model="echo"))


def test_the_builtin_backends_take_the_forms_they_did() -> None:
    label = {m: model_label(ModelSettings(model=m, base_url=u)) for m, u in [
        ("embedded-inprocess", None), ("qwen", "http://127.0.0.1:9/v1"), ("openai:gpt-4o-mini", None)]}
    assert label["embedded-inprocess"].startswith("gguf:") and label["embedded-inprocess"].endswith(":inprocess")
    assert label["qwen"] == "openai-compatible:qwen@http://127.0.0.1:9/v1"
    assert label["openai:gpt-4o-mini"] == "openai:gpt-4o-mini"
    with pytest.raises(ModelSetupError) as err:
        model_label(ModelSettings(model="gpt4"))
    assert str(err.value) == ("unknown model 'gpt4': use 'embedded', 'embedded-inprocess', "
                              "a model name together with --base-url, or 'provider:name'")


def test_a_name_belongs_to_one_item() -> None:
    colours: Registry[str] = Registry("colour", package="", group="", name=str.lower, aliases=lambda c: (c[:1],))
    red = colours.register("Red")
    assert colours.register(red) is red  # the same object again: nothing changes
    with pytest.raises(ValueError, match="a colour named 'red' is already registered"):
        colours.register("RED")
    with pytest.raises(ValueError, match="colour 'rose': the name 'r' already belongs to 'red'"):
        colours.register("Rose")
    assert colours.canonical(" R ") == "red" and colours.get("r") == "Red" and colours.names() == ("red",)
    colours.unregister("red")
    assert colours.get("r") is None and colours.register("Rose") == "Rose"
