"""Differential testing (S5-diff) on the real sandbox, in all five languages: the calls in S5's
tests are recorded on the reference and on the candidate, and a wrong candidate that passes every
*valid* test is still caught where its values differ, including on tests whose stated expectation
was wrong (S5-exec drops those)."""

from __future__ import annotations

import pytest

from sejury.execution.differential import HELPER, record_calls, recorded_function, unrecord
from sejury.execution.evidence import check_on_reference, run_on_candidate
from sejury.execution.runner import assemble_program
from sejury.sandbox.docker import DockerSandbox

# (language, problem, reference, wrong candidate, tests: the second's expectation is wrong)
ABS_SUM = [
    ("python", 'def abs_sum(a: int, b: int) -> int:\n    """Sum of the absolute values."""\n',
     "    return abs(a) + abs(b)\n", "    return a + b\n",
     "assert abs_sum(1, 2) == 3\nassert abs_sum(-1, 2) == 1\nassert abs_sum(0, 0) == 0"),
    ("javascript", "/* Sum of the absolute values. */\nconst absSum = (a, b) => {\n",
     "  return Math.abs(a) + Math.abs(b);\n}\n", "  return a + b;\n}\n",
     "console.assert(absSum(1, 2) === 3);\nconsole.assert(absSum(-1, 2) === 1);\nconsole.assert(absSum(0, 0) === 0);"),
    ("java", "import java.util.*;\nclass Problem {\n    // Sum of the absolute values.\n"
     "    public static long absSum(long a, long b) {\n",
     "        return Math.abs(a) + Math.abs(b);\n    }\n}\n", "        return a + b;\n    }\n}\n",
     'if (absSum(1L, 2L) != 3L) throw new AssertionError("t1");\n'
     'if (Problem.absSum(-1L, 2L) != 1L) throw new AssertionError("t2");\n'
     'if (absSum(0L, 0L) != 0L) throw new AssertionError("t3");'),
    ("cpp", "#include<bits/stdc++.h>\n// Sum of the absolute values.\nlong abs_sum(long a, long b) {\n",
     "    return labs(a) + labs(b);\n}\n", "    return a + b;\n}\n",
     "assert(abs_sum(1, 2) == 3);\nassert(abs_sum(-1, 2) == 1);\nassert(abs_sum(0, 0) == 0);"),
    ("go", "package main\n\n// AbsSum is the sum of the absolute values.\nfunc AbsSum(a, b int) int {\n",
     "    return int(math.Abs(float64(a)) + math.Abs(float64(b)))\n}\n", "    return a + b\n}\n",
     'func TestAbsSum(t *testing.T) {\n\tif AbsSum(1, 2) != 3 { t.Errorf("t1") }\n'
     '\tif AbsSum(-1, 2) != 1 { t.Errorf("t2") }\n\tif AbsSum(0, 0) != 0 { t.Errorf("t3") }\n}'),
]

# containers and floats go through every language's value printer: (language, problem, body, tests)
HALVES = [
    ("python", "def halves(xs: list) -> list:\n", "    return [x / 2 for x in xs]\n",
     "assert halves([3, 4]) == [1.5, 2.0]\nassert halves([]) == [1]"),
    ("javascript", "const halves = (xs) => {\n", "  return xs.map((x) => x / 2);\n}\n",
     "console.assert(JSON.stringify(halves([3, 4])) === '[1.5,2]');\nconsole.assert(halves([]).length === 1);"),
    ("java", "import java.util.*;\nclass Problem {\n    public static ArrayList<Double> halves(ArrayList<Long> xs) {\n",
     "        ArrayList<Double> out = new ArrayList<>();\n        for (long x : xs) out.add(x / 2.0);\n"
     "        return out;\n    }\n}\n",
     'if (!halves(new ArrayList<>(Arrays.asList(3L, 4L))).equals(Arrays.asList(1.5, 2.0))) '
     'throw new AssertionError("t1");\nif (halves(new ArrayList<>()).size() != 1) throw new AssertionError("t2");'),
    ("cpp", "#include<bits/stdc++.h>\nstd::vector<double> halves(std::vector<long> xs) {\n",
     "    std::vector<double> out;\n    for (long x : xs) out.push_back(x / 2.0);\n    return out;\n}\n",
     "assert((halves({3, 4}) == std::vector<double>({1.5, 2.0})));\nassert(halves({}).size() == 1);"),
    ("go", "package main\n\nfunc Halves(xs []int) []float64 {\n",
     "    out := []float64{}\n    for _, x := range xs {\n        out = append(out, float64(x)/2)\n    }\n"
     "    return out\n}\n",
     'func TestHalves(t *testing.T) {\n'
     '\tif got := Halves([]int{3, 4}); len(got) != 2 || got[0] != 1.5 { t.Errorf("t1") }\n'
     '\tif len(Halves([]int{})) != 1 { t.Errorf("t2") }\n}'),
]


# the same checks written through a helper the test text defines, which the units call: the
# function's call is in the setup, recorded under the unit running it (the 1.5B model's most common
# Java form: a main calling a helper once per case)
HELPER_FORM = {
    "python": "def check(a, b):\n    return abs_sum(a, b)\n\nassert check(1, 2) == 3\nassert check(-1, 2) == 1\n"
              "assert check(0, 0) == 0\n",
    "javascript": "function check(a, b) {\n  return absSum(a, b);\n}\nconsole.assert(check(1, 2) === 3);\n"
                  "console.assert(check(-1, 2) === 1);\nconsole.assert(check(0, 0) === 0);\n",
    "java": "public class ProblemTest {\n    public static void main(String[] args) {\n        check(1L, 2L, 3L);\n"
            "        check(-1L, 2L, 1L);\n        check(0L, 0L, 0L);\n    }\n\n"
            "    private static void check(long a, long b, long want) {\n        long got = Problem.absSum(a, b);\n"
            "        if (got != want) throw new AssertionError(\"got \" + got);\n    }\n}\n",
    "cpp": "auto check = [](long a, long b) { return abs_sum(a, b); };\n"
           "assert(check(1, 2) == 3);\nassert(check(-1, 2) == 1);\nassert(check(0, 0) == 0);\n",
    "go": "func TestAbsSum(t *testing.T) {\n\tcheck := func(a, b int) int { return AbsSum(a, b) }\n"
          "\tif check(1, 2) != 3 { t.Errorf(\"t1\") }\n\tif check(-1, 2) != 1 { t.Errorf(\"t2\") }\n"
          "\tif check(0, 0) != 0 { t.Errorf(\"t3\") }\n}\n",
}


# helpers that assert, called once per case at the top level: each call is a test (before, Python
# ran the calls in the setup and read no test; JavaScript counted the function's definition as the
# one test, which passed on every program)
HELPER_CALLS = {
    "python": "def check(a, b, want):\n    assert abs_sum(a, b) == want\n\ncheck(1, 2, 3)\ncheck(-1, 2, 1)\n"
              "check(0, 0, 0)\n",
    "javascript": "function check(a, b, want) {\n  console.assert(absSum(a, b) === want);\n}\ncheck(1, 2, 3);\n"
                  "check(-1, 2, 1);\ncheck(0, 0, 0);\n",
}


# every ABS_SUM check written three ways: inline, through a helper the units call, and (Python,
# JavaScript) as calls of a helper that asserts
FORMS = [
    *(pytest.param(*case, id=f"{case[0]}-inline") for case in ABS_SUM),
    *(pytest.param(*case[:4], HELPER_FORM[case[0]], id=f"{case[0]}-helper") for case in ABS_SUM),
    *(pytest.param(*case[:4], HELPER_CALLS[case[0]], id=f"{case[0]}-helper-calls") for case in ABS_SUM
      if case[0] in HELPER_CALLS),
]


@pytest.mark.docker
@pytest.mark.parametrize(("language", "problem", "reference", "wrong", "tests"), FORMS)
async def test_a_wrong_candidate_passing_every_valid_test_is_caught_by_its_values(
        sandbox: DockerSandbox, language: str, problem: str, reference: str, wrong: str, tests: str) -> None:
    function = recorded_function(problem)
    assert function is not None
    ex, valid, probe = await check_on_reference(sandbox, language, assemble_program(language, problem, reference),
                                                tests, record=function)
    assert ex.status == "ran" and ex.valid == 2 and ex.invalid_on_reference == 1, ex
    assert probe is not None and probe.values == {0: ["3|1"], 1: ["3|1"], 2: ["0|1"]}, probe
    assert "sejury_rec" not in ex.valid_tests and "sejury_rec" not in str(ex.reference)  # shown as written
    bad = await run_on_candidate(sandbox, ex, valid, assemble_program(language, problem, wrong), probe=probe)
    assert bad.pass_ratio == 1.0  # S5-exec: every valid test passes on the wrong candidate
    assert bad.differential is not None
    assert (bad.differential.inputs, bad.differential.agreed, bad.differential.from_invalid) == (3, 2, 1)
    (m,) = bad.differential.mismatches
    assert m.reference == "3|1" and m.candidate == "1|1" and "sejury_rec" not in m.test
    good = await run_on_candidate(sandbox, ex, valid, assemble_program(language, problem, reference), probe=probe)
    assert good.pass_ratio == 1.0 and good.differential is not None and good.differential.ratio == 1.0


@pytest.mark.docker
@pytest.mark.parametrize(("language", "problem", "body", "tests"), HALVES, ids=[c[0] for c in HALVES])
async def test_containers_and_floats_are_recorded_alike(sandbox: DockerSandbox, language: str, problem: str,
                                                        body: str, tests: str) -> None:
    program = assemble_program(language, problem, body)
    ex, valid, probe = await check_on_reference(sandbox, language, program, tests, record=recorded_function(problem))
    assert ex.valid == 1 and probe is not None, ex  # the second test's expectation is wrong
    assert "1.5" in probe.values[0][0] and len(probe.values) == 2, probe.values
    done = await run_on_candidate(sandbox, ex, valid, program, probe=probe)
    assert done.differential is not None and (done.differential.inputs, done.differential.agreed) == (2, 2)


@pytest.mark.parametrize(("setup", "wrapped"), [
    ("static ArrayList<Integer> f(ArrayList<Integer> l) { return l; }\nvoid t() { long r = Problem.f(x); }",
     "static ArrayList<Integer> f(ArrayList<Integer> l) { return l; }\n"
     "void t() { long r = sejury_rec(-1, 0, Problem.f(x)); }"),
    ("def f(x):\n    return 1\ndef t(x):\n    return f(x) if not f(x) else 0",
     "def f(x):\n    return 1\ndef t(x):\n    return sejury_rec(-1, 0, f(x)) if not sejury_rec(-1, 1, f(x)) else 0"),
    ("vector<int>& f(int y);\nint *f(int z);\nauto g = [](int x) -> int { return a && f(x); };",
     "vector<int>& f(int y);\nint *f(int z);\nauto g = [](int x) -> int { return a && sejury_rec(-1, 0, f(x)); };"),
    ("function f(a) {}\nconst g = (a) => f(a);", "function f(a) {}\nconst g = (a) => sejury_rec(-1, 0, f(a));"),
    ("func f(a int) int { return 0 }\nfor _, v := range f(3) {}",
     "func f(a int) int { return 0 }\nfor _, v := range sejury_rec(-1, 0, f(3)) {}"),
])
def test_a_helper_text_keeps_its_declarations_and_records_its_calls(setup: str, wrapped: str) -> None:
    assert record_calls(setup, HELPER, "f", helpers=True) == wrapped
    assert unrecord(wrapped) == setup


def test_calls_are_wrapped_outermost_only_strings_skipped_and_shown_as_written() -> None:
    unit = 'if (!(Problem.f(f(1), ")").equals(new Solution().f(2)))) throw new AssertionError("f(3)");'
    wrapped = record_calls(unit, 4, "f")
    assert wrapped == ('if (!(sejury_rec(4, 0, Problem.f(f(1), ")")).equals(sejury_rec(4, 1, new Solution().f(2)))))'
                       ' throw new AssertionError("f(3)");')
    assert unrecord(wrapped) == unit
    assert record_calls("assert g(1) == 2 and xf(1)", 0, "f") == "assert g(1) == 2 and xf(1)"


@pytest.mark.parametrize(("problem", "expected"), [
    ('def add(a, b):\n    """Add."""\n', "add"),
    ("func Add(a, b int) int {\n", "Add"),
    ("func Div(a, b int) (int, error) {\n", None),  # two values: nothing to compare as one
    ("class Problem {\n    public static void sortInPlace(int[] a) {\n", None),  # no value
    ("std::vector<long> f(long a) {\n", "f"),
    ("const f = (a) => {\n", "f"),
    ("How do I sort a list of tuples by their second item?", None),
])
def test_the_recorded_function_returns_one_value(problem: str, expected: str | None) -> None:
    assert recorded_function(problem) == expected


@pytest.mark.docker
@pytest.mark.parametrize("language", ["python", "java"])
async def test_every_expectation_wrong_still_gives_s5_diff_its_inputs(sandbox: DockerSandbox, language: str) -> None:
    """When the model got every expected value wrong, no test is valid (S5-exec is unscored), but
    the calls are still inputs: the candidate runs them and S5-diff compares its values."""
    from sejury.execution.evidence import worth_running

    _, problem, reference, wrong, _ = next(c for c in ABS_SUM if c[0] == language)
    tests = {"python": "assert abs_sum(1, 2) == 4\nassert abs_sum(-1, 2) == 1",
             "java": 'if (absSum(1L, 2L) != 4L) throw new AssertionError("t1");\n'
                     'if (absSum(-1L, 2L) != 1L) throw new AssertionError("t2");'}[language]
    function = recorded_function(problem)
    assert function is not None
    ex, valid, probe = await check_on_reference(sandbox, language, assemble_program(language, problem, reference),
                                                tests, record=function)
    assert ex.status == "skipped" and ex.valid == 0 and probe is not None and worth_running(ex, probe)
    bad = await run_on_candidate(sandbox, ex, valid, assemble_program(language, problem, wrong), probe=probe)
    assert bad.status == "skipped" and bad.pass_ratio is None  # S5-exec: nothing valid to count
    assert bad.differential is not None and (bad.differential.inputs, bad.differential.agreed) == (2, 1)


# the wrong candidate of ABS_SUM, made to raise (or panic) on a negative first argument
RAISES = {"python": "    if a < 0:\n        raise ValueError(a)\n    return a + b\n",
          "javascript": "  if (a < 0) throw new Error('negative');\n  return a + b;\n}\n",
          "java": "        if (a < 0) throw new IllegalArgumentException();\n        return a + b;\n    }\n}\n",
          "cpp": "    if (a < 0) throw std::runtime_error(\"negative\");\n    return a + b;\n}\n",
          "go": "    if a < 0 {\n        panic(\"negative\")\n    }\n    return a + b\n}\n"}


@pytest.mark.docker
@pytest.mark.parametrize(("language", "problem", "reference", "wrong", "tests"), ABS_SUM, ids=[c[0] for c in ABS_SUM])
async def test_executability_counts_the_inputs_a_candidate_returns_on(
        sandbox: DockerSandbox, language: str, problem: str, reference: str, wrong: str, tests: str) -> None:
    """The candidate raises on one of the three inputs: its calls return on two (S5-runs), and the
    other calls still run (one test's failure does not stop the rest)."""
    function = recorded_function(problem)
    assert function is not None
    ex, valid, probe = await check_on_reference(sandbox, language, assemble_program(language, problem, reference),
                                                tests, record=function)
    raising = await run_on_candidate(sandbox, ex, valid, assemble_program(language, problem, RAISES[language]),
                                     probe=probe)
    assert raising.executable is True and raising.differential is not None
    assert (raising.differential.inputs, raising.differential.returned) == (3, 2), raising.differential
    wrong_values = await run_on_candidate(sandbox, ex, valid, assemble_program(language, problem, wrong), probe=probe)
    assert wrong_values.differential is not None and wrong_values.differential.returned == 3  # wrong, but it runs


def test_an_input_the_reference_answers_undefined_is_not_counted() -> None:
    """JavaScript's undefined from the reference (a lookup past a table, a case the problem leaves
    out) means the problem defines no answer there: the candidate is not held to it.  A string
    "undefined" is an answer like any other."""
    from sejury.execution.differential import compare

    units = ["f(-1)", "f(['oo'])", "f(2)", "f('u')"]
    reference = {0: ["undefined|9"], 1: ["[4, undefined]|14"], 2: ["3|1"], 3: ['"undefined"|11']}
    candidate = {0: ["2|1"], 1: ["[4]|3"], 2: ["3|1"], 3: ['"defined"|9']}
    run = compare("f", units, reference, candidate, valid={0, 1, 2, 3}, reasons={})
    assert (run.inputs, run.agreed) == (2, 1) and run.ratio == 0.5
    assert [m.test for m in run.mismatches] == ["f('u')"]


def test_a_call_that_raised_counts_by_its_name_only_where_the_problem_states_it() -> None:
    """Python's harness records a call that raised as ``!raises <name>``.  Where the problem says
    what its function raises, the name is part of the answer; elsewhere only that it raised (the
    reference's choice of exception on an input the problem says nothing of is no duty), and a
    test where the reference gave no value at all is not counted."""
    from sejury.execution.differential import compare, states_raises

    assert states_raises("The function should raise the exception for: ValueError: if n < 0.")
    assert states_raises("Throws an IllegalArgumentException when empty")
    assert not states_raises("Return the sum of the list.")
    units = ["f([])", "f([1])", "g = f([2])\nf(g)"]
    reference = {0: ["!raises ValueError|0"], 1: ["1|1"], 2: ["2|1", "!raises ValueError|0"]}
    candidate = {0: ["!raises IndexError|0"], 1: ["1|1"], 2: ["2|1", "!raises KeyError|0"]}
    untyped = compare("f", units, reference, candidate, valid=set(), reasons={})
    assert (untyped.inputs, untyped.agreed, untyped.returned) == (2, 2, 2)  # test 0 has no value: not counted
    typed = compare("f", units, reference, candidate, valid=set(), reasons={}, typed_raises=True)
    assert (typed.inputs, typed.agreed) == (3, 1)
    assert typed.mismatches[0].shown() == ("!raises ValueError", "!raises IndexError")
    returning = compare("f", units, reference, {0: ["0|1"], 1: ["1|1"], 2: ["2|1", "3|1"]}, valid=set(),
                        reasons={}, typed_raises=True)
    assert (returning.agreed, returning.returned) == (1, 3)  # returning where the problem says raise is wrong
    hangs = compare("f", units, reference, {1: ["1|1"], 2: ["2|1", "!timeout|0"]}, valid=set(), reasons={})
    assert (hangs.agreed, hangs.returned) == (1, 1)  # a hang is not a raise
    untyped_raise_only = compare("f", units, reference, candidate, valid={0}, reasons={})
    assert untyped_raise_only.valid_only_error_paths  # the one valid test only raised, typed or not
    no_call = compare("f", [*units, "open('a', 'w')"], reference, candidate, valid={3}, reasons={})
    assert no_call.valid_without_calls and not typed.valid_without_calls  # a valid test calling nothing


def test_a_python_test_function_splits_into_one_unit_per_check() -> None:
    """One test function holding every check (small models write that) is split: each check with
    the steps before it, so one wrong expectation fails its own check only; ``with
    pytest.raises`` and ``assert...`` calls are checks too, at the top level as well."""
    from sejury.execution.runner import split_tests

    suite = split_tests("python", "import pytest\ndef test_all():\n    ax = f(10)\n    assert ax.n == 1\n"
                                  "    ax = f(20)\n    assert ax.n == 2\n    with pytest.raises(ValueError):\n"
                                  "        f(-1)\ntest_all()\nnp.testing.assert_array_equal(f(2), [1])\n",
                        reference="import numpy as np\nfrom math import pi\ndef f(n): ...\n")
    assert suite.units == ["ax = f(10)\nassert ax.n == 1", "ax = f(10)\nax = f(20)\nassert ax.n == 2",
                           "ax = f(10)\nax = f(20)\nwith pytest.raises(ValueError):\n    f(-1)",
                           "np.testing.assert_array_equal(f(2), [1])"]
    assert "    import numpy as np\n" in suite.setup and "    from math import pi\n" in suite.setup  # guarded


RAISING_PROBLEM = ('def safe_div(a: int, b: int) -> float:\n    """a / b.  The function should raise the '
                   'exception for: ValueError: if b is 0."""\n')


@pytest.mark.docker
async def test_the_sealed_python_harness_records_what_a_call_raised(sandbox: DockerSandbox) -> None:
    """The reference raises ValueError where the problem says so; a candidate raising
    ZeroDivisionError there agrees on every value it returns and is still caught."""
    from sejury.execution.differential import states_raises

    reference = RAISING_PROBLEM + "    if b == 0:\n        raise ValueError('b is 0')\n    return a / b\n"
    wrong = RAISING_PROBLEM + "    return a / b\n"
    tests = "assert safe_div(1, 2) == 0.5\nassert safe_div(1, 0) == 0\nassert safe_div(4, 2) == 2.0\n"
    ex, valid, probe = await check_on_reference(sandbox, "python", reference, tests, record="safe_div",
                                                typed_raises=states_raises(RAISING_PROBLEM))
    assert probe is not None and probe.values[1] == ["!raises ValueError|0"], probe.values
    right = await run_on_candidate(sandbox, ex, valid, reference, probe=probe)
    caught = await run_on_candidate(sandbox, ex, valid, wrong, probe=probe)
    assert right.pass_ratio == 1.0 and caught.pass_ratio == 1.0  # the valid tests do not see it
    assert right.differential is not None and right.differential.ratio == 1.0
    assert caught.differential is not None and (caught.differential.inputs, caught.differential.agreed) == (3, 2)
    assert caught.differential.mismatches[0].shown()[1] == "!raises ZeroDivisionError"


@pytest.mark.docker
async def test_passing_only_the_stated_exceptions_is_no_evidence_of_correctness(sandbox: DockerSandbox) -> None:
    """A suite whose only valid tests check the exceptions the problem states (``with
    pytest.raises``, as the 1.5B model writes for library-heavy code) says nothing about what the
    function returns: a candidate that raises there and computes the wrong thing elsewhere leaves
    S5-exec, S5-diff and S5-runs unscored, naming why (it scored 100 on all three).  One that does
    not raise the stated exception keeps its low score: failing there is evidence against it."""
    from sejury import Sample
    from sejury.execution.differential import ONLY_ERROR_PATHS, states_raises
    from sejury.schema import Status, Strategy, StrategyResult
    from sejury.strategies import executability, test_diff, test_pass

    reference = RAISING_PROBLEM + "    if b == 0:\n        raise ValueError('b is 0')\n    return a / b\n"
    computes_wrong = RAISING_PROBLEM + "    if b == 0:\n        raise ValueError('b is 0')\n    return a * b\n"
    never_raises = RAISING_PROBLEM + "    return a / b if b else 0.0\n"
    tests = "import pytest\nwith pytest.raises(ValueError):\n    safe_div(1, 0)\nwith pytest.raises(ValueError):\n" \
            "    safe_div(0, 0)\n"
    ex, valid, probe = await check_on_reference(sandbox, "python", reference, tests, record="safe_div",
                                                typed_raises=states_raises(RAISING_PROBLEM))
    assert ex.valid == 2
    sample = Sample(id="d", task="code_generation", language="python", problem=RAISING_PROBLEM, candidate="")
    jurors = {"S5-exec": test_pass, "S5-diff": test_diff, "S5-runs": executability}
    for candidate, unscored in ((computes_wrong, set(jurors)), (never_raises, {"S5-runs"})):
        done = await run_on_candidate(sandbox, ex, valid, candidate, probe=probe)
        feed = StrategyResult(strategy=Strategy("generate_tests"), status=Status.SCORED,
                              artifacts={"execution": done.model_dump()})
        for name, juror in jurors.items():
            got = await juror.run(sample, None, None, feed)  # neither reads ctx nor rec
            if name in unscored:
                assert got.parsed is None and got.detail == ONLY_ERROR_PATHS.format(function="safe_div"), (name, got)
            else:  # it returned where the problem says raise: evidence against it
                assert got.parsed is not None and got.parsed.score == 0, (name, got)


MIDPOINT = ("#include<bits/stdc++.h>\n// The midpoint of a and b, rounded toward a.\nint midpoint(int a, int b) {\n",
            "    return a + (b - a) / 2;\n}\n", "    return (a + b) / 2;\n}\n")


@pytest.mark.docker
async def test_a_cpp_call_whose_signed_arithmetic_overflows_fails_on_either_side(sandbox: DockerSandbox) -> None:
    """Signed overflow is undefined in C++: the program's process is built to stop there.  A
    reference that overflows on an input gives no expected value for it (the test is invalid, the
    input not counted); a candidate that overflows where the reference does not fails that call,
    and the reason says why."""
    problem, safe, naive = MIDPOINT
    tests = ("assert(midpoint(2, 8) == 5);\nassert(midpoint(2000000000, 2000000010) == 2000000005);\n"
             "assert(midpoint(-4, 4) == 0);")
    ex, valid, probe = await check_on_reference(sandbox, "cpp", assemble_program("cpp", problem, safe), tests,
                                                record="midpoint")
    assert ex.status == "ran" and ex.valid == 3 and probe is not None, ex
    done = await run_on_candidate(sandbox, ex, valid, assemble_program("cpp", problem, naive), probe=probe)
    assert done.differential is not None and (done.differential.inputs, done.differential.agreed) == (3, 2)
    assert done.pass_ratio is not None and round(done.pass_ratio, 2) == 0.67
    assert "overflowed" in str(done.model_dump()), done
    # the naive midpoint as the reference: its overflow is no answer, so the wide one is not held to it
    ex, valid, probe = await check_on_reference(sandbox, "cpp", assemble_program("cpp", problem, naive), tests,
                                                record="midpoint")
    assert ex.valid == 2 and ex.invalid_on_reference == 1 and "overflowed" in str(ex.model_dump()), ex
    done = await run_on_candidate(sandbox, ex, valid, assemble_program("cpp", problem, safe), probe=probe)
    assert done.differential is not None and (done.differential.inputs, done.differential.agreed) == (2, 2)
    assert done.pass_ratio == 1.0


def test_a_test_on_which_the_reference_reached_for_the_network_is_no_input() -> None:
    """The sandbox has no network: what a call that reached for it answered (an error string it
    caught, an exception) is the sandbox's doing.  A test on which the reference did is no input,
    whatever the problem states; the juror's reason says so."""
    from sejury.execution.differential import NETWORK, compare

    units = ["f('http://a')", "f('x')", "f('file:b')"]
    reference = {0: [NETWORK + "|0"], 1: ["!raises ValueError|0"], 2: ["'b'|3"]}
    candidate = {0: ["'URL Error: no name'|20"], 1: ["!raises ValueError|0"], 2: ["'b'|3"]}
    run = compare("f", units, reference, candidate, valid=set(), reasons={}, typed_raises=True)
    assert (run.inputs, run.agreed, run.network) == (2, 2, 1)
    alone = compare("f", units[:2], reference, candidate, valid={1}, reasons={}, typed_raises=True)
    assert alone.only_error_paths() and alone.network == 1
    none = compare("f", units[:1], reference, candidate, valid=set(), reasons={}, typed_raises=True)
    assert none.ratio is None and "reached for the network" in none.no_inputs("no call of f returned")
    assert compare("f", units[1:], {0: reference[1]}, {0: candidate[1]}, set(), {}).no_inputs("x") == "x"


FETCH = ('import urllib.request\nimport urllib.error\n\n\ndef fetch(url: str) -> str:\n    """The text at url '
         '("file:<name>": the name, upper-cased), or "URL Error: <reason>" when it cannot be read."""\n')
FETCH_REF = FETCH + ("    if url.startswith('file:'):\n        return url[5:].upper()\n    try:\n"
                     "        return urllib.request.urlopen(url, timeout=3).read().decode()\n"
                     "    except urllib.error.URLError as e:\n        return f'URL Error: {e.reason}'\n")


@pytest.mark.docker
async def test_a_call_that_reaches_for_the_network_gives_no_value_and_no_valid_test(sandbox: DockerSandbox) -> None:
    """A test the reference passes only because the sandbox has no network (it returns its caught
    error) is not valid, and its call gives S5-diff no input: a candidate answering the same error
    is not thereby right.  A test that stays off the network counts as before."""
    tests = "assert fetch('http://example.com').startswith('URL Error')\nassert fetch('file:a') == 'A'\n"
    ex, valid, probe = await check_on_reference(sandbox, "python", FETCH_REF, tests, record="fetch")
    assert ex.valid == 1 and valid.units[0].endswith("'A'"), (ex, valid)
    assert probe is not None and probe.values[0] == ["!network|0"] and probe.values[1] == ["'A'|3"], probe.values
    assert ex.reference is not None and "NetworkUnavailable" in ex.reference.failures[0]["why"]
    done = await run_on_candidate(sandbox, ex, valid, FETCH_REF, probe=probe)
    diff = done.differential
    assert diff is not None and (diff.inputs, diff.agreed, diff.network) == (1, 1, 1), diff


SETTINGS = ('import argparse\n\n\ndef settings(debug: bool) -> argparse.Namespace:\n    """The run\'s settings: '
            'debug as given, and the log level: 10 when debugging, else 20."""\n')
SETTINGS_REF = SETTINGS + "    return argparse.Namespace(debug=debug, level=10 if debug else 20)\n"
SETTINGS_WRONG = SETTINGS + "    return argparse.Namespace(debug=debug, level=20)\n"
LONG = 'def zeros_then(n: int) -> list:\n    """n zeros, then n."""\n'


@pytest.mark.docker
async def test_a_library_object_is_asked_by_the_tests_and_shown_by_its_state(sandbox: DockerSandbox) -> None:
    """An object of a library's class (here the standard library's ``argparse.Namespace``; a Flask
    app, a fitted model) lives in the program's process: the tests read its attributes there, and
    the differential record shows its class and public state as plain data the program's process
    sends (the checker compares those pictures; it never asks the object).  Two objects of the same
    class with different states no longer look alike."""
    tests = "s = settings(True)\nassert s.debug is True\nassert settings(False).level == 20\n"
    ex, valid, probe = await check_on_reference(sandbox, "python", SETTINGS_REF, tests, record="settings")
    assert ex.valid == 2, ex  # an attribute of the object is read in the program's process
    assert probe is not None and "'level': 10" in probe.values[0][0] and "argparse:Namespace" in probe.values[0][0]
    right = await run_on_candidate(sandbox, ex, valid, SETTINGS_REF, probe=probe)
    wrong = await run_on_candidate(sandbox, ex, valid, SETTINGS_WRONG, probe=probe)
    assert right.pass_ratio == 1.0 and wrong.pass_ratio == 1.0  # the valid tests do not see it
    assert right.differential is not None and right.differential.ratio == 1.0
    assert wrong.differential is not None and (wrong.differential.inputs, wrong.differential.agreed) == (2, 1)


@pytest.mark.docker
async def test_a_long_value_is_compared_whole(sandbox: DockerSandbox) -> None:
    """The record shows a long value's head and a digest of the whole: two values that differ only
    past the head (a long list, a large frame) do not agree."""
    reference, wrong = LONG + "    return [0] * n + [n]\n", LONG + "    return [0] * n + [n + 1 if n > 500 else n]\n"
    tests = "assert len(zeros_then(600)) == 601\nassert zeros_then(2) == [0, 0, 2]\n"
    ex, valid, probe = await check_on_reference(sandbox, "python", reference, tests, record="zeros_then")
    assert probe is not None and " ...#" in probe.values[0][0] and probe.values[0][0].endswith("|1805")
    right = await run_on_candidate(sandbox, ex, valid, reference, probe=probe)
    caught = await run_on_candidate(sandbox, ex, valid, wrong, probe=probe)
    assert right.differential is not None and right.differential.ratio == 1.0
    assert caught.pass_ratio == 1.0 and caught.differential is not None
    assert (caught.differential.inputs, caught.differential.agreed) == (2, 1)


@pytest.mark.docker
async def test_a_cpp_function_named_like_a_standard_one_is_called_not_the_standard_one(sandbox: DockerSandbox) -> None:
    """HumanEval's C++ ``unique`` shares its name with ``std::unique``, which ``using namespace
    std;`` brings in: the program's process must call the program's function (by its own signature), or
    no test compiles on the reference and every execution juror is unscored."""
    problem = ("#include<bits/stdc++.h>\n// Return sorted unique elements in a list\n"
               "std::vector<long> unique(std::vector<long> l) {\n")
    reference = ("    sort(l.begin(), l.end());\n    l.erase(std::unique(l.begin(), l.end()), l.end());\n"
                 "    return l;\n}\n")
    wrong = "    sort(l.begin(), l.end());\n    return l;\n}\n"  # sorted, not de-duplicated
    tests = ("assert(unique({5, 3, 5, 2}) == std::vector<long>({2, 3, 5}));\n"
             "assert(unique({1, 2}) == std::vector<long>({1, 2}));")
    ex, valid, probe = await check_on_reference(sandbox, "cpp", assemble_program("cpp", problem, reference), tests,
                                                record="unique")
    assert ex.status == "ran" and ex.valid == 2, ex
    done = await run_on_candidate(sandbox, ex, valid, assemble_program("cpp", problem, wrong), probe=probe)
    assert done.pass_ratio == 0.5 and done.differential is not None and done.differential.agreed == 1, done
    # a name the C library already declares in the global namespace (``strlen(const char*)``): the
    # program's process builds (``&::strlen`` alone is ambiguous), and the tests' ``strlen("abc")``,
    # where C++ would pick C's ``strlen`` (an exact match), reaches the program: a wrong one fails
    problem = ("#include<bits/stdc++.h>\nusing namespace std;\n// Return length of given string\n"
               "int strlen(string str) {\n")
    program = assemble_program("cpp", problem, "    return str.length();\n}\n")
    ex, valid, probe = await check_on_reference(sandbox, "cpp", program, 'assert(strlen("abc") == 3);\n'
                                                'assert(strlen("") == 0);', record="strlen")
    assert ex.status == "ran" and ex.valid == 2, ex
    done = await run_on_candidate(sandbox, ex, valid, assemble_program("cpp", problem, "    return 3;\n}\n"),
                                  probe=probe)
    assert done.pass_ratio == 0.5 and done.differential is not None and done.differential.agreed == 1, done


JAVA_MAX = ("import java.util.*;\nclass Problem {\n    // Return maximum element in the list.\n"
            "    // >>> max_element([1, 2, 3])\n    // 3\n    public static int maxElement(ArrayList<Integer> l) {\n")
# the model's commonest Java form: a main calling a helper once per case; the first case raises on
# the reference (no value, no pass), so the candidate's run leaves it out and the others move up
JAVA_HELPER_TESTS = """public class Main {
    static void testMaxElement(ArrayList<Integer> l, int expected) {
        assert Problem.maxElement(l) == expected;
    }
    public static void main(String[] args) {
        testMaxElement(new ArrayList<>(), 0);
        testMaxElement(new ArrayList<>(Arrays.asList(1, 2, 3)), 3);
        testMaxElement(new ArrayList<>(Arrays.asList(5, 3, -5, 2, 123, 1)), 123);
        testMaxElement(new ArrayList<>(Arrays.asList(-1, -2)), -1);
    }
}
"""


@pytest.mark.docker
async def test_a_helpers_calls_keep_their_tests_when_the_candidate_runs_only_some(sandbox: DockerSandbox) -> None:
    """The harness records a helper's call under the unit running: on the candidate, which runs only
    the tests that validated or gave a value, that was the unit's position in the shorter run, and
    every value after a left-out test was compared with the next test's (HumanEval-X's Java
    ``maxElement``: a right candidate at S5-diff 0)."""
    reference = "        return Collections.max(l);\n    }\n}\n"
    right = ("        int max = Integer.MIN_VALUE;\n        for (int x : l) max = Math.max(max, x);\n"
             "        return max;\n    }\n}\n")
    ex, valid, probe = await check_on_reference(sandbox, "java", assemble_program("java", JAVA_MAX, reference),
                                                JAVA_HELPER_TESTS, record="maxElement")
    assert probe is not None and sorted(probe.values) == [1, 2, 3] and ex.valid == 3, (probe, ex)
    done = await run_on_candidate(sandbox, ex, valid, assemble_program("java", JAVA_MAX, right), probe=probe)
    assert done.pass_ratio == 1.0 and done.differential is not None, done
    assert (done.differential.inputs, done.differential.agreed) == (3, 3), done.differential.mismatches
