"""A hostile sample's tests cannot blow up into gigabytes of units: a test's unit repeats what
surrounds it (a Jest block's hooks, a unittest class's members, a JUnit fixture), and
``base.Copies`` bounds the total."""

from __future__ import annotations

import pytest

from sejury.execution.languages.base import Copies
from sejury.execution.runner import split_tests

N = 2_000  # tests in one block of about 200 kB: 400 MB of units if each copied the block
PAD = "x" * 150_000

HOSTILE = {
    "javascript": f"describe('big', () => {{\n  const pad = '{PAD}';\n"
                  + "".join(f"  it('t{i}', () => {{ f({i}); }});\n" for i in range(N)) + "});\n",
    "python": f"import unittest\n\nclass TestBig(unittest.TestCase):\n    PAD = '{PAD}'\n"
              + "".join(f"    def test_{i}(self):\n        f({i})\n" for i in range(N)),
    "java": f'class SolutionTest {{\n    String pad = "{PAD}";\n'
            + "".join(f"    @Test\n    void t{i}() {{ assertEquals({i}, Solution.f({i})); }}\n"
                      for i in range(N)) + "}\n",
}


@pytest.mark.parametrize("language", sorted(HOSTILE))
def test_a_block_of_two_thousand_tests_stays_within_the_copies_bound(language: str) -> None:
    suite = split_tests(language, HOSTILE[language])
    total = sum(map(len, suite.units))
    assert 1 <= len(suite.units) < N  # the first tests kept, the rest left out
    assert total <= Copies().left


def test_copies_keep_the_first_units_that_fit() -> None:
    copies = Copies(left=10)
    assert copies.take("abcd") and copies.take("efgh")
    assert not copies.take("ijk")  # 3 > 2 left: refused, and nothing more fits after it
    assert not copies.take("") or copies.left == 0
