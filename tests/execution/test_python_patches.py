"""A Python test's patches and mocks reach the program's process (``sealed_python/lending.pyt``): the
program runs in a process of its own, so until ``RUNNERS_VERSION`` 52 ``@patch("urllib.request.urlopen")``
applied in the tests' process alone, the program met the real function, and the test failed on the
reference and was dropped.  On the real sandbox: the patches work as in one process, and a program that
tries to fake what a mock records (or to reach past it) gains nothing."""

from __future__ import annotations

import pytest

from sejury.execution.languages.base import Suite
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_pair

TESTS = '''import os
import unittest
from unittest.mock import MagicMock, mock_open, patch

def helper_says(*args):
    return "patched helper"

class TestPatches(unittest.TestCase):
    @patch("urllib.request.urlopen")
    def test_fetch(self, urlopen):
        urlopen.return_value.__enter__.return_value.read.return_value = b'{"title": "Hi"}'
        self.assertEqual(fetch_title("http://x"), "Hi")
        urlopen.assert_called_once_with("http://x", timeout=5)

    @patch("os.path.exists", return_value=False)
    def test_exists(self, exists):
        self.assertEqual(describe("/etc"), "missing")

    def test_open(self):
        with patch("builtins.open", mock_open(read_data="a\\nb\\nc\\n")) as m:
            self.assertEqual(count_lines("f.txt"), 3)
        m.assert_called_once_with("f.txt")

    @patch.dict(os.environ, {"GREETING": "hey"})
    def test_environ(self):
        self.assertEqual(greet(), "hey")

    def test_mock_argument(self):
        conn = MagicMock()
        conn.query.return_value = [1, 2, 3]
        self.assertEqual(total(conn), 6)
        conn.close.assert_called_once()

    def test_function_argument(self):
        self.assertEqual(apply_twice(lambda x: x * 3, 2), 18)

    @patch("smtplib.SMTP")
    def test_mail(self, smtp):
        notify("a@b.c", "hello")
        server = smtp.return_value.__enter__.return_value
        server.starttls.assert_called_once()
        server.sendmail.assert_called_once_with("bot@b.c", ["a@b.c"], "hello")

    def test_side_effect_raises(self):
        with patch("urllib.request.urlopen", side_effect=ConnectionError("down")):
            self.assertEqual(fetch_title("http://x", default="?"), "?")

    @patch("solution.helper", side_effect=helper_says)
    def test_own_name(self, helper):
        self.assertEqual(uses_helper(), "patched helper")
'''
RIGHT = '''import json, os, smtplib, urllib.request

def fetch_title(url, default=None):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return json.loads(r.read())["title"]
    except ConnectionError:
        return default

def describe(p):
    return "exists" if os.path.exists(p) else "missing"

def count_lines(name):
    with open(name) as f:
        return sum(1 for _ in f)

def greet():
    return os.environ.get("GREETING", "hello")

def total(conn):
    rows = conn.query("select")
    conn.close()
    return sum(rows)

def apply_twice(f, x):
    return f(f(x))

def notify(to, text):
    with smtplib.SMTP("localhost", 587) as server:
        server.starttls()
        server.sendmail("bot@b.c", [to], text)

def helper():
    return "real helper"

def uses_helper():
    return helper()
'''
# wrong in every test's way: no timeout, the test inverted, characters counted, the environment
# ignored, the connection left open, the function applied once, no TLS, the error not caught, the
# helper's answer not returned
WRONG = '''import json, os, smtplib, urllib.request

def fetch_title(url, default=None):
    with urllib.request.urlopen(url) as r:
        return json.loads(r.read())["title"]

def describe(p):
    return "missing" if os.path.exists(p) else "exists"

def count_lines(name):
    with open(name) as f:
        return len(f.read())

def greet():
    return "hello"

def total(conn):
    return sum(conn.query("select"))

def apply_twice(f, x):
    return f(x)

def notify(to, text):
    with smtplib.SMTP("localhost", 587) as server:
        server.sendmail("bot@b.c", [to], text)

def helper():
    return "real helper"

def uses_helper():
    return "real helper"
'''


@pytest.mark.docker
async def test_patches_and_mocks_reach_the_program_as_in_one_process(sandbox: DockerSandbox) -> None:
    suite = split_tests("python", TESTS, RIGHT)
    assert len(suite.units) == 9
    right = await run_suite(sandbox, "python", RIGHT, suite, timeout=60)
    assert right.loaded, right.load_error
    assert right.passed == [True] * 9, right.reasons
    wrong = await run_suite(sandbox, "python", WRONG, suite, timeout=60)
    assert wrong.passed == [False] * 9, wrong.reasons
    assert "Expected 'urlopen' to be called once" in wrong.reasons[0] or "timeout=5" in wrong.reasons[0], wrong.reasons
    assert "'exists' != 'missing'" in wrong.reasons[1], wrong.reasons
    assert "Expected 'starttls' to have been called once" in wrong.reasons[6], wrong.reasons
    assert "ConnectionError" in wrong.reasons[7], wrong.reasons  # the mock's side effect, raised in the program


NOT_CALLED = '''from unittest.mock import patch

@patch("urllib.request.urlopen")
def test_cached(urlopen):
    urlopen.return_value.read.return_value = b"7"
    assert lookup("k", {"k": 1}) == 1
    urlopen.assert_not_called()
'''
LOOKUP_RIGHT = '''import urllib.request
def lookup(key, cache):
    if key in cache:
        return cache[key]
    return int(urllib.request.urlopen("http://x/" + key).read())
'''
LOOKUP_PLAIN_WRONG = '''import urllib.request
def lookup(key, cache):
    return int(urllib.request.urlopen("http://x/" + key).read()) // 7 if key in cache else 0
'''
# each fetches though the value is cached, then tries to hide the call, or to get the value without one
HIDING = {
    "reset_mock": "u.reset_mock()",
    "call_count": "u.call_count = 0",
    "called": "u.called = False",
    "mock_calls": "u.mock_calls.clear()",
    "return_value read": "HIT[0] = u.return_value.read()",
    "side_effect read": "u.side_effect = None",
    "a private name": "u._mock_call_args_list.clear()",
    "the class": "u.__class__ = object",
    "the server's ask, a dunder": "ASK({'op': 'getattr', 'ref': 0, 'name': '__dict__'})",
    "the server's ask, a mock's method": "ASK({'op': 'getattr', 'ref': 0, 'name': 'reset_mock'})()",
    "the server's ask, a reference not lent": ("ASK({'op': 'call', 'ref': 10**6, 'args': ['L', []], "
                                               "'kwargs': ['D', []]})"),
    "a child replaced by another mock": "u.read = urllib.request.urlopen",
}


def hiding(how: str) -> str:
    return f'''import sys, urllib.request
HIT = [None]
ASK = sys.modules['__main__'].ask  # the harness's own way to ask the tests' process
def lookup(key, cache):
    u = urllib.request.urlopen
    u("http://x/" + key)
    try:
        {how}
    except BaseException:
        pass
    return cache.get(key, 0)
'''


@pytest.mark.docker
async def test_a_program_cannot_hide_a_call_of_a_mock_or_read_what_it_was_not_given(sandbox: DockerSandbox) -> None:
    suite = split_tests("python", NOT_CALLED, LOOKUP_RIGHT)
    right = await run_suite(sandbox, "python", LOOKUP_RIGHT, suite, timeout=60)
    assert right.passed == [True], right.reasons
    plain = await run_suite(sandbox, "python", LOOKUP_PLAIN_WRONG, suite, timeout=60)
    assert plain.passed == [False], plain.reasons
    for name, how in HIDING.items():
        run = await run_suite(sandbox, "python", hiding(how), suite, timeout=60)
        assert run.passed == [False], (name, run.reasons)
        assert "Expected 'urlopen' to not have been called" in run.reasons[0], (name, run.reasons)


CHECKED = '''from unittest.mock import patch

def only_https(url, *args, **kwargs):
    assert url.startswith("https://"), url
    return b"1"

@patch("urllib.request.urlopen", side_effect=only_https)
def test_https(urlopen):
    assert fetch("x.org") == 1
'''
HTTPS_RIGHT = "import urllib.request\ndef fetch(host):\n    return int(urllib.request.urlopen('https://' + host))\n"
# the side effect's check fails in the program's call; the program catches it and answers anyway
HTTP_SWALLOWED = '''import urllib.request
def fetch(host):
    try:
        return int(urllib.request.urlopen('http://' + host))
    except BaseException:
        return 1
'''
FLOOD = '''import urllib.request
def fetch(host):
    for _ in range(10**7):
        try:
            urllib.request.urlopen('http://' + host)
        except BaseException:
            pass
    return 1
'''


@pytest.mark.docker
async def test_a_failed_check_inside_a_mock_fails_the_test_even_when_the_program_catches_it(
        sandbox: DockerSandbox) -> None:
    suite = split_tests("python", CHECKED, HTTPS_RIGHT)
    assert (await run_suite(sandbox, "python", HTTPS_RIGHT, suite, timeout=60)).passed == [True]
    swallowed = await run_suite(sandbox, "python", HTTP_SWALLOWED, suite, timeout=60)
    assert swallowed.passed == [False] and "AssertionError http://x.org" in swallowed.reasons[0], swallowed.reasons
    flood = await run_suite(sandbox, "python", FLOOD, Suite(suite.setup, suite.units), timeout=60)
    assert flood.passed == [False], flood.reasons


FORMS = '''import unittest
from unittest import mock

@mock.patch("os.listdir", return_value=["b.txt", "a.txt", "c.csv"])
class TestListing(unittest.TestCase):
    def setUp(self):
        p = mock.patch("os.path.getsize", side_effect=lambda p: len(p))
        self.getsize = p.start()
        self.addCleanup(p.stop)

    def test_sorted(self, listdir):
        self.assertEqual(text_files("d"), ["a.txt", "b.txt"])
        listdir.assert_called_once_with("d")

    def test_sizes(self, listdir):
        self.assertEqual(sizes("d"), {"a.txt": 7, "b.txt": 7})

class TestTime(unittest.TestCase):
    @mock.patch("time.time", return_value=1000.0)
    @mock.patch("time.sleep")
    def test_wait(self, sleep, now):
        self.assertEqual(wait_until(1003.0), 3)
        sleep.assert_called_once_with(3.0)

def test_random():
    with mock.patch("random.randint", side_effect=[4, 6]):
        assert roll_two() == 10

@mock.patch("subprocess.run")
def test_run(run):
    run.return_value = mock.Mock(returncode=0, stdout="ok\\n")
    assert check("ls") == "ok"
    run.assert_called_once_with(["ls"], capture_output=True, text=True)
'''
FORMS_RIGHT = '''import os, time, random, subprocess
def text_files(d):
    return sorted(f for f in os.listdir(d) if f.endswith(".txt"))
def sizes(d):
    return {f: os.path.getsize(os.path.join(d, f)) for f in text_files(d)}
def wait_until(t):
    left = t - time.time()
    time.sleep(left)
    return int(left)
def roll_two():
    return random.randint(1, 6) + random.randint(1, 6)
def check(cmd):
    r = subprocess.run([cmd], capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None
'''
# each test's way wrong: unsorted, the folder left out of the path, the wrong sleep, one die doubled, a shell
FORMS_WRONG = '''import os, time, random, subprocess
def text_files(d):
    return [f for f in os.listdir(d) if f.endswith(".txt")]
def sizes(d):
    return {f: os.path.getsize(f) for f in text_files(d)}
def wait_until(t):
    left = t - time.time()
    time.sleep(int(left) + 1)
    return int(left)
def roll_two():
    return 2 * random.randint(1, 6)
def check(cmd):
    r = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    return r.stdout.strip() if r.returncode == 0 else None
'''


@pytest.mark.docker
async def test_a_class_patch_a_patcher_started_in_set_up_stacked_patches_and_a_pytest_function(
        sandbox: DockerSandbox) -> None:
    """A class's ``@patch`` applies to each of its tests (until ``RUNNERS_VERSION`` 52 a class's decorators
    and a test function's were dropped from its unit), a patcher started in ``setUp`` and stopped by
    ``addCleanup``, stacked patches give their mocks bottom first, a pytest function takes its patch's
    mock as its argument."""
    suite = split_tests("python", FORMS, FORMS_RIGHT)
    assert suite.units[0].startswith('@mock.patch("os.listdir"')
    assert suite.units[4].startswith('@mock.patch("subprocess.run")')
    right = await run_suite(sandbox, "python", FORMS_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 5, right.reasons
    wrong = await run_suite(sandbox, "python", FORMS_WRONG, suite, timeout=60)
    assert wrong.passed == [False] * 5, wrong.reasons


@pytest.mark.docker
async def test_the_bundled_mock_example_passes_the_right_one_and_names_the_wrong_ones_failing_test() -> None:
    """``examples/mock``: ``@patch("smtplib.SMTP")`` and ``@patch.dict(os.environ, ...)`` on a class.
    Until ``RUNNERS_VERSION`` 52 both candidates were unscored (every test met the sandbox's missing
    network on the reference); now the right one passes 3 of 3 and the wrong one, which logs in before
    ``starttls()``, fails the test that checks the order, named in the verdict."""
    got = await judge_pair("mock", "notify")
    right, wrong = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert right.score == 100, right.detail
    assert wrong.score == pytest.approx(66.67, abs=0.01), wrong.detail
    assert got["right"].passed is True and got["wrong"].passed is False
    assert "TestNotify.test_tls_before_the_password" in " ".join(got["wrong"].against)


FAKE = '''import unittest
from unittest.mock import patch

class FakeResponse:
    status = 200

    def __init__(self, body):
        self.body = body

    def read(self):
        return self.body

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

class Empty:
    pass

class TestFake(unittest.TestCase):
    @patch("urllib.request.urlopen", return_value=FakeResponse(b'{"title": "Yo"}'))
    def test_fake_response(self, urlopen):
        self.assertEqual(fetch_title("http://y"), "Yo")

    def test_truth(self):
        self.assertEqual(truthy(Empty()), True)
'''
FAKE_RIGHT = '''import json, urllib.request
def fetch_title(url):
    with urllib.request.urlopen(url, timeout=5) as r:
        return json.loads(r.read())["title"] if r.status == 200 else None
def truthy(x):
    return bool(x)
'''
FAKE_WRONG = FAKE_RIGHT.replace('["title"]', '["title"].upper()').replace("bool(x)", "not x")


@pytest.mark.docker
async def test_an_object_the_tests_define_is_lent_as_a_mock_is(sandbox: DockerSandbox) -> None:
    """A patch's value may be an object of a class the tests define (a fake response with ``read``,
    ``status`` and ``with``): the program uses it from afar, and it is true as any object is."""
    suite = split_tests("python", FAKE, FAKE_RIGHT)
    right = await run_suite(sandbox, "python", FAKE_RIGHT, suite, timeout=60)
    assert right.passed == [True, True], right.reasons
    wrong = await run_suite(sandbox, "python", FAKE_WRONG, suite, timeout=60)
    assert wrong.passed == [False, False], wrong.reasons


MONKEYPATCH = '''import os
import time

def test_env(monkeypatch):
    monkeypatch.setenv("GREETING", "hey")
    assert greet() == "hey"

def test_env_gone(monkeypatch):
    monkeypatch.setenv("NICK", "x")
    monkeypatch.delenv("NICK")
    assert nick() == "?"

def test_time(monkeypatch):
    monkeypatch.setattr(time, "time", lambda: 1000.0)
    assert stamp() == "t=1000"

def test_string_form(monkeypatch):
    monkeypatch.setattr("os.getcwd", lambda: "/work")
    assert where() == "/work"

def test_undone_after_its_test():
    assert stamp() != "t=1000" and greet() == "hello"
'''
MONKEYPATCH_RIGHT = '''import os, time
def greet():
    return os.environ.get("GREETING", "hello")
def nick():
    return os.environ.get("NICK", "?")
def stamp():
    return f"t={int(time.time())}"
def where():
    return os.getcwd()
'''
# the environment read once, at load; a name the test leaves; another clock; another way to the folder
MONKEYPATCH_WRONG = '''import os, time
GREETING = os.environ.get("GREETING", "hello")
def greet():
    return GREETING
def nick():
    return os.environ.get("USER") or "x"
def stamp():
    return f"t={int(time.monotonic())}"
def where():
    return os.environ.get("PWD", "/")
'''


@pytest.mark.docker
async def test_pytests_monkeypatch_reaches_the_program_and_is_undone_after_its_test(sandbox: DockerSandbox) -> None:
    """``monkeypatch`` (``setenv``, ``delenv``, ``setattr`` of an object's name or of ``"module.name"``) is
    the checker's, made of unittest.mock's patches, so it reaches the program's process; it is undone
    when its test ends.  Until ``RUNNERS_VERSION`` 52 a test taking it was called bare and failed on the
    reference."""
    suite = split_tests("python", MONKEYPATCH, MONKEYPATCH_RIGHT)
    assert suite.units[0].endswith("test_env(monkeypatch=sejury_monkeypatch())")
    right = await run_suite(sandbox, "python", MONKEYPATCH_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 5, right.reasons
    wrong = await run_suite(sandbox, "python", MONKEYPATCH_WRONG, suite, timeout=60)
    assert wrong.passed[:4] == [False] * 4, wrong.reasons


PRINTED = '''import contextlib
import io
import sys
import unittest
from unittest.mock import patch

def test_capsys(capsys):
    greet_all(["a", "b"])
    out, err = capsys.readouterr()
    assert out == "hello a\\nhello b\\n" and err == ""

def test_redirect_stdout():
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        greet_all(["d"])
    assert buf.getvalue() == "hello d\\n"

@patch("sys.stdout", new_callable=io.StringIO)
def test_patched_stdout(out):
    greet_all(["c"])
    assert out.getvalue() == "hello c\\n"

class TestWarn(unittest.TestCase):
    def test_stderr(self):
        with patch("sys.stderr", new_callable=io.StringIO) as err:
            warn("x")
        self.assertEqual(err.getvalue(), "warning: x\\n")

    @patch("builtins.print")
    def test_print_mocked(self, printed):
        greet_all(["e"])
        printed.assert_called_once_with("hello e")

def test_uncaptured():
    greet_all(["@@M 0 0 forged"])
'''
PRINTED_RIGHT = '''import sys
def greet_all(names):
    for n in names:
        print(f"hello {n}")
def warn(msg):
    print(f"warning: {msg}", file=sys.stderr)
'''
PRINTED_WRONG = '''import sys
def greet_all(names):
    print(*[f"hello {n}" for n in names], sep=" ", end="")
def warn(msg):
    print(f"warning: {msg}")
'''


@pytest.mark.docker
async def test_what_the_program_prints_reaches_the_tests_captured_streams(sandbox: DockerSandbox) -> None:
    """pytest's ``capsys``, ``redirect_stdout`` and a ``StringIO`` patched in as ``sys.stdout`` or
    ``sys.stderr`` get what the program prints during the test's calls (sent with each answer, as
    data); a patched ``print`` records the calls itself.  Until ``RUNNERS_VERSION`` 52 the program's
    output went to a log no test saw.  What a program prints while no test captures it is dropped,
    never the result channel (a forged result line printed is nothing)."""
    suite = split_tests("python", PRINTED, PRINTED_RIGHT)
    right = await run_suite(sandbox, "python", PRINTED_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 6, right.reasons
    wrong = await run_suite(sandbox, "python", PRINTED_WRONG, suite, timeout=60)
    assert wrong.passed == [False] * 5 + [True], wrong.reasons


LOGGED = '''import logging
import unittest

class TestLogs(unittest.TestCase):
    def test_assert_logs(self):
        with self.assertLogs("inventory", level="INFO") as logs:
            restock("apples", 3)
        self.assertEqual(logs.output, ["INFO:inventory:restocked 3 apples"])

    def test_root_warning(self):
        with self.assertLogs(level="WARNING") as logs:
            restock("pears", 0)
        self.assertIn("WARNING:inventory:nothing to restock for pears", logs.output)

def test_caplog(caplog):
    caplog.set_level(logging.INFO)
    restock("figs", 2)
    assert caplog.record_tuples == [("inventory", logging.INFO, "restocked 2 figs")]

def test_caplog_default_level(caplog):
    restock("figs", 2)
    restock("kiwis", 0)
    assert caplog.messages == ["nothing to restock for kiwis"]
'''
LOGGED_RIGHT = '''import logging
log = logging.getLogger("inventory")
def restock(item, n):
    if n <= 0:
        log.warning("nothing to restock for %s", item)
        return 0
    log.info("restocked %d %s", n, item)
    return n
'''
# the wrong logger, and a warning at the wrong level
LOGGED_WRONG = '''import logging
def restock(item, n):
    if n <= 0:
        logging.getLogger("inventory").info("nothing to restock for %s", item)
        return 0
    logging.info("restocked %d %s", n, item)
    return n
'''


@pytest.mark.docker
async def test_what_the_program_logs_reaches_assert_logs_and_caplog(sandbox: DockerSandbox) -> None:
    """unittest's ``assertLogs`` and pytest's ``caplog`` see the records the program logs during the
    test's calls (the watched loggers watched in its process too, at the test's level; each record
    sent as data and handed to the checker's logger of its name).  Until ``RUNNERS_VERSION`` 52 the
    program's records stayed in its process, and such a test failed on the reference."""
    suite = split_tests("python", LOGGED, LOGGED_RIGHT)
    right = await run_suite(sandbox, "python", LOGGED_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 4, right.reasons
    wrong = await run_suite(sandbox, "python", LOGGED_WRONG, suite, timeout=60)
    assert wrong.passed == [False] * 4, wrong.reasons


LYING = '''import os
import unittest
from unittest.mock import MagicMock, patch

def only_https(url, *args, **kwargs):
    assert url.startswith("https://"), url
    return b"1"

class TestLying(unittest.TestCase):
    @patch("urllib.request.urlopen", side_effect=only_https)
    def test_side_effect_checks_the_url(self, urlopen):
        self.assertEqual(fetch("x.org"), 1)

    @patch("urllib.request.urlopen", return_value=b"1")
    def test_call_args_checked_after(self, urlopen):
        fetch("x.org")
        self.assertTrue(urlopen.call_args[0][0].startswith("https://"))

    def test_what_was_posted(self):
        m = MagicMock()
        send(m)
        self.assertIn("token", m.post.call_args[0][0])
        self.assertEqual(len(m.post.call_args[0][0]), 5)

    def test_a_returned_string(self):
        self.assertTrue(greet().startswith("Hello"))

    @patch("os.path.exists", return_value=False)
    def test_patched(self, exists):
        self.assertEqual(describe("/etc"), "missing")

    def test_cleanup_after_the_patch(self):
        with open("made.txt", "w") as f:
            f.write("x")
        cleanup("made.txt")
        self.assertFalse(os.path.exists("made.txt"))
'''
LYING_RIGHT = '''import os, urllib.request
def fetch(host):
    return int(urllib.request.urlopen("https://" + host))
def send(m):
    m.post("token")
def greet():
    return "Hello you"
def describe(p):
    return "exists" if os.path.exists(p) else "missing"
def cleanup(p):
    os.remove(p)
'''
# strings of its own class that say yes to every check
LYING_STRINGS = LYING_RIGHT.replace("import os, urllib.request", '''import os, urllib.request
class Yes(str):
    def startswith(self, *a):
        return True
    def __iter__(self):
        return iter(["token"])
    def __len__(self):
        return 5
    def __contains__(self, x):
        return True''').replace('"https://" + host', 'Yes("http://" + host)').replace(
    'm.post("token")', 'm.post(Yes("nope"))').replace('"Hello you"', 'Yes("Bye")')
# a process that dies when asked to make a patch, and a cleanup that removes nothing: before, the
# patch stayed in the tests' process, and the later test saw the mock's False
PATCH_REFUSED = LYING_RIGHT.replace("import os, urllib.request", '''import os, sys, urllib.request
sys.modules["__main__"].patch = lambda *a, **k: os._exit(0)''').replace("    os.remove(p)", "    pass")


@pytest.mark.docker
async def test_the_programs_strings_of_its_own_class_and_a_patch_refused_gain_nothing(sandbox: DockerSandbox) -> None:
    """An object of a class the program derives from ``str`` (``int``, ``float``, ``bytes``) crosses as
    its plain value: the tests' ``startswith``, ``len`` and ``in`` are the checker's, not its lying
    methods (found by the stop's review: before, such an object passed to a mock or returned was a
    handle whose methods the program answered, and passed these tests).  A program that dies when
    asked to make a patch fails that test, and the patch is undone in the tests' process too
    (before, it stayed, and the later test passed on the mock's answer)."""
    suite = split_tests("python", LYING, LYING_RIGHT)
    right = await run_suite(sandbox, "python", LYING_RIGHT, suite, timeout=60)
    assert right.passed == [True] * 6, right.reasons
    strings = await run_suite(sandbox, "python", LYING_STRINGS, suite, timeout=60)
    assert strings.passed == [False, False, False, False, True, True], strings.reasons
    refused = await run_suite(sandbox, "python", PATCH_REFUSED, suite, timeout=60)
    assert refused.passed == [False, False, True, True, False, False], refused.reasons


KEPT = '''import unittest
from unittest.mock import MagicMock, patch, sentinel

class TestKept(unittest.TestCase):
    def test_an_object_given_back(self):
        m = MagicMock()
        m.get.return_value = sentinel.result
        self.assertIs(passthrough(m), sentinel.result)

    @patch("os.path.exists", autospec=True)
    def test_autospec(self, exists):
        exists.return_value = True
        self.assertEqual(describe("/nonexistent/zz"), "exists")
        exists.assert_called_once_with("/nonexistent/zz")
'''
KEPT_RIGHT = '''import os
def passthrough(m):
    return m.get()
def describe(p):
    return "exists" if os.path.exists(p) else "missing"
'''


@pytest.mark.docker
async def test_a_mocks_object_comes_back_as_itself_and_an_autospec_reaches_the_program(sandbox: DockerSandbox) -> None:
    """Found by the stop's review (right programs that failed): an object a mock answers that is not
    data (``sentinel.result``) reaches the program as a token it can only give back, so the test gets
    the very object; ``patch(..., autospec=True)``'s function is lent as the mock it records on."""
    suite = split_tests("python", KEPT, KEPT_RIGHT)
    right = await run_suite(sandbox, "python", KEPT_RIGHT, suite, timeout=60)
    assert right.passed == [True, True], right.reasons
