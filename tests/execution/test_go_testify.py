"""Go tests written with testify (``assert.Equal(t, want, got)``, ``require.NoError(t, err)``) run
with the checker's own ``assert`` and ``require`` (``sealed_go/testify.go.txt``; the sandbox has no
module cache, so testify itself cannot be fetched): each check a unit, a failure saying what it
compared, values compared as testify compares them, type and all."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_wrong_and_right

TESTIFY = '''package main

import (
    "testing"

    "github.com/stretchr/testify/assert"
    "github.com/stretchr/testify/require"
)

func TestDigits(t *testing.T) {
    assert.Equal(t, 3, Digits(123))
    assert.Equal(t, 1, Digits(0), "zero has %d digit", 1)
    got := Digits(-40)
    require.Equal(t, 2, got)
    assert.True(t, Digits(99999) == 5)
    assert.NotEqual(t, 4, Digits(123))
}

func TestSplit(t *testing.T) {
    assert.Len(t, Split(1234), 4)
    assert.ElementsMatch(t, []int{4, 3, 2, 1}, Split(1234))
    assert.Contains(t, Split(-907), 9)
    assert.Empty(t, Split(0)[1:])
    assert.EqualValues(t, int64(3), Digits(-100))
    assert.InDelta(t, 1.5, float64(Digits(10))*0.75, 1e-9)
    assert.Greater(t, Digits(1000), Digits(999))
    require.NotNil(t, Split(5))
    assert.Panics(t, func() { Split(-1)[7] = 1 })
}
'''
RIGHT = '''package main

func abs(n int) int {
    if n < 0 {
        return -n
    }
    return n
}

func Digits(n int) int {
    n, d := abs(n), 1
    for n >= 10 {
        n, d = n/10, d+1
    }
    return d
}

func Split(n int) []int {
    n, out := abs(n), []int{}
    for {
        out = append([]int{n % 10}, out...)
        if n < 10 {
            return out
        }
        n /= 10
    }
}
'''
# counts the sign as a digit
WRONG = RIGHT.replace("n, d := abs(n), 1", "d := 1\n    if n < 0 {\n        d++\n    }\n    n = abs(n)")


def test_each_testify_check_is_a_unit_with_the_statements_before_it() -> None:
    units = split_tests("go", TESTIFY, RIGHT).units
    assert len(units) == 14
    assert units[2] == "got = Digits(-40)\nrequire.Equal(t, 2, got)"
    assert units[13] == "assert.Panics(t, func() { Split(-1)[7] = 1 })"
    assert get("go").test_line.search("    assert.Equal(t, 3, Digits(123))")  # S5 counts the model's too


@pytest.mark.docker
async def test_testify_checks_run_in_the_checker_and_say_what_they_compared(sandbox: DockerSandbox) -> None:
    suite = split_tests("go", TESTIFY, RIGHT)
    right = await run_suite(sandbox, "go", RIGHT, suite, timeout=90)
    assert right.loaded and all(right.passed), right.reasons
    wrong = await run_suite(sandbox, "go", WRONG, suite, timeout=90)
    failed = [i for i, ok in enumerate(wrong.passed) if not ok]
    assert failed == [2, 9], wrong.reasons  # Digits(-40) and Digits(-100): the sign counted
    assert "require.Equal: expected 2 (int), actual 3 (int)" in wrong.reasons[2], wrong.reasons
    assert "assert.EqualValues: expected 3 (int64), actual 4 (int)" in wrong.reasons[9], wrong.reasons


STRICT = '''package main

import (
    "testing"

    "github.com/stretchr/testify/assert"
)

func TestStrict(t *testing.T) {
    assert.Equal(t, int64(3), Digits(123))
    assert.Equal(t, []int{1, 2}, Split(12))
    assert.Subset(t, Split(123), []int{1})
    assert.Equal(t, 2, Digits(10))
    assert.EqualValues(t, 2.5, Digits(10))
    assert.EqualValues(t, 300, uint8(44))
    assert.Greater(t, int64(9007199254740993), int64(9007199254740992))
}
'''


@pytest.mark.docker
async def test_equal_is_type_strict_and_a_method_testify_has_and_the_checker_lacks_drops_its_unit_only(
        sandbox: DockerSandbox) -> None:
    suite = split_tests("go", STRICT, RIGHT)
    run = await run_suite(sandbox, "go", RIGHT, suite, timeout=90)
    assert run.loaded
    # int64(3) is no int 3, 2.5 no int 2, 300 no uint8(44), as in testify 1.9; int64s compared as such
    assert run.passed == [False, True, False, True, False, False, True], run.reasons
    assert "expected 3 (int64), actual 3 (int)" in run.reasons[0], run.reasons


@pytest.mark.docker
async def test_a_developers_testify_file_is_the_sample_tests_evidence() -> None:
    wrong, right = await judge_wrong_and_right("go", "Count the digits of n.", TESTIFY, right=RIGHT, wrong=WRONG,
                                               sample_id="digits")
    r, w = right.strategies["sample_tests"], wrong.strategies["sample_tests"]
    assert r.score == 100, r.detail
    assert w.score == pytest.approx(100 * 12 / 14, abs=0.01), w.detail
    assert wrong.passed is False and w.against is not None and "require.Equal(t, 2, got)" in w.against


PANICS = '''package main

import (
    "testing"

    "github.com/stretchr/testify/assert"
)

func TestRejects(t *testing.T) {
    assert.Panics(t, func() { Digits(-1) })
}
'''
PANICKING = ("package main\n\nfunc Digits(n int) int {\n    if n < 0 {\n        panic(\"negative\")\n    }\n"
             "    return 1\n}\n")
EXITING = PANICKING.replace("package main\n", "package main\n\nimport \"os\"\n").replace(
    'panic("negative")', "os.Exit(0)")


@pytest.mark.docker
async def test_a_program_that_ends_its_process_does_not_pass_a_check_that_expects_a_panic(
        sandbox: DockerSandbox) -> None:
    suite = split_tests("go", PANICS, PANICKING)
    right = await run_suite(sandbox, "go", PANICKING, suite, timeout=90)
    assert right.passed == [True], right.reasons
    hack = await run_suite(sandbox, "go", EXITING, suite, timeout=90)
    assert hack.passed == [False], hack.reasons
    assert "the program's process ended" in hack.reasons[0], hack.reasons


UNDEFINED = '''func TestAdd(t *testing.T) {
  if Add(1, 2) != 3 { t.Errorf("one") }
  if Add(2, 2) != 4 { t.Errorf("two") }
  if undefinedHelper(Add(2, 3)) != 5 { t.Errorf("three") }
  if Add(3, 3) != 6 { t.Errorf("four") }
  if Add(4, 4) != 8 { t.Errorf("five") }
}
'''


@pytest.mark.docker
async def test_a_go_unit_that_does_not_compile_is_the_one_dropped(sandbox: DockerSandbox) -> None:
    """Go's unit spans counted the test file's import block as one line, so the compiler's
    ``file:line`` named a unit six lines on: the runner dropped the wrong ones and lost all five."""
    program = "package main\n\nfunc Add(a, b int) int { return a + b }\n"
    run = await run_suite(sandbox, "go", program, split_tests("go", UNDEFINED, program), timeout=90)
    assert run.passed == [True, True, False, True, True], run.reasons
    assert run.reasons[2] == "does not compile" and run.runs == 2


HUMANEVAL_X = '''func TestDigits(t *testing.T) {
    assert := assert.New(t)
    assert.Equal(3, Digits(123))
    assert.Equal(2, Digits(-40))
}
'''
CLASHING = RIGHT + "\nfunc assert(ok bool) bool { return ok }\n\nfunc require(ok bool) bool { return ok }\n"


@pytest.mark.docker
async def test_testifys_object_form_and_a_program_with_functions_named_assert_and_require(
        sandbox: DockerSandbox) -> None:
    """HumanEval-X's own Go tests write ``assert := assert.New(t)``; and a program may define ``assert``
    (its stub shares the checker's package): neither keeps the checks from running."""
    suite = split_tests("go", HUMANEVAL_X, RIGHT)
    assert suite.units == ["assert.Equal(t, 3, Digits(123))", "assert.Equal(t, 2, Digits(-40))"]
    for program in (RIGHT, CLASHING):
        run = await run_suite(sandbox, "go", program, suite, timeout=90)
        assert run.passed == [True, True], run.reasons
    wrong = await run_suite(sandbox, "go", WRONG, suite, timeout=90)
    assert wrong.passed == [True, False], wrong.reasons


DIVIDE = '''func TestDivide(t *testing.T) {
    assert.Panics(t, func() { Divide(1, 0) })
    assert.InDelta(t, 0.5, Divide(1, 2), 1e-9)
}
'''
DIVIDING = ("package main\n\nfunc Divide(a, b float64) float64 {\n    if b == 0 {\n        panic(\"zero\")\n    }\n"
            "    return a / b\n}\n")
INFINITE = "package main\n\nfunc Divide(a, b float64) float64 {\n    return a / b\n}\n"  # +Inf cannot cross


@pytest.mark.docker
async def test_an_answer_that_cannot_cross_is_no_panic(sandbox: DockerSandbox) -> None:
    """A result the program's process cannot send (+Inf, NaN, an error) is the checker's fault to
    report, not a panic of the program's: where the reference panics, it fails ``Panics``."""
    suite = split_tests("go", DIVIDE, DIVIDING)
    right = await run_suite(sandbox, "go", DIVIDING, suite, timeout=90)
    assert right.passed == [True, True], right.reasons
    inf = await run_suite(sandbox, "go", INFINITE, suite, timeout=90)
    assert inf.passed == [False, True], inf.reasons


AGES = '''package main

import (
    "errors"
    "testing"

    "github.com/stretchr/testify/assert"
    "github.com/stretchr/testify/require"
)

func TestParseAge(t *testing.T) {
    n, err := ParseAge("42")
    require.NoError(t, err)
    assert.Equal(t, 42, n)
    _, err = ParseAge("-3")
    assert.EqualError(t, err, "negative age: -3")
    _, err = ParseAge("forty")
    assert.Error(t, err)
    _, err = ParseAge("-1")
    assert.Equal(t, errors.New("negative age: -1"), err)
    if _, err := ParseAge("7"); err != nil {
        t.Fatal(err)
    }
    if n, _ := ParseAge("-1"); n != 0 {
        t.Error("ParseAge(-1) gave", n)
    }
    if _, err := ParseAge("-1"); err == nil {
        t.Fail()
    }
}
'''
PARSING = '''package main

import (
    "fmt"
    "strconv"
)

type ageError struct{ n int }

func (e *ageError) Error() string { return fmt.Sprintf("negative age: %d", e.n) }

func ParseAge(s string) (int, error) {
    n, err := strconv.Atoi(s)
    if err != nil {
        return 0, err
    }
    if n < 0 {
        return 0, &ageError{n}
    }
    return n, nil
}
'''
LENIENT = PARSING.replace("if n < 0 {", "if n < -1 {")  # -1 taken for an age


@pytest.mark.docker
async def test_an_error_the_program_returns_crosses_as_its_message(sandbox: DockerSandbox) -> None:
    """``(int, error)``, Go's commonest signature: a non-nil error could not cross the sealed harness
    (its dynamic type has no tag), so ``NoError``, ``EqualError`` and ``err != nil`` held only on the
    errors a test made itself.  It now crosses as its message, whatever type carried it (a
    ``*strconv.NumError``, the program's own ``*ageError``).  ``t.Fatal(err)`` and ``t.Error(a, b)``
    take operands, not a format: they did not compile as the harness wrote them, and their units
    were dropped; ``t.Fail()`` failed no unit.  Since ``RUNNERS_VERSION`` 63 an error of the program's
    own type crosses as that type, so ``assert.Equal(t, errors.New("negative age: -1"), err)`` fails
    on the right program, as testify's ``ObjectsAreEqual`` does in one process (two types)."""
    suite = split_tests("go", AGES, PARSING)
    right = await run_suite(sandbox, "go", PARSING, suite, timeout=90)
    assert right.loaded and right.passed == [True, True, True, True, False, True, True, True], right.reasons
    assert "(*sandbox.ageError)" in right.reasons[4], right.reasons
    wrong = await run_suite(sandbox, "go", LENIENT, suite, timeout=90)
    assert wrong.passed == [True, True, True, True, False, True, False, False], wrong.reasons
    assert "assert.Equal" in wrong.reasons[4] and "negative age: -1" in wrong.reasons[4], wrong.reasons
    assert "ParseAge(-1) gave -1" in wrong.reasons[6], wrong.reasons


NAMED_IN_A_STRING = '''func TestAge(t *testing.T) {
    if n, _ := ParseAge("5"); n != 5 {
        t.Error("strconv.Atoi and math.Abs disagree with", n)
    }
}
'''


@pytest.mark.docker
async def test_a_package_named_only_in_a_string_leaves_no_unused_import(sandbox: DockerSandbox) -> None:
    """The tests' imports are not kept; the harness imports ``errors``, ``math`` and ``strconv`` where
    the tests name them, and now uses each once, so a name met only in a message is no unused import
    (which failed the whole file to compile, every unit dropped)."""
    suite = split_tests("go", NAMED_IN_A_STRING, PARSING)
    right = await run_suite(sandbox, "go", PARSING, suite, timeout=90)
    assert right.passed == [True], right.reasons
