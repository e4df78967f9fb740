"""The problem's domain as its examples show it: S5's tests that call the function outside it
(a count of -1, a triangle with sides of length 0) are left out before they run, so a correct
candidate that answers there differently from the reference is not rejected for it, and a wrong
one is still caught inside the domain."""

from __future__ import annotations

from typing import Any

import pytest

from sejury.execution.differential import recorded_function
from sejury.execution.domain import Domain, within
from sejury.execution.evidence import check_on_reference, run_on_candidate
from sejury.execution.runner import assemble_program
from sejury.sandbox.docker import DockerSandbox

PY_TRIANGLE = ('def right_angle_triangle(a, b, c):\n    """True when the sides make a right-angled triangle.\n'
               '    right_angle_triangle(3, 4, 5) == True\n    right_angle_triangle(1, 2, 3) == False\n    """\n')


@pytest.mark.parametrize(("value", "seen", "negatives", "inside"), [
    (0, [3, 1], False, False),  # every example positive: zero is outside
    (-1, [3, 1], False, False),
    (2, [3, 1], False, True),
    (0, [0, 5], False, True),  # an example shows zero: zero is inside, negatives are not
    (-1, [0, 5], False, False),
    (-1, [0, 5], True, True),  # another place shows a negative: the problem takes negatives
    (-1, [], False, True),  # nothing shown at the place: not judged
    ([-1, -2], [[1, 2]], False, True),  # numbers inside a list are left to the tests
    ("", ["abc"], False, True),  # so are strings and emptiness
    (True, [3], False, True),
    (0.0, [1.5], False, False),
])
def test_a_number_is_inside_when_its_sign_is_one_the_examples_show(value: object, seen: list[object],
                                                                   negatives: bool, inside: bool) -> None:
    assert within(value, seen, negatives) is inside


@pytest.mark.parametrize(("language", "problem", "function", "inside", "outside"), [
    ("python", PY_TRIANGLE, "right_angle_triangle", "assert right_angle_triangle(6, 8, 10) == True",
     "assert right_angle_triangle(0, 0, 0) == False"),
    ("javascript", "/* >>> fib4(5)\n4\n>>> fib4(6)\n8 */\nconst fib4 = (n) => {\n", "fib4",
     "console.assert(fib4(7) === 14);", "console.assert(fib4(-1) === 0);"),
    ("java", "class Solution {\n    /** stringSequence(0) gives \"0\"; stringSequence(5) gives \"0 1 2 3 4 5\" */\n"
     "    public String stringSequence(int n) {\n", "stringSequence",
     'if (!s.stringSequence(3).equals("0 1 2 3")) throw new AssertionError();',
     'if (!s.stringSequence(-1).equals("")) throw new AssertionError();'),
    ("cpp", "/* x_or_y(7, 34, 12) == 34; x_or_y(15, 8, 5) == 5 */\nint x_or_y(int n, int x, int y){\n", "x_or_y",
     "assert (x_or_y(3, 33, 5212) == 33);", "assert (x_or_y(-5, 10, 20) == 20);"),
])
def test_tests_outside_the_examples_domain_are_named_in_every_language(language: str, problem: str, function: str,
                                                                        inside: str, outside: str) -> None:
    domain = Domain.of(problem, function, language)
    assert domain is not None
    assert domain.outside(inside) is None
    assert domain.outside(outside) is not None and function in str(domain.outside(outside))
    assert domain.split([inside, "x = helper()", outside]) == ([inside, "x = helper()"], [domain.outside(outside)])


def test_a_negative_shown_anywhere_opens_negatives_everywhere_and_no_example_keeps_every_test() -> None:
    multiply = ('def multiply(a, b):\n    """multiply(148, 412) should return 16.\n'
                '    multiply(14,-15) should return 20."""\n')
    domain = Domain.of(multiply, "multiply", "python")
    assert domain is not None and domain.outside("assert multiply(-14, 15) == 20") is None
    assert Domain.of('def f(n):\n    """Some function."""\n', "f", "python") is None


# a reference that answers outside the domain and a correct candidate that raises there (as one of
# HumanEval's right_angle_triangle candidates did on the model's (0, 0, 0)), and a wrong candidate
# that is wrong inside the domain too
TRIANGLE = {
    "reference": "    a, b, c = sorted((a, b, c))\n    return a * a + b * b == c * c\n",
    "correct": "    if min(a, b, c) <= 0:\n        raise ValueError('sides must be positive')\n"
               "    a, b, c = sorted((a, b, c))\n    return a * a + b * b == c * c\n",
    "wrong": "    return a * a + b * b == c * c\n",
}
TRIANGLE_TESTS = ("assert right_angle_triangle(3, 4, 5) == True\nassert right_angle_triangle(5, 3, 4) == True\n"
                  "assert right_angle_triangle(0, 0, 0) == True\nassert right_angle_triangle(1, 2, 3) == False\n")


@pytest.mark.docker
async def test_a_correct_candidate_is_not_rejected_on_a_test_outside_the_domain(sandbox: DockerSandbox) -> None:
    """Without the domain the correct candidate fails the model's (0, 0, 0) test, on which the
    reference raises; with it the test is left out (and said so), the correct candidate passes
    every test, and the wrong one is still caught by an input inside the domain."""
    function = recorded_function(PY_TRIANGLE)
    program = {k: assemble_program("python", PY_TRIANGLE, v) for k, v in TRIANGLE.items()}
    before, valid0, probe0 = await check_on_reference(sandbox, "python", program["reference"], TRIANGLE_TESTS,
                                                      record=function)
    correct0 = await run_on_candidate(sandbox, before, valid0, program["correct"], probe=probe0)
    assert before.valid == 4 and correct0.pass_ratio == 0.75, correct0  # rejected for (0, 0, 0) alone
    assert correct0.differential is not None and correct0.differential.ratio == 0.75

    domain = Domain.of(PY_TRIANGLE, function, "python")
    ex, valid, probe = await check_on_reference(sandbox, "python", program["reference"], TRIANGLE_TESTS,
                                                record=function, domain=domain)
    assert (ex.generated, ex.out_of_domain, ex.valid, ex.invalid_on_reference) == (4, 1, 3, 0), ex
    assert ex.outside_domain == ["right_angle_triangle(0, 0, 0)"]
    right = await run_on_candidate(sandbox, ex, valid, program["correct"], probe=probe)
    assert right.pass_ratio == 1.0 and right.differential is not None and right.differential.ratio == 1.0
    wrong = await run_on_candidate(sandbox, ex, valid, program["wrong"], probe=probe)
    assert wrong.pass_ratio is not None and wrong.pass_ratio < 1
    assert wrong.differential is not None and wrong.differential.ratio is not None and wrong.differential.ratio < 1


@pytest.mark.docker
async def test_every_test_outside_the_domain_leaves_the_suite_unrun_saying_why(sandbox: DockerSandbox) -> None:
    program = assemble_program("python", PY_TRIANGLE, TRIANGLE["reference"])
    ex, valid, probe = await check_on_reference(
        sandbox, "python", program, "assert right_angle_triangle(0, 0, 0) == True\n",
        record="right_angle_triangle", domain=Domain.of(PY_TRIANGLE, "right_angle_triangle", "python"))
    assert ex.status == "skipped" and probe is None and not valid.units
    assert "outside the domain the problem's examples show" in ex.reason and "(0, 0, 0)" in ex.reason


@pytest.mark.parametrize(("problem", "unit", "edge"), [
    ("// >>> max_element([1, 2, 3])\n// 3\nlong max_element(std::vector<long> l) {\n",
     "assert (max_element({}) == -10000);", "max_element([])"),
    ("// >>> max_element([1, 2, 3])\n// 3\nlong max_element(std::vector<long> l) {\n",
     "assert (max_element({5}) == 5);", None),  # not empty
    ("// Return 0 for an empty list.\n// >>> max_element([1, 2, 3])\n// 3\nlong max_element(std::vector<long> l) {\n",
     "assert (max_element({}) == 0);", None),  # the problem says what an empty list gives
    ("// >>> strlen('')\n// 0\n// >>> strlen('abc')\n// 3\nlong strlen(std::string s) {\n",
     'assert (strlen("") == 0);', None),  # an example shows it
])
def test_an_empty_input_the_problem_neither_shows_nor_states_is_an_edge(problem: str, unit: str,
                                                                         edge: str | None) -> None:
    function = recorded_function(problem)
    assert function is not None
    domain = Domain.of(problem, function, "cpp")
    assert domain is not None and domain.outside(unit) is None  # it still runs
    assert domain.edge(unit) == edge


CPP_UNIQUE = ("#include<assert.h>\n#include<bits/stdc++.h>\n// Return sorted unique elements in a list\n"
              "// >>> unique([5, 3, 5, 2, 3, 3, 9, 0, 123])\n// [0, 2, 3, 5, 9, 123]\n"
              "std::vector<long> unique(std::vector<long> l) {\n")
CPP_UNIQUE_REF = ("    std::sort(l.begin(), l.end());\n    l.erase(std::unique(l.begin(), l.end()), l.end());\n"
                  "    return l;\n}\n")
# right by the benchmark's tests, which never pass an empty list; it states that precondition itself
CPP_UNIQUE_ASSERTS = "    assert(l.size() > 0);\n" + CPP_UNIQUE_REF
CPP_UNIQUE_WRONG = "    std::sort(l.begin(), l.end());\n    return l;\n}\n"  # keeps duplicates
CPP_UNIQUE_TESTS = ("```cpp\nint main() {\n    assert(unique({5, 3, 5, 2}) == std::vector<long>({2, 3, 5}));\n"
                    "    assert(unique({}) == std::vector<long>({}));\n"
                    "    assert(unique({7, 7}) == std::vector<long>({7}));\n}\n```")


@pytest.mark.docker
async def test_a_candidate_rejected_only_on_an_empty_input_the_problem_does_not_show_needs_review(
        sandbox: DockerSandbox) -> None:
    """HumanEval-X's C++ ``unique``: a candidate that asserts a non-empty list fails only the model's
    ``unique({})``, an input the problem neither shows nor states.  It is still rejected (the
    benchmark tests ``rolling_max([])`` and ``sort_numbers("")`` without showing them, and wrong
    candidates fail there), but the verdict asks for review and names the input; a candidate wrong
    inside the domain gets no such reason."""
    from sejury import Judge
    from sejury.schema import Sample, Task
    from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

    def script(messages: list[Any]) -> str:
        return {**GOOD_REPLIES, "write_tests": CPP_UNIQUE_TESTS, "predict": "Score: 100"}[step_of(messages)]

    judge = Judge(ScriptedChatModel(script=script), team="S5-exec,S5-diff", cache=False, traces=False,
                  execute=True, sandbox=sandbox)
    got = {}
    for name, code in (("asserts", CPP_UNIQUE_ASSERTS), ("wrong", CPP_UNIQUE_WRONG)):
        got[name] = await judge.ajudge(Sample(id=name, task=Task.CODE_GENERATION, language="cpp", problem=CPP_UNIQUE,
                                              candidate=code, reference=CPP_UNIQUE_REF))
    asserts, wrong = got["asserts"], got["wrong"]
    assert asserts.passed is False and asserts.strategies["test_pass"].score == pytest.approx(66.67), asserts
    assert asserts.strategies["test_pass"].artifacts["edge_only"] == "unique([])"
    assert asserts.strategies["test_diff"].artifacts["edge_only"] == "unique([])"
    assert asserts.needs_review and any("empty input the problem neither shows nor states (unique([]))" in r
                                        for r in asserts.review_reasons), asserts.review_reasons
    assert wrong.passed is False and "edge_only" not in wrong.strategies["test_pass"].artifacts
    assert not any("empty input" in r for r in wrong.review_reasons), wrong.review_reasons
