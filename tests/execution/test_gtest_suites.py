"""C++ tests in GoogleTest's form (``TEST(Suite, Name) { EXPECT_EQ(...); }``) run with the
checker's own assertions (``_gtest.py``, ``sealed_cpp/gtest.hpp``): each check a unit, named by
its test, a failure saying what it compared."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import judge_wrong_and_right

GTEST = '''#include <gtest/gtest.h>
#include "digits.h"

TEST(Digits, Positive) {
    EXPECT_EQ(digits(7), 1);
    int big = 12345;
    ASSERT_EQ(digits(big), 5) << "five digits";
}

TEST(Digits, Negative) {
    EXPECT_EQ(digits(-40), 2);
    EXPECT_TRUE(digits(-1) == 1);
}

TEST(Digits, Others) {
    EXPECT_GE(digits(0), 1);
    EXPECT_NEAR(digits(100) / 3.0, 1.0, 1e-9);
    EXPECT_DOUBLE_EQ(digits(10) * 0.5, 1.0);
    EXPECT_THROW(throw std::invalid_argument("x"), std::invalid_argument);
    EXPECT_STREQ(std::to_string(digits(55)).c_str(), "2");
}

int main(int argc, char** argv) {
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
'''
RIGHT = "#include <string>\n#include <cstdlib>\nint digits(long n) { return std::to_string(std::labs(n)).size(); }\n"
WRONG = "#include <string>\nint digits(long n) { return std::to_string(n).size(); }\n"  # counts the sign


def test_each_check_of_a_test_is_a_unit_named_by_its_test() -> None:
    units = split_tests("cpp", GTEST, RIGHT).units
    name = get("cpp").test_name
    assert name is not None
    assert [name(u) for u in units][:4] == [
        "Digits.Positive: EXPECT_EQ(digits(7), 1);", "Digits.Positive: ASSERT_EQ(digits(big), 5);",
        "Digits.Negative: EXPECT_EQ(digits(-40), 2);", "Digits.Negative: EXPECT_TRUE(digits(-1) == 1);"]
    assert len(units) == 9 and "int big = 12345;" in units[1] and "five digits" not in units[1]


@pytest.mark.docker
async def test_googletest_checks_run_and_say_what_they_compared(sandbox: DockerSandbox) -> None:
    suite = split_tests("cpp", GTEST, RIGHT)
    right = await run_suite(sandbox, "cpp", RIGHT, suite, timeout=60)
    assert right.loaded and all(right.passed), right.reasons
    wrong = await run_suite(sandbox, "cpp", WRONG, suite, timeout=60)
    assert wrong.passed == [True, True, False, False, True, True, True, True, True], wrong.reasons
    assert "EXPECT_EQ(digits(-40), 2): 3 == 2 is false" in wrong.reasons[2], wrong.reasons


@pytest.mark.docker
async def test_a_developers_googletest_file_is_the_sample_tests_evidence() -> None:
    wrong, right = await judge_wrong_and_right("cpp", "Count the digits of n.", GTEST, right=RIGHT, wrong=WRONG,
                                               sample_id="digits")
    r, w = right.strategies["sample_tests"], wrong.strategies["sample_tests"]
    assert r.score == 100, r.detail
    assert w.score == pytest.approx(100 * 7 / 9, abs=0.01), w.detail
    assert wrong.passed is False and w.against is not None and "Digits.Negative: EXPECT_EQ(digits(-40), 2)" in w.against


def test_a_check_in_a_loop_stays_whole_and_a_message_on_the_next_line_is_left_out() -> None:
    tests = ("TEST(Sq, Loop) {\n    for (int i = 0; i < 3; i++) { EXPECT_EQ(sq(i), i * i); }\n"
             "    EXPECT_EQ(sq(2), 4)\n        << \"two squared\";\n    EXPECT_EQ(sq(3), 9);\n}\n")
    units = split_tests("cpp", tests).units
    assert [u.splitlines()[2:-1] for u in units] == [
        ["for (int i = 0; i < 3; i++) { EXPECT_EQ(sq(i), i * i); }"], ["EXPECT_EQ(sq(2), 4);"],
        ["EXPECT_EQ(sq(3), 9);"]]


THROWS = '''TEST(Digits, RejectsNegatives) {
    EXPECT_ANY_THROW(digits(-1));
    EXPECT_THROW(digits(-2), std::invalid_argument);
}
'''
THROWING = ("#include <string>\n#include <stdexcept>\n"
            "int digits(long n) { if (n < 0) throw std::invalid_argument(\"negative\");\n"
            "  return std::to_string(n).size(); }\n")
EXITING = ("#include <string>\n#include <cstdlib>\n"  # ends its process instead of throwing
           "int digits(long n) { if (n < 0) std::exit(0); return std::to_string(n).size(); }\n")


@pytest.mark.docker
async def test_a_program_that_ends_its_process_does_not_pass_a_check_that_expects_a_throw(
        sandbox: DockerSandbox) -> None:
    """The checker reports the program's process ending (or hanging, or answering garbage) as an
    exception of its own, which EXPECT_THROW and EXPECT_ANY_THROW never count; the program's own
    exception counts as any type (its type does not cross processes)."""
    suite = split_tests("cpp", THROWS, THROWING)
    right = await run_suite(sandbox, "cpp", THROWING, suite, timeout=60)
    assert right.passed == [True, True], right.reasons
    hack = await run_suite(sandbox, "cpp", EXITING, suite, timeout=60)
    assert hack.passed == [False, False], hack.reasons
    assert "exited" in hack.reasons[0] or "ended" in hack.reasons[0], hack.reasons


MATCHERS = '''#include <gmock/gmock.h>
#include <gtest/gtest.h>
using ::testing::ElementsAre;
using ::testing::UnorderedElementsAre;
using namespace ::testing;

TEST(Evens, Matchers) {
    EXPECT_THAT(evens({1, 2, 3, 4}), ElementsAre(2, 4));
    EXPECT_THAT(evens({4, 2}), UnorderedElementsAre(2, 4));
    EXPECT_THAT(evens({1, 3}), IsEmpty());
    EXPECT_THAT(evens({2, 4, 6}), SizeIs(3));
    EXPECT_THAT(evens({2, 4, 6}), Contains(Gt(5)));
    EXPECT_THAT(evens({2, 8}), Each(AllOf(Ge(2), Lt(10), Not(Eq(3)))));
    EXPECT_THAT(evens({1, 2}), ElementsAre(_));
    EXPECT_THAT(label(4), HasSubstr("even"));
    EXPECT_THAT(label(4), StartsWith("4 "));
    ASSERT_THAT(label(3), EndsWith("odd"));
    EXPECT_THAT(half(3), DoubleNear(1.5, 1e-9));
    EXPECT_THAT(evens({6, 2}), ElementsAreArray(std::vector<int>{6, 2}));
}
'''
EVENS = ("#include <vector>\n#include <string>\n"
         "std::vector<int> evens(std::vector<int> v) {\n"
         "  std::vector<int> o;\n  for (int x : v) if (x % 2 == 0) o.push_back(x);\n  return o;\n}\n"
         "std::string label(int n) { return std::to_string(n) + (n % 2 ? \" is odd\" : \" is even\"); }\n"
         "double half(int n) { return n / 2.0; }\n")
EVENS_WRONG = EVENS.replace("x % 2 == 0", "x % 2 == 0 || x > 2").replace("n / 2.0", "n / 2")  # odd past 2; halves


@pytest.mark.docker
async def test_gmock_matchers_in_expect_that_match_the_programs_values(sandbox: DockerSandbox) -> None:
    """Until ``RUNNERS_VERSION`` 51 ``EXPECT_THAT`` did not exist in the checker: no such check compiled."""
    suite = split_tests("cpp", MATCHERS, EVENS)
    right = await run_suite(sandbox, "cpp", EVENS, suite, timeout=60)
    assert right.passed == [True] * 12, right.reasons
    wrong = await run_suite(sandbox, "cpp", EVENS_WRONG, suite, timeout=60)
    assert wrong.passed == [False, True, False, True, True, True, True, True, True, True, False, True], wrong.reasons
    assert "EXPECT_THAT(evens({1, 2, 3, 4}), ElementsAre(2, 4)): [2, 3, 4] does not match" in wrong.reasons[0]
    assert "1 does not match" in wrong.reasons[10], wrong.reasons
