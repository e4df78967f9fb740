"""The harness's own failures never pass a test.  A program whose process exits, or that hangs, where
the reference throws used to pass a check that expects any exception (Python's
``pytest.raises(Exception)`` and ``assertRaises(Exception, ...)``, JUnit's
``assertThrows(Exception.class, ...)``) and a test that catches everything (``except BaseException``,
``catch (Throwable e)``, JavaScript's ``catch (e)``): the checker's error for the ended or hung
process was taken for the program's.  Now that error is no ``Exception`` in Python, is never a throw
for ``toThrow``/``rejects``/chai's ``throw`` (``test_chai.py``), and in every one of these languages
the unit it happened in fails even when the test caught it."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

PY_TESTS = '''import pytest, unittest
from solution import digits

def test_raises_any():
    with pytest.raises(Exception):
        digits(-1)

class TestDigits(unittest.TestCase):
    def test_assert_raises(self):
        self.assertRaises(Exception, digits, -1)

def test_swallows():
    try:
        digits(-1)
    except BaseException:
        return
    assert False

def test_counts():
    assert digits(123) == 3
'''
PY_RIGHT = "def digits(n):\n    if n < 0:\n        raise ValueError('negative')\n    return len(str(n))\n"
PY_HACKS = {"exits": "import os\n" + PY_RIGHT.replace("raise ValueError('negative')", "os._exit(0)"),
            "hangs": PY_RIGHT.replace("if n < 0:\n        raise ValueError('negative')", "while n < 0:\n        pass")}

JAVA_TESTS = '''import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

class DigitsTest {
    @Test
    void throwsAny() {
        assertThrows(Exception.class, () -> Solution.digits(-1));
    }
    @Test
    void swallows() {
        boolean threw = false;
        try { Solution.digits(-1); } catch (Throwable e) { threw = true; }
        assertTrue(threw);
    }
    @Test
    void counts() {
        assertEquals(3, Solution.digits(123));
    }
}
'''
JAVA_RIGHT = ("class Solution {\n    static int digits(int n) {\n"
              "        if (n < 0) throw new IllegalArgumentException(\"negative\");\n"
              "        return String.valueOf(n).length();\n    }\n}\n")
JAVA_HACKS = {"exits": JAVA_RIGHT.replace('throw new IllegalArgumentException("negative");', "System.exit(0);"),
              "hangs": JAVA_RIGHT.replace('if (n < 0) throw new IllegalArgumentException("negative");',
                                          "while (n < 0) { }")}

JS_TESTS = '''test('swallows', () => {
  try { digits(-1); } catch (e) { return; }
  throw new Error('no throw');
});
test('counts', () => { expect(digits(123)).toBe(3); });
'''
JS_RIGHT = "function digits(n) { if (n < 0) throw new RangeError('negative'); return String(n).length; }\n"
JS_HACKS = {"exits": JS_RIGHT.replace("throw new RangeError('negative');", "process.exit(0);"),
            "hangs": JS_RIGHT.replace("if (n < 0) throw new RangeError('negative');", "while (n < 0) {}")}

INTERPRETED = (("python", PY_TESTS, PY_RIGHT, PY_HACKS), ("java", JAVA_TESTS, JAVA_RIGHT, JAVA_HACKS),
               ("javascript", JS_TESTS, JS_RIGHT, JS_HACKS))
CASES = [(lang, tests, right, hack, program) for lang, tests, right, hacks in INTERPRETED
         for hack, program in hacks.items()]



GO_TESTS = '''func TestPanics(t *testing.T) {
    defer func() {
        if r := recover(); r == nil {
            t.Errorf("expected a panic")
        }
    }()
    Digits(-1)
}

func TestCounts(t *testing.T) {
    if Digits(123) != 3 {
        t.Fatal("wrong")
    }
}
'''
GO_RIGHT = ("package main\n\nfunc Digits(n int) int {\n    if n < 0 {\n        panic(\"negative\")\n    }\n    d := 1\n"
            "    for n >= 10 {\n        n, d = n/10, d+1\n    }\n    return d\n}\n")
GO_HACKS = {"exits": GO_RIGHT.replace('panic("negative")', "os.Exit(0)").replace("package main\n",
                                                                                 'package main\n\nimport "os"\n'),
            "hangs": GO_RIGHT.replace('panic("negative")', "for {\n        }")}

CPP_GTEST = '''#include <gtest/gtest.h>
TEST(Digits, Caught) {
    bool threw = false;
    try { digits(-1); } catch (...) { threw = true; }
    EXPECT_TRUE(threw);
}
TEST(Digits, Counts) { EXPECT_EQ(digits(123), 3); }
'''
CPP_RIGHT = ("#include <bits/stdc++.h>\nint digits(int n) {\n"
             "    if (n < 0) throw std::invalid_argument(\"negative\");\n    return std::to_string(n).size();\n}\n")
CPP_HACKS = {"exits": CPP_RIGHT.replace('throw std::invalid_argument("negative");', "exit(0);"),
             "hangs": CPP_RIGHT.replace('if (n < 0) throw std::invalid_argument("negative");', "while (n < 0) {}")}
NATIVE = (("go", GO_TESTS, GO_RIGHT, GO_HACKS), ("cpp", CPP_GTEST, CPP_RIGHT, CPP_HACKS))
COMPILED = [(lang, tests, right, hack, program) for lang, tests, right, hacks in NATIVE
            for hack, program in hacks.items()]
SUITES = INTERPRETED + NATIVE  # (language, tests, right program, hacks by name): bench/tamper_table.py's too
# a plain wrong program on the same tests: it never throws (it counts the sign as a digit)
PLAIN_WRONG = {"python": PY_RIGHT.replace("if n < 0:\n        raise ValueError('negative')\n    ", ""),
               "java": JAVA_RIGHT.replace('        if (n < 0) throw new IllegalArgumentException("negative");\n', ""),
               "javascript": JS_RIGHT.replace("if (n < 0) throw new RangeError('negative'); ", ""),
               "go": GO_RIGHT.replace('    if n < 0 {\n        panic("negative")\n    }\n', ""),
               "cpp": CPP_RIGHT.replace('    if (n < 0) throw std::invalid_argument("negative");\n', "")}



@pytest.mark.docker
@pytest.mark.parametrize(("language", "tests", "right", "hack", "program"), CASES + COMPILED,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES + COMPILED])
async def test_a_program_that_exits_or_hangs_fails_every_test_that_expected_it_to_throw(
        sandbox: DockerSandbox, language: str, tests: str, right: str, hack: str, program: str) -> None:
    """Go's own idiom for "it panics" (a deferred ``recover()``, then the call) is one unit now: split
    check by check, the call went to the next unit and the test failed on the reference too."""
    suite = split_tests(language, tests, right)
    on_reference = await run_suite(sandbox, language, right, suite, timeout=90)
    assert all(on_reference.passed), on_reference.reasons
    hacked = await run_suite(sandbox, language, program, suite, timeout=90)
    assert hacked.passed == [False] * (len(suite.units) - 1) + [True], (hack, hacked.reasons)


CPP_MAIN = '''int main() {
    bool threw = false;
    try { digits(-1); } catch (...) { threw = true; }
    assert(threw);
    assert(digits(123) == 3);
}
'''


@pytest.mark.docker
async def test_a_fault_in_the_suites_setup_fails_every_unit(sandbox: DockerSandbox) -> None:
    """A statement before the first check runs once, in the suite's setup; a fault there (caught by
    the test) fails every unit, whose values may come from that call."""
    suite = split_tests("cpp", CPP_MAIN, CPP_RIGHT)
    assert len(suite.units) == 2
    assert all((await run_suite(sandbox, "cpp", CPP_RIGHT, suite, timeout=120)).passed)
    hacked = await run_suite(sandbox, "cpp", CPP_HACKS["exits"], suite, timeout=120)
    assert hacked.passed == [False, False] and all("exited" in r for r in hacked.reasons), hacked.reasons
