"""pytest's fixtures as pytest makes them (``languages/_pytest.py``, ``sealed_python/lending.pyt``): a
fixture that takes fixtures, one ``tmp_path`` shared by a test and its fixtures, ``autouse``, ``params``
and ``indirect`` rows, a generator fixture's teardown, ``request.addfinalizer``, pytest-mock's
``mocker``, and test classes' ``setup_method``/``setup_class`` and fixture methods.  Until
``RUNNERS_VERSION`` 53 each of these tests was called bare (or without its set-up) and failed on the
reference, so a user's suite written this way said nothing.  On the real sandbox: the right program
passes every test, a wrong one fails where it is wrong, and the program gains nothing by hanging or
raising in a test's teardown."""

from __future__ import annotations

import pytest

from sejury.execution.evidence import check_on_reference, run_on_candidate
from sejury.execution.runner import assemble_program, run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

TESTS = '''import os
import pytest
import solution

@pytest.fixture
def store(tmp_path):
    path = tmp_path / "db.txt"
    yield Store(path)
    path.write_text("closed")

@pytest.fixture(autouse=True)
def strict(monkeypatch):
    monkeypatch.setenv("STORE_MODE", "strict")

@pytest.fixture(params=[1, 2, 3])
def count(request):
    return request.param

@pytest.fixture
def doubled(request):
    return request.param * 2

def test_shares_tmp_path(store, tmp_path):
    store.add("a")
    assert (tmp_path / "db.txt").read_text() == "a\\n"

def test_per_param(store, count):
    for i in range(count):
        store.add(str(i))
    assert store.size() == count

@pytest.mark.parametrize("doubled", [5], indirect=True)
def test_indirect(doubled):
    assert doubled == 10

def test_autouse():
    assert mode() == "strict"

def test_mocker(mocker):
    getcwd = mocker.patch("os.getcwd", return_value="/x")
    assert where() == "/x"
    getcwd.assert_called_once()

def test_spy_own(mocker):
    spy = mocker.spy(solution, "helper")
    assert uses_helper() == 3
    spy.assert_called_once_with(1)
    assert spy.spy_return == 3

class TestStore:
    @classmethod
    def setup_class(cls):
        cls.base = 10

    def setup_method(self, method):
        self.name = method.__name__

    @pytest.fixture(autouse=True)
    def folder(self, tmp_path):
        self.path = tmp_path

    def test_set_up(self):
        assert self.base == 10 and self.name == "test_set_up" and self.path.is_dir()
        assert add_base(self.base, 1) == 11

    @pytest.mark.parametrize("n", [1, 2])
    def test_rows(self, n, store):
        store.add("x" * n)
        assert store.size() == 1
'''
RIGHT = '''import os

class Store:
    def __init__(self, path):
        self.path = path
        self.items = []

    def add(self, x):
        self.items.append(x)
        self.path.write_text("".join(i + "\\n" for i in self.items))

    def size(self):
        return len(self.items)

def mode():
    return os.environ.get("STORE_MODE", "lax")

def where():
    return os.getcwd()

def helper(x):
    return x + 2

def uses_helper():
    return helper(1)

def add_base(b, x):
    return b + x
'''
# keeps only the last item; reads the mode at load; guesses the folder; skips its helper; adds one too many
WRONG = '''import os
MODE = os.environ.get("STORE_MODE", "lax")

class Store:
    def __init__(self, path):
        self.path = path
        self.items = []

    def add(self, x):
        self.items[:] = [x]
        self.path.write_text(x + "\\n")

    def size(self):
        return len(self.items)

def mode():
    return MODE

def where():
    return "/x"

def helper(x):
    return x + 2

def uses_helper():
    return 3

def add_base(b, x):
    return b + x + 1
'''


def test_fixtures_are_made_once_per_test_in_pytests_order() -> None:
    """The units as written: the test and ``store`` share one ``tmp_path``; the ``autouse`` fixture is
    made first in every test; ``count``'s three params give three units; the indirect row goes to
    ``doubled``'s ``request.param``; a class's test makes its instance, runs its xunit set-up and its
    fixture method, whose ``@pytest.fixture`` is left out of the class (called directly it raises)."""
    suite = split_tests("python", TESTS, RIGHT)
    assert len(suite.units) == 11
    first = suite.units[0].splitlines()
    assert first[-5:] == [
        "_sejury_monkeypatch = sejury_monkeypatch()",
        "_sejury_strict = sejury_fixture(strict, monkeypatch=_sejury_monkeypatch)",
        "_sejury_tmp_path = __import__('pathlib').Path(__import__('tempfile').mkdtemp())",
        "_sejury_store = sejury_fixture(store, tmp_path=_sejury_tmp_path)",
        "test_shares_tmp_path(store=_sejury_store, tmp_path=_sejury_tmp_path)"]
    assert [u.splitlines()[-2] for u in suite.units[1:4]] == [
        f"_sejury_count = sejury_fixture(count, request=sejury_request({n}))" for n in (1, 2, 3)]
    assert suite.units[4].splitlines()[-2:] == ["_sejury_doubled = sejury_fixture(doubled, request=sejury_request(5))",
                                                "test_indirect(doubled=_sejury_doubled)"]
    klass = suite.units[8]
    assert "@pytest.fixture" not in klass and "def folder(self, tmp_path):" in klass
    assert klass.splitlines()[-7:] == [  # the module's autouse fixture, the xunit set-up, the class's, as pytest
        "_sejury_self = TestStore()", "_sejury_monkeypatch = sejury_monkeypatch()",
        "_sejury_strict = sejury_fixture(strict, monkeypatch=_sejury_monkeypatch)",
        "sejury_xunit(_sejury_self, 'test_set_up')",
        "_sejury_tmp_path = __import__('pathlib').Path(__import__('tempfile').mkdtemp())",
        "_sejury_folder = sejury_fixture(_sejury_self.folder, tmp_path=_sejury_tmp_path)", "_sejury_self.test_set_up()"]
    assert suite.units[10].endswith("_sejury_self.test_rows(n=2, store=_sejury_store)")


def test_fixtures_that_take_each_other_or_chain_without_end_leave_the_test_called_bare() -> None:
    """Fixtures that take each other, and a chain of 3,000 (a hostile suite: the judge's own recursion),
    are not followed: the test is called bare, fails on the reference and is dropped, as before."""
    cycle = ("import pytest\n@pytest.fixture\ndef a(b):\n    return 1\n@pytest.fixture\ndef b(a):\n    return 1\n"
             "def test_x(a):\n    assert a\n")
    assert split_tests("python", cycle).units[0].endswith("\ntest_x()")
    chain = "import pytest\n" + "".join(f"@pytest.fixture\ndef f{i}(f{i + 1}):\n    return 1\n" for i in range(3000))
    chain += "@pytest.fixture\ndef f3000():\n    return 0\ndef test_x(f0):\n    assert f0\n"
    assert split_tests("python", chain).units[0].endswith("\ntest_x()")
    # more autouse fixtures than a test makes: not walked for each of the tests (the split was
    # quadratic: 11,000 of each took 33 s)
    many = "import pytest\n" + "".join(f"@pytest.fixture(autouse=True)\ndef a{i}():\n    pass\n" for i in range(100))
    many += "".join(f"def test_{i}():\n    assert True\n" for i in range(3))
    assert [u.splitlines()[-1] for u in split_tests("python", many).units] == ["assert True"] * 3


@pytest.mark.docker
async def test_a_suite_of_fixtures_mocker_and_test_classes_runs_as_pytest_runs_it(sandbox: DockerSandbox) -> None:
    suite = split_tests("python", TESTS, RIGHT)
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 11, right.reasons
    wrong = await run_suite(sandbox, "python", WRONG, suite, timeout=60)
    assert wrong.passed == [True, True, False, False, True, False, False, False, False, True, True], wrong.reasons
    assert "Expected 'getcwd' to have been called once" in wrong.reasons[6], wrong.reasons
    assert "Expected 'helper' to be called once" in wrong.reasons[7], wrong.reasons


CLOSED = '''@pytest.fixture
def conn():
    c = Conn()
    yield c
    c.close()
'''
TEARDOWNS = '''import pytest

''' + CLOSED + '''
@pytest.fixture
def checked():
    c = Conn()
    yield c
    assert c.sent == ["y"], "the connection saw something else"

@pytest.fixture
def finalized(request):
    c = Conn()
    request.addfinalizer(c.close)
    return c

def test_closed_after(conn):
    conn.send("x")
    assert conn.sent == ["x"]

def test_checked_after(checked):
    checked.send("y")

def test_finalized(finalized):
    finalized.send("z")
    assert finalized.sent == ["z"]

def test_later():
    assert Conn().sent == []
'''
CONN = '''class Conn:
    def __init__(self):
        self.sent = []

    def send(self, x):
        self.sent.append(x)

    def close(self):
        pass
'''
# hangs when closed; sends what it was not given; raises when closed
HANGS = CONN.replace("        pass", "        while True:\n            pass")
ALTERS = CONN.replace("self.sent.append(x)", "self.sent.append(x.upper())")
RAISES = CONN.replace("        pass", "        raise RuntimeError('cannot close')")


@pytest.mark.docker
async def test_a_teardown_runs_after_its_test_and_a_program_gains_nothing_by_hanging_or_failing_there(
        sandbox: DockerSandbox) -> None:
    """A fixture's code after its ``yield`` and a finalizer run when the test ends: a check there
    counts, and a program that hangs or raises when the test's teardown calls it fails that test (as
    pytest errs it), while the next tests still run."""
    suite = split_tests("python", TEARDOWNS, CONN)
    right = await run_suite(sandbox, "python", CONN, suite, timeout=60)
    assert right.passed == [True] * 4, right.reasons
    hangs = await run_suite(sandbox, "python", HANGS, suite, timeout=90)
    assert hangs.passed == [False, True, False, True], hangs.reasons
    assert "TimeoutError in the test's teardown" in hangs.reasons[0], hangs.reasons
    alters = await run_suite(sandbox, "python", ALTERS, suite, timeout=60)
    assert alters.passed == [False, False, False, True], alters.reasons
    assert "AssertionError in the test's teardown: the connection saw something else" in alters.reasons[1]
    raises = await run_suite(sandbox, "python", RAISES, suite, timeout=60)
    assert raises.passed == [False, True, False, True], raises.reasons
    assert "in the test's teardown" in raises.reasons[2], raises.reasons


ASYNC_TESTS = '''import asyncio
import unittest
from unittest.mock import AsyncMock, MagicMock
import pytest

@pytest.fixture
async def ready():
    await asyncio.sleep(0)
    yield "ready"

@pytest.mark.asyncio
async def test_awaited():
    assert await add_later(1, 2) == 3

@pytest.mark.asyncio
@pytest.mark.parametrize("a, b", [(2, 2), (5, -1)])
async def test_rows(a, b, ready):
    assert ready == "ready" and await add_later(a, b) == a + b

def test_run_from_sync_code():
    assert asyncio.run(add_later(3, 4)) == 7

@pytest.mark.asyncio
async def test_gathered():
    assert await asyncio.gather(add_later(1, 1), add_later(2, 2)) == [2, 4]

@pytest.mark.asyncio
async def test_async_mock():
    fetch = AsyncMock(return_value={"n": 4})
    assert await doubled(fetch) == 8
    fetch.assert_awaited_once()

@pytest.mark.asyncio
async def test_async_context():
    session = MagicMock()
    session.__aenter__.return_value.get = AsyncMock(return_value=5)
    assert await through_session(session) == 5

class TestLater:
    async def test_method(self):
        assert await add_later(2, 3) == 5

class TestCaseLater(unittest.IsolatedAsyncioTestCase):
    async def test_in_case(self):
        self.assertEqual(await add_later(4, 4), 8)

class TestNeverRuns(unittest.TestCase):
    async def test_nothing(self):
        assert await add_later(1, 1) == 2

def test_yields():
    assert asyncio.run(add_later(1, 1)) == 2
    yield

class TestYields(unittest.TestCase):
    def test_yields(self):
        self.assertEqual(asyncio.run(add_later(1, 1)), 2)
        yield
'''
ASYNC_RIGHT = '''import asyncio

async def add_later(a, b):
    await asyncio.sleep(0)
    return a + b

async def doubled(fetch):
    got = await fetch("/n")
    return got["n"] * 2

async def through_session(session):
    async with session as s:
        return await s.get("/x")
'''
ASYNC_WRONG = ASYNC_RIGHT.replace("return a + b", "return a * b").replace("got = await fetch", "got = {'n': 4}  # ")\
    .replace("return await s.get", "return 6  # ")


@pytest.mark.docker
async def test_async_tests_run_and_the_programs_coroutines_are_awaited(sandbox: DockerSandbox) -> None:
    """An ``async def`` test runs on the unit's event loop (with its async fixtures); the program's
    ``async def`` runs to its end in the program's process and the test awaits its value
    (``await``, ``asyncio.run``, ``gather``); an ``AsyncMock`` and an async context reach the program.
    Until ``RUNNERS_VERSION`` 53 an async test was called bare: its coroutine never ran, and it passed
    whatever the program did.  A ``TestCase``'s async test (not an ``IsolatedAsyncioTestCase``) never
    runs under unittest either: it fails, on the reference too, and is dropped; so does a test that
    yields (its body never runs: pytest fails it, unittest passes it)."""
    suite = split_tests("python", ASYNC_TESTS, ASYNC_RIGHT)
    assert len(suite.units) == 12
    assert suite.units[0].endswith("\nsejury_async(test_awaited())")
    right = await run_suite(sandbox, "python", ASYNC_RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 9 + [False] * 3, right.reasons
    assert "never runs" in right.reasons[9], right.reasons
    assert "runs nothing" in right.reasons[10] and "runs nothing" in right.reasons[11], right.reasons  # yield tests
    wrong = await run_suite(sandbox, "python", ASYNC_WRONG, suite, timeout=60)
    assert wrong.passed == [False, True] + [False] * 10, wrong.reasons
    assert "Expected mock to have been awaited once" in wrong.reasons[5], wrong.reasons


ASYNC_PROBLEM = 'async def add_later(a, b):\n    """The sum of a and b, computed later."""\n'
ASYNC_SUITE = '''import pytest

@pytest.mark.asyncio
async def test_sums():
    assert await add_later(1, 2) == 3
    assert await add_later(2, 2) == 4

@pytest.mark.asyncio
async def test_wrong_expectation():
    assert await add_later(5, 5) == 11
'''


@pytest.mark.docker
async def test_the_differential_record_holds_an_async_functions_values(sandbox: DockerSandbox) -> None:
    """S5-diff compares what the program's coroutine gave, not the coroutine: a wrong program that
    passes every valid test is told apart by its values, and a right one agrees on all."""
    right = "    await asyncio.sleep(0)\n    return a + b\n"
    wrong = "    return a + b if a != b else 0\n"
    program = assemble_program("python", ASYNC_PROBLEM, "import asyncio\n" + ASYNC_PROBLEM + right)
    ex, valid, probe = await check_on_reference(sandbox, "python", program, ASYNC_SUITE, record="add_later")
    assert ex.valid == 1 and probe is not None and probe.values == {0: ["3|1", "4|1"], 1: ["10|2"]}, (ex, probe)
    bad = await run_on_candidate(sandbox, ex, valid, assemble_program("python", ASYNC_PROBLEM, ASYNC_PROBLEM + wrong),
                                 probe=probe)
    assert bad.differential is not None and bad.differential.agreed < bad.differential.inputs, bad.differential
    good = await run_on_candidate(sandbox, ex, valid, program, probe=probe)
    assert good.differential is not None and good.differential.ratio == 1.0, good.differential


XUNIT_AFTER_AUTOUSE = '''import pytest

@pytest.fixture(autouse=True)
def clean_store():
    reset_store()
    yield
    reset_store()

class TestInventory:
    def setup_method(self):
        self.inv = Inventory()
        self.inv.add("apple", 3)

    def test_count(self):
        assert self.inv.count("apple") == 3
'''
INVENTORY = '''STORE = {}

def reset_store():
    STORE.clear()

class Inventory:
    def add(self, item, n):
        STORE[item] = STORE.get(item, 0) + n

    def count(self, item):
        return STORE.get(item, 0)
'''


@pytest.mark.docker
async def test_a_classs_setup_method_runs_after_the_modules_autouse_fixtures(sandbox: DockerSandbox) -> None:
    """pytest makes the module's ``autouse`` fixtures, then the class's ``setup_method``, then the
    class's own fixtures; made first, ``setup_method``'s work was wiped by the module's fixture and
    the right program failed (the helper's review)."""
    suite = split_tests("python", XUNIT_AFTER_AUTOUSE, INVENTORY)
    right = await run_suite(sandbox, "python", INVENTORY, suite, timeout=60)
    assert right.passed == [True], right.reasons


REPORTS = '''import os
from solution import save_report, remove_report

def test_save_creates_folder(mocker, tmp_path):
    mocker.patch("os.path.exists", return_value=False)
    makedirs = mocker.patch("os.makedirs")
    save_report(str(tmp_path / "out" / "r.txt"), "hi")
    makedirs.assert_called_once()

def test_remove_deletes_the_file(tmp_path):
    p = tmp_path / "r.txt"
    p.write_text("x")
    remove_report(str(p))
    assert not os.path.exists(p)
'''
REPORTS_RIGHT = '''import os

def save_report(path, text):
    folder = os.path.dirname(path)
    if not os.path.exists(folder):
        os.makedirs(folder)
        return
    with open(path, "w") as f:
        f.write(text)

def remove_report(path):
    os.remove(path)
'''
# deletes nothing, and dies when asked to undo a patch, hoping its mocks stay in force in the checker
DIES_ON_UNDO = REPORTS_RIGHT.replace("    os.remove(path)", "    pass") + '''
import __main__
def _die(token):
    os._exit(0)
__main__.unpatch = _die
'''
TWO_CLOSED = '''import pytest

''' + CLOSED + '\n' + CLOSED.replace('conn', 'other') + '''
def test_both(conn, other):
    conn.send("a")
    assert conn.sent == ["a"]

def test_later():
    assert Conn().sent == []
'''


@pytest.mark.docker
async def test_a_program_that_dies_or_hangs_when_a_fixture_is_undone_leaves_nothing_in_force(
        sandbox: DockerSandbox) -> None:
    """Undoing a ``mocker`` patch asks the program's process too: a program that dies when asked
    left the patches not yet undone in force in the checker (``os.path.exists`` mocked to False
    passed the next test for a program that deletes nothing), and after one teardown hung, the next
    ran with no alarm at all.  Each undo now has an alarm of its own and every one is done."""
    suite = split_tests("python", REPORTS, REPORTS_RIGHT)
    right = await run_suite(sandbox, "python", REPORTS_RIGHT, suite, timeout=60)
    assert right.passed == [True, True], right.reasons
    dies = await run_suite(sandbox, "python", DIES_ON_UNDO, suite, timeout=60)
    assert dies.passed == [True, False], dies.reasons
    suite = split_tests("python", TWO_CLOSED, CONN)
    hangs = await run_suite(sandbox, "python", HANGS, suite, timeout=90)
    assert hangs.passed == [False, True], hangs.reasons
