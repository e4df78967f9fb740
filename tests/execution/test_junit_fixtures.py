"""A JUnit test class's fixture (its fields, its ``@BeforeEach``/``@Before`` set-up) is in every unit
its ``@Test`` methods give, so a developer's JUnit tests compile and count (``java._fixture``)."""

from __future__ import annotations

import pytest

from sejury.execution.languages import get
from sejury.execution.runner import split_tests
from tests.helpers.examples import example, judge_pair


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
