"""A large test text splits into every one of its tests, each unit holding its own test and what it
needs, never a copy of all the others: a ``unittest`` class or a Jest block of 2,000 tests gives
2,000 small units (before, each unit copied the whole class, the ``Copies`` bound kept the first
few dozen, and Python's splitter re-read the whole text once per statement: hours on 1 MB).
The time these take is measured in ``bench/split_scaling.py``, not here."""

from __future__ import annotations

import ast
import random

import pytest

from sejury.execution.languages import _bdd, _pysource
from sejury.execution.languages._pysteps import Step, Steps
from sejury.execution.languages._unittest import named
from sejury.execution.languages.base import Copies
from sejury.execution.runner import split_tests
from tests.helpers.examples import judge_wrong_and_right

N = 2_000


def test_a_testcase_class_of_two_thousand_tests_gives_one_small_unit_per_test() -> None:
    tests = ("import unittest\n\nclass TestBig(unittest.TestCase):\n"
             "    def setUp(self):\n        self.base = 10\n\n"
             "    def helper(self, x):\n        return f(x) + self.base\n\n"
             + "".join(f"    # test {i}\n    def test_{i}(self):\n"
                       f"        self.assertEqual(self.helper({i}), {i} + 10)\n\n" for i in range(N)))
    suite = split_tests("python", tests)
    assert len(suite.units) == N
    for i, unit in enumerate(suite.units):
        tree = ast.parse(unit)  # each unit is Python as it stands
        cls = tree.body[0]
        assert isinstance(cls, ast.ClassDef)
        assert [m.name for m in cls.body if isinstance(m, ast.FunctionDef)] == ["setUp", "helper", f"test_{i}"]
        assert unit.endswith(f"sejury_case(TestBig, 'test_{i}')")
        assert "# test" not in unit  # the lines between members are not copied into every unit
    assert named(suite.units[7]) == "TestBig.test_7:\nself.assertEqual(self.helper(7), 7 + 10)"


def test_a_test_that_calls_another_test_keeps_it_and_a_class_without_testcase_is_cut_too() -> None:
    tests = '''import unittest

class TestCalls(unittest.TestCase):
    def test_a(self):
        self.test_b()

    @unittest.skipIf(False, "never")
    def test_b(self):
        self.assertEqual(f(1), 1)

    def test_c(self):
        self.assertEqual(f(2), 2)

class TestPlain:
    def test_x(self):
        assert f(1) == 1

    async def test_async(self):
        assert f(1) == 1

    def test_y(self):
        assert f(2) == 2
'''
    units = split_tests("python", tests).units
    assert len(units) == 6
    a, b, c, x, run_async, y = units
    assert "def test_b" in a and "def test_c" not in a  # test_a calls test_b: both there
    assert "@unittest.skipIf" in b and "def test_a" not in b and "def test_c" not in b
    assert "def test_c" in c and "def test_b" not in c
    assert x.endswith("TestPlain().test_x()") and "def test_y" not in x and "async" not in x
    # the async test runs on its unit's event loop (until RUNNERS_VERSION 53 it was left out: called
    # bare, its coroutine would never run)
    assert run_async.endswith("sejury_async(_sejury_self.test_async())") and "def test_x" not in run_async
    assert y.endswith("TestPlain().test_y()") and "def test_x" not in y


def test_a_jest_block_of_two_thousand_tests_gives_one_small_unit_per_test() -> None:
    tests = ("describe('big', () => {\n  let base;\n  beforeEach(() => { base = 10; });\n"
             + "".join(f"  it('t{i}', () => {{ expect(f({i}) + base).toBe({i} + 10); }});\n" for i in range(N))
             + "  describe('inner', () => {\n    test.each([[1, 2]])('row %i', (a, b) => { expect(f(a)).toBe(b); });\n"
               "  });\n});\n")
    suite = split_tests("javascript", tests)
    assert len(suite.units) == N + 1
    for i, unit in enumerate(suite.units[:N]):
        assert unit.count("it(") == 1 and f"it('t{i}'" in unit and "beforeEach" in unit
        assert unit.endswith("sejuryTest(0);") and len(unit) < 300
        assert _bdd.named(unit) == f"big > t{i}"
    last = suite.units[-1]
    assert "it(" not in last and "test.each" in last and _bdd.named(last) == "big > row %i"


def test_a_block_whose_tests_cannot_be_told_apart_is_left_whole() -> None:
    # a test call that does not close (a reply cut off): the block as it was, its k-th test run
    units = _bdd.units("describe('d', () => {\n  it('a', () => { f(1); });\n  it('b', () => { f(2", Copies())
    assert [u.rsplit("\n", 1)[-1] for u in units] == ["sejuryTest(0);", "sejuryTest(1);"]
    assert all("it('a'" in u and "it('b'" in u for u in units)


SOURCES = [
    "x = 1\ny = 'é' + \"ü\"  # ünïcode\nassert f(x) == y\n",
    "def test_a():\n\tassert f('\\t') == 1\n\r\nclass T:\r\n    def test_b(self):\r\n        assert f(2) == 2\r\n",
    "if True:\n    z = [1,\n         2]\n    assert z\n",
    "s = '''a\n\fb'''\nassert f(s) == (\n    1)\n",
]


@pytest.mark.parametrize("text", SOURCES)
def test_source_segments_are_those_of_ast(text: str) -> None:
    source = _pysource.Source(text)
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.stmt, ast.expr)):
            for padded in (False, True):
                assert source.segment(node, padded=padded) == (ast.get_source_segment(text, node, padded=padded) or "")


def _walk_back(steps: list[Step], needed: set[str], keep_from: int) -> set[int]:
    """The steps' closure as it was computed before the index: every step, walking back."""
    need, chosen = set(needed), set()
    for i in range(len(steps) - 1, -1, -1):
        s = steps[i]
        if i >= keep_from or s.touches & need:
            chosen.add(i)
            need = (need - s.kills) | s.loads
    return chosen


def test_the_indexed_closure_chooses_the_steps_the_walk_back_chose() -> None:
    rng = random.Random(7)
    names = "abcdefg"
    for _ in range(300):
        steps = Steps(set())
        for k in range(rng.randint(0, 25)):
            touches = frozenset(rng.sample(names, rng.randint(0, 3)))
            kills = frozenset(n for n in touches if rng.random() < 0.4)
            loads = frozenset(rng.sample(names, rng.randint(0, 3)))
            s = Step(f"s{k}", loads, kills, touches, calls_tested=rng.random() < 0.5)
            steps.append(s)
        needed = set(rng.sample(names, rng.randint(0, 4)))
        keep_from = rng.randint(0, len(steps.all))
        assert steps._closure(needed, keep_from) == _walk_back(steps.all, needed, keep_from)


RIGHT = "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n"
WRONG = "def clamp(x, lo, hi):\n    return x if x > 10**6 else max(lo, min(x, hi))\n"  # wrong above a million


def _many_tests(n: int) -> str:
    """A ``TestCase`` of ``n`` tests of ten checks each; only the last checks a value over a million."""
    tests = []
    for i in range(n):
        checks = "".join(f"        self.assertEqual(clamp({i * 10 + k}, 5, {i * 10 + 7}), "
                         f"{max(5, min(i * 10 + k, i * 10 + 7))})\n" for k in range(10))
        tests.append(f"    def test_{i}(self):\n{checks}")
    tests[-1] += "        self.assertEqual(clamp(10**9, 0, 5), 5)\n"
    return "import unittest\n\nclass TestClamp(unittest.TestCase):\n" + "\n".join(tests)


@pytest.mark.docker
async def test_the_last_of_three_hundred_tests_is_run_and_fails_the_wrong_candidate() -> None:
    """A class of 300 tests (163 kB): each unit used to copy the class, the bound kept 24 of them,
    whose files were too large to reach the sandbox, and Sample-tests was unscored."""
    tests = _many_tests(300)
    assert len(tests) > 150_000
    wrong, right = await judge_wrong_and_right("python", "Clamp x to [lo, hi].", tests, right=RIGHT, wrong=WRONG,
                                               sample_id="clamp")
    assert right.strategies["sample_tests"].score == 100, right.strategies["sample_tests"].detail
    got = wrong.strategies["sample_tests"]
    assert got.score == pytest.approx(100 * 299 / 300, abs=0.01), got.detail
    assert wrong.passed is False and got.against is not None and "TestClamp.test_299" in got.against


def test_a_kept_test_called_by_one_defined_before_it_keeps_the_class_order() -> None:
    """Two kept members next to each other keep the class's order, whatever the set of kept names
    iterates first (before, a unit could join them out of order, a SyntaxError)."""
    tests = ("import unittest\n\nclass T(unittest.TestCase):\n    def test_b(self):\n        self.test_a()\n\n"
             "    def test_a(self):\n        self.assertTrue(f(1))\n\n"
             "    def test_c(self):\n        self.assertTrue(f(2))\n")
    for unit in split_tests("python", tests).units:
        ast.parse(unit)
    b = split_tests("python", tests).units[0]
    assert b.index("def test_b") < b.index("def test_a") and "def test_c" not in b


def test_a_parse_the_grammar_gives_up_on_does_not_leak_into_the_next() -> None:
    from sejury.execution.languages._parsers import parser

    go = parser("go")
    with pytest.raises(ValueError):
        go.parse(("package p\nfunc _() {\nif f(" + "<" * 400_000 + "1) != 1 {}\n}\n").encode())
    small = b"package q\nfunc f() {}"
    assert go.parse(small).root_node.end_byte == len(small)  # a tree of this text, not the last one's


def test_a_block_whose_brackets_cross_in_a_regex_is_left_whole() -> None:
    block = ("describe('d', () => {\n  it('a', () => { expect(/\\)/.test(')')).toBe(true); });\n"
             "  it('b', () => { f(1); });\n});")
    units = _bdd.units(block, Copies())
    assert [u.rsplit("\n", 1)[-1] for u in units] == ["sejuryTest(0);", "sejuryTest(1);"]
    assert all("it('a'" in u and "it('b'" in u for u in units)
