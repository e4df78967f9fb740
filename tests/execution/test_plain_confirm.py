"""A user's own tests with no reference: what the sealed harness fails runs again with the tests in the
program's own process (``execution/confirm.py``), so a test the harness cannot run is told apart from
one the candidate fails.  The bundled class pairs (``examples/classes/cart_{go,cpp}_*``,
``cart_spy_js_*``, whose tests spy on a method of the program's class's prototype, and ``list_java_*``,
whose tests read a program's object's fields): a
right program's failures are "not confirmed" (not definitive, the verdict needs review), a wrong
one's failure is confirmed with the assertion the user's own runner shows.  A program that forges
passes in the plain run gains nothing: those still count as failed."""

from __future__ import annotations

import json

import pytest

from sejury import Sample
from sejury.execution import evidence
from sejury.execution.evidence import SuiteRun
from sejury.execution.runner import RunReport
from sejury.sandbox.base import ExecStatus
from sejury.strategies.sample_tests import against
from sejury.viewers.common import suite_rows
from tests.helpers.examples import example, judge_pair, judge_samples

PAIRS = {"javascript": "cart_spy_js", "java": "list_java", "go": "cart_go", "cpp": "cart_cpp"}

# wrong programs (a line's quantity ignored, as the bundled wrong ones) that also rewrite the plain run's
# result lines into passes, each the way its language allows
FORGERS = {
    "javascript": ("s + price * qty", "s + price", '''
const sejuryFs = require("fs"), sejuryWrite = sejuryFs.writeSync;
sejuryFs.writeSync = (fd, s, ...rest) =>
  sejuryWrite(fd, typeof s === "string" ? s.replace(/ FAIL.*/, " PASS") : s, ...rest);
'''),
    "java": ("while (head != null) {", "while (head != null && head.next != null) {", '''
class Forger {
    static {
        java.io.PrintStream real = System.out;
        System.setOut(new java.io.PrintStream(real, true) {
            @Override public void println(String s) { super.println(s.replaceFirst(" FAIL.*", " PASS")); }
        });
    }
}
'''),
    "go": ("s += l[0] * l[1]", "s += l[0]", '''
func init() {
	r, w, _ := os.Pipe()
	real := os.Stdout
	os.Stdout = w
	go func() {
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			fmt.Fprintln(real, regexp.MustCompile(` FAIL.*`).ReplaceAllString(sc.Text(), " PASS"))
		}
	}()
}
'''),
    "cpp": ("s += line.first * line.second;", "s += line.first;", '''
#include <cstdio>
inline int forged(const char* f, const char* s) {
    std::string t(s);
    auto at = t.find(" FAIL");
    if (at != std::string::npos) t = t.substr(0, at) + " PASS";
    return std::printf(f, t.c_str());
}
template <class... A> int forged(const char* f, A... a) { return std::printf(f, a...); }
#define printf forged
'''),
}


def _forger(language: str) -> Sample:
    right = example("classes", PAIRS[language], "right")
    was, now, extra = FORGERS[language]
    code = right.candidate.replace(was, now)
    if language == "java":
        code = code.replace("    static Node reverse(Node head) {", "    static { new Forger(); }\n\n"
                            "    static Node reverse(Node head) {") + extra
    elif language == "go":
        code = code.replace('import "math"', 'import (\n\t"bufio"\n\t"fmt"\n\t"math"\n\t"os"\n\t"regexp"\n)') + extra
    else:
        code = code + extra if language == "javascript" else code.replace("class Cart {", extra + "\nclass Cart {")
    assert code != right.candidate
    return right.model_copy(update={"id": f"{right.id}-forger", "candidate": code})


@pytest.mark.docker
@pytest.mark.parametrize("language", sorted(set(PAIRS) - {"go"}))
async def test_a_test_the_harness_cannot_run_is_told_from_the_candidates_failure(language: str) -> None:
    """Until ``RUNNERS_VERSION`` 58 both programs failed every test the harness cannot run (``new Cart()``,
    ``Cart.TAX``, a method of the program's type; in JavaScript now a spy on its class's prototype) and
    the right one was rejected "on definitive evidence"; now only the wrong one is, for the test the
    user's own runner fails."""
    got = await judge_pair("classes", PAIRS[language])
    right, wrong = got["right"], got["wrong"]
    own = right.strategies["sample_tests"]
    ex = evidence.TestExecution.from_artifact(own.artifacts["execution"])
    assert ex is not None and ex.candidate is not None
    assert ex.candidate.unconfirmed, own.detail  # the harness failed some: they pass in the plain run
    assert right.against == [] and right.grounds != "definitive", right.against
    assert right.needs_review and any("fail only in the sealed harness" in r for r in right.review_reasons)
    assert right.passed is False  # not confirmed is not passed: a plain run's pass can be forged
    assert wrong.passed is False and wrong.grounds == "definitive"
    # the assertion the user's own runner shows (C++'s assert names its expression, the carts 1.8 for 3.6)
    shown = {"cpp": "cart.total() == 3.6", "java": "expected 2 but was 1"}.get(language, "1.8")
    assert shown in wrong.against[0], wrong.against
    # JavaScript's sealed harness runs that test itself (the program's objects, ``handles.js``) and says
    # what the plain run says; the others' words come from the plain run
    assert ("with the tests in its own process" in wrong.against[0]) == (language != "javascript"), wrong.against


@pytest.mark.docker
async def test_go_runs_the_programs_types_and_methods_sealed() -> None:
    """Until ``RUNNERS_VERSION`` 63 the Go checker knew only the program's functions: ``NewCart()``,
    ``c.Add(...)`` and ``Tax`` did not compile there, both programs were run in their own process to
    confirm, and the right one needed review.  Now the program's types and constants are declared in the
    checker and its methods cross like its functions: nothing is left to confirm, and the wrong
    program's failure is the sealed run's own."""
    got = await judge_pair("classes", "cart_go")
    right, wrong = got["right"], got["wrong"]
    ex = evidence.TestExecution.from_artifact(right.strategies["sample_tests"].artifacts["execution"])
    assert ex is not None and ex.candidate is not None and not ex.candidate.unconfirmed
    assert ex.candidate.sealed and ex.candidate.total == ex.candidate.passed == 4, ex.candidate
    assert right.passed is True and right.against == [], (right.against, right.review_reasons)
    assert wrong.passed is False and wrong.grounds == "definitive"
    assert "1.8" in wrong.against[0] and "with the tests in its own process" not in wrong.against[0], wrong.against


@pytest.mark.docker
@pytest.mark.parametrize("language", sorted(PAIRS))
async def test_a_program_forging_the_plain_runs_passes_gains_nothing(language: str) -> None:
    wrong = example("classes", PAIRS[language], "wrong")
    forger, plain_wrong = await judge_samples(_forger(language), wrong)
    assert forger.score is not None and plain_wrong.score is not None
    assert forger.score <= plain_wrong.score, (forger.score, plain_wrong.score)
    assert forger.passed is False


@pytest.mark.docker
async def test_result_lines_printed_after_the_harness_never_undo_a_failure() -> None:
    """A program that prints a pass for every unit as the plain run ends: the harness's own failure
    line stands (``runner.run_plain``: failures stick), so the wrong program's failure is confirmed."""
    wrong = example("classes", "cart_js", "wrong")
    late = wrong.candidate + ('\nprocess.on("exit", () => { for (let i = 0; i < 8; i++) '
                              'require("fs").writeSync(1, "@@T " + i + " PASS\\n"); });\n')
    [verdict] = await judge_samples(wrong.model_copy(update={"candidate": late}))
    assert verdict.grounds == "definitive" and "1.8" in verdict.against[0], verdict.against


def _run(passed: list[bool], plain: dict[int, tuple[bool, str]]) -> evidence.TestExecution:
    report = RunReport(loaded=True, passed=passed, reasons=["" if ok else "sealed says no" for ok in passed],
                       status=ExecStatus.OK, seconds=0.1, sealed=True)
    run = SuiteRun.of(report, [f"assert f({i}) == {i}" for i in range(len(passed))], plain)
    return evidence.TestExecution(status="ran", language="python", candidate=run, valid=len(passed))


def test_only_a_confirmed_failure_is_definitive_and_it_is_named_first() -> None:
    ex = _run([True, False, False], {1: (True, ""), 2: (False, "AssertionError: 3 != 2")})
    assert ex.candidate is not None and ex.candidate.unconfirmed == [1]
    why = against(ex)
    assert why is not None and why.startswith("fails 1 of the sample's 3 tests, first: assert f(2) == 2")
    assert "AssertionError: 3 != 2" in why and "1 more fail only in the sealed harness" in why
    assert against(_run([True, False], {1: (True, "")})) is None  # every failure unconfirmed: not definitive
    assert against(_run([True, False], {})) is not None  # no plain run: as before
    shown = json.loads(ex.model_dump_json())["candidate"]["outcomes"]
    assert [o["plain"] for o in shown] == ["", "pass", "fail: AssertionError: 3 != 2"]


def test_the_trace_shows_what_the_plain_run_said() -> None:
    ex = _run([False, False], {0: (True, ""), 1: (False, "AssertionError")})
    rows, _ = suite_rows(None, ex.candidate)
    assert [r.why for r in rows] == ["sealed says no · with the tests in its own process: pass",
                                     "sealed says no · with the tests in its own process: fail: AssertionError"]
