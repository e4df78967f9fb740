"""Values that depend on the random state: the reference answers twice, from two states; a value
that changes is compared by its form, one whose form changes too is not compared."""

from __future__ import annotations

import pytest

from sejury import Judge, Sample
from sejury.execution.random_state import form, may_draw, settle

DICE_PROBLEM = ("Roll n six-sided dice and return the rolls, in order.\n>>> task_func(5)\n>>> task_func(0)\n"
                "```\nimport random\ndef task_func(n):\n```")
DICE = "import random\n\ndef task_func(n):\n    return [random.randint(1, 6) for _ in range(n)]\n"
# right, drawing its numbers another way: other values from the same state
DICE_OTHER_DRAW = "import random\n\ndef task_func(n):\n    return [int(random.random() * 6) + 1 for _ in range(n)]\n"
DICE_ONE_SHORT = DICE.replace("range(n)", "range(n - 1)")


def test_a_values_form_leaves_out_its_numbers_and_strings() -> None:
    assert form("[3, -1.5e-07, 'a', \"b\"]|22") == "[#, #, #, #]|#"
    assert form("DataFrame(columns=['x'], index=[0, 1], rows=[[0.25], [nan]])") == \
        "DataFrame(columns=[#], index=[#, #], rows=[[#], [#]])"
    assert form("(<Axes object of the program>, True)") == "(<Axes object of the program>, True)"


def test_values_are_kept_compared_by_form_or_left_out_by_how_they_change_with_the_state() -> None:
    first = {0: ["[1, 2]|6"], 1: ["[4, 6, 1]|9"], 2: ["[5]|3"], 3: ["!raises ValueError"]}
    again = {0: ["[1, 2]|6"], 1: ["[2, 2, 3]|9"], 2: ["[5, 1]|6"], 3: ["!raises ValueError"]}
    settled = settle(first, again)
    assert settled.values == {0: ["[1, 2]|6"], 1: ["[4, 6, 1]|9"], 3: ["!raises ValueError"]}
    assert settled.by_form == {1} and settled.dropped == 1
    assert settled.artifacts() == {"random_by_form": 1, "random_dropped": 1}
    assert settle(first, first).artifacts() == {}


def test_only_python_that_imports_a_drawing_library_runs_twice() -> None:
    assert may_draw("python", DICE) and may_draw("python", "import numpy as np\n")
    assert not may_draw("python", "def f(x):\n    return x\n") and not may_draw("javascript", DICE)


@pytest.mark.docker
async def test_a_right_program_drawing_its_numbers_another_way_agrees_by_form() -> None:
    """Ex-fuzz (no model) on a dice roller: the right program that draws through ``random.random``
    returns other numbers than the reference's ``randint`` from the same state: those inputs count
    neither way (the same form), and it agrees where nothing is drawn (no dice); the one that rolls
    one die too few has another form wherever something is drawn: it disagrees there."""
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(team="Ex-fuzz", cache=False, traces=False, execute=True, sandbox=sandbox)
        sample = Sample(id="dice", task="code_generation", language="python", problem=DICE_PROBLEM,
                        candidate=DICE_OTHER_DRAW, reference=DICE)
        right = (await judge.ajudge(sample)).strategies["example_fuzz"]
        wrong = (await judge.ajudge(sample.model_copy(update={"candidate": DICE_ONE_SHORT}))).strategies["example_fuzz"]
        assert right.score == 100, (right.detail, right.artifacts)
        assert right.artifacts["random_by_form"] > right.artifacts["inputs"] > 0
        assert wrong.score is not None and wrong.score < 50, wrong.artifacts
        assert wrong.artifacts["inputs"] > right.artifacts["inputs"]  # its other forms count against it
        assert any("depend on the random state" in line for line in _lines(right))
        same = (await judge.ajudge(sample.model_copy(update={"candidate": DICE}))).strategies["example_fuzz"]
        assert same.score == 100
    finally:
        await sandbox.close()


def _lines(result: object) -> list[str]:
    from sejury.strategies.example_fuzz import detail_lines

    return detail_lines(result)  # type: ignore[arg-type]


DICE_TESTS = "```python\nassert len(task_func(3)) == 3\nassert task_func(4) == [1, 2, 3, 4]\n```"


@pytest.mark.docker
async def test_s5_diff_compares_the_values_of_s5s_tests_by_form_where_they_depend_on_the_state() -> None:
    """S5-diff on the model's (scripted) tests of the dice roller: the calls' values depend on the
    random state; the right program that draws another way has their form (no evidence either way:
    unscored, saying so), the short one does not (it disagrees)."""
    from sejury.sandbox.docker import DockerSandbox
    from tests.helpers.fakes import GOOD_REPLIES, ScriptedChatModel, step_of

    sandbox = DockerSandbox(size=1)
    try:
        judge = Judge(ScriptedChatModel(script=lambda m: {**GOOD_REPLIES, "write_tests": DICE_TESTS,
                                                          "predict": "Score: 100"}[step_of(m)]),
                      team="S5-diff", cache=False, traces=False, execute=True, sandbox=sandbox)
        sample = Sample(id="dice", task="code_generation", language="python", problem=DICE_PROBLEM,
                        candidate=DICE_OTHER_DRAW, reference=DICE)
        right = (await judge.ajudge(sample)).strategies["test_diff"]
        wrong = (await judge.ajudge(sample.model_copy(update={"candidate": DICE_ONE_SHORT}))).strategies["test_diff"]
        assert right.score is None and "no evidence either way" in (right.detail or ""), right.detail
        assert wrong.score == 0 and wrong.artifacts["random_by_form"] == 2, wrong.artifacts
    finally:
        await sandbox.close()


SEEDED_TESTS = '''import random
import unittest
import numpy as np

class Seeded(unittest.TestCase):
    def setUp(self):
        np.random.seed(7)

    def test_its_own_seed(self):
        random.seed(42)
        want = [random.randint(1, 6) for _ in range(5)]
        random.seed(42)
        self.assertEqual(task_func(5), want)

    def test_numpys_seed_from_set_up(self):
        want = np.random.RandomState(7).randint(1, 7, size=3).tolist()
        self.assertEqual(noise(3), want)

    def test_two_calls_from_one_seed(self):
        random.seed(3)
        first = task_func(2)
        self.assertEqual(task_func(2), first)  # each call starts where the test left the state: the
        # program's draws, in its own process, do not move the test's (in one process they would)

    def test_no_seed_of_its_own(self):
        self.assertEqual(len(task_func(3)), 3)
'''
SEEDED = DICE + "import numpy as np\n\ndef noise(n):\n    return np.random.randint(1, 7, size=n).tolist()\n"


@pytest.mark.docker
async def test_the_tests_own_seed_reaches_the_program_in_its_own_process() -> None:
    """A test that seeds the random state before it calls (``random.seed(42)``, numpy's in
    ``setUp``) expects the program to draw from that state, as in one process.  The sealed harness
    runs the program in another process: the state now goes with the call (``codec.random_states``);
    before, every call started from the harness's state, and the first two tests failed on the
    reference.  Nothing comes back: the program's draws do not move the test's state."""
    from sejury.execution.runner import run_suite, split_tests
    from sejury.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(size=1)
    try:
        sci = sandbox.for_profile("scientific")
        suite = split_tests("python", SEEDED_TESTS, SEEDED)
        got = await run_suite(sci, "python", SEEDED, suite, timeout=30)
        assert got.loaded and got.passed == [True, True, True, True], got.reasons
        another_draw = SEEDED.replace("random.randint(1, 6)", "int(random.random() * 6) + 1")
        other = await run_suite(sci, "python", another_draw, suite, timeout=30)
        assert other.passed[0] is False  # drawing another way from the test's seed: not the test's numbers
    finally:
        await sandbox.close()
