"""A JUnit test class's fixture (its fields, its ``@BeforeEach``/``@Before`` set-up) is in every unit
its ``@Test`` methods give, so a developer's JUnit tests compile and count (``java._fixture``); a
class with helper methods runs each unit in an instance of its members (``_junit_class``)."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import example, judge_pair, judge_wrong_and_right


def test_each_test_method_starts_with_the_classs_fields_and_set_up() -> None:
    sample = example("junit", "two_largest", "right")
    assert sample.tests is not None
    units = split_tests("java", sample.tests, reference=sample.reference).units
    assert len(units) == 3  # a @Test method under another annotation (@DisplayName) too
    first, _, third = units
    assert first.splitlines()[1:5] == ["// SolutionTest.twoLargestOfThree", "Solution s;",
                                       "List<Integer> xs = Arrays.asList(3, 9, 4);", "s = new Solution();"]
    assert get("java").test_name is not None
    assert get("java").test_name(first) == "SolutionTest.twoLargestOfThree: assertEquals(13, s.sumOfTwoLargest(xs));"
    assert "List<Integer> xs = Arrays.asList(3, 9, 4);" not in third  # the method declares its own xs
    assert "List<Integer> xs = Arrays.asList(-5, -2, -9);" in third


@pytest.mark.docker
async def test_a_developers_junit_class_is_the_sample_tests_evidence() -> None:
    """``examples/junit``: before, every test used the class's field ``s`` that no unit declared, so
    none compiled and Sample-tests was unscored; now the right one passes 3 of 3 and the wrong one
    (twice the maximum) fails the two it should."""
    got = await judge_pair("junit", "two_largest")
    right, wrong = got["right"], got["wrong"]
    r, w = right.strategies["sample_tests"], wrong.strategies["sample_tests"]
    assert r.score == 100, r.detail
    assert w.score == pytest.approx(33.33, abs=0.01), w.detail
    assert right.passed is True and wrong.passed is False
    assert w.against is not None
    assert "SolutionTest.twoLargestOfThree: assertEquals(13" in w.against and "expected 13 but was 18" in w.against


PARAMETERIZED = '''import org.junit.jupiter.api.*;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.*;
import static org.junit.jupiter.api.Assertions.*;

class DigitsTest {
    private Solution s;

    @BeforeEach
    void setUp() { s = new Solution(); }

    @ParameterizedTest
    @ValueSource(ints = {0, 7, 1_000})
    void countsAtLeastOne(int n) {
        assertTrue(s.digits(n) >= 1);
    }

    @ParameterizedTest(name = "{0} has {1} digits")
    @CsvSource({"9, 1", "10, 2", "'12345', 5", "not a number, 1", "-40, 2"})
    void counts(long n, Integer want) {
        assertEquals((int) want, s.digits(n));
    }

    @ParameterizedTest
    @CsvSource(value = {"12; 1 2", "'' ; ''"}, delimiter = ';')
    void spells(String text, String want) {
        assertEquals(want, String.join(" ", text.split("")));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void notRead(int n) { assertTrue(n > 0); }
}
'''
DIGITS_RIGHT = "class Solution {\n  int digits(long n) { return Long.toString(Math.abs(n)).length(); }\n}\n"
DIGITS_WRONG = "class Solution {\n  int digits(long n) { return Long.toString(n).length(); }\n}\n"  # counts the sign


def test_a_parameterized_test_gives_a_unit_per_row_its_values_as_the_parameters() -> None:
    units = split_tests("java", PARAMETERIZED, reference=DIGITS_RIGHT).units
    name = get("java").test_name
    assert name is not None
    assert [name(u).split(":")[0] for u in units] == [
        "DigitsTest.countsAtLeastOne[1]", "DigitsTest.countsAtLeastOne[2]", "DigitsTest.countsAtLeastOne[3]",
        # row 4 is not a number: not read, and the rows keep JUnit's numbers
        "DigitsTest.counts[1]", "DigitsTest.counts[2]", "DigitsTest.counts[3]", "DigitsTest.counts[5]",
        "DigitsTest.spells[1]", "DigitsTest.spells[2]"]  # a @MethodSource is not read
    assert units[2].splitlines()[2:5] == ["Solution s;", "s = new Solution();", "int n = (int) (1_000);"]
    assert "long n = (long) (-40L);\nInteger want = (int) (2);" in units[6]
    assert 'String text = "12";\nString want = "1 2";' in units[7]
    assert 'String text = "";\nString want = "";' in units[8]


@pytest.mark.docker
async def test_a_parameterized_row_the_wrong_candidate_fails_is_the_definitive_evidence() -> None:
    wrong, right = await judge_wrong_and_right("java", "Count the digits of n.", PARAMETERIZED, right=DIGITS_RIGHT,
                                               wrong=DIGITS_WRONG, sample_id="digits")
    r, w = right.strategies["sample_tests"], wrong.strategies["sample_tests"]
    assert r.score == 100, r.detail
    assert w.score == pytest.approx(100 * 8 / 9, abs=0.01), w.detail  # the sign counted: -40 has 3
    assert wrong.passed is False and w.against is not None and "DigitsTest.counts[5]" in w.against, w.against


def test_csv_quoting_and_the_sources_and_settings_not_read() -> None:
    from sejury.execution.languages._junit_params import _csv, parameterized

    assert _csv("'a' , 1", ",") == ["a", "1"] and _csv("'Wayne''s', 2", ",") == ["Wayne's", "2"]
    assert _csv(", ''", ",") == [None, ""]
    tests = '''
    @ParameterizedTest
    @ValueSource(strings = {"RED"})
    void color(Color c) { assertNotNull(c); }
    @ParameterizedTest
    @ValueSource(strings = {"1", "x"})
    void parsed(int n) { assertTrue(n > 0); }
    @ParameterizedTest
    @ValueSource(longs = {1})
    void narrowed(int n) { assertTrue(n > 0); }
    @ParameterizedTest
    @CsvSource(value = {"N/A, 1"}, nullValues = {"N/A"})
    void nulls(String s, int n) { assertTrue(n > 0); }
    @ParameterizedTest
    @CsvSource({"a, " + "b"})
    void joined(String s, String t) { assertNotNull(t); }
'''
    # a type JUnit converts to and this does not, a long into an int, a setting or a concatenation
    # changing how rows read: not read; a string converted to an int as JUnit does, row 2 not a number
    assert [(p.name, p.rows) for p in parameterized(tests)] == [("parsed", [(1, ["int n = (int) (1);"])])]


HELPERS = '''import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class DigitsTest {
    private Solution s;
    private static final int BIG = 12345;

    @BeforeEach
    void setUp() { s = new Solution(); }

    private void check(int n, int want) {
        assertEquals(want, s.digits(n), "digits of " + n);
    }

    private void quietly(int n, int want) {
        try { assertEquals(want, s.digits(n)); } catch (AssertionError e) { System.out.println(e); }
    }

    private static List<Integer> sample() { return Arrays.asList(1, 22, 333); }

    @Test
    void small() {
        check(7, 1);
        check(10, 2);
        quietly(-40, 2);
    }

    @Test
    void big() { assertEquals(5, s.digits(BIG)); }

    @Test
    void many() {
        for (int n : sample()) assertTrue(s.digits(n) >= 1);
    }
}
'''
DIGITS = "class Solution {\n    public int digits(int n) { return String.valueOf(Math.abs(n)).length(); }\n}\n"
DIGITS_SIGN = "class Solution {\n    public int digits(int n) { return String.valueOf(n).length(); }\n}\n"


def test_a_call_of_a_helper_method_that_checks_is_a_unit_run_with_the_classs_members() -> None:
    units = split_tests("java", HELPERS, reference=DIGITS).units
    name = get("java").test_name
    assert name is not None
    assert [name(u) for u in units] == [
        "DigitsTest.small: check(7, 1);", "DigitsTest.small: check(10, 2);", "DigitsTest.small: quietly(-40, 2);",
        "DigitsTest.big: assertEquals(5, s.digits(BIG));",
        "DigitsTest.many: for (int n : sample()) assertTrue(s.digits(n) >= 1);"]
    assert "private static List<Integer> sample()" in units[4] and "s = new Solution();" in units[4]


@pytest.mark.docker
async def test_helper_methods_of_a_junit_class_run_and_cannot_hide_a_failure(sandbox: DockerSandbox) -> None:
    """Until ``RUNNERS_VERSION`` 51 a test calling ``sample()`` did not compile and ``small`` gave no
    unit: its checks were all in helpers."""
    suite = split_tests("java", HELPERS, reference=DIGITS)
    right = await run_suite(sandbox, "java", DIGITS, suite, timeout=120)
    assert right.passed == [True] * 5, right.reasons
    wrong = await run_suite(sandbox, "java", DIGITS_SIGN, suite, timeout=120)
    assert wrong.passed == [True, True, False, True, True], wrong.reasons
    assert "expected 2 but was 3" in wrong.reasons[2], wrong.reasons
    # JUnit makes an instance per test: a constructor is set-up, as @BeforeEach is
    built = split_tests("java", HELPERS.replace("@BeforeEach\n    void setUp()", "DigitsTest()"), reference=DIGITS)
    assert [u.count("s = new Solution();") for u in built.units] == [1] * 5
    assert (await run_suite(sandbox, "java", DIGITS, built, timeout=120)).passed == [True] * 5


NESTED = '''import org.junit.jupiter.api.*;
import static org.junit.jupiter.api.Assertions.*;
import java.util.*;

class StackTest {
    private Stack<Integer> stack;

    @BeforeEach
    void setUp() { stack = new Stack<>(); }

    @Test
    void startsEmpty() { assertEquals(0, Solution.depth(stack)); }

    @Nested
    @DisplayName("after a push")
    class AfterPush {
        private int pushed;

        @BeforeEach
        void push() { pushed = 7; stack.push(pushed); }

        @Test
        void holdsOne() { assertEquals(1, Solution.depth(stack)); }

        @Nested
        class AndAnother {
            @BeforeEach
            void again() { stack.push(pushed + 1); }

            @Test
            void holdsTwo() { assertEquals(2, Solution.depth(stack)); }
        }
    }
}
'''
DEPTH = "import java.util.*;\nclass Solution {\n    static int depth(Stack<Integer> s) { return s.size(); }\n}\n"
DEPTH_WRONG = ("import java.util.*;\nclass Solution {\n"
               "    static int depth(Stack<Integer> s) { return Math.min(s.size(), 1); }\n}\n")


def test_a_nested_classs_tests_start_with_every_enclosing_classs_fixture() -> None:
    units = split_tests("java", NESTED, reference=DEPTH).units
    lang = get("java")
    assert lang.test_name is not None
    assert [lang.test_name(u).split(":")[0] for u in units] == [
        "StackTest.startsEmpty", "StackTest.AfterPush.holdsOne", "StackTest.AfterPush.AndAnother.holdsTwo"]
    two = units[2]
    assert two.index("stack = new Stack<>();") < two.index("pushed = 7;") < two.index("stack.push(pushed + 1);")


@pytest.mark.docker
async def test_a_nested_classs_tests_run_after_the_outer_set_up_and_their_own(sandbox: DockerSandbox) -> None:
    """JUnit 5's ``@Nested`` classes: each test runs after the outer class's fixture and each enclosing
    nested class's, outer to inner.  Until ``RUNNERS_VERSION`` 52 a nested test got the outer fixture
    only: one using the nested class's field did not compile, one relying on its set-up failed on
    the reference; both were dropped."""
    suite = split_tests("java", NESTED, reference=DEPTH)
    right = await run_suite(sandbox, "java", DEPTH, suite, timeout=120)
    assert right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "java", DEPTH_WRONG, suite, timeout=120)
    assert wrong.passed == [True, True, False], wrong.reasons
