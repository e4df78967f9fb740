"""pytest's module-level xunit set-up (``sealed_python/fixtures.pyt``): ``setup_module(module)`` run once
before the first test, in the suite's own namespace, so every test sees what it made (an error there
fails every test with it, as pytest errs them); ``teardown_module`` after the last;
``setup_function``/``teardown_function`` around each module-level test, reading the unit's own
names.  Until ``RUNNERS_VERSION`` 55 none of them ran: a suite whose tests use what ``setup_module``
made failed every test on a right program (without a reference, as definitive evidence against it).
Against real pytest's outcomes on the same texts."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

TESTS = '''from solution import *

store = None
log = []


def setup_module(module):
    module.store = Store()
    log.append("module")


def teardown_module():
    log.append("module done")


def setup_function(function):
    store.clear()
    log.append(function.__name__)


def teardown_function(function):
    assert store.size() < 5, "the store grew too large"


def test_starts_empty():
    assert count(store) == 0


def test_adds_twice():
    store.add(1)
    store.add(1)
    assert count(store) == 2


def test_cleared_between_tests():
    assert store.size() == 0
    assert "module" in log


def test_named():
    assert log[-1] == "test_named"
'''
RIGHT = '''class Store:
    def __init__(self):
        self.items = []

    def add(self, x):
        self.items.append(x)

    def size(self):
        return len(self.items)

    def clear(self):
        self.items = []


def count(store):
    return store.size()
'''
WRONG = '''class Store:
    def __init__(self):
        self.items = []

    def add(self, x):
        if x not in self.items:
            self.items.append(x)

    def size(self):
        return len(self.items)

    def clear(self):
        pass


def count(store):
    return store.size()
'''
TEARDOWN = '''from solution import *
store = Store()

def teardown_function(function):
    assert store.size() == 0, "left items behind"

def test_leaves_items():
    store.add(1)
    assert store.size() == 1

def test_after():
    assert count(Store()) == 0
'''
RAISES = '''def setup_module():
    raise RuntimeError("no database")

def test_one():
    assert count(None) == 0

def test_two():
    assert True
'''
HANGS = '''class Store:
    def __init__(self):
        while True:
            pass

def count(store):
    return 0
'''


def test_each_module_level_test_is_set_up_with_the_steps_its_teardown_reads() -> None:
    suite = split_tests("python", TEARDOWN, RIGHT)
    # the suite's steps first (its teardown reads ``store``; the second test's body does not), then the set-up
    assert [u.splitlines()[:2] for u in suite.units] == [
        ["store = Store()", "sejury_xunit_function('test_leaves_items', globals())"],
        ["store = Store()", "sejury_xunit_function('test_after', globals())"]]
    assert "def teardown_function" in suite.setup


@pytest.mark.docker
async def test_setup_module_and_setup_function_run_as_pytest_runs_them(sandbox: DockerSandbox) -> None:
    """pytest: the right program passes 4 of 4, the wrong one fails ``test_adds_twice`` and
    ``test_cleared_between_tests`` (a test of plain asserts is a unit per assert here)."""
    suite = split_tests("python", TESTS, RIGHT)
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=60)
    assert right.passed == [True] * 5, right.reasons
    wrong = await run_suite(sandbox, "python", WRONG, suite, timeout=60)
    assert wrong.passed == [True, False, False, True, True], wrong.reasons


@pytest.mark.docker
async def test_a_set_up_that_raises_or_hangs_fails_every_test_with_its_reason(sandbox: DockerSandbox) -> None:
    raised = await run_suite(sandbox, "python", RIGHT, split_tests("python", RAISES, RIGHT), timeout=60)
    assert raised.passed == [False, False]
    assert all(r == "RuntimeError in setup_module: no database" for r in raised.reasons), raised.reasons
    hung = await run_suite(sandbox, "python", HANGS, split_tests("python", TESTS, RIGHT), timeout=120)
    assert hung.loaded and hung.passed == [False] * 5, hung.reasons
    assert "TimeoutError in setup_module" in hung.reasons[0], hung.reasons


@pytest.mark.docker
async def test_teardown_function_fails_the_test_it_follows_and_the_next_runs(sandbox: DockerSandbox) -> None:
    report = await run_suite(sandbox, "python", RIGHT, split_tests("python", TEARDOWN, RIGHT), timeout=60)
    assert report.passed == [False, True], report.reasons
    assert report.reasons[0] == "AssertionError in the test's teardown: left items behind"
