"""The problem's examples with their stated outputs, read as tests (``execution/stated.py``): the
reading, in the benchmarks' forms and languages; the values each harness records, read back; the
ranking rule that uses them; and, on the real sandbox, a Java ranking that the examples decide."""

from __future__ import annotations

from typing import Any

import pytest

from sejury.execution.stated import matches, read_value, same, stated_examples
from sejury.rank.agreement import Probe, rank, review
from sejury.rank.records import Behaviour
from sejury.sandbox.docker import DockerSandbox
from tests.helpers.fakes import ScriptedChatModel


def _read(problem: str, function: str, language: str = "python") -> list[tuple[Any, Any]]:
    return [(s.call[0], s.expected) for s in stated_examples(problem, function, language)]


def test_the_benchmarks_forms_of_a_stated_example_are_read() -> None:
    doctest = 'def flip_case(string: str) -> str:\n    """Flip.\n    >>> flip_case(\'Hello\')\n    \'hELLO\'\n"""\n'
    assert _read(doctest, "flip_case") == [(("Hello",), "hELLO")]
    arrows = ("    iscube(1) ==> True\n    specialFilter([15, -73]) => 1 \n    prime_length('Hello') == True\n"
              "    * eat(5, 6, 10) -> [11, 4]\n    f(2) ➞ 2.5\n    g(1) should return 'a'.\n")
    assert _read(arrows, "iscube") == [((1,), True)]
    assert _read(arrows, "specialFilter") == [(([15, -73],), 1)]
    assert _read(arrows, "prime_length") == [(("Hello",), True)]
    assert _read(arrows, "eat") == [((5, 6, 10), [11, 4])]
    assert _read(arrows, "f") == [((2,), 2.5)] and _read(arrows, "g") == [((1,), "a")]
    # a one-element tuple written without its comma is still a tuple
    assert _read('bf("Earth", "Mercury") ==> ("Venus")', "bf") == [(("Earth", "Mercury"), ("Venus",))]
    # JavaScript's, Java's and C++'s comments; MultiPL-E's Java keeps the Python name
    js = "// >>> below_zero([1, 2, -4, 5])\n// true\nfunction below_zero(operations){\n"
    assert _read(js, "below_zero", "javascript") == [(([1, 2, -4, 5],), True)]
    java = ("class Problem {\n    // >>> evenOddPalindrome((3l))\n    // (Pair.with(1l, 2l))\n"
            "    // iscube(1) ==> True\n    // prime_length('Hello') == True\n"
            "    public static boolean primeLength(String string) {\n")
    assert _read(java, "primeLength", "java") == [(("Hello",), True)]
    cpp = ("// >>> sort_third((std::vector<long>({1, 2, 3})))\n// {1, 2, 3}\n// f(1) == {2, 3}\n"
           "std::vector<long> f(long x) {\n")
    assert _read(cpp, "f", "cpp") == [((1,), [2, 3])]


def test_examples_described_by_input_and_output_are_read() -> None:
    """HumanEval's other form (14 problems in each language): ``Input:`` then ``Output:``, the
    values by name (the signature's names, or others in order) or by position; and ``For x = ...
    the output should be ...`` on one line."""
    named = ("def maximum(arr, k):\n    Example 1:\n        Input: arr = [-3, -4, 5], k = 3\n"
             "        Output: [-4, -3, 5]\n\n    Example 2:\n        Input: arr = [4, -4, 4], k = 2\n"
             "        Output: [4, 4]\n        Explanation: ...\n")
    assert _read(named, "maximum") == [(([-3, -4, 5], 3), [-4, -3, 5]), (([4, -4, 4], 2), [4, 4])]
    lines = ("def max_fill(grid, capacity):\n    Example 1:\n        Input: \n            grid : [[0,1], [1,1]]\n"
             "            bucket_capacity : 1\n        Output: 3\n")  # not the signature's name: by order
    assert _read(lines, "max_fill") == [(([[0, 1], [1, 1]], 1), 3)]
    positional = ("const pluck = (arr) => {\n  Example 1:\n      Input: [4,2,3]\n      Output: [2, 1]\n"
                  "  Example 2:\n      Input: []\n      Output: []\n")
    assert _read(positional, "pluck", "javascript") == [(([4, 2, 3],), [2, 1]), (([],), [])]
    prose = ('def hex_key(num):\n    For num = "AB" the output should be 1.\n'
             '    For num = "2020" the output should be 2.\n    Output: 24 # sum of 21 + 3\n')
    assert _read(prose, "hex_key") == [(("AB",), 1), (("2020",), 2)]  # the last: no input given
    java = ("class Solution {\n    /**\n    Input: arr = [111,21,3], k = 2\n    Output: 24 # sum of 21 + 3\n"
            "     */\n    public int addElements(List<Integer> arr, int k) {\n")
    assert _read(java, "addElements", "java") == [(([111, 21, 3], 2), 24)]
    # not examples: a parameter missing, prose after Output, a value of the wrong type, an input of
    # two values for a function of one
    assert _read("def f(a, b):\n    Input: a = 1\n    Output: 2\n", "f") == []
    assert _read("def f(a):\n    Input: a = 1\n    Output: the sum of a\n", "f") == []
    assert _read("def f(a) -> List[int]:\n    Input: a = 1\n    Output: 2\n", "f") == []
    assert _read("def f(a):\n    Input: [1], 2\n    Output: 2\n", "f") == []


def test_prose_expressions_and_contradictions_are_not_examples() -> None:
    prose = ("def tri(n: int) -> List[int]:\n    tri(1) = 3\n"  # a definition: not what tri returns
             "    tri(n) = 1 + n / 2, if n is even.\n"
             '    fruit_distribution("5 apples and 6 oranges", 19) ->19 - 5 - 6 = 8\n'  # worked out
             "    double_the_difference([1, 3, 2, 0]) == 1 + 9 + 0 + 0 = 10\n"
             "    >>> below(3)\n    >>> below(4)\n"  # a prompt with no output under it
             "    h(1) returns a list of odd numbers\n")  # no literal
    for name in ("tri", "fruit_distribution", "double_the_difference", "below", "h"):
        assert _read(prose, name) == [], name
    assert _read(prose + "    tri(3) = [1, 3, 2, 8]\n", "tri") == [((3,), [1, 3, 2, 8])]
    # a value must fit the declared return type; an Optional or a Union takes each of its kinds
    assert _read("def f(a) -> Optional[int]:\n    f([1, 2]) == 2\n    f([]) == None\n", "f") == [
        (([1, 2],), 2), (([],), None)]
    assert _read("    public static long[] f(long n) {\n    // f(2) == 4\n", "f", "java") == []
    # with no type declared, values of two kinds are not trusted (``split_words`` returns a list or a count)
    assert _read("// g('a b') ==> ['a', 'b']\n// g('abc') ==> 1\nfunction g(s){\n", "g", "javascript") == []
    assert _read("    k(1) == 2\n    k(1) == 3\n    k(2) == 4\n", "k") == [((2,), 4)]  # 1 is stated twice, apart
    assert _read("    k(1) == 2\n    >>> k(1)\n    2\n", "k") == [((1,), 2)]


@pytest.mark.parametrize("hostile", ["[" * 5000 + "]" * 5000, "9" * 100_000, "__import__('os').system('x')",
                                     "(lambda: 1)()", "'" + "a" * 10_000, "{1: " * 3000])
def test_a_hostile_stated_or_recorded_value_reads_as_nothing(hostile: str) -> None:
    ok, _ = read_value(hostile)
    assert hostile.startswith("9") or not ok
    assert matches(1, [hostile + "|5"]) in (None, False)
    stated_examples(f"    f(1) == {hostile}\n    >>> f(2)\n    {hostile}\n", "f")  # reads or skips, never raises


def test_each_harness_value_reads_back_as_the_stated_value() -> None:
    # Python's repr, JavaScript's JSON, Java's and C++'s own forms, floats to six significant digits
    assert matches("hELLO", ["'hELLO'|7"]) and matches("hELLO", ['"hELLO"|7'])
    assert matches(True, ["True|4"]) and matches(True, ["true|4"]) and not matches(True, ["1|1"])
    assert matches(0.5, ["0.500000|8"]) and matches(1 / 3, ["0.333333|8"]) and not matches(0.5, ["0.6|3"])
    assert matches(6, ["6.00000|7"])  # a double Java shows with %.6g
    assert matches((1, 2), ["(1, 2)|6"]) and matches((1, 2), ["(1, 2, )|8"]) and matches((1, 2), ["[1, 2]|6"])
    assert matches([2, 1], ["[2, 1]|6"]) and not matches([2, 1], ["[1, 2]|6"]) and not matches([1], ["[1, 1]|6"])
    assert matches({"a": 1}, ["{'a': 1}|8"]) and matches({"a": 1}, ['{"a"=1}|7'])
    assert matches({"a": 1}, ['[("a", 1)]|9'])  # a C++ map, shown as its pairs
    assert matches(None, ["None|4"]) and matches(None, ["null|4"])
    assert not matches(5, ["!raises ValueError"]) and matches(5, []) is None and matches(5, ["<value>|7"]) is None
    assert not same("1", 1) and not same([1], (1, 2)) and same(float("nan"), float("nan"))


def _b(values: dict[int, list[str]], passed: list[bool]) -> Behaviour:
    return Behaviour(loaded=True, passed=passed, values=values)


def test_the_stated_examples_outweigh_tests_that_share_a_misreading_with_a_wrong_attempt() -> None:
    """Four units: three generated tests, then the example input ``f(2)``, stated to give 4.  The
    model's tests misread the problem the way the wrong attempts do, so those pass them all; the right
    attempts return the stated 4.  Without the examples the wrong ones win; with them the right ones."""
    probe = Probe("f", ["t0", "t1", "t2", "ex"], tests=3, stated=((3, 4, "f(2) -> 4"),))
    wrong = [_b({0: ["1|1"], 1: ["2|1"], 2: ["3|1"], 3: ["5|1"]}, [True, True, True]) for _ in range(2)]
    right = [_b({0: ["1|1"], 1: ["9|1"], 2: ["3|1"], 3: ["4|1"]}, [True, False, True]) for _ in range(2)]
    assert rank([*wrong, *right], probe, use_stated=False)[0].index in (0, 1)
    ranked = rank([*wrong, *right], probe)
    assert ranked[0].index in (2, 3) and (ranked[0].examples_passed, ranked[0].examples_total) == (1, 1)
    # support: 2 alike, plus the two wrong ones agreeing on half the units; (2/3 tests + 1/1 examples) / 2
    assert ranked[0].score == pytest.approx(100 * 3 / 4 * (2 / 3 + 1) / 2, abs=0.01)
    assert any("returns 0/1 of the problem's stated examples (not: f(2) -> 4)" in r for r in ranked[2].reasons)
    assert review(ranked, [*wrong, *right], probe, validated=False) == []
    # an example no attempt returns (a wrong example, or one misread) is not counted
    probe = Probe("f", ["t0", "t1", "t2", "ex"], tests=3, stated=((3, 7, "f(2) -> 7"),))
    assert rank([*wrong, *right], probe)[0].examples_total is None
    # the chosen attempt failing a counted example is a reason to look
    lone = [_b({0: ["1|1"], 1: ["2|1"], 2: ["3|1"], 3: ["4|1"]}, [False, False, False])]
    probe = Probe("f", ["t0", "t1", "t2", "ex"], tests=3, stated=((3, 4, "f(2) -> 4"),))
    ranked = rank([*wrong, *wrong, *lone], probe)
    assert "the chosen attempt returns only 0/1 of the problem's stated examples" in review(
        ranked, [*wrong, *wrong, *lone], probe, validated=False)


JAVA = """import java.util.*;
class Problem {
    // Return the pair (number of even digits, number of odd digits) of n.
    // >>> evenOddCount((12l))
    // (Pair.with(1l, 1l))
    // even_odd_count(-12) ==> (1, 1)
    // even_odd_count(123) ==> (1, 2)
    // Return the mean of the list, as a double.
    // >>> mean((new ArrayList<Long>(Arrays.asList(1l, 2l))))
    public static long[] evenOddCount(long n) {
"""
RIGHT = """        long[] c = new long[2];
        for (char ch : Long.toString(Math.abs(n)).toCharArray()) c[(ch - '0') % 2]++;
        return c;
    }
}
"""
# counts the minus sign's '-' (45, odd) as a digit: the model's tests below miss it, the examples do not
WRONG = """        long[] c = new long[2];
        for (char ch : Long.toString(n).toCharArray()) c[(ch - '0') % 2 == 0 ? 0 : 1]++;
        return c;
    }
}
"""
JAVA_TESTS = """assertArrayEquals(new long[]{1, 1}, Problem.evenOddCount(12L));
assertArrayEquals(new long[]{0, 1}, Problem.evenOddCount(7L));
assertArrayEquals(new long[]{1, 2}, Problem.evenOddCount(123L));
"""


@pytest.mark.docker
def test_a_java_ranking_is_decided_by_the_problems_stated_examples_on_the_real_sandbox() -> None:
    """The harness records a ``long[]`` as Java shows it; it reads back as the stated tuple."""
    from sejury import Judge

    judge = Judge(ScriptedChatModel(script=lambda m: f"```java\n{JAVA_TESTS}```"), cache=False, execute=True)
    try:
        r = judge.rank(JAVA, [WRONG, RIGHT, WRONG], language="java")
    finally:
        judge.close()
    by = {c.index: c for c in r.candidates}
    assert by[1].tests_passed == by[0].tests_passed == 3  # the generated tests do not tell them apart
    assert (by[1].examples_passed, by[1].examples_total) == (2, 2), by[1].reasons
    assert by[0].examples_passed == 1 and r.chosen == 1, [c.reasons for c in r.candidates]


CUBE = ('def iscube(a: int) -> bool:\n    """True if a is the cube of some integer.\n    Examples:\n'
        "    iscube(1) ==> True\n    iscube(2) ==> False\n    iscube(-1) ==> True\n    iscube(64) ==> True\n"
        '    iscube(180) ==> False\n    """\n')
CUBE_RIGHT = "    a = abs(a)\n    return round(a ** (1 / 3)) ** 3 == a\n"
CUBE_WRONG = "    return round(a ** (1 / 3)) ** 3 == a if a > 0 else False\n"  # no negative cube
# a candidate written to game the check: it prints the harness's value lines itself, then returns nothing
CUBE_FORGER = ("    import sys\n    for i in range(5):\n        print(f'@@V {i} 0 True|4')\n"
               "    sys.stdout.write('@@V 1 0 False|5\\n')\n    return None\n")


@pytest.mark.docker
async def test_without_a_reference_ex_fuzz_checks_the_stated_outputs_on_the_real_sandbox(
        sandbox: DockerSandbox) -> None:
    """A sample with no reference: Ex-fuzz (no model call) runs the candidate on the problem's five
    stated examples.  The right one returns all five; the wrong one misses ``iscube(-1) ==> True``
    and the verdict names it; one that prints the harness's value lines itself gets nothing for it."""
    from sejury import Judge
    from sejury.schema import Sample, Task

    judge = Judge(ScriptedChatModel(script=lambda m: "Score: 50"), team="Ex-fuzz", cache=False, execute=True,
                  sandbox=sandbox, traces=False)
    got = {}
    for name, code in (("right", CUBE_RIGHT), ("wrong", CUBE_WRONG), ("forger", CUBE_FORGER)):
        s = Sample(id=name, task=Task.CODE_GENERATION, problem=CUBE, candidate=code)
        got[name] = (await judge.ajudge(s)).strategies["example_fuzz"]
    assert got["right"].score == 100 and got["right"].artifacts["inputs"] == 5, got["right"]
    assert got["wrong"].score == 80, got["wrong"]
    assert got["wrong"].artifacts["differs"] == [{"example": "iscube(-1) -> True", "candidate": "False"}]
    assert got["forger"].score == 0, got["forger"]
    from sejury.strategies.example_fuzz import detail_lines

    assert detail_lines(got["wrong"])[0].startswith("no reference: the candidate returned the output the problem "
                                                    "states on 4/5 of its examples of iscube")


def test_a_problem_stating_thousands_of_examples_runs_only_the_first_ones() -> None:
    from sejury.schema import Sample, Task
    from sejury.strategies._stated_examples import MAX_EXAMPLES, examples_of

    problem = "def f(x: int) -> int:\n" + "".join(f"    f({i}) == {i + 1}\n" for i in range(5000))
    found = examples_of(Sample(id="x", task=Task.CODE_GENERATION, problem=problem, candidate="    return x + 1\n"))
    assert found is not None and found[0] == "f" and len(found[1]) == MAX_EXAMPLES
    assert found[1][0][0] == "f(0)" and found[1][0][1].expected == 1


CPP_CUBE = ("#include<stdio.h>\n#include<math.h>\nusing namespace std;\n// True if a is the cube of some integer.\n"
            "// iscube(1) ==> true\n// iscube(2) ==> false\n// iscube(-1) ==> true\n// iscube(64) ==> true\n"
            "// iscube(180) ==> false\nbool iscube(int a){\n")
CPP_CUBE_RIGHT = ("    for (int i = 0; i * i * i <= abs(a); i++) if (i * i * i == abs(a)) return true;\n"
                  "    return false;\n}\n")
CPP_CUBE_WRONG = ("    if (a <= 0) return false;\n" + CPP_CUBE_RIGHT)  # no negative cube
CPP_CUBE_BROKEN = "    return cube_root(a) != nullptr;\n}\n"  # its own text does not compile either


@pytest.mark.docker
async def test_a_reference_that_does_not_compile_leaves_ex_fuzz_the_stated_outputs_on_the_real_sandbox(
        sandbox: DockerSandbox) -> None:
    """HumanEval-X's C++ ``make_palindrome`` reference calls a helper its text does not define, so
    it answers nothing; the problem still states its examples' outputs.  Ex-fuzz checks those, as
    with no reference, and says why; a candidate that does not compile either is left unscored
    there (the harness may be at fault for both; S5 reads the candidate's own compile errors)."""
    from sejury import Judge
    from sejury.schema import Sample, Task
    from sejury.strategies.example_fuzz import detail_lines

    judge = Judge(ScriptedChatModel(script=lambda m: "Score: 50"), team="Ex-fuzz", cache=False, execute=True,
                  sandbox=sandbox, traces=False)
    got = {}
    for name, code in (("right", CPP_CUBE_RIGHT), ("wrong", CPP_CUBE_WRONG), ("broken", CPP_CUBE_BROKEN)):
        s = Sample(id=name, task=Task.CODE_GENERATION, language="cpp", problem=CPP_CUBE, candidate=code,
                   reference="    return is_cube_helper(a);\n}\n")
        got[name] = (await judge.ajudge(s)).strategies["example_fuzz"]
    assert got["right"].score == 100 and got["right"].artifacts["inputs"] == 5, got["right"]
    assert got["wrong"].score == 80, got["wrong"]
    assert got["wrong"].artifacts["differs"] == [{"example": "iscube(-1) -> true", "candidate": "false"}]
    assert detail_lines(got["wrong"])[0].startswith("the reference does not load or compile: the candidate returned "
                                                    "the output the problem states on 4/5")
    assert got["broken"].score is None and "does not load or compile either" in str(got["broken"].detail)
