"""Programs that read stdin and print: which samples they are, their tests read from the text,
outputs compared, inputs mutated (no sandbox here; ``test_stdio_sandbox.py`` runs them)."""

from __future__ import annotations

import pytest

from sejury import Sample
from sejury.execution.io_fuzz import mutate_io
from sejury.execution.languages._stdio import java_main_class, python_compat
from sejury.execution.stdio import (
    IoCase,
    IoOutput,
    digest_of,
    is_stdio,
    parse_cases,
    same_output,
    several_answers,
    statement_examples,
)
from sejury.strategies import _io
from tests.helpers.paths import EXAMPLES

CODEFORCES = """Count the years.

-----Input-----

The only line contains two integers a and b (1 <= a <= b <= 10^18).

-----Output-----

Print one integer.

-----Examples-----
Input
5 10

Output
2

Input
2015 2015
Output
1



-----Note-----

In the first sample ... 7 years.
"""
ATCODER = """Biscuits.

-----Input-----
Input is given from Standard Input in the following format:
A B T

-----Output-----
Print the total.

-----Sample Input-----
3 5 7

-----Sample Output-----
10

 - Five biscuits will be produced three seconds after activation.
"""
HUMANEVAL = 'def add(a, b):\n    """Return a + b.\n    >>> add(2, 3)\n    5\n    """\n'


def test_examples_are_read_from_codeforces_and_atcoder_statements() -> None:
    assert statement_examples(CODEFORCES) == [IoCase("5 10\n", "2\n"), IoCase("2015 2015\n", "1\n")]
    assert statement_examples(ATCODER) == [IoCase("3 5 7\n", "10\n")]  # the prose after a blank line is not output
    assert statement_examples(HUMANEVAL) == []
    # before an Examples heading, Input/Output are the format's sections, not an example
    assert statement_examples("-----Input-----\nn\n-----Output-----\nm\n") == []


def test_a_sample_is_a_program_by_its_sections_and_its_reading_of_stdin() -> None:
    reads = "a, b = map(int, input().split())\nprint(b - a)\n"
    assert is_stdio(CODEFORCES, reads, "", "python", {})
    assert not is_stdio(CODEFORCES, "def f(a, b):\n    return b - a\n", reads, "python", {})  # the reference decides
    assert is_stdio(CODEFORCES, None, reads, "python", {})  # no reference: the candidate does
    assert not is_stdio(HUMANEVAL, "def add(a, b):\n    return a + b\n", "", "python", {})
    assert is_stdio("Add two numbers.", "x", "y", "python", {"form": "stdio"})  # a sample field decides
    assert not is_stdio(CODEFORCES, reads, reads, "python", {"form": "function"})
    for lang, prog in [("javascript", "require('fs').readFileSync(0, 'utf8')"), ("java", "new Scanner(System.in)"),
                       ("cpp", "int n; std::cin >> n;"), ("go", "reader := bufio.NewReader(os.Stdin)")]:
        assert is_stdio(CODEFORCES, prog, "", lang, {}), lang
    sample = Sample(id="s", task="code_generation", problem=CODEFORCES, candidate=reads, reference=reads)
    assert _io.is_program(sample)
    assert _io.is_program(sample.model_copy(update={"metadata": {}}))
    assert not _io.is_program(Sample(id="s", task="code_summarization", problem=CODEFORCES, candidate=reads))


def test_the_samples_own_tests_as_json_or_as_statement_text_and_bad_json_says_where() -> None:
    assert parse_cases('[{"input": "1 2\\n", "output": "3\\n"}, ["2 2\\n", "4\\n"]]') == \
        [IoCase("1 2\n", "3\n"), IoCase("2 2\n", "4\n")]
    assert parse_cases("Input\n1 2\nOutput\n3\n\nInput\n5 5\nOutput\n10\n") == \
        [IoCase("1 2\n", "3\n"), IoCase("5 5\n", "10\n")]
    with pytest.raises(ValueError, match="do not parse"):
        parse_cases('[{"input": "1"')
    with pytest.raises(ValueError, match="item 1"):
        parse_cases('[{"input": "1", "output": "1"}, {"stdin": "2"}]')


def _out(text: str, *, shown: int | None = None) -> IoOutput:
    return IoOutput(exit_code=0, seconds=0.1, bytes=len(text.encode()), digest=digest_of(text),
                    stdout=text[:shown] if shown else text)


def test_outputs_compare_by_tokens_with_a_float_tolerance_and_long_ones_by_digest() -> None:
    assert same_output("1 2\n3\n", _out("1   2 3"))
    assert same_output("YES\r\n", _out("YES"))
    assert not same_output("YES\n", _out("Yes\n"))  # case counts
    assert same_output("0.3333333\n", _out("0.33333334"))
    assert not same_output("0.3333\n", _out("0.3334"))
    assert not same_output("2\n", _out("3\n"))
    assert not same_output("1 2\n", _out("1 2 3\n"))
    long = " ".join(str(i) for i in range(3000))  # beyond the part that leaves the sandbox
    big = IoOutput(exit_code=0, seconds=0.1, bytes=9000, digest=digest_of(long), stdout=long[:4096])
    assert same_output(long, big) and not same_output(long + " 1", big)
    assert same_output(big, big.model_copy()) and not same_output(big, big.model_copy(update={"digest": "0" * 64}))


def test_problems_that_accept_several_answers_are_told() -> None:
    assert several_answers("If there are multiple answers, print any of them.")
    assert several_answers("Output any valid permutation.")
    assert not several_answers(CODEFORCES)


def test_mutations_keep_the_inputs_shape() -> None:
    seeds = ["5\n1 7 2 11 15\n", "3\n4 4 4\n"]
    made = mutate_io(seeds, 20, seed=3)
    assert made == mutate_io(seeds, 20, seed=3) and len(made) == 20  # deterministic
    assert not set(made) & set(seeds) and len(set(made)) == len(made)
    for text in made:
        lines = text.splitlines()
        assert len(lines) == 2 and int(lines[0]) == len(lines[1].split())  # the count still counts
        assert all(int(x) >= 1 for x in lines[1].split())  # positive stays positive
    perm = mutate_io(["4\n2 1 4 3\n"], 10, seed=1)
    assert all(sorted(t.split()[1:]) == ["1", "2", "3", "4"] for t in perm)  # a permutation is only reordered
    pair = mutate_io(["3 9\n"], 10, seed=1)  # a <= b stays true on a parameter line
    assert pair and all(int(t.split()[0]) < int(t.split()[1]) for t in pair)
    assert mutate_io(["4 4\n"], 5, seed=1) == []  # a tie stays a tie (and a count is not touched)
    words = mutate_io(["2\nabc\nxyz\n"], 10, seed=2)
    assert all([len(w) for w in t.split()[1:]] == [3, 3] and t.islower() for t in words)
    assert mutate_io(["\n"], 5, seed=1) == []


def test_the_models_inputs_are_read_from_fenced_blocks_or_dashes() -> None:
    assert _io.read_inputs("Here:\n```\n1 2\n```\ntext\n```text\n3 4\n5\n```") == ["1 2\n", "3 4\n5\n"]
    assert _io.read_inputs("```\n1\n---\n2\n```") == ["1\n", "2\n"]
    # what the embedded model writes most: one block, an input per "# Input N" heading
    assert _io.read_inputs("```\n# Input 1\n3\n4 8 5\n\n# Input 2\n1\n1\n```") == ["3\n4 8 5\n", "1\n1\n"]
    assert _io.read_inputs("```\nInput 1:\n2 3\nTest case 2\n5 5\n```") == ["2 3\n", "5 5\n"]
    assert _io.inputs_of(_io.SEPARATOR.join(["1 2", "3"])) == ["1 2\n", "3\n"]


def test_python_programs_run_as_appss_harness_ran_them() -> None:
    top_return = "n = int(input())\nif n:\n    print(1)\n    return\nprint(2)\n"
    wrapped = python_compat(top_return)
    compile(wrapped, "main.py", "exec")
    assert wrapped.rstrip().endswith("sejury_program()")
    assert python_compat("print(1)\n") == "print(1)\n"  # a program that compiles is left as it is
    assert "math" in python_compat("import fractions\nprint(fractions.gcd(4, 6))\n").splitlines()[0]


def test_the_java_class_that_runs_is_the_one_holding_main() -> None:
    assert java_main_class("import java.util.*;\npublic class Main {\n  static class Pair { int a; }\n"
                           "  public static void main(String[] args) {}\n}\n") == "Main"
    assert java_main_class("class Helper {}\nclass Solution { public static void main(String[] a) {} }") == "Solution"
    assert java_main_class("public class Prog { }") == "Prog"


def test_the_repair_round_shows_the_compilers_lines_and_only_for_a_broken_suite() -> None:
    from sejury.execution.evidence import SuiteRun, TestExecution, UnitOutcome
    from sejury.strategies._repair_tests import suite_errors

    out = ("@@LOAD OK\n# sandbox\nsejury_test.go:75:23: unexpected comma; expecting ]\n"
           "FAIL\tsandbox [setup failed]\n@@TESTS NOCOMPILE")
    ref = SuiteRun(loaded=True, total=2, passed=0, status="failed", seconds=1.0, stdout_tail=out,
                   outcomes=[UnitOutcome(test="a", passed=False, why="tests do not compile")] * 2)
    errors = suite_errors(TestExecution(status="skipped", reference=ref))
    assert errors is not None and "sejury_test.go:75:23: unexpected comma" in errors and "@@" not in errors
    wrong = ref.model_copy(update={"stdout_tail": "", "outcomes": [
        UnitOutcome(test="a", passed=False, why="AssertionError: 3 != 4")] * 2})
    assert suite_errors(TestExecution(status="skipped", reference=wrong)) is None  # wrong expectations: no repair
    assert suite_errors(TestExecution(status="ran", valid=1, reference=ref)) is None  # some test held
    no_file = ref.model_copy(update={"stdout_tail": "", "outcomes": [
        UnitOutcome(test="a", passed=False, why="FileNotFoundError [Errno 2] No such file or directory: 'data.csv'")]})
    assert "data.csv" in (suite_errors(TestExecution(status="skipped", reference=no_file)) or "")  # never written


def test_on_a_program_with_examples_the_default_team_leaves_out_the_model_written_inputs() -> None:
    import json

    from sejury.graph.supervisor import resolve_team

    wrong = EXAMPLES / "stdio" / "longest_run_wrong.json"
    program = Sample.model_validate(json.loads(wrong.read_text()))
    team = {t.value for t in resolve_team(program, None, None, execute=True)}
    assert {"sample_tests", "example_fuzz"} <= team and not {"test_pass", "test_diff"} & team
    function = Sample(id="f", task="code_generation", problem=HUMANEVAL, candidate="    return a + b\n",
                      reference="    return a + b\n")
    assert {"test_pass", "test_diff"} <= {t.value for t in resolve_team(function, None, None, execute=True)}
