"""A program's names that would replace the tests' own (``RUNNERS_VERSION`` 63): a review found wrong
programs passing tests they fail in one process, by defining a name the checker then gave the tests
in place of the one they meant.  Python's checker gave the tests every name of the program, so a
program's ``abs``, ``len``, ``sorted``, ``isinstance``, a class named ``math`` or ``pytest``, answered the
tests' own checks; C++'s made every program function the tests name mean the program's (a
``#define``), so a program's ``issame`` replaced the tests' helper of that name and its ``abs(double)``
replaced the standard one.  (Go's ``panic``: ``test_go_types.py``; JavaScript's checker keeps its
globals and harness names since ``RUNNERS_VERSION`` 57; in Java a program's class ``Math`` is the
tests' ``Math`` in one JVM too, both in the default package.)  Each shadowing program here must pass
no more units than the plain wrong one, which passes none."""

from __future__ import annotations

import pytest

from sejury.execution.runner import run_plain, run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

PY_RIGHT = "def f(x):\n    return 2 * x\n\ndef g(n):\n    return list(range(n))\n\ndef h(xs):\n    return sorted(xs)\n"
PY_WRONG = "def f(x):\n    return x\n\ndef g(n):\n    return []\n\ndef h(xs):\n    return xs\n"
PY_SHADOWS = PY_WRONG + '''
def abs(x): return 0
def len(x): return 3
def sorted(x): return [3, 1, 2]
def isinstance(*a): return True
def sum(x): return 6
def round(x): return 3
class math:
    @staticmethod
    def isclose(*a, **k): return True
    @staticmethod
    def fabs(x): return 0.0
class pytest:
    class raises:
        def __init__(self, *a, **k): pass
        def __enter__(self): return self
        def __exit__(self, *a): return True
'''
# the tests as a developer writes them: pytest's form, importing what they test (``math`` and ``pytest``
# left to the harness, as the model's tests often leave them); and HumanEval's form, one module
PY_TESTS = {
    "pytest": '''from solution import f, g, h

def test_abs():
    assert abs(f(1.0) - 2.0) < 1e-6

def test_len():
    assert len(g(3)) == 3

def test_sorted():
    assert h([3, 1, 2]) == sorted([3, 1, 2])

def test_fabs():
    assert math.fabs(f(1.0) - 2.0) < 1e-9

def test_type():
    assert isinstance(g(2), list) and g(2) == [0, 1]

def test_raises():
    with pytest.raises(TypeError):
        g("x")

class TestStuff:
    def test_sum(self):
        assert sum(g(4)) == 6
''',
    "module": '''assert abs(f(1.0) - 2.0) < 1e-6
assert math.isclose(f(2.0), 4.0)
assert len(g(3)) == 3
assert round(f(1.5)) == 3
assert sum(g(4)) == 6
''',
}


async def _no_gain(sandbox: DockerSandbox, language: str, tests: str, right: str, wrong: str, shadows: str) -> None:
    """The right program passes every unit; the plain wrong one none; the shadowing one what it does."""
    suite = split_tests(language, tests, right)
    got = await run_suite(sandbox, language, right, suite, timeout=120)
    assert got.loaded and all(got.passed), got.reasons
    plain = await run_suite(sandbox, language, wrong, suite, timeout=120)
    hack = await run_suite(sandbox, language, shadows, suite, timeout=120)
    assert not any(plain.passed) and hack.passed == plain.passed, hack.reasons


@pytest.mark.docker
async def test_a_python_programs_function_the_tests_call_is_still_theirs(sandbox: DockerSandbox) -> None:
    """Only builtins and modules are kept from the program: a function of its own named as a module of
    the image (``trace``, ``random``) is the program's, as the tests mean it."""
    program = "def trace(m):\n    return sum(m[i][i] for i in range(len(m)))\n"
    suite = split_tests("python", "assert trace([[1, 2], [3, 4]]) == 5\n", program)
    got = await run_suite(sandbox, "python", program, suite, timeout=60)
    assert got.passed == [True], got.reasons


CPP_RIGHT = ("#include <vector>\n#include <cmath>\ndouble f(double x) { return 2 * x; }\n"
             "std::vector<int> g(int n) {\n  std::vector<int> r;\n  for (int i = 0; i < n; i++) r.push_back(i);\n"
             "  return r;\n}\n")
CPP_WRONG = ("#include <vector>\n#include <cmath>\ndouble f(double x) { return x; }\n"
             "std::vector<int> g(int n) { return {}; }\n")
CPP_SHADOWS = CPP_WRONG + ("bool issame(std::vector<int> a, std::vector<int> b) { return true; }\n"
                           "bool approxEqual(double a, double b) { return true; }\n"
                           "int abs(unsigned long long x) { return 0; }\n")
CPP_TESTS = {
    # HumanEval-X's form: a helper of the tests' own, then asserts in main
    "humaneval": '''#undef NDEBUG
#include <assert.h>
bool issame(vector<int> a, vector<int> b) {
    if (a.size() != b.size()) return false;
    for (int i = 0; i < a.size(); i++) if (a[i] != b[i]) return false;
    return true;
}
int main() {
    assert(abs(f(1.0) - 2.0) < 1e-4);
    assert(issame(g(2), {0, 1}));
    assert(issame(g(3), {0, 1, 2}));
}
''',
    "gtest": '''#include <gtest/gtest.h>
#include <cmath>
bool approxEqual(double a, double b) { return std::fabs(a - b) < 1e-9; }
TEST(F, Helper) { EXPECT_TRUE(approxEqual(f(1.0), 2.0)); }
TEST(F, Abs) { EXPECT_LT(abs(f(3.0) - 6.0), 1e-6); }
''',
}


CASES = {**{("python", form): (tests, PY_RIGHT, PY_WRONG, PY_SHADOWS) for form, tests in PY_TESTS.items()},
         **{("cpp", form): (tests, CPP_RIGHT, CPP_WRONG, CPP_SHADOWS) for form, tests in CPP_TESTS.items()}}


@pytest.mark.docker
@pytest.mark.parametrize(("language", "form"), sorted(CASES))
async def test_a_programs_names_do_not_replace_the_tests_builtins_modules_helpers_or_standard_functions(
        sandbox: DockerSandbox, language: str, form: str) -> None:
    """Python: the builtins and modules stay the tests'; C++: the tests' own helper and the standard
    ``abs`` stay theirs."""
    await _no_gain(sandbox, language, *CASES[language, form])


@pytest.mark.docker
async def test_a_cpp_parameter_written_without_a_space_after_its_type(sandbox: DockerSandbox) -> None:
    """``vector<int>b`` was read as a type of its own (``vector<int>b``), so the checker's stand-in did
    not compile and a right program failed every test."""
    program = "#include <vector>\nusing namespace std;\nint dot(vector<int> a,vector<int>b){ int s = 0; " \
              "for (size_t i = 0; i < a.size(); i++) s += a[i] * b[i]; return s; }\n"
    suite = split_tests("cpp", "int main() {\n    assert(dot({1, 2}, {3, 4}) == 11);\n}\n", program)
    got = await run_suite(sandbox, "cpp", program, suite, timeout=120)
    assert got.passed == [True], got.reasons


# a program whose package-level names are those of packages the harness imports (the server's
# encoding/json, the checker's encoding/hex, time, os/exec, the tests' file's sort, reflect, testing);
# until the harness imported them under names of its own, the program "did not load" sealed, and in
# one process its tests did not compile (nor where a test's message named such a package)
GO_NAMES = """package main

import (
	"fmt"
	"strings"
)

const json = 3

var reflect, testing, bufio, hmac, sha256, exec, syscall, os, unsafe, sync, errors = 1, "t", 1, 2, 3, 4, 5, 6, 7, 8, 9

type time struct{ h, m int }

func hex(n int) string {
	digits := "0123456789abcdef"
	if n < 16 {
		return string(digits[n])
	}
	return hex(n/16) + string(digits[n%16])
}

func sort(xs []int) []int {
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			if xs[j] < xs[i] {
				xs[i], xs[j] = xs[j], xs[i]
			}
		}
	}
	return xs
}

func ToHex(n int) string { return strings.ToUpper(hex(n)) }

func Sorted(xs []int) string { return fmt.Sprint(sort(xs)) }

func Clock(h, m int) time { return time{h, m} }
"""
GO_NAMES_TESTS = """func TestNames(t *testing.T) {
	if ToHex(255) != "FF" {
		t.Errorf("255")
	}
	if Sorted([]int{3, 1, 2}) != "[1 2 3]" {
		t.Errorf("want no errors. sort.Ints would give [1 2 3]") // a package named in a message, not in code
	}
	if c := Clock(1, 2); c.m != 2 {
		t.Fatal(c)
	}
}
"""


@pytest.mark.docker
async def test_a_go_programs_names_are_not_the_harnesss_packages(sandbox: DockerSandbox) -> None:
    suite = split_tests("go", GO_NAMES_TESTS, GO_NAMES)
    sealed = await run_suite(sandbox, "go", GO_NAMES, suite, timeout=120)
    assert sealed.loaded and sealed.sealed and all(sealed.passed) and len(sealed.passed) == 3, sealed
    plain = await run_plain(sandbox, "go", GO_NAMES, suite, timeout=120)
    assert plain is not None and all(plain.passed), plain
    wrong = GO_NAMES.replace("strings.ToUpper(hex(n))", "hex(n)")  # the same names, a wrong answer
    got = await run_suite(sandbox, "go", wrong, suite, timeout=120)
    assert got.loaded and got.passed == [False, True, True], got
