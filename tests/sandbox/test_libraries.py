"""Library-heavy code: the sandbox image a sample needs, and a missing library reported as the
image's gap, never the candidate's failure; then for real in the scientific image."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status
from sejury.context import JudgeContext
from sejury.errors import SandboxError
from sejury.execution import evidence
from sejury.execution.differential import record_calls
from sejury.execution.evidence import SuiteRun
from sejury.execution.languages.base import Suite
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.base import ExecResult, ExecStatus, Sandbox, SandboxProvider
from sejury.sandbox.libraries import (
    PINNED_WHEELS,
    imports,
    missing_library,
    missing_note,
    profile_for,
    start_allowance,
)
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

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


class _TimedBox(Sandbox):
    """Records each run's time limit; every run times out before the program says anything."""

    def __init__(self) -> None:
        self.limits: list[float] = []

    async def run(self, files: dict[str, str], command: str, *, timeout: float) -> ExecResult:
        self.limits.append(timeout)
        return ExecResult(status=ExecStatus.TIMEOUT, exit_code=None, stdout="", stderr="", seconds=timeout)


class _Timed(_Provider):
    """A provider of one ``_TimedBox``; its runs go through ``SandboxProvider.run``."""

    def __init__(self, profile: str) -> None:
        super().__init__(profile)
        self.box = _TimedBox()
        self.limits = self.box.limits

    @contextlib.asynccontextmanager
    async def acquire(self) -> AsyncIterator[Sandbox]:
        yield self.box


async def test_the_scientific_image_gives_a_run_time_to_import_and_a_timeout_is_named() -> None:
    """A run on the scientific image gets ``START_ALLOWANCE`` beyond its language's limit (its
    libraries take seconds to import in a fresh container, many on a busy machine); a reference that
    timed out before loading says so, not an empty reason."""
    base, sci = _Timed("base"), _Timed("scientific")
    suite = split_tests("python", "```python\nassert f() == 1\n```", "def f():\n    return 1\n")
    for provider in (base, sci):
        report = await run_suite(provider, "python", "def f():\n    return 1\n", suite)
        assert not report.loaded and report.status is ExecStatus.TIMEOUT
    assert base.limits == [20.0] and sci.limits == [20.0 + start_allowance("scientific")]
    assert start_allowance("scientific") >= 30 and start_allowance("base") == 0
    assert evidence.reference_load_failure("", ExecStatus.TIMEOUT).endswith("the run ended (timeout) before it loaded")
    assert evidence.reference_load_failure("SyntaxError: bad", ExecStatus.FAILED).endswith("SyntaxError: bad")
    # the sealed checker's end marker is no reason (CI once showed "... not the candidate): @@DONE")
    assert evidence.load_error_line("@@LOAD FAIL the program's process ended while loading\n@@DONE\n") == \
        "the program's process ended while loading"


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


# the other libraries BigCodeBench's code imports that Debian packages: OpenCV here
CV_PROBLEM = ("Return the mean brightness of a grayscale image (a 2-D list of 0-255 values) after a 3x3 box blur, "
              "rounded to 2 decimals.\nYou should write self-contained code starting with:\n```\nimport cv2\n"
              "import numpy as np\ndef task_func(pixels):\n```")
CV_RIGHT = ("import cv2\nimport numpy as np\ndef task_func(pixels):\n    img = np.array(pixels, dtype=np.uint8)\n"
            "    return round(float(cv2.blur(img, (3, 3)).mean()), 2)\n")
CV_WRONG = CV_RIGHT.replace("cv2.blur(img, (3, 3)).mean()", "img.mean()")  # forgets the blur
CV_TESTS = ("```python\nassert task_func([[0, 255], [255, 0]]) == task_func([[255, 0], [0, 255]])\n"
            "assert task_func([[10, 10, 10], [10, 10, 10], [200, 200, 200]]) == 52.0\n```")


@pytest.mark.docker
async def test_opencv_code_runs_in_the_scientific_image_and_is_judged() -> None:
    from sejury.sandbox.docker import DockerSandbox

    assert profile_for("python", [CV_RIGHT], {}) == "scientific"
    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(ScriptedChatModel(script=lambda m: {**GOOD_REPLIES, "write_tests": CV_TESTS,
                                                          "predict": "Score: 100"}[step_of(m)]),
                      team="S5-exec", cache=False, execute=True, sandbox=sandbox)
        sample = Sample(id="cv", task="code_generation", language="python", problem=CV_PROBLEM,
                        candidate=CV_RIGHT, reference=CV_RIGHT)
        right = await judge.ajudge(sample)
        wrong = await judge.ajudge(sample.model_copy(update={"candidate": CV_WRONG}))
        ex = right.strategies["generate_tests"].artifacts["execution"]
        assert ex["status"] == "ran" and ex["valid"] == 2, ex  # the reference loads: cv2 is in the image
        assert right.strategies["test_pass"].score == 100 and right.passed
        assert wrong.strategies["test_pass"].score == 50 and not wrong.passed
    finally:
        await sandbox.close()


# BigCodeBench's seaborn 0.13: ``legend=False`` raises on Debian's 0.12 (its reference failed every input)
COUNT_PROBLEM = ("Draw a countplot of the first num_pairs shape-colour pairs and return how many bars it has.\n"
                 "```\nimport seaborn as sns\nSHAPES = ['Circle', 'Square']\nCOLORS = ['Red', 'Blue', 'Green']\n"
                 "def task_func(num_pairs=4):\n```")
COUNT_RIGHT = ("import itertools\nimport seaborn as sns\nSHAPES = ['Circle', 'Square']\n"
               "COLORS = ['Red', 'Blue', 'Green']\ndef task_func(num_pairs=4):\n"
               "    pairs = [f'{s}:{c}' for s, c in itertools.product(SHAPES, COLORS)][:min(num_pairs, 6)]\n"
               "    ax = sns.countplot(x=pairs, hue=pairs, palette='Set3', legend=False)\n"
               "    return len(ax.patches)\n")
COUNT_WRONG = COUNT_RIGHT.replace("[:min(num_pairs, 6)]", "[:num_pairs - 1]")  # one bar short


@pytest.mark.docker
async def test_the_scientific_image_has_bigcodebenchs_versions_of_its_pinned_libraries() -> None:
    """The five libraries of ``PINNED_WHEELS`` are BigCodeBench's versions in the image, and a
    reference written for seaborn 0.13's API answers the problem's default call and its mutations
    (Ex-fuzz, no model): the right candidate agrees on every input, the wrong one on none."""
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        sci = sandbox.for_profile("scientific")
        names = " ".join(PINNED_WHEELS)
        shown = await sci.run({"v.py": "import sys, importlib.metadata as m\n"
                                       "print(*(f'{n}=={m.version(n)}' for n in sys.argv[1:]))\n"},
                              f"python3 v.py {names}", timeout=30)
        assert shown.stdout.split() == [f"{n}=={v}" for n, (v, _) in PINNED_WHEELS.items()], shown
        judge = Judge(team="Ex-fuzz", cache=False, traces=False, execute=True, sandbox=sandbox)
        sample = Sample(id="count", task="code_generation", language="python", problem=COUNT_PROBLEM,
                        candidate=COUNT_RIGHT, reference=COUNT_RIGHT)
        right = await judge.ajudge(sample)
        wrong = await judge.ajudge(sample.model_copy(update={"candidate": COUNT_WRONG}))
        assert right.strategies["example_fuzz"].score == 100, right.strategies["example_fuzz"].detail
        assert wrong.strategies["example_fuzz"].score == 0, wrong.strategies["example_fuzz"].detail
    finally:
        await sandbox.close()


# --- the scientific stack's values across the sealed harness (numpy, pandas, matplotlib) ---

FRAME = '''
import random
import datetime
import numpy as np
import pandas as pd
import matplotlib.pyplot as plt


def task_func(arr, noise=True):
    df = pd.DataFrame({"total": arr.sum(axis=1), "mean": arr.mean(axis=1)})
    if noise:
        df["noise"] = np.random.rand(len(df)).round(3)
    _, ax = plt.subplots()
    ax.bar([str(i) for i in range(len(df))], df["total"])
    ax.set_title("Row totals")
    return df, ax, np.int64(arr.size), datetime.date(2024, 1, 31), random.random()
'''
FRAME_WRONG = FRAME.replace('"total": arr.sum(axis=1)', '"total": arr.max(axis=1)')
FRAME_TESTS = '''
import numpy as np
import pandas as pd
df, ax, size, day, r = task_func(np.array([[1, 2], [3, 4]]), noise=False)
assert isinstance(df, pd.DataFrame) and list(df.columns) == ["total", "mean"]
def test_frame():
    pd.testing.assert_frame_equal(df, pd.DataFrame({"total": [3, 7], "mean": [1.5, 3.5]}))
assert isinstance(ax, matplotlib.axes.Axes) and ax.get_title() == "Row totals"
assert [p.get_height() for p in ax.patches] == [3, 7] and len(ax.patches) == 2
assert isinstance(size, np.integer) and size == 4 and day.month == 1
assert task_func(np.random.rand(3, 2))[0].shape == (3, 3)
'''


def _recorded(suite: Suite) -> Suite:
    return Suite(suite.setup, [record_calls(u, i, "task_func") for i, u in enumerate(suite.units)])


@pytest.mark.docker
async def test_the_scientific_stacks_values_cross_the_sealed_harness_as_data() -> None:
    """DataFrames, arrays and numpy scalars come back as data the checker rebuilds, arrays go to the
    program as data, a plot is a handle that answers isinstance and its methods, every unit and call
    starts from one random state, and the differential record shows a frame's rows, so a wrong
    total is seen by the tests and by the record."""
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        sci = sandbox.for_profile("scientific")
        suite = _recorded(split_tests("python", FRAME_TESTS))
        right = await run_suite(sci, "python", FRAME, suite)
        again = await run_suite(sci, "python", FRAME, suite)
        wrong = await run_suite(sci, "python", FRAME_WRONG, suite)
        assert right.passed == [True] * 6, right.reasons
        assert wrong.passed == [True, False, True, False, True, True], wrong.reasons
        last = right.values[5][0]
        assert last.startswith("(DataFrame(columns=['total', 'mean', 'noise'], index=[0, 1, 2], rows=[["), last
        assert right.values == again.values  # seeded: the random column and random.random() repeat
        one = _recorded(split_tests("python", "assert task_func(np.array([[1, 2], [3, 4]]))\n"))
        shown = await run_suite(sci, "python", FRAME, one)
        assert "rows=[[3, 1.5, 0.549], [7, 3.5, 0.715]]), <Axes object of the program>, 4, " in \
            shown.values[0][0], shown.values  # a plot is shown by its class only: its looks are not compared
        wrong_shown = await run_suite(sci, "python", FRAME_WRONG, one)
        right_shown = shown
        assert wrong_shown.values[0][0] != right_shown.values[0][0]
    finally:
        await sandbox.close()


SCRIPT_TESTS = '''
from your_module import task_func
import numpy as np
labels = ["a", "b"]
df = task_func(np.array([[1, 2], [3, 4]]), labels)
assert list(df.index) == ["a", "b"]
assert df.iloc[1, 0] == 3
labels = ["x"]
df = task_func(np.array([[5, 6]]), labels)
assert list(df.index) == ["x"]
'''
# uses pd unbound, as a few BigCodeBench references do
USES_PD = "def task_func(arr, labels):\n    return pd.DataFrame(arr, index=labels)\n"
IMPORTS_PD = "import pandas as pd\n" + USES_PD


def test_the_aliases_a_reference_uses_unbound_are_given_to_every_program_of_the_sample() -> None:
    """BigCodeBench runs code and tests as one module: where its reference uses ``pd`` it never
    imports, the tests import it, for the candidate too.  Where the reference imports it, a
    candidate that forgets to is not rescued (there it fails: 22 of the 23 such candidates do)."""
    from sejury.execution.languages.python import PRELUDE
    from sejury.execution.programs import programs

    # (a reference also runs after the harness's usual imports, a candidate as written)
    ref, cand, _ = programs("code_generation", "python", "", USES_PD, USES_PD, {})
    assert (ref, cand) == ("import pandas as pd\n" + PRELUDE + USES_PD, "import pandas as pd\n" + USES_PD)
    ref, cand, _ = programs("code_generation", "python", "", IMPORTS_PD, USES_PD, {})
    assert (ref, cand) == (PRELUDE + IMPORTS_PD, USES_PD)
    uses_os = "def task_func(path, os_name='x'):\n    json.dump([], open(os.path.join(path, os_name), 'w'))\n"
    ref, _, _ = programs("code_generation", "python", "", uses_os, uses_os, {})
    assert ref.startswith("import json\nimport os\n" + PRELUDE + "def task_func")  # the standard library's too
    local = "def task_func(array):\n    string = 'a'\n    return array.sum(), string.upper()\n"
    assert programs("code_generation", "python", "", local, local, {})[1] == local  # names it binds itself


@pytest.mark.docker
async def test_a_script_of_tests_runs_each_check_after_its_own_test_in_the_sandbox() -> None:
    """Tests written as a script (the style S5 asks for library-heavy code): each check runs after
    its own test's steps, with its own test's values; the import of the function from a module that
    does not exist is dropped.  The reference that uses ``pd`` unbound runs, as in BigCodeBench; a
    candidate that uses it unbound where the reference imports it fails."""
    from sejury.execution.programs import programs
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        sci = sandbox.for_profile("scientific")
        suite = _recorded(split_tests("python", SCRIPT_TESTS, reference=USES_PD))
        ref, cand, _ = programs("code_generation", "python", "", USES_PD, USES_PD, {})
        for program in (ref, cand):
            ran = await run_suite(sci, "python", program, suite)
            assert ran.passed == [True, True, True], ran.reasons
        _, forgot, _ = programs("code_generation", "python", "", IMPORTS_PD, USES_PD, {})
        ran = await run_suite(sci, "python", forgot, suite)
        assert ran.passed == [False] * 3 and "NameError" in ran.reasons[0], ran.reasons
    finally:
        await sandbox.close()


FORGED_FRAME = '''
import sys
import pandas as pd

_server = sys.modules["__main__"]
_enc = _server.enc


class Anything:
    shape = (2, 2)

    def equals(self, other):
        return True


def _forged(v, handles=None, *a, **k):  # sends its own object as if it were pandas' DataFrame
    if isinstance(v, Anything) and handles is not None:
        handles.append(v)
        return ["H", len(handles) - 1, "pandas.core.frame:DataFrame", ["N"]]
    return _enc(v, handles, *a, **k)


_server.enc = _forged


def task_func(arr, noise=True):
    return Anything()
'''
OWN_EQUALS = '''
import pandas as pd


class Anything:
    def equals(self, other):
        return True

    def __eq__(self, other):
        return True


def task_func(arr, noise=True):
    return Anything()
'''
ASKING = '''
import numpy as np
import pandas as pd
want = pd.DataFrame({"total": [3, 7], "mean": [1.5, 3.5]})
assert task_func(np.array([[1, 2], [3, 4]]), noise=False).equals(want)
assert isinstance(task_func(np.array([[1, 2], [3, 4]]), noise=False), pd.DataFrame)
assert task_func(np.array([[1, 2], [3, 4]]), noise=False) == want
'''


@pytest.mark.docker
@pytest.mark.parametrize("hack", [FORGED_FRAME, OWN_EQUALS], ids=["claims-to-be-a-DataFrame", "own-equals"])
async def test_a_program_cannot_answer_whether_its_value_equals_the_expected_one(hack: str) -> None:
    """A test that asks the returned object ``.equals(expected)``: the program's own object (or one
    it sends as if it were a DataFrame) is never asked, so the hack fails every test the right
    program passes."""
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        sci = sandbox.for_profile("scientific")
        suite = split_tests("python", ASKING)
        plain = FRAME.replace("df, ax, np.int64(arr.size), datetime.date(2024, 1, 31), random.random()", "df")
        right = await run_suite(sci, "python", plain, suite)
        hacked = await run_suite(sci, "python", hack, suite)
        assert right.passed == [True, True, False], right.reasons  # a DataFrame's == is elementwise
        assert hacked.passed == [False, False, False], hacked.reasons
    finally:
        await sandbox.close()


def test_s5_writes_tests_for_library_heavy_code_in_their_own_style() -> None:
    """S5's prompt for code the scientific image runs asks for top-level asserts that check what
    the requirement states (shape, columns, a plot's title), not whole objects with ``==``, and
    write the files the function reads."""
    from sejury import prompts
    from sejury.sandbox.libraries import sample_profile

    assert sample_profile(bcb(RIGHT)) == "scientific"
    style = prompts.test_style("python", sample_profile(bcb(RIGHT)))
    assert "top level" in style and "pytest.raises" in style and "list(df.columns)" in style
    assert "write that file first" in style  # a function that reads a file gets one (was: "No files")
    plain = Sample(id="p", task="code_generation", language="python", problem="def f(x):\n", candidate="  return x")
    assert prompts.test_style("python", sample_profile(plain)) == prompts.test_style("python")
    assert prompts.test_style("go", "scientific") == prompts.test_style("go")  # no such style: the language's
