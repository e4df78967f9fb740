"""``unittest.TestCase`` suites (BigCodeBench's own tests' form) run as unittest runs them: each
test a unit, its class's and its own fixtures run, subtests counted, the first failure raised as
raised (``sejury/execution/languages/_unittest.py``, the checker's ``sejury_case``)."""

from __future__ import annotations

import pytest

from sejury import Sample
from sejury.execution.languages._unittest import named
from sejury.execution.languages.base import Suite
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from sejury.strategies.sample_tests import detail_lines
from tests.helpers.examples import judge_pair, judge_samples, judge_wrong_and_right

SUITE = '''import unittest

class Base(unittest.TestCase):
    def setUp(self):
        self.xs = [3, 1, 2]

class Sorting(Base):
    def test_sorted(self):
        self.assertEqual(sort_desc(self.xs), [3, 2, 1])

    def test_each(self):
        for xs, want in [([1], [1]), ([1, 2], [2, 1])]:
            with self.subTest(xs=xs):
                self.assertEqual(sort_desc(xs), want)

    def helper(self):
        return 1

class Reversed(Sorting):
    def test_reverse(self):
        self.assertEqual(sort_desc(self.xs)[::-1], [1, 2, 3])

class TestPlain:
    def test_plain(self):
        assert sort_desc([]) == []

if __name__ == "__main__":
    unittest.main()
'''


def test_a_testcase_class_gives_a_unit_per_test_and_its_bases_go_to_the_setup() -> None:
    suite = split_tests("python", SUITE, "def sort_desc(xs):\n    return sorted(xs, reverse=True)\n")
    assert [u.splitlines()[-1] for u in suite.units] == [
        "sejury_case(Sorting, 'test_sorted')", "sejury_case(Sorting, 'test_each')",
        "sejury_case(Reversed, 'test_reverse')",
        # the tests Reversed inherits from Sorting run on Reversed too, as unittest runs them
        "sejury_case(Reversed, 'test_sorted')", "sejury_case(Reversed, 'test_each')",
        "TestPlain().test_plain()"]
    assert "class Base(unittest.TestCase)" in suite.setup  # no test of its own: the others' base
    assert "class Sorting(Base)" in suite.setup  # a base of Reversed: its units define Reversed on it
    assert named(suite.units[0]) == "Sorting.test_sorted:\nself.assertEqual(sort_desc(self.xs), [3, 2, 1])"
    assert named(suite.units[5]) == suite.units[5]  # not a TestCase's test: as it is


FIXTURES = '''import unittest

LOG = []

class Fixtures(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.base = 10

    def setUp(self):
        self.addCleanup(LOG.append, "cleaned")
        self.n = self.base + 1

    def test_fixtures_ran(self):
        self.assertEqual(add_one(self.n), 12)

    def test_a_subtest_fails(self):
        for x in [1, 2, 3]:
            with self.subTest(x=x):
                self.assertEqual(add_one(x), x + 1)

    def test_raises_as_the_program_raised(self):
        self.assertEqual(add_one(None), 1)

    @unittest.skip("not today")
    def test_skipped(self):
        self.assertEqual(add_one(1), 2)

    @unittest.expectedFailure
    def test_known_to_fail(self):
        self.assertEqual(add_one(1), 3)

    def test_too_slow(self):
        add_one(-1)
'''
RIGHT = "def add_one(x):\n    while x == -1:\n        pass\n    return x + 1\n"
WRONG = "def add_one(x):\n    while x == -1:\n        pass\n    return x + 1 if x != 2 else 0\n"


@pytest.mark.docker
async def test_a_testcase_runs_its_fixtures_and_subtests_and_fails_as_unittest_would(sandbox: DockerSandbox) -> None:
    suite = split_tests("python", FIXTURES, RIGHT)
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=30)
    assert right.loaded, right.load_error
    # setUpClass and setUp ran; the program's own TypeError is the failure; a skipped test fails; a test
    # marked as an expected failure passes when it fails; a hung test fails on its own alarm only
    assert right.passed == [True, True, False, False, True, False], right.reasons
    assert right.reasons[2].startswith("TypeError"), right.reasons
    assert "SkipTest" in right.reasons[3] and "not today" in right.reasons[3]
    assert "TimeoutError" in right.reasons[5], right.reasons
    wrong = await run_suite(sandbox, "python", WRONG, Suite(suite.setup, suite.units[:2]), timeout=30)
    assert wrong.passed[:2] == [True, False] and "AssertionError" in wrong.reasons[1], wrong.reasons  # x=2's subtest


@pytest.mark.docker
async def test_bigcodebench_style_tests_are_the_sample_tests_evidence() -> None:
    """The bundled ``examples/unittest`` pair (pandas, files made in ``setUp`` and removed in
    ``tearDown``): before, every test failed on the reference (``setUp`` never ran) and Sample-tests
    was unscored for both; now the right one passes 4 of 4 and the wrong one fails the two that count
    rows, the failing test named, and the tests after a failure still find their files."""
    got = await judge_pair("unittest", "csv_rows")
    right, wrong = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert right.score == 100, right.detail
    assert wrong.score == 50, wrong.detail
    assert got["right"].passed is True and got["wrong"].passed is False
    assert wrong.against is not None and "TestCases.test_rows_are_counted_without_the_header" in wrong.against
    assert "[3, 2] != [2, 1]" in wrong.against


PATCHED = """import os
import unittest
from unittest.mock import patch

class TestCases(unittest.TestCase):
    @patch("os.path.exists", return_value=True)
    def test_patched(self, exists):
        self.assertEqual(describe_path("/nowhere"), "exists")

    def test_plain(self):
        self.assertEqual(describe_path("/"), "exists")
"""
DESCRIBE = "import os\n\ndef describe_path(p):\n    return 'exists' if os.path.exists(p) else 'missing'\n"


@pytest.mark.docker
async def test_a_test_that_patches_what_the_program_calls_patches_it_in_the_programs_process() -> None:
    """``@patch("os.path.exists")`` applies in the program's process too (``sealed_python/lending.pyt``):
    until ``RUNNERS_VERSION`` 52 the program saw the real ``os.path.exists``, the test failed on the
    reference and was dropped ("1 of 2 failed on the reference and were dropped")."""
    (v,) = await judge_samples(Sample(id="patched", task="code_generation", language="python",
                                      problem="Say whether a path exists.", candidate=DESCRIBE, reference=DESCRIBE,
                                      tests=PATCHED))
    lines = " ".join(detail_lines(v.strategies["sample_tests"]))
    assert v.strategies["sample_tests"].score == 100
    assert "candidate passed 2/2" in lines and "0 of 2 failed on the reference" in lines, lines


MIXIN = '''import unittest

class TestChecks:
    """Shared tests, run by each subclass with its own way of sorting."""
    def test_empty(self):
        self.assertEqual(self.sort([]), [])

    def test_two(self):
        self.assertEqual(self.sort([1, 2]), [2, 1])

    async def test_async(self):
        self.assertEqual(self.sort([]), [])

class TestOnce(TestChecks, unittest.TestCase):
    def sort(self, xs):
        return sort_desc(xs)

class TestTwice(TestChecks, unittest.TestCase):
    def sort(self, xs):
        return sort_desc(sort_desc(xs))

    def test_two(self):
        self.assertEqual(self.sort([2, 1, 3]), [3, 2, 1])
'''
SORT_RIGHT = "def sort_desc(xs):\n    return sorted(xs, reverse=True)\n"
SORT_WRONG = "def sort_desc(xs):\n    return xs if len(xs) < 3 else sorted(xs, reverse=True)\n"  # two left as they are


def test_tests_a_class_inherits_from_a_mixin_of_the_suite_are_its_units() -> None:
    """unittest runs the tests a class inherits (a mixin of shared tests, a base ``TestCase``) on
    that class, with its own fixtures; until ``RUNNERS_VERSION`` 44 they were not run, and a class
    whose tests are all inherited gave no unit."""
    suite = split_tests("python", MIXIN, SORT_RIGHT)
    assert [u.splitlines()[-1] for u in suite.units] == [
        "TestChecks().test_empty()", "TestChecks().test_two()",  # a Test* class pytest would call too
        "sejury_async(_sejury_self.test_async())",  # (its async test on an event loop, as pytest-asyncio)
        "sejury_case(TestOnce, 'test_empty')", "sejury_case(TestOnce, 'test_two')",
        "sejury_case(TestOnce, 'test_async')",  # run as unittest runs it (a plain TestCase does not await it)
        "sejury_case(TestTwice, 'test_two')",
        "sejury_case(TestTwice, 'test_empty')", "sejury_case(TestTwice, 'test_async')"]
    assert "class TestChecks" in suite.setup  # the classes derive from it
    once = suite.units[3]
    assert once.startswith("class TestOnce(TestChecks, unittest.TestCase):\n    def sort") and "test_two" not in once
    assert "def test_two" in suite.units[6] and "def test_two" not in suite.units[7]  # its own one, overriding


@pytest.mark.docker
async def test_an_inherited_test_fails_the_wrong_candidate_in_the_class_that_runs_it() -> None:
    wrong, right = await judge_wrong_and_right("python", "Sort in descending order.", MIXIN, right=SORT_RIGHT,
                                               wrong=SORT_WRONG, sample_id="mixin")
    assert right.strategies["sample_tests"].score == 100, right.strategies["sample_tests"].detail
    got = wrong.strategies["sample_tests"]
    # TestChecks' own tests fail on the reference (it has no ``sort``) and are dropped, and so do the
    # two inherited ``async`` ones (a plain TestCase never runs their body: until RUNNERS_VERSION 53
    # they passed on every program, and the wrong one scored 5/6); of the four left, the wrong one
    # (it leaves [1, 2] as it is) fails only TestOnce's inherited test_two
    assert got.score == pytest.approx(100 * 3 / 4, abs=0.01) and wrong.passed is False, got.detail
    assert got.against is not None and "TestOnce.test_two" in got.against, got.against


MODULE_FIXTURE = '''import os
import unittest
from solution import add_one

STATE = {}


def setUpModule():
    STATE["start"] = add_one(9)
    with open("module.txt", "w") as f:
        f.write("made once")


def tearDownModule():
    os.remove("module.txt")


class TestFromTen(unittest.TestCase):
    def test_state(self):
        self.assertEqual(STATE["start"], 10)

    def test_file(self):
        with open("module.txt") as f:
            self.assertEqual(f.read(), "made once")

    def test_next(self):
        self.assertEqual(add_one(STATE["start"]), 11)
'''
BROKEN_MODULE = MODULE_FIXTURE.replace('STATE["start"] = add_one(9)', 'STATE["start"] = add_one(9) // 0')


@pytest.mark.docker
async def test_set_up_module_runs_once_before_the_first_test_as_unittest_runs_it(sandbox: DockerSandbox) -> None:
    """``setUpModule``/``tearDownModule`` (module-level fixtures): the classes are defined in the
    checker's namespace, where unittest never looked for them, so a test needing their state failed
    on the reference too and was dropped.  A ``setUpModule`` that raises fails every test with its
    error, as unittest reports it."""
    suite = split_tests("python", MODULE_FIXTURE, RIGHT)
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=30)
    assert right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "python", "def add_one(x):\n    return x + 1 if x != 10 else 12\n", suite,
                            timeout=30)
    assert wrong.passed == [True, True, False], wrong.reasons
    broken = await run_suite(sandbox, "python", RIGHT, split_tests("python", BROKEN_MODULE, RIGHT), timeout=30)
    assert broken.passed == [False, False, False] and all("ZeroDivisionError" in r for r in broken.reasons), \
        broken.reasons
