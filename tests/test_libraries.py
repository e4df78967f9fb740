"""Library-heavy code: the sandbox image a sample needs, and a missing library reported as the
image's gap, never the candidate's failure; then for real in the scientific image."""

from __future__ import annotations

import json
from contextlib import AbstractAsyncContextManager

import pytest
from fakes import GOOD_REPLIES, ScriptedChatModel, step_of
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status
from sejury.context import JudgeContext
from sejury.errors import SandboxError
from sejury.execution import evidence
from sejury.execution.evidence import SuiteRun
from sejury.sandbox.base import Sandbox, SandboxProvider
from sejury.sandbox.libraries import imports, missing_library, missing_note, profile_for

PANDAS = "import pandas as pd\nimport matplotlib.pyplot as plt\n\ndef task_func(rows):\n    return 1\n"


def test_the_profile_follows_the_codes_imports_or_the_sample() -> None:
    assert imports(PANDAS) == {"pandas", "matplotlib"}
    assert imports("from sklearn.linear_model import X\nimport os, numpy.linalg\nfrom . import y\n") == \
        {"sklearn", "os", "numpy"}
    assert imports("import numpy as np\ndef broken(:\n") == {"numpy"}  # a syntax error: read line by line
    assert profile_for("python", ["", PANDAS], {}) == "scientific"
    assert profile_for("python", ["import os\n", "import re\n"], {}) == "base"
    assert profile_for("javascript", ["const np = require('numpy')"], {}) == "base"
    assert profile_for("python", ["import os\n"], {"sandbox": "scientific"}) == "scientific"
    assert profile_for("python", [PANDAS], {"sandbox": "base"}) == "base"


def test_a_missing_library_is_told_from_a_candidates_own_import_error() -> None:
    assert missing_library("Traceback ...\nModuleNotFoundError: No module named 'pandas'\n") == "pandas"
    assert missing_library("ModuleNotFoundError: No module named 'torch'") == "torch"
    assert missing_library("ModuleNotFoundError: No module named 'my_helpers'") is None  # not a library we know
    assert "--profile scientific" in missing_note("pandas") and "scientific" not in missing_note("torch")
    gap = SuiteRun(loaded=False, total=2, passed=0, status="failed", seconds=0.1,
                   load_error="ModuleNotFoundError: No module named 'torch'")
    assert evidence.TestExecution(status="ran", candidate=gap).against() is None  # the image's gap is not definitive
    own = gap.model_copy(update={"load_error": "SyntaxError: invalid syntax"})
    assert evidence.TestExecution(status="ran", candidate=own).against()


class _Provider(SandboxProvider):
    def __init__(self, profile: str = "base", *, sibling: bool = True) -> None:
        self.profile, self.sibling = profile, sibling

    def acquire(self) -> AbstractAsyncContextManager[Sandbox]:
        raise NotImplementedError

    def for_profile(self, profile: str) -> SandboxProvider:
        if not self.sibling:
            raise SandboxError("the sandbox image 'x' is missing")
        return _Provider(profile)


def test_a_sample_runs_in_the_image_its_imports_need_and_falls_back_when_it_is_missing() -> None:
    sample = Sample(id="b", task="code_generation", problem="p", candidate=PANDAS, reference=PANDAS)
    plain = sample.model_copy(update={"candidate": "def f():\n    return 1\n", "reference": None})
    ctx = JudgeContext(llm=None, sandbox=_Provider(), execute=True)  # type: ignore[arg-type]
    sci = ctx.for_sample(sample)
    assert sci.sandbox is not None and sci.sandbox.profile == "scientific" and ctx.for_sample(sample) is sci
    assert ctx.for_sample(plain) is ctx
    assert JudgeContext(llm=None, sandbox=_Provider(), execute=False).for_sample(sample).sandbox.profile == "base"  # type: ignore[arg-type,union-attr]
    missing = JudgeContext(llm=None, sandbox=_Provider(sibling=False), execute=True)  # type: ignore[arg-type]
    assert missing.for_sample(sample) is missing


# for real: a BigCodeBench-shaped sample (pandas, numpy, a matplotlib plot) in the scientific image
PROBLEM = ("Group the rows (a list of (name, value) pairs) by name, sum the values, plot them as a bar chart, and "
           "return the sums as a dict sorted by name.\nYou should write self-contained code starting with:\n```\n"
           "import pandas as pd\nimport matplotlib.pyplot as plt\ndef task_func(rows):\n```")
RIGHT = ("import pandas as pd\nimport matplotlib.pyplot as plt\ndef task_func(rows):\n"
         "    df = pd.DataFrame(rows, columns=['name', 'value'])\n    sums = df.groupby('name')['value'].sum()\n"
         "    sums.plot(kind='bar')\n    plt.close('all')\n    return {k: int(v) for k, v in sorted(sums.items())}\n")
WRONG = RIGHT.replace(".sum()", ".max()")
TESTS = ("```python\nassert task_func([('a', 1), ('b', 2), ('a', 3)]) == {'a': 4, 'b': 2}\n"
         "assert task_func([('x', 5)]) == {'x': 5}\n```")


def script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": TESTS,
            "predict": "Checks:\n- first: PASS\n- second: PASS\nScore: 100"}[step_of(messages)]


def bcb(candidate: str) -> Sample:
    return Sample(id="bcb", task="code_generation", language="python", problem=PROBLEM, candidate=candidate,
                  reference=RIGHT)


@pytest.mark.docker
async def test_library_heavy_code_runs_in_the_scientific_image() -> None:
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(ScriptedChatModel(script=script), team="S5-exec,S5-diff", cache=False, execute=True,
                      sandbox=sandbox)
        right, wrong = await judge.ajudge(bcb(RIGHT)), await judge.ajudge(bcb(WRONG))
        ex = right.strategies["generate_tests"].artifacts["execution"]
        assert ex["status"] == "ran" and ex["valid"] == 2, ex
        assert "scientific" in sandbox._siblings  # the pandas code ran in the scientific image
        assert right.strategies["test_pass"].score == 100 and right.passed
        assert wrong.strategies["test_pass"].score == 50 and not wrong.passed
    finally:
        await sandbox.close()


@pytest.mark.docker
async def test_without_the_scientific_image_the_verdict_says_missing_library(monkeypatch: pytest.MonkeyPatch,
                                                                           ) -> None:
    from sejury.sandbox.docker import DockerSandbox

    monkeypatch.setenv("SEJURY_SANDBOX_SCIENTIFIC_IMAGE", "sejury-no-such-image:0")
    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(ScriptedChatModel(script=script), team="S5-exec,S5-diff", cache=False, execute=True,
                      sandbox=sandbox)
        v = await judge.ajudge(bcb(RIGHT))
        r = v.strategies["test_pass"]
        assert r.status is Status.UNSCORED and "missing library pandas" in (r.detail or ""), r.detail
        assert not v.against
        out = json.dumps(v.strategies["generate_tests"].artifacts["execution"])
        assert "--profile scientific" in out
    finally:
        await sandbox.close()
