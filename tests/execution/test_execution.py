"""S5 with execution: a scripted model writes the tests, the real Docker sandbox runs them."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from langchain_core.messages import BaseMessage

from sejury import Judge, Sample, Status
from sejury.sandbox.docker import DockerSandbox
from sejury.schema import StrategyResult
from sejury.strategies._s5_lines import detail_lines
from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of
from tests.helpers.paths import EXAMPLES

pytestmark = pytest.mark.docker

TESTS = "```python\nassert add(1, 2) == 3\nassert add(2, 2) == 5\nassert add(-1, 1) == 0\n```"
PREDICT = "Checks:\n- first: PASS\n- second: PASS\nScore: 100"
REF = "def add(a, b):\n    return a + b\n"


def script(tests: str = TESTS) -> Callable[[list[BaseMessage]], str]:
    table = {**GOOD_REPLIES, "write_tests": tests, "predict": PREDICT}
    return lambda messages: table[step_of(messages)]



def make(sandbox: DockerSandbox, tests: str = TESTS) -> tuple[Judge, ScriptedChatModel]:
    model = ScriptedChatModel(script=script(tests))
    return Judge(model, team=["S5"], cache=False, execute=True, sandbox=sandbox), model


def sample(candidate: str, **kw: object) -> Sample:
    return Sample(id="x", task=kw.pop("task", "code_generation"), language=kw.pop("language", "python"),
                  problem="Write add(a, b) returning a + b.", candidate=candidate, reference=REF, **kw)


async def test_invalid_tests_are_discarded_and_the_wrong_candidate_fails_the_rest(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox)
    v = await judge.ajudge(sample("def add(a, b):\n    return a - b\n"))
    r = v.strategies["generate_tests"]
    ex = r.artifacts["execution"]
    assert (ex["status"], ex["generated"], ex["invalid_on_reference"], ex["valid"]) == ("ran", 3, 1, 2)
    assert ex["executable"] is True and ex["candidate"]["passed"] == 0 and ex["pass_ratio"] == 0
    # prediction 100 (2 of 2 PASS), execution 0: 0.75 x 0 + 0.25 x 100
    assert r.artifacts["prediction_score"] == 100 and r.artifacts["execution_score"] == 0
    assert r.score == 25 and v.score == 25
    # the model predicted on the valid tests only
    predict = next(e for e in r.trace if e.step == "predict")
    assert "add(2, 2) == 5" not in predict.messages[1]["content"]  # type: ignore[index]
    assert [e.step for e in r.trace if e.kind == "sandbox_run"] == ["validate_on_reference", "run_candidate"]


async def test_correct_candidate_passes_every_valid_test(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox)
    v = await judge.ajudge(sample("def add(x, y):\n    return y + x\n", tests="assert add(5, 5) == 10"))
    ex = v.strategies["generate_tests"].artifacts["execution"]
    assert ex["pass_ratio"] == 1.0 and v.score == 100
    assert ex["sample_tests"]["passed"] == 1 and ex["sample_tests"]["total"] == 1  # ground truth, apart
    assert "no network" in ex["sandbox"]


async def test_candidate_that_does_not_load_passes_nothing(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox)
    v = await judge.ajudge(sample("def add(a, b)\n    return a + b\n"))
    ex = v.strategies["generate_tests"].artifacts["execution"]
    assert ex["executable"] is False and ex["pass_ratio"] == 0
    assert "SyntaxError" in ex["candidate"]["load_error"]


async def test_no_valid_test_falls_back_to_the_prediction(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox, tests="```python\nassert add(1, 1) == 3\n```")
    v = await judge.ajudge(sample(REF))
    r = v.strategies["generate_tests"]
    assert r.artifacts["execution"]["status"] == "skipped"
    assert "every generated test failed on the reference" in r.artifacts["execution"]["reason"]
    assert r.artifacts["score_rule"].startswith("prediction only") and r.score == 100


async def test_patches_and_unknown_languages_are_skipped_with_a_reason(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox)
    repair = await judge.ajudge(sample("--- a\n+++ b\n", task="program_repair"))
    ex = repair.strategies["generate_tests"].artifacts["execution"]
    assert ex["status"] == "skipped" and "needs the buggy program" in ex["reason"]
    cobol = await judge.ajudge(sample("ADD A TO B.", language="cobol"))
    assert "no test runner for 'cobol'" in cobol.strategies["generate_tests"].artifacts["execution"]["reason"]
    assert cobol.strategies["generate_tests"].status is Status.SCORED  # the prediction still counts


async def test_execution_changes_the_cache_key(sandbox: DockerSandbox, tmp_path: object) -> None:
    model = ScriptedChatModel(script=script())
    cache = f"{tmp_path}/c.sqlite"
    plain = Judge(model, team=["S5"], cache=cache)
    executing = Judge(model, team=["S5"], cache=cache, execute=True, sandbox=sandbox)
    s = sample(REF)
    await plain.ajudge(s)
    v = await executing.ajudge(s)
    assert not v.strategies["generate_tests"].cached
    assert v.strategies["generate_tests"].artifacts["execution"]["status"] == "ran"


REPAIR_TESTS = ("```python\nassert clamp(15, 0, 10) == 10\nassert clamp(20, 0, 10) == 10\n"
                "assert clamp(5, 0, 10) == 5\n```")
BUGGY = "def clamp(v, lo, hi):\n    if v < lo:\n        return lo\n    return v\n"
DEV_PATCH = ("--- a/clamp.py\n+++ b/clamp.py\n@@ -1,4 +1,6 @@\n def clamp(v, lo, hi):\n     if v < lo:\n"
             "         return lo\n+    if v > hi:\n+        return hi\n     return v\n")
OVERFIT_PATCH = DEV_PATCH.replace("+    if v > hi:\n+        return hi\n", "+    if v == 15:\n+        return 10\n")


async def test_repair_patches_are_applied_to_the_buggy_program_and_run(sandbox: DockerSandbox) -> None:
    judge, _ = make(sandbox, tests=REPAIR_TESTS)

    def repair(candidate: str) -> Sample:
        return Sample(id="r", task="program_repair", language="python", problem="clamp ignores hi",
                      candidate=candidate, reference=DEV_PATCH, metadata={"buggy_code": BUGGY})

    overfit = (await judge.ajudge(repair(OVERFIT_PATCH))).strategies["generate_tests"].artifacts["execution"]
    assert (overfit["status"], overfit["valid"], overfit["candidate"]["passed"]) == ("ran", 3, 2)
    assert overfit["candidate"]["failures"][0]["test"] == "assert clamp(20, 0, 10) == 10"
    broken = (await judge.ajudge(repair("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-nothing like this\n+x\n")))
    ex = broken.strategies["generate_tests"].artifacts["execution"]
    assert ex["executable"] is False and ex["pass_ratio"] == 0
    assert "the candidate patch does not apply" in ex["candidate"]["load_error"]


async def test_pass_ratio_juror_reads_s5s_run_with_s5_as_its_feeder(sandbox: DockerSandbox) -> None:
    model = ScriptedChatModel(script=script())
    judge = Judge(model, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox)
    wrong = await judge.ajudge(sample("def add(a, b):\n    return a - b\n"))
    right = await judge.ajudge(sample("def add(a, b):\n    return b + a\n"))
    for v, expected in ((wrong, 0), (right, 100)):
        r = v.strategies["test_pass"]
        assert r.status is Status.SCORED and r.score == expected and r.llm_calls == 0
        assert (r.artifacts["generated"], r.artifacts["invalid_on_reference"], r.artifacts["valid"]) == (3, 1, 2)
        assert v.strategies["generate_tests"].in_team is False  # S5 ran as the feeder only
        assert v.score == expected  # the pass ratio alone, not S5's blend with its prediction
    assert wrong.strategies["generate_tests"].score == 25  # 0.75 x 0 + 0.25 x 100 (S5 keeps its own score)


async def test_executability_juror_counts_the_inputs_the_candidate_runs_on(sandbox: DockerSandbox) -> None:
    """S5-runs (CodeScore's executability): the share of S5's inputs on which the candidate's calls
    return, whatever the values; 0 when it does not load; unscored without a declared function."""
    model = ScriptedChatModel(script=script())
    judge = Judge(model, team=["S5-runs"], cache=False, execute=True, sandbox=sandbox)
    problem = 'def add(a: int, b: int) -> int:\n    """Return a + b."""\n'

    def body(code: str) -> Sample:
        return Sample(id="e", task="code_generation", language="python", problem=problem, candidate=code,
                      reference="    return a + b\n")

    raises = (await judge.ajudge(body("    if a < 0:\n        raise ValueError(a)\n    return a - b\n")))
    r = raises.strategies["executability"]
    # three inputs (the test with a wrong expectation is an input too); it raises on add(-1, 1)
    assert r.status is Status.SCORED and r.score == pytest.approx(66.67) and r.llm_calls == 0
    assert (r.artifacts["inputs"], r.artifacts["returned"], r.artifacts["loads"]) == (3, 2, True)
    assert raises.strategies["generate_tests"].in_team is False
    broken = (await judge.ajudge(body("    return a +\n"))).strategies["executability"]
    assert broken.score == 0 and broken.detail.startswith("the candidate does not load")
    right = (await judge.ajudge(body("    return b + a\n"))).strategies["executability"]
    assert right.score == 100
    prose = (await judge.ajudge(sample("def add(a, b):\n    return a + b\n"))).strategies["executability"]
    assert prose.status is Status.UNSCORED and "no call of the problem's function" in prose.detail


def no_reference(candidate: str) -> Sample:
    return Sample(id="n", task="code_generation", language="python", problem="Write add(a, b) returning a + b.",
                  candidate=candidate)


async def test_s5_nl_runs_its_tests_unvalidated_without_a_reference_and_says_so(sandbox: DockerSandbox) -> None:
    """CodeScore's NL-only format: tests from the problem alone.  With no reference they run on the
    candidate as written, so the model's wrong test (add(2, 2) == 5) counts against a right
    candidate; S5-exec reads them (S5 does not apply) and every record says they are unvalidated."""
    model = ScriptedChatModel(script=script())
    judge = Judge(model, team=["S5-nl", "S5-exec"], cache=False, execute=True, sandbox=sandbox)
    v = await judge.ajudge(no_reference("def add(a, b):\n    return a + b\n"))
    nl, ex_juror = v.strategies["generate_tests_nl"], v.strategies["test_pass"]
    ex = nl.artifacts["execution"]
    assert (ex["status"], ex["validated"], ex["generated"], ex["valid"]) == ("ran", False, 3, 3)
    assert ex["candidate"]["passed"] == 2 and "unvalidated" in ex["reason"]
    assert nl.score == pytest.approx(0.75 * 200 / 3 + 0.25 * 100)
    assert ex_juror.score == pytest.approx(66.67) and ex_juror.artifacts["tests_from"] == "S5-nl"
    assert ex_juror.artifacts["validated"] is False and "unvalidated" in (ex_juror.detail or "")
    write = next(e for e in nl.trace if e.step == "write_tests")
    assert "REFERENCE" not in write.messages[1]["content"]  # type: ignore[index]
    assert "generate_tests" not in v.strategies  # S5 needs a reference; S5-nl fed S5-exec
    alone = await Judge(model, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox).ajudge(
        no_reference("def add(a, b):\n    return a - b\n"))
    assert alone.strategies["test_pass"].score == 0 and alone.strategies["generate_tests_nl"].in_team is False


async def test_s5_nl_and_s5_code_validate_on_the_reference_when_there_is_one(sandbox: DockerSandbox) -> None:
    model = ScriptedChatModel(script=script())
    judge = Judge(model, team=["S5-nl", "S5-code"], cache=False, execute=True, sandbox=sandbox)
    v = await judge.ajudge(sample("def add(a, b):\n    return b + a\n"))
    for name in ("generate_tests_nl", "generate_tests_code"):
        ex = v.strategies[name].artifacts["execution"]
        assert (ex["validated"], ex["invalid_on_reference"], ex["valid"], ex["pass_ratio"]) == (True, 1, 2, 1.0), name
    code_write = next(e for e in v.strategies["generate_tests_code"].trace if e.step == "write_tests")
    text = code_write.messages[1]["content"]  # type: ignore[index]
    assert "[BEGIN REFERENCE SOLUTION]" in text and "REQUIREMENT" not in text  # the reference alone
    nl_write = next(e for e in v.strategies["generate_tests_nl"].trace if e.step == "write_tests")
    assert "REFERENCE" not in nl_write.messages[1]["content"]  # type: ignore[index]


COUNT_PROBLEM = 'def count_above(xs: list, t: int) -> int:\n    """How many of xs are above t."""\n'
COUNT_REF = "    n = 0\n    for x in xs:\n        if x > t:\n            n += 1\n    return n\n"
STRONG = ("```python\nassert count_above([1, 5, 7], 4) == 2\nassert count_above([3, 3], 3) == 0\n"
          "assert count_above([], 0) == 0\nassert count_above([1], 0) == 5\n```")
WEAK = "```python\nassert count_above([], 0) == 0\nassert count_above([1], 0) == 5\n```"


@pytest.mark.parametrize(("tests", "killed", "flagged"), [(STRONG, 6, False), (WEAK, 2, True)], ids=["strong", "weak"])
async def test_mutation_check_scores_the_valid_tests_on_mutants_of_the_reference(
        sandbox: DockerSandbox, tests: str, killed: int, flagged: bool) -> None:
    """``--mutation-check 6``: S5's valid tests also run on the reference's six one-bug mutants (a
    statement removed, a constant off by one, ``>`` to ``>=``, ``+=`` to ``-=``).  Only an empty
    list is too weak a test: four mutants pass it, the verdict says so, and the agent's review
    policy flags it, although the candidate (the reference itself) passes everything."""
    from sejury.agent import feedback_of

    model = ScriptedChatModel(script=script(tests))
    judge = Judge(model, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox, mutation_check=6,
                  mutation_rounds=0)  # the first check alone (second rounds: below)
    v = await judge.ajudge(Sample(id="m", task="code_generation", language="python", problem=COUNT_PROBLEM,
                                  candidate=COUNT_REF, reference=COUNT_REF))
    ex = v.strategies["generate_tests"].artifacts["execution"]
    m = ex["mutation"]
    assert (m["made"], m["run"], m["killed"]) == (6, 6, killed) and m["score"] == pytest.approx(killed / 6)
    assert v.score == 100 and v.strategies["test_pass"].artifacts["mutation_score"] == pytest.approx(killed / 6)
    assert len(m["survivors"]) == min(3, 6 - killed)
    if flagged:
        assert any("`>` -> `>=`" in x for x in m["survivors"])
    fb = feedback_of(v)
    assert fb.needs_review is flagged and fb.passed is True
    assert any("the executed tests are weak: they kill 2/6 mutants" in r for r in fb.review_reasons) is flagged
    trace = [e for e in v.strategies["generate_tests"].trace if e.step == "mutation_check"]
    assert len(trace) == 1 and trace[0].detail == m


SHARPER = ("```python\nassert count_above([3, 3], 3) == 0\nassert count_above([1, 5, 7], 4) == 2\n"
           "assert count_above([2], 1) == 2\nassert count_above([], 0) == 0\n```")
WRONG_COUNT = COUNT_REF.replace("x > t", "x >= t")


def sharpen_script(sharper: str = SHARPER) -> Callable[[list[BaseMessage]], str]:
    table = {**GOOD_REPLIES, "write_tests": WEAK, "predict": PREDICT, "sharpen_tests": sharper}
    return lambda messages: table[step_of(messages)]


async def test_a_weak_suite_gets_a_second_round_against_a_survivor_and_the_wrong_candidate_fails_it(
        sandbox: DockerSandbox) -> None:
    """``--mutation-check 6`` with the default one second round: S5's only valid test (an empty
    list) kills 2 of 6 mutants, so the model is shown a survivor's change and asked for tests that
    tell it from the reference.  Of its four, the one with a wrong expectation fails on the
    reference and the one repeating the suite is dropped; the two new ones kill survivors and join
    the suite.  A wrong candidate (``>=``) that passed the first round now fails one of them, and
    the suite that let it through (mutation score 0.33) now kills all six mutants."""
    model = ScriptedChatModel(script=sharpen_script())
    judge = Judge(model, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox, mutation_check=6)
    v = await judge.ajudge(Sample(id="w", task="code_generation", language="python", problem=COUNT_PROBLEM,
                                  candidate=WRONG_COUNT, reference=COUNT_REF))
    r = v.strategies["generate_tests"]
    ex = r.artifacts["execution"]
    m = ex["mutation"]
    (round_,) = m["rounds"]
    assert round_["score_before"] == pytest.approx(2 / 6) and round_["shown"]
    assert (round_["generated"], round_["valid"]) == (4, 2), round_
    # the two new tests kill the four survivors: `>` -> `>=` (shown), `n += 1` removed or made `-=`, ...
    assert (round_["killed"], round_["kills_shown"], m["killed"], m["score"], m["survivors"]) == (4, True, 6, 1.0, [])
    # the suite grew: 1 + 2 valid tests (2 + 4 written, 1 + 1 wrong on the reference, 1 repeated)
    assert (ex["valid"], ex["generated"]) == (3, 6)
    assert ex["candidate"]["total"] == 3 and ex["candidate"]["passed"] == 2  # [3, 3] > 3 counts 2, not 0
    assert v.strategies["test_pass"].score == pytest.approx(66.67)
    # the model saw the change, and neither the tests so far nor the candidate
    ask = next(e for e in r.trace if e.step == "sharpen_tests")
    text = ask.messages[1]["content"]  # type: ignore[index]
    assert "[BEGIN CHANGED LINES]" in text and "-        if x > t:" in text and "+        if x >= t:" in text
    assert "count_above([], 0) == 0" not in text and WRONG_COUNT not in text  # not the tests: a small model copies them
    assert [e.step for e in r.trace if e.kind == "sandbox_run"][-1] == "sharpen_on_reference"
    assert r.llm_calls == 3  # write, predict, and the one second round
    lines = "\n".join(detail_lines(r))
    assert "round 2, shown" in lines and "2 of 4 new tests valid on the reference" in lines


async def test_no_second_round_when_asked_for_none_or_when_the_suite_is_strong(sandbox: DockerSandbox) -> None:
    """``--mutation-rounds 0`` keeps the first suite as it is; a strong suite (6/6) is never sharpened."""
    sample = Sample(id="w", task="code_generation", language="python", problem=COUNT_PROBLEM,
                    candidate=WRONG_COUNT, reference=COUNT_REF)
    model = ScriptedChatModel(script=sharpen_script())
    none = await Judge(model, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox, mutation_check=6,
                       mutation_rounds=0).ajudge(sample)
    ex = none.strategies["generate_tests"].artifacts["execution"]
    assert ex["mutation"]["rounds"] == [] and ex["valid"] == 1 and none.strategies["test_pass"].score == 100
    strong = ScriptedChatModel(script=script(STRONG))
    v = await Judge(strong, team=["S5-exec"], cache=False, execute=True, sandbox=sandbox,
                    mutation_check=6).ajudge(sample)
    assert v.strategies["generate_tests"].artifacts["execution"]["mutation"]["rounds"] == []
    assert v.strategies["generate_tests"].llm_calls == 2


async def test_a_weak_suite_counts_by_its_mutation_score_in_the_team_mean(sandbox: DockerSandbox) -> None:
    """S5-exec standing on tests that kill a third of the mutants counts a third as much as S1 in
    the team's mean (no second round here, to keep the suite as it was)."""
    model = ScriptedChatModel(script=sharpen_script())
    v = await Judge(model, team=["S1", "S5-exec"], cache=False, execute=True, sandbox=sandbox, mutation_check=6,
                    mutation_rounds=0, merge="mean").ajudge(Sample(id="w", task="code_generation", language="python",
                                                     problem=COUNT_PROBLEM, candidate=WRONG_COUNT,
                                                     reference=COUNT_REF))
    ex_juror, s1 = v.strategies["test_pass"], v.strategies["direct"]
    assert ex_juror.score == 100 and ex_juror.weight == pytest.approx(round(2 / 6, 4)) and s1.weight == 1
    assert s1.score == 80
    assert v.score == pytest.approx((80 + 100 * ex_juror.weight) / (1 + ex_juror.weight), abs=0.01)


def test_input_mutation_keeps_types_and_never_repeats_a_seed() -> None:
    from sejury.execution.calls import render_call, seed_calls
    from sejury.execution.fuzz import fits, mutate_inputs, mutations

    tests = "assert count_above([1, 5, 7], 4) == 2\nassert count_above(xs=[], t=0) == 0\nassert count_above(y, 1)\n"
    seeds = seed_calls(tests, "count_above")
    assert seeds == [(([1, 5, 7], 4), ()), ((), (("xs", []), ("t", 0)))]  # count_above(y, 1): not literal
    made = mutate_inputs(seeds, 30, seed=1)
    shown = {render_call("f", c) for c in made}
    assert len(made) == len(shown) == 30 and not shown & {render_call("f", c) for c in seeds}
    for args, kwargs in made:
        values = [*args, *(v for _, v in kwargs)]
        assert len(values) == 2 and isinstance(values[0], list) and isinstance(values[1], int)
    assert mutate_inputs(seeds, 30, seed=1) == made  # a seeded draw
    assert mutations(True, random.Random(0)) == [False] and mutations(None, random.Random(0)) == []
    assert "" in mutations("ab", random.Random(0)) and 10 ** 7 not in mutations(10 ** 6, random.Random(0))
    assert seed_calls("assert f(1) == 2\nassert f(2", "f") == [((1,), ())]  # cut off mid-line: line by line
    # the seeds' domain: no negative number, empty string or container, or new character where none was
    assert not fits(-1, [3, 4]) and not fits(0, [3, 4]) and fits(0, [0, 3]) and fits(-2, [-1, 3])
    assert not fits("a2", ["01", "1"]) and fits("10", ["01"]) and not fits("", ["01"]) and fits("", ["", "1"])
    assert not fits([], [[1]]) and not fits([0], [[1, 2]]) and fits([2, 1], [[1, 2]])
    xor = mutate_inputs(seed_calls("assert string_xor('010', '110') == '100'", "string_xor"), 30, seed=2)
    assert xor and all(len(a) == len(b) and set(a + b) <= {"0", "1"} for (a, b), _ in xor)
    for args, kwargs in made:  # every input made fits: count_above's seeds have t >= 0, lists of positives
        values = dict(kwargs)
        xs, t = (args[0], args[1]) if args else (values["xs"], values["t"])
        assert t >= 0 and all(x >= 0 for x in xs)


def test_strings_of_words_are_mutated_by_words_and_single_words_by_characters() -> None:
    """HumanEval 19 and 67: character rules made ``'ne fivethree'`` (no number words) and
    ``' apples and 1 oranges'`` (no basket), on which a right candidate and the reference differ."""
    from sejury.execution.calls import seed_calls
    from sejury.execution.fuzz import fits, mutate_inputs, mutations

    numbers = {"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"}
    made = mutate_inputs(seed_calls("assert sort_numbers('three one five') == 'one three five'", "sort_numbers"), 30)
    assert len(made) >= 10  # a word list: words dropped, duplicated, swapped, replaced, reversed
    for (s,), _ in made:
        assert s and s == " ".join(s.split()) and set(s.split()) <= {"three", "one", "five"}
    assert any(len(s.split()) != 3 for (s,), _ in made) and any(len(s.split()) == 3 for (s,), _ in made)
    assert set(" ".join(s for (s,), _ in made).split()) <= numbers
    assert not fits("ne fivethree", ["three one five"]) and fits("five five", ["three one five"])

    fruit = seed_calls("assert fruit_distribution('5 apples and 6 oranges', 19) == 8\n"
                       "assert fruit_distribution('0 apples and 1 oranges', 3) == 2\n", "fruit_distribution")
    made = mutate_inputs(fruit, 40)
    baskets = [a[0] for a, _ in made if a[0] not in ("5 apples and 6 oranges", "0 apples and 1 oranges")]
    assert baskets  # a template: only its numbers change, never its words or shape
    for s in baskets:
        a, apples, and_, b, oranges = s.split(" ")
        assert (apples, and_, oranges) == ("apples", "and", "oranges") and int(a) >= 0 and int(b) >= 0
    seen = ["5 apples and 6 oranges", "0 apples and 1 oranges"]
    assert fits("12 apples and 0 oranges", seen) and not fits("-1 apples and 0 oranges", seen)
    assert not fits(" apples and 1 oranges", seen) and not fits("d 3 oranges2 apples an", seen)
    assert not fits("5 oranges and 6 apples", seen) and not fits("5 apples 6 oranges", seen)

    # elements of a list of strings of words: the same rules
    rows = mutate_inputs(seed_calls("assert f(['a b c', 'b c']) == 1", "f"), 30)
    assert rows and all(not e or set(e.split(" ")) <= {"a", "b", "c"} for (xs,), _ in rows for e in xs)
    # a single word, or spacing that may be the point, keeps the character rules
    rng = random.Random(0)
    assert mutations("abc", rng, seen=["abc"]) == mutations("abc", rng) == ["", "cba", "ABC", "bc", "ab", "bca", "abcc"]
    assert "" in mutations("apple pi e", rng, seen=["apple pi e", "apple pi e "])
    assert fits("pi epple a", ["apple pi e", "apple pi e "]) and not fits("pi epple a", ["apple pi e"])


async def test_s5_fuzz_catches_a_wrong_candidate_that_passes_every_test(sandbox: DockerSandbox) -> None:
    """S5's one test has no element equal to the threshold, so ``>=`` passes it (S5-exec 100);
    S5-fuzz mutates its arguments (the threshold off by one, an element changed, ...), the
    reference answers, and the ``>=`` candidate disagrees on some of them; a right candidate
    written another way agrees on all."""
    one = "```python\nassert count_above([1, 5, 7], 4) == 2\n```"
    model = ScriptedChatModel(script=script(one))
    judge = Judge(model, team=["S5-exec", "S5-fuzz"], cache=False, execute=True, sandbox=sandbox)

    def count(candidate: str) -> Sample:
        return Sample(id="f", task="code_generation", language="python", problem=COUNT_PROBLEM,
                      candidate=candidate, reference=COUNT_REF)

    wrong = await judge.ajudge(count(WRONG_COUNT))
    fuzz = wrong.strategies["test_fuzz"]
    assert wrong.strategies["test_pass"].score == 100
    assert fuzz.status is Status.SCORED and fuzz.score is not None and fuzz.score < 100, fuzz
    a = fuzz.artifacts
    assert (a["seeds"], a["made"]) == (1, 30) and 0 < a["inputs"] <= 30 and a["agreed"] < a["inputs"]
    assert a["mismatches"] and fuzz.llm_calls == 0
    right = await judge.ajudge(count("    return sum(1 for x in xs if t < x)\n"))
    assert right.strategies["test_fuzz"].score == 100 and right.score == 100
    go = await judge.ajudge(Sample(id="g", task="code_generation", language="go", problem="func Add(a, b int) int {",
                                   candidate="func Add(a, b int) int { return a + b }",
                                   reference="func Add(a, b int) int { return a + b }"))
    assert go.strategies["test_fuzz"].status is Status.UNSCORED  # S5's (Python) tests hold no Go call of Add
    assert "no call of Add with literal arguments" in (go.strategies["test_fuzz"].detail or "")


COUNT_JS = "// How many of xs are above t.\nfunction countAbove(xs, t) {\n"
COUNT_JS_REF = "  return xs.filter((x) => x > t).length;\n}\n"


async def test_s5_fuzz_reads_and_writes_javascript_literals(sandbox: DockerSandbox) -> None:
    """The same case in JavaScript: S5's one test (an array, a number; the call inside the string
    is not a seed) passes a ``>=`` candidate; S5-fuzz's new inputs, written back as JavaScript,
    catch it, and a right candidate written another way (CommonJS export and all) agrees on all."""
    one = ("```javascript\nconst assert = require('assert');\n"
           "assert.strictEqual(countAbove([1, 5, 7], 4), 2, 'countAbove([9], 9)');\n```")
    model = ScriptedChatModel(script=script(one))
    judge = Judge(model, team=["S5-exec", "S5-fuzz"], cache=False, execute=True, sandbox=sandbox)

    def count(candidate: str) -> Sample:
        return Sample(id="fj", task="code_generation", language="javascript", problem=COUNT_JS,
                      candidate=candidate, reference=COUNT_JS_REF)

    wrong = await judge.ajudge(count("  return xs.filter((x) => x >= t).length;\n}\n"))
    fuzz = wrong.strategies["test_fuzz"]
    assert wrong.strategies["test_pass"].score == 100
    assert fuzz.status is Status.SCORED and fuzz.score is not None and fuzz.score < 100, fuzz
    a = fuzz.artifacts
    assert (a["seeds"], a["made"]) == (1, 30) and 0 < a["inputs"] <= 30 and a["agreed"] < a["inputs"]
    assert any("countAbove([" in m["test"] for m in a["mismatches"])
    right = await judge.ajudge(count("  let n = 0;\n  for (const x of xs) if (t < x) n++;\n  return n;\n}\n"
                                     "module.exports = countAbove;\n"))
    assert right.strategies["test_fuzz"].score == 100 and right.score == 100


def test_javascript_literals_are_read_as_values_and_written_back() -> None:
    from sejury.execution.calls import render_call, seed_calls
    from sejury.execution.js_literals import seed_calls as every_call

    tests = ("assert.deepStrictEqual(f([1, -2, 3.5], 'a\\'b\\n', {k: 1, \"s\": [true, null]}), 3);\n"
             "console.assert(f([], `x`, {}) === 0); // f(9, 9, 9)\n"
             "assert.strictEqual(f(xs, 1), 2); const s = \"f(1, 2)\"; f(`${s}`, 1); f(0x1F, 1e3, -0.5, 10n);\n"
             "assert.equal(f([], `x`, {}), 0);\n")
    assert every_call(tests, "f")[-1] == (([], "x", {}), ())  # duplicates kept here, in order
    seeds = seed_calls(tests, "f", "javascript")
    assert seeds == [(([1, -2, 3.5], "a'b\n", {"k": 1, "s": [True, None]}), ()), (([], "x", {}), ())]
    assert seed_calls("f(0x1F, 1e3, -0.5)", "f", "javascript") == [((31, 1000.0, -0.5), ())]
    assert render_call("f", seeds[0], "javascript") == 'f([1, -2, 3.5], "a\'b\\n", {"k": 1, "s": [true, null]})'



def test_the_problems_examples_are_read_as_calls_with_literal_arguments() -> None:
    from sejury.execution.calls import example_calls

    py = ('def intersperse(numbers: List[int], delimeter: int) -> List[int]:\n'
          '    """ Insert delimeter between every two elements; intersperse(numbers, 0) in prose.\n'
          '    >>> intersperse([], 4)\n    []\n    >>> intersperse([1, 2, 3], 4)\n    [1, 4, 2, 4, 3]\n'
          '    >>> intersperse([], 4)\n    """\n')
    assert example_calls(py, "intersperse") == [(([], 4), ()), (([1, 2, 3], 4), ())]  # the signature: not a call
    js = ("// valid_date('03-11-2000') => true\n// valid_date(\"15-01-2012\") => false\n"
          "// notvalid_date('x'), valid_date(date)\nfunction valid_date(date){\n")
    assert example_calls(js, "valid_date", "javascript") == [(("03-11-2000",), ()), (("15-01-2012",), ())]
    assert example_calls("def f(x):\n    '''Return x.'''\n", "f") == []
    # values given to the parameters by name, on one line or lines in a row (and never `k <= 3`)
    minpath = ("// Input: grid = [ [1,2,3], [4,5,6]], k = 3\n// Output: [1, 2, 1]\n// 1 <= k <= 9, grid = [[1]]\n"
               "// Input: grid = [[5]],\n//        k = 1\nfunction minPath(grid, k){\n")
    assert example_calls(minpath, "minPath", "javascript") == [(([[1, 2, 3], [4, 5, 6]], 3), ()), (([[5]], 1), ())]
    assert example_calls('def hex_key(num):\n    """For num = "AB" the output should be 1."""\n', "hex_key") == \
        [(("AB",), ())]
    # calls of one other name with the function's arity, when the examples misname it
    misnamed = 'def sorted_list_sum(lst):\n    """assert list_sort(["aa", "a"]) => ["aa"]; len(x, 1)"""\n'
    assert example_calls(misnamed, "sorted_list_sum") == [((["aa", "a"],), ())]
    # but not the calls of what the problem's code imports or defines, of Python's builtins, or prose
    # with a bracket after a word (BigCodeBench's stubs: a right dice roller scored 0 on task_func(1, 7))
    stub = ("Scale the values to a (0,1) range; the columns (['a', 'b']).\n```\nimport numpy as np\n"
            "from datetime import datetime, timedelta\nfrom random import randint, seed as rseed\n"
            "NUMBERS = list(range(1, 7))\nSTART = datetime(2020, 1, 1)\ndef task_func(rolls, seed=None):\n```")
    assert example_calls(stub, "task_func") == []
    assert example_calls(stub.replace("```\n", '```\n"""another_roll(3, 4)"""\n', 1), "task_func") == [((3, 4), ())]


JAVA_FILTER = """import java.util.*;
class Problem {
    // Count the numbers above t in xs.
    // >>> count_above([1, 5, 7], 4)
    // 2
    public static long countAbove(ArrayList<Long> xs, long t) {
"""
GO_FILTER = """package main

// CountAbove counts the numbers above t in xs.
// >>> CountAbove([]int{1, 5, 7}, 4)
// 2
func CountAbove(xs []int, t int) int {
"""
GO_RIGHT = "\tn := 0\n\tfor _, x := range xs {\n\t\tif x > t {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}\n"
CPP_FILTER = """#include<bits/stdc++.h>
// Count the numbers above t in xs.
// >>> count_above([1, 5, 7], 4)
// 2
long count_above(std::vector<long> xs, long t) {
"""


def test_examples_are_read_and_written_by_the_parameter_types_in_java_cpp_and_go() -> None:
    from sejury.execution.calls import call_writer, example_calls
    from sejury.execution.typed_literals import parse_type, quoted, typed_parameters, write

    # MultiPL-E's Java keeps the Python name (count_above) for the camelCase method (countAbove)
    assert example_calls(JAVA_FILTER, "countAbove", "java") == [(([1, 5, 7], 4), ())]
    assert example_calls(CPP_FILTER, "count_above", "cpp") == [(([1, 5, 7], 4), ())]
    assert example_calls(CPP_FILTER.replace("[1, 5, 7]", "{1, 5, 7}"), "count_above", "cpp") == [(([1, 5, 7], 4), ())]
    java, cpp = call_writer(JAVA_FILTER, "countAbove", "java"), call_writer(CPP_FILTER, "count_above", "cpp")
    assert java is not None and cpp is not None
    assert java((([1, 5, 7], 4), ())) == "countAbove(new ArrayList<Long>(Arrays.<Long>asList(1L, 5L, 7L)), 4L);"
    assert cpp((([1, 5, 7], 4), ())) == "count_above(std::vector<long>{1, 5, 7}, 4);"
    assert java((([1.5], 4), ())) is None and java((([1], 4, 5), ())) is None  # not the type, not the arity
    assert [(t.text(), n) for t, n in typed_parameters(
        "std::tuple<long, long> f(const std::vector<std::tuple<long, long>>& xs, std::string s) {", "f") or []] \
        == [("std::vector<std::tuple<long, long>>", "xs"), ("std::string", "s")]
    assert write(2 ** 31, parse_type("int"), "java") is None
    assert write(2 ** 31, parse_type("long"), "java") == "2147483648L"
    assert write({"a": 1}, parse_type("HashMap<String,Long>"), "java") == \
        'new HashMap<String, Long>(Map.<String, Long>ofEntries(Map.entry("a", 1L)))'
    assert write([3, 4], parse_type("Pair<Integer, Integer>"), "java") == "Pair.<Integer, Integer>with(3, 4)"
    assert write(None, parse_type("std::optional<long>"), "cpp") == "std::optional<long>()"
    assert write(2, parse_type("float"), "java") == "2.0f" and write(True, parse_type("long"), "cpp") is None
    assert write(-3, parse_type("short"), "java") == "(short) -3" and write(300, parse_type("byte"), "java") is None
    assert quoted('a"\\\n\x01é', "java") == '"a\\"\\\\\\n\\001\\u00e9"' and quoted("é?", "cpp") == '"é\\?"'
    gofn = call_writer(GO_FILTER.replace("t int)", "t int, m map[string]float64, s string)"), "CountAbove", "go")
    assert gofn is not None and gofn((([1, -5], 4, {"k": 2}, "a\x01"), ())) == \
        'CountAbove([]int{1, -5}, 4, map[string]float64{"k": 2.0}, "a\\x01");'
    assert example_calls(GO_FILTER, "CountAbove", "go") == [(([1, 5, 7], 4), ())]
    assert parse_type("Union_int_float_String") is not None
    assert write(1, parse_type("Union_int_float_String"), "java") is None  # no rule: the input is left out


def test_java_cpp_and_go_literals_in_s5s_tests_are_read_as_values() -> None:
    from sejury.execution.calls import seed_calls

    java = ("public class Main { public static void main(String[] a) {\n"
            "  assert Problem.f(new ArrayList<Long>(Arrays.asList(1L, -2L)), List.of(\"a\\n\"), 1.5f, 'c',\n"
            "                   Pair.with(1, 2), new int[]{1, 2}, Optional.empty(), new ArrayList<>()) == 3;\n"
            "  s.f(Map.of(\"a\", 1), new HashMap<>(Map.of(\"b\", 2)), Set.of(3), -0x1F, 017, 1e3, Optional.of(4));\n"
            "  new Solution().f(x, 1);  // f(9) in a comment, f(y) with a variable: no seed\n"
            "  String s = \"f(1)\";\n}}\n")
    assert seed_calls(java, "f", "java") == [
        (([1, -2], ["a\n"], 1.5, "c", (1, 2), [1, 2], None, []), ()),
        (({"a": 1}, {"b": 2}, {3}, -31, 15, 1000.0, 4), ())]
    cpp = ("int main() {\n  assert(f(std::vector<long>({1, -2}), {3, 4}, std::string(\"x\"), 1.5f, true, '\\n',\n"
           "           std::make_tuple(1, 2), std::nullopt, 10L, std::map<std::string, long>{{\"a\", 1}}) == 3);\n"
           "  assert(issame(f({}, \"ab\" \"c\", 0x1FUL, -2.5e-3, (long)5, std::vector<std::vector<long>>{{1}}), {}));"
           "\n  f(x);\n}\n")
    go = ("func TestF(t *testing.T) {\n  if F([]int{1, -2}, map[string]int{\"a\": 1}, `r\\n`, 'c', float64(3), nil,"
          " [][]int{{1}, {}}) != 2 { t.Fatal(\"F(9)\") }\n  s.F(0x10, -1.5e3); F(x)\n}\n")
    assert seed_calls(go, "F", "go") == [
        (([1, -2], {"a": 1}, "r\\n", "c", 3, None, [[1], []]), ()), ((16, -1500.0), ())]
    # a variable given a literal before the call stands for it, as its last assignment left it
    java_vars = ("class T { void m() { ArrayList<Integer> l = new ArrayList<>(Arrays.asList(5, 3)); int k = 3;\n"
                 "  assert unique(l, k); l = new ArrayList<>(); assert unique(l, k); k += 1; assert unique(l, k);\n"
                 "  l = other(); assert unique(l, 2); } }")
    assert seed_calls(java_vars, "unique", "java") == [(([5, 3], 3), ()), (([], 3), ())]
    cpp_vars = ("int main() { std::vector<long> v = {1, 2}; long k{3}; std::vector<long> w{5};\n"
                "  assert(f(v, k) == f(w, 1)); }")
    assert seed_calls(cpp_vars, "f", "cpp") == [(([1, 2], 3), ()), (([5], 1), ())]
    assert seed_calls("arr := []int{1, 2}\nk := 4\nF(arr, k)\nk += 1\nF(arr, k)", "F", "go") == [(([1, 2], 4), ())]
    assert seed_calls(cpp, "f", "cpp") == [
        (([1, -2], [3, 4], "x", 1.5, True, "\n", (1, 2), None, 10, {"a": 1}), ()),
        (([], "abc", 31, -0.0025, 5, [[1]]), ())]


async def test_ex_fuzz_judges_on_the_problems_examples_with_no_model_call(sandbox: DockerSandbox) -> None:
    """Ex-fuzz needs no model: the problem's example (``count_above([1, 5, 7], 4)``) and its
    mutations, answered by the reference, catch the ``>=`` candidate; a right one agrees on all;
    a problem with no example leaves it unscored, saying so."""
    problem = COUNT_PROBLEM.replace('above t."""', 'above t.\n    >>> count_above([1, 5, 7], 4)\n    2\n    """')
    model = ScriptedChatModel(script=lambda messages: pytest.fail("Ex-fuzz called the model"))
    judge = Judge(model, team=["Ex-fuzz"], cache=False, execute=True, sandbox=sandbox)

    def count(candidate: str, p: str = problem) -> Sample:
        return Sample(id="e", task="code_generation", language="python", problem=p, candidate=candidate,
                      reference=COUNT_REF)

    wrong = (await judge.ajudge(count(WRONG_COUNT))).strategies["example_fuzz"]
    assert wrong.status is Status.SCORED and wrong.score is not None and wrong.score < 100, wrong
    a = wrong.artifacts
    assert a["seeds"] == 1 and a["made"] == 30 and a["inputs"] == 31 and a["agreed"] < 31 and wrong.llm_calls == 0
    right = await judge.ajudge(count("    return sum(1 for x in xs if t < x)\n"))
    assert right.strategies["example_fuzz"].score == 100 and right.score == 100
    bare = (await judge.ajudge(count(WRONG_COUNT, COUNT_PROBLEM))).strategies["example_fuzz"]
    assert bare.status is Status.UNSCORED and "shows no call of count_above" in (bare.detail or "")
    assert model.calls == 0


async def ex_fuzz_on(sandbox: DockerSandbox, language: str, problem: str, right: str,
                     wrong: str) -> tuple[StrategyResult, StrategyResult]:
    """Ex-fuzz alone (no model: the scripted one fails the test if asked) on the wrong candidate and
    on the right one (the reference), judged side by side: the sandbox's two containers each take
    one (compiling is most of the time).  Their Ex-fuzz results, wrong first."""
    judge = Judge(ScriptedChatModel(script=lambda messages: pytest.fail("Ex-fuzz called the model")),
                  team=["Ex-fuzz"], cache=False, execute=True, sandbox=sandbox)

    def sample(candidate: str) -> Sample:
        return Sample(id="e", task="code_generation", language=language, problem=problem, candidate=candidate,
                      reference=right)

    caught, agreed = await asyncio.gather(judge.ajudge(sample(wrong)), judge.ajudge(sample(right)))
    return caught.strategies["example_fuzz"], agreed.strategies["example_fuzz"]


@pytest.mark.docker
@pytest.mark.parametrize(("language", "problem", "right", "wrong"), [
    ("java", JAVA_FILTER, "        return xs.stream().filter(x -> x > t).count();\n    }\n}\n",
     "        return xs.stream().filter(x -> x >= t).count();\n    }\n}\n"),
    ("cpp", CPP_FILTER, "    long n = 0;\n    for (long x : xs) n += x > t;\n    return n;\n}\n",
     "    long n = 0;\n    for (long x : xs) n += x >= t;\n    return n;\n}\n"),
    ("go", GO_FILTER, GO_RIGHT, GO_RIGHT.replace("x > t", "x >= t")),
])
async def test_ex_fuzz_writes_the_examples_as_java_cpp_and_go_calls_of_the_declared_types(
        sandbox: DockerSandbox, language: str, problem: str, right: str, wrong: str) -> None:
    """MultiPL-E's Java and C++ problems show Python examples, a HumanEval-X Go problem Go's own
    (``[]int{1, 5, 7}``); Ex-fuzz reads them, writes each input in the parameters' types (``new
    ArrayList<Long>(...)``, ``std::vector<long>{...}``, ``[]int{...}``), and the reference
    answers: the ``>=`` candidate is caught, the right one agrees on all."""
    caught, agreed = await ex_fuzz_on(sandbox, language, problem, right, wrong)
    assert caught.status is Status.SCORED and caught.score is not None and caught.score < 100, caught
    assert caught.artifacts["seeds"] == 1 and caught.artifacts["inputs"] > 10, caught.artifacts
    assert agreed.score == 100 and agreed.artifacts["inputs"] == caught.artifacts["inputs"], agreed


@pytest.mark.docker
@pytest.mark.parametrize(("language", "problem", "right", "wrong", "tests"), [
    ("java", JAVA_FILTER.replace("    // >>> count_above([1, 5, 7], 4)\n    // 2\n", ""),
     "        return xs.stream().filter(x -> x > t).count();\n    }\n}\n",
     "        return xs.stream().filter(x -> x >= t).count();\n    }\n}\n",
     "```java\npublic class Main {\n    public static void main(String[] args) {\n"
     "        assert Problem.countAbove(new ArrayList<>(Arrays.asList(1L, 5L, 7L)), 4L) == 2L;\n    }\n}\n```"),
    ("cpp", CPP_FILTER.replace("// >>> count_above([1, 5, 7], 4)\n// 2\n", ""),
     "    long n = 0;\n    for (long x : xs) n += x > t;\n    return n;\n}\n",
     "    long n = 0;\n    for (long x : xs) n += x >= t;\n    return n;\n}\n",
     "```cpp\nint main() {\n    assert(count_above({1, 5, 7}, 4) == 2);\n}\n```"),
    ("go", GO_FILTER.replace("// >>> CountAbove([]int{1, 5, 7}, 4)\n// 2\n", ""), GO_RIGHT,
     GO_RIGHT.replace("x > t", "x >= t"),
     "```go\nfunc TestCountAbove(t *testing.T) {\n\tif CountAbove([]int{1, 5, 7}, 4) != 2 {\n"
     "\t\tt.Fatal(\"wrong\")\n\t}\n}\n```"),
])
async def test_s5_fuzz_reads_java_cpp_and_go_literals_and_writes_inputs_by_the_declared_types(
        sandbox: DockerSandbox, language: str, problem: str, right: str, wrong: str, tests: str) -> None:
    """S5's one Java (C++) test passes a ``>=`` candidate; S5-fuzz reads its literal arguments
    (``new ArrayList<>(Arrays.asList(1L, 5L, 7L))``, ``{1, 5, 7}``), mutates them, writes each new
    input in the signature's types and catches the candidate; the right one agrees on all."""
    judge = Judge(ScriptedChatModel(script=script(tests)), team=["S5-exec", "S5-fuzz"], cache=False, execute=True,
                  sandbox=sandbox)

    def sample(candidate: str) -> Sample:
        return Sample(id="fc", task="code_generation", language=language, problem=problem, candidate=candidate,
                      reference=right)

    caught, right_v = await asyncio.gather(judge.ajudge(sample(wrong)), judge.ajudge(sample(right)))  # side by side
    fuzz = caught.strategies["test_fuzz"]
    assert caught.strategies["test_pass"].score == 100
    assert fuzz.status is Status.SCORED and fuzz.score is not None and fuzz.score < 100, fuzz
    assert fuzz.artifacts["seeds"] == 1 and 10 < fuzz.artifacts["inputs"] <= 30, fuzz.artifacts
    agreed = right_v.strategies["test_fuzz"]
    assert agreed.score == 100 and agreed.artifacts["inputs"] == fuzz.artifacts["inputs"], agreed


@pytest.mark.docker
async def test_calls_that_do_not_compile_against_the_reference_leave_the_fuzz_juror_unscored(
        sandbox: DockerSandbox) -> None:
    """Our failure is never the candidate's: when the calls Ex-fuzz writes from the problem's
    signature do not compile against the reference (here the reference's method takes a String),
    the juror is unscored and says it is the harness's failure, not scored 0."""
    judge = Judge(ScriptedChatModel(script=lambda messages: pytest.fail("Ex-fuzz called the model")),
                  team=["Ex-fuzz"], cache=False, execute=True, sandbox=sandbox)
    other = ("import java.util.*;\nclass Problem {\n    public static long countAbove(String xs, long t) {\n"
             "        return xs.length();\n    }\n}\n")
    stub = JAVA_FILTER + "        return 0;\n    }\n}\n"  # complete code: reference and candidate stand alone
    result = (await judge.ajudge(Sample(id="nc", task="code_generation", language="java", problem=stub,
                                        candidate=other, reference=other))).strategies["example_fuzz"]
    assert result.status is Status.UNSCORED, result
    assert "do not compile against the reference (the harness's failure" in (result.detail or ""), result.detail


def test_the_bundled_ex_fuzz_examples_are_judged_by_the_cli_with_no_model(tmp_path: Path) -> None:
    """`sejury judge examples/ex_fuzz/*.json --team Ex-fuzz --execute` (the README's line): the
    problem's example and its mutations, in Java and Go, catch the candidate that skips 1-digit
    numbers, with no model call; a JavaScript sample with no reference is checked on the outputs its
    problem states."""
    import json
    import os
    import subprocess
    import sys

    files = sorted(str(p) for p in (EXAMPLES / "ex_fuzz").glob("*.json"))
    out = subprocess.run([sys.executable, "-m", "sejury.cli", "judge", *files, "--team", "Ex-fuzz", "--execute",
                          "--json", "--no-cache"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "SEJURY_RUN_DIR": str(tmp_path / "run")})
    assert out.returncode == 0, out.stderr
    verdicts = [json.loads(line) for line in out.stdout.splitlines()]
    assert sorted(v["sample_id"] for v in verdicts) == ["ex-fuzz-go-add-elements", "ex-fuzz-java-add-elements",
                                                        "ex-fuzz-js-iscube-no-reference"]
    # no reference: the problem's stated outputs are the expected values; the candidate misses iscube(-1)
    alone = next(v for v in verdicts if v["sample_id"].endswith("no-reference"))["strategies"]["example_fuzz"]
    assert alone["score"] == round(100 * 5 / 6, 2) and alone["llm_calls"] == 0, alone
    assert alone["artifacts"]["differs"] == [{"example": "iscube(-1) -> true", "candidate": "false"}], alone
    for v in [v for v in verdicts if not v["sample_id"].endswith("no-reference")]:
        ex = v["strategies"]["example_fuzz"]
        assert ex["status"] == "scored" and ex["score"] < 50 and ex["llm_calls"] == 0, ex
        assert ex["artifacts"]["mismatches"], ex
