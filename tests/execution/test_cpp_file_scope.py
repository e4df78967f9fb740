"""A C++ test file's own top level (``_cpp_scope``): helpers such as HumanEval-X's ``issame``,
GoogleTest fixtures (``TEST_F``), parameterized tests (``TEST_P``) and constants are kept at the
checker's file scope; a helper that does not compile costs only the checks that call it."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.runner import run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.examples import example, judge_pair

# HumanEval-X's form: a helper before main, the checks in main
PLAIN = '''#undef NDEBUG
#include<assert.h>
#include<vector>
using namespace std;
bool issame(vector<int> a, vector<int> b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); i++) if (a[i] != b[i]) return false;
    return true;
}
const int LIMIT = 3;
const vector<int> TWO = prefix_sums({2, 2});  // calls the program: declared first in main
void check_prefix(vector<int> in, vector<int> want) {
    assert(issame(prefix_sums(in), want));
}
vector<int> prefix_sums(vector<int> v) { return v; }  // the model's copy of the solution: never kept
int main() {
    assert(issame(prefix_sums({1, 2, 3}), {1, 3, 6}));
    assert(issame(prefix_sums({}), {}));
    check_prefix({5, -5}, {5, 0});
    assert(prefix_sums({1, 1, 1, 1}).size() > LIMIT);
    assert(issame(TWO, {2, 4}));
}
'''
RIGHT = ("#include <vector>\nusing namespace std;\n"
         "vector<int> prefix_sums(vector<int> v) { for (size_t i = 1; i < v.size(); i++) v[i] += v[i - 1];"
         " return v; }\n")
WRONG = ("#include <vector>\nusing namespace std;\n"  # adds each element to the next once, not the running sum
         "vector<int> prefix_sums(vector<int> v) { vector<int> o = v;"
         " for (size_t i = 1; i < v.size(); i++) o[i] += v[i - 1]; return o; }\n")


def test_the_files_helpers_and_constants_are_kept_and_a_copy_of_the_solution_is_not() -> None:
    suite = split_tests("cpp", PLAIN, RIGHT)
    assert [u.strip() for u in suite.units] == [
        "assert(issame(prefix_sums({1, 2, 3}), {1, 3, 6}));", "assert(issame(prefix_sums({}), {}));",
        "check_prefix({5, -5}, {5, 0});", "assert(prefix_sums({1, 1, 1, 1}).size() > LIMIT);",
        "assert(issame(TWO, {2, 4}));"]
    assert "bool issame(" in suite.setup and "const int LIMIT = 3;" in suite.setup
    assert "void check_prefix(" in suite.setup and "return v; }" not in suite.setup
    assert "#include" not in suite.setup
    assert suite.setup.index("TWO = prefix_sums") > suite.setup.index("check_prefix(")  # in main, after the helpers


@pytest.mark.docker
async def test_humaneval_x_style_tests_with_a_helper_run(sandbox: DockerSandbox) -> None:
    """Until ``RUNNERS_VERSION`` 51 the checks calling ``issame`` and ``check_prefix`` did not compile."""
    suite = split_tests("cpp", PLAIN, RIGHT)
    right = await run_suite(sandbox, "cpp", RIGHT, suite, timeout=60)
    assert right.passed == [True, True, True, True, True], right.reasons
    wrong = await run_suite(sandbox, "cpp", WRONG, suite, timeout=60)
    assert wrong.passed == [False, True, True, True, True], wrong.reasons


@pytest.mark.docker
async def test_a_helper_that_does_not_compile_costs_only_the_checks_that_call_it(sandbox: DockerSandbox) -> None:
    broken = PLAIN.replace("const int LIMIT = 3;", "const int LIMIT = 3;\nbool odd(Missing m) { return m.x; }\n")
    broken = broken.replace("int main() {\n", "int main() {\n    assert(odd(1));\n")
    suite = split_tests("cpp", broken, RIGHT)
    assert "bool odd(Missing m)" in suite.setup and len(suite.units) == 6
    report = await run_suite(sandbox, "cpp", RIGHT, suite, timeout=60)
    assert report.passed == [False, True, True, True, True, True], report.reasons
    assert report.reasons[0] == "does not compile", report.reasons


# ``examples/gtest``: a fixture, a parameterized test, an AssertionResult helper and a checking helper
RIGHT_CLAMP, WRONG_CLAMP = example("gtest", "clamp", "right"), example("gtest", "clamp", "wrong")
FIXTURES = RIGHT_CLAMP.tests or ""
CLAMP, CLAMP_WRONG = RIGHT_CLAMP.candidate, WRONG_CLAMP.candidate  # the wrong one never cuts above hi


def test_fixture_and_parameterized_checks_are_units_named_by_their_test_and_row() -> None:
    units = split_tests("cpp", FIXTURES, CLAMP).units
    name = get("cpp").test_name
    assert name is not None
    assert [name(u) for u in units] == [
        "ClampTest.KeepsInside: EXPECT_EQ(clamp_to(5, low, high), 5);",
        "ClampTest.KeepsInside: EXPECT_EQ(suites_set_up, 1);",
        "ClampTest.CutsAbove: EXPECT_EQ(v, high);",
        "ClampTest.CutsAbove: EXPECT_TRUE(InRange(v, low, high));",
        "ClampTest.CutsAbove: expect_idempotent(99, low, high);",
        "ClampRows.StaysInRange[0]: EXPECT_TRUE(InRange(clamp_to(GetParam(), -3, 3), -3, 3));",
        "ClampRows.StaysInRange[1]: EXPECT_TRUE(InRange(clamp_to(GetParam(), -3, 3), -3, 3));",
        "ClampRows.StaysInRange[2]: EXPECT_TRUE(InRange(clamp_to(GetParam(), -3, 3), -3, 3));",
        "ClampRows.StaysInRange[3]: EXPECT_TRUE(InRange(clamp_to(GetParam(), -3, 3), -3, 3));",
        "ClampRows.StaysInRange[4]: EXPECT_TRUE(InRange(clamp_to(GetParam(), -3, 3), -3, 3));"]
    assert "sejury_value = 100;" in units[8] and "sejury_value = 105;" in units[9]


@pytest.mark.docker
async def test_fixtures_set_up_once_per_suite_and_per_check_and_rows_get_their_values(
        sandbox: DockerSandbox) -> None:
    suite = split_tests("cpp", FIXTURES, CLAMP)
    right = await run_suite(sandbox, "cpp", CLAMP, suite, timeout=60)
    assert all(right.passed), right.reasons
    wrong = await run_suite(sandbox, "cpp", CLAMP_WRONG, suite, timeout=60)
    assert wrong.passed == [True, True, False, False, True, True, True, False, False, False], wrong.reasons
    assert "99 == 10 is false" in wrong.reasons[2], wrong.reasons


@pytest.mark.docker
async def test_a_fixture_whose_set_up_fails_fails_its_checks_and_tear_down_runs_after_a_failure(
        sandbox: DockerSandbox) -> None:
    tests = FIXTURES.replace("void SetUp() override { low = 0; high = 10; }",
                             "void SetUp() override { low = 0; high = 10; if (clamp_to(50, 0, 10) != 10) "
                             "throw std::runtime_error(\"set-up saw no clamp\"); }")
    tests = tests.replace("void TearDown() override { low = -1; }",
                          "void TearDown() override { ASSERT_EQ(clamp_to(-5, 0, 10), 0); }")
    suite = split_tests("cpp", tests, CLAMP)
    right = await run_suite(sandbox, "cpp", CLAMP, suite, timeout=60)
    assert all(right.passed), right.reasons
    wrong = await run_suite(sandbox, "cpp", CLAMP_WRONG, suite, timeout=60)
    assert wrong.passed[:5] == [False] * 5 and "set-up saw no clamp" in wrong.reasons[0], wrong.reasons
    broken_tear_down = tests.replace("clamp_to(-5, 0, 10), 0", "clamp_to(-5, 0, 10), 1")
    torn = await run_suite(sandbox, "cpp", CLAMP, split_tests("cpp", broken_tear_down, CLAMP), timeout=60)
    assert torn.passed[:5] == [False] * 5 and all(torn.passed[5:]), torn.reasons


@pytest.mark.docker
async def test_a_developers_fixture_file_is_the_sample_tests_evidence() -> None:
    """``examples/gtest``: before, no test of the file was read (Sample-tests unscored)."""
    got = await judge_pair("gtest", "clamp")
    r, w = got["right"].strategies["sample_tests"], got["wrong"].strategies["sample_tests"]
    assert r.score == 100, r.detail
    assert w.score == pytest.approx(50, abs=0.01), w.detail
    assert got["right"].passed is True and got["wrong"].passed is False
    assert w.against is not None and "ClampTest.CutsAbove: EXPECT_EQ(v, high)" in w.against, w.against


def test_hostile_test_texts_are_read_in_bounded_time_and_depth() -> None:
    """A ``Range`` of a trillion rows is read as its first thousand (it was made whole first); a
    template nested 40,000 deep is named without recursion."""
    huge = FIXTURES.replace("testing::Range(100, 106, 5)", "testing::Range(0, 1000000000000)")
    units = split_tests("cpp", huge, CLAMP).units
    assert sum("ClampRows.StaysInRange[" in u for u in units) == 3 + 1000
    deep = "template <class T> " * 40_000 + "int helper(int x) { return x; }\nint main() {\n  assert(f(1) == 2);\n}\n"
    suite = split_tests("cpp", deep, "int f(int x) { return x + 1; }")
    assert [u.strip() for u in suite.units] == ["assert(f(1) == 2);"]


CASES = '''#include <gtest/gtest.h>
struct Case { int v; int lo; int hi; int want; };
const Case kCases[] = {{5, 0, 10, 5}, {-3, 0, 10, 0},  // inside, below
                       {99, 0, 10, 10}};
class ClampCases : public ::testing::TestWithParam<Case> {};
TEST_P(ClampCases, Clamps) {
  const Case& c = GetParam();
  EXPECT_EQ(clamp_to(c.v, c.lo, c.hi), c.want);
}
INSTANTIATE_TEST_SUITE_P(Table, ClampCases, ::testing::ValuesIn(kCases));
'''


@pytest.mark.docker
async def test_values_in_a_table_of_the_file_gives_a_row_per_entry(sandbox: DockerSandbox) -> None:
    """``ValuesIn(kCases)`` over a file-scope array of structs, GoogleTest's usual table of cases."""
    suite = split_tests("cpp", CASES, CLAMP)
    name = get("cpp").test_name
    assert name is not None
    assert [name(u) for u in suite.units] == [f"ClampCases.Clamps[{k}]: EXPECT_EQ(clamp_to(c.v, c.lo, c.hi), c.want);"
                                              for k in range(3)]
    right = await run_suite(sandbox, "cpp", CLAMP, suite, timeout=60)
    assert right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "cpp", CLAMP_WRONG, suite, timeout=60)
    assert wrong.passed == [True, True, False], wrong.reasons
