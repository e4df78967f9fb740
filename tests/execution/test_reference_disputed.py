"""A reference can be wrong (HumanEval-X's Go ``StringXor`` drops leading zeros).  Then a right
candidate differs from it, and fails; but it returns what some generated tests expect where the
reference does not.  S5-diff records those tests (``DifferentialRun.disputed``) and says so in its
lines.  It is not a reason for review: on 352 HumanEval rows in five languages such tests came with a
wrong candidate 24 times in 25 (the model and the candidate sharing a misreading)."""

from __future__ import annotations

from typing import Any

import pytest

from sejury.execution.differential import compare
from sejury.sandbox.docker import DockerSandbox

PROBLEM = ('def string_xor(a: str, b: str) -> str:\n    """ Input are two strings a and b consisting only of 1s and '
           '0s.\n    Perform binary XOR on these inputs and return result also as a string.\n'
           "    >>> string_xor('010', '110')\n    '100'\n    \"\"\"\n")
REFERENCE = "    return bin(int(a, 2) ^ int(b, 2))[2:]\n"  # drops the leading zeros: the reference's own bug
RIGHT = "    return ''.join('0' if x == y else '1' for x, y in zip(a, b))\n"
WRONG = "    return ''.join('1' if '1' in (x, y) else '0' for x, y in zip(a, b))\n"  # or, not xor
TESTS = ("```python\nassert string_xor('010', '110') == '100'\nassert string_xor('111', '101') == '010'\n"
         "assert string_xor('101', '001') == '100'\n```")


def test_a_test_the_reference_fails_and_the_candidate_passes_is_disputed() -> None:
    units = ["t0", "t1", "t2", "t3"]
    ref = {0: ["'100'"], 1: ["'10'"], 2: ["'100'"], 3: ["'7'"]}
    cand = {0: ["'100'"], 1: ["'010'"], 2: ["'100'"], 3: ["'8'"]}
    # t1 and t3 failed on the reference; the candidate passes t1's check (a different value), not t3's
    got = compare("string_xor", units, ref, cand, {0, 2}, {}, passed={0: True, 1: True, 2: True, 3: False})
    assert (got.disputed, got.disputed_shown, got.agreed, got.inputs) == (1, ["t1"], 2, 4)
    assert compare("string_xor", units, ref, cand, {0, 2}, {}).disputed == 0  # not asked: none


@pytest.mark.docker
async def test_a_right_candidate_failing_against_a_wrong_reference_is_told_in_s5_diffs_lines(
        sandbox: DockerSandbox) -> None:
    from sejury import Judge
    from sejury.schema import Sample, Task
    from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

    def script(messages: list[Any]) -> str:
        return {**GOOD_REPLIES, "write_tests": TESTS, "predict": "Score: 100"}[step_of(messages)]

    judge = Judge(ScriptedChatModel(script=script), team="S5-exec,S5-diff", cache=False, traces=False,
                  execute=True, sandbox=sandbox)
    right, wrong = [await judge.ajudge(Sample(id=name, task=Task.CODE_GENERATION, language="python",
                                              problem=PROBLEM, candidate=code, reference=REFERENCE))
                    for name, code in (("right", RIGHT), ("wrong", WRONG))]
    assert right.strategies["test_pass"].score == 100 and right.strategies["test_diff"].score == pytest.approx(66.67)
    assert right.passed is False
    shown = ["assert string_xor('111', '101') == '010'"]
    assert right.strategies["test_diff"].artifacts["disputed"] == {"tests": 1, "shown": shown}
    assert not any("may be wrong" in r for r in right.review_reasons), right.review_reasons
    from sejury.strategies.test_diff import detail_lines
    assert any(x.startswith("1 of the tests whose expectation failed on the reference hold on the candidate")
               for x in detail_lines(right.strategies["test_diff"]))
    assert wrong.passed is False and "disputed" not in wrong.strategies["test_diff"].artifacts
