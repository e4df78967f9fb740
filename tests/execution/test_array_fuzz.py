"""S5-fuzz on numpy and pandas values that BigCodeBench's tests build with expressions: read with
``ast`` (never evaluated), mutated keeping shape, dtype and column names, written back as text."""

from __future__ import annotations

import random

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status
from sejury.execution.arrays import SHOWN, Frame, NdArray, Series
from sejury.execution.calls import render_call, seed_calls
from sejury.execution.fuzz import fits, mutate_inputs, mutations
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of


def one(text: str) -> object:
    """The single argument of the one call of ``f`` read from ``text`` (None when none is read)."""
    calls = seed_calls(text, "f", built=True)
    return calls[0][0][0] if calls else None


def test_numpy_and_pandas_expressions_are_read_as_values() -> None:
    assert one("f(np.array([[1, 2], [3, 4]]))") == NdArray((2, 2), None, (1, 2, 3, 4))
    assert one("f(np.array([1.5, -2], dtype=np.float32))") == NdArray((2,), "float32", (1.5, -2))
    assert one("f(np.ones((3, 2)))") == NdArray((3, 2), None, (1.0,) * 6)
    assert one("f(-np.ones((2,), dtype=int))") == NdArray((2,), "int", (-1, -1))
    assert one("f(np.full((2, 2), 7))") == NdArray((2, 2), None, (7,) * 4)
    assert one("f(np.arange(6).reshape(2, 3))") == NdArray((2, 3), None, (0, 1, 2, 3, 4, 5))
    assert one("f(np.arange(1, 7, 2).reshape((-1, 1)))") == NdArray((3, 1), None, (1, 3, 5))
    assert one("f(np.empty((0, 3)))") == NdArray((0, 3), None, ())  # no cell: nothing uninitialised
    assert one("f(pd.DataFrame({'a': [1, 2], 'b': ['x', np.nan]}))").columns[0] == ("a", (1, 2))  # type: ignore[attr-defined]
    assert one("f(pd.Series([1, 2], name='s'))") == Series((1, 2), "s")
    assert one("f(pd.DataFrame())") == Frame(())
    assert one("import numpy as N\nf(N.zeros(2))") == NdArray((2,), None, (0.0, 0.0))
    big = one("f(np.zeros((100, 100, 3)))")
    assert big == NdArray((100, 100, 3), None, None, 0.0, 0) and len(repr(big)) < 60
    # without ``built`` (Ex-fuzz, the domain rule) only literals are read, as before
    assert seed_calls("f(np.ones(2), 1)\nf([1], 2)", "f") == [(([1], 2), ())]


def test_a_name_bound_earlier_in_the_same_test_is_read_until_it_changes() -> None:
    text = ("x = np.array([[1, 2]])\n"
            "def test_a():\n    y = -np.ones((2, 2))\n    f(y, x)\n"
            "def test_b(y):\n    f(y)\n"  # a parameter: not the other test's y
            "def test_c():\n    z = np.zeros(3)\n    z[0] = 5\n    f(z)\n"  # assigned into: unknown
            "def test_d():\n    z = np.zeros(3)\n    z.fill(2)\n    f(z)\n"  # changed by a method: unknown
            "def test_e():\n    z = np.zeros(3)\n    with ctx() as z:\n        f(z)\n"
            "def test_f():\n    a, b = pd.Series([1]), np.arange(2)\n    if True:\n        f(a, b)\n")
    calls = seed_calls(text, "f", built=True)
    assert [render_call("f", c) for c in calls] == [
        "f(np.array([[-1.0, -1.0], [-1.0, -1.0]]), np.array([[1, 2]]))",
        "f(pd.Series([1]), np.array([0, 1]))",
    ]


@pytest.mark.parametrize("text", [
    "f(np.ones((10**9,)))",  # not a literal shape
    "f(np.ones((1000000000,)))",  # too many cells
    "f(np.zeros((100000, 100000)))",
    "f(np.arange(10**12))",
    "f(np.arange(1e12))",
    "f(np.arange(" + "9" * 400 + "))",  # too large for a float
    "f(np.arange(1e400))",
    "f(" + "-" * 5000 + "np.ones(2))",  # too deep for the parser
    "f(np.full((3,), 10**100))",
    "f(np.ones(n))",
    "f(np.empty((3,)))",  # uninitialised cells
    "f(np.array([[1, 2], [3]]))",  # ragged
    "f(np.array([[[[[[[1]]]]]]]))",  # deeper than MAX_DIMS
    "f(np.array([1, 'a']))",
    "f(np.array(__import__('os').system('touch /tmp/pwned')))",
    "f(np.array([1, 2], copy=False))",
    "f(np.ones((2, 2)).reshape(3, -1))",
    "f(-np.array([True]))",
    "f(pd.DataFrame({'a': [[1], [2]]}))",
    "f(pd.DataFrame({'a': [1]}, index=[5]))",
    "f(x)",
])
def test_hostile_or_unknown_expressions_are_refused_without_evaluating_them(text: str) -> None:
    assert seed_calls(text, "f", built=True) == []


def test_mutations_keep_shape_dtype_and_columns_and_follow_the_seed() -> None:
    rng = random.Random(3)
    ones = NdArray((3, 2), None, (-1.0,) * 6)
    made = mutations(ones, rng, seen=[ones])
    assert made and all(isinstance(m, NdArray) and m.shape == (3, 2) and m.dtype is None for m in made)
    assert any(len(set(m.cells)) == 6 for m in made)  # a constant made non-constant
    assert NdArray((3, 2), None, (1.0,) * 6) in made  # signs flipped
    big = NdArray((100, 100, 3), "float32", None, 0.0, 0)
    ramp = [m for m in mutations(big, rng) if m.step]
    assert ramp and repr(ramp[0]) == "(np.arange(30000) * 1 + 0.0).reshape((100, 100, 3)).astype('float32')"
    frame = Frame((("name", ("Alice", "Bob")), ("age", (20, 30))))
    for m in mutations(frame, random.Random(0), seen=[frame]):
        assert [k for k, _ in m.columns] == ["name", "age"] and all(len(v) == 2 for _, v in m.columns)
    # the domain: no negative cell where no seed has one; any sign where a seed has a negative one
    pos = NdArray((2,), None, (1, 2))
    assert not fits(NdArray((2,), None, (-1, 2)), [pos]) and fits(NdArray((2,), None, (3, 2)), [pos])
    assert fits(NdArray((2,), None, (-1, 2)), [pos, NdArray((1,), None, (-4,))])
    assert not fits(Frame((("age", (-1,)),)), [frame]) and fits(Frame((("age", (1, 5)),)), [frame])
    seeds = seed_calls("x = np.ones((2, 2))\nassert f(x, 3) == 0\nf(pd.DataFrame({'a': [1, 2]}), 1)", "f",
                       built=True)
    first = mutate_inputs(seeds, 30, seed=5)
    assert first == mutate_inputs(seeds, 30, seed=5) and len(first) == 30  # a seeded draw
    for (args, _) in first:
        assert isinstance(args[0], (NdArray, Frame)) and args[1] > 0  # the domain: the seeds give 3 and 1
        assert isinstance(args[0], Frame) or (args[0].shape == (2, 2) and repr(args[0]).startswith("np.array(["))
        assert isinstance(args[0], NdArray) or repr(args[0]).startswith("pd.DataFrame({'a': [")


def test_written_values_read_back_as_the_same_values() -> None:
    for v in [NdArray((2, 3), "int", (1, -2, 3, 4, 5, 6)), NdArray((0, 3), None, ()),
              NdArray((SHOWN + 1,), None, None, 2.5, 0), NdArray((2,), None, (float("inf"), 1.0)),
              Frame((("a", (1, None)), ("b", ("x", "y")))), Series((1.5, 2.0), "s", "float64")]:
        assert one(f"f({v!r})") == v, v


# --- on the real sandbox: a wrong candidate that agrees on a constant array is caught ---
PROBLEM = ("Return the range (max minus min) of each row of the 2-D numpy array `arr`, as a list of floats.\n"
           "You should write self-contained code starting with:\n```\nimport numpy as np\ndef task_func(arr):\n```")
RIGHT = "import numpy as np\ndef task_func(arr):\n    return [float(v) for v in arr.max(axis=1) - arr.min(axis=1)]\n"
WRONG = "import numpy as np\ndef task_func(arr):\n    return [float(r[-1] - r[0]) for r in arr]\n"  # last - first
OTHER_RIGHT = "import numpy as np\ndef task_func(arr):\n    return [float(max(r) - min(r)) for r in arr.tolist()]\n"
TESTS = "```python\nimport numpy as np\nx = -np.ones((3, 2))\nassert task_func(x) == [0.0, 0.0, 0.0]\n```"


def script(messages: list[BaseMessage]) -> str:
    return {**GOOD_REPLIES, "write_tests": TESTS}[step_of(messages)]


@pytest.mark.docker
async def test_s5_fuzz_mutates_a_constant_array_and_catches_a_wrong_candidate(sandbox: DockerSandbox) -> None:
    judge = Judge(ScriptedChatModel(script=script), team="S5-exec,S5-fuzz", cache=False, execute=True,
                  sandbox=sandbox)

    def sample(candidate: str) -> Sample:
        return Sample(id="rows", task="code_generation", language="python", problem=PROBLEM,
                      candidate=candidate, reference=RIGHT)

    wrong = await judge.ajudge(sample(WRONG))
    assert wrong.strategies["test_pass"].score == 100  # the constant array: last - first is 0 too
    fuzz = wrong.strategies["test_fuzz"]
    assert fuzz.status is Status.SCORED and fuzz.score is not None and fuzz.score < 100, fuzz
    a = fuzz.artifacts
    assert a["seeds"] == 1 and a["inputs"] > 0 and a["agreed"] < a["inputs"] and fuzz.llm_calls == 0
    assert any("task_func(np.array([[" in m["test"] for m in a["mismatches"]), a["mismatches"]
    right = await judge.ajudge(sample(OTHER_RIGHT))
    assert right.strategies["test_fuzz"].score == 100, right.strategies["test_fuzz"]
