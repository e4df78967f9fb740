"""Per-language runners: splitting tests into units (pure), and correct vs wrong candidates on the
same tests in the real sandbox (one per language)."""

from __future__ import annotations

import pytest

from sejury.execution.runner import assemble_program, run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

CASES = {
    "python": ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a - b\n",
               "assert add(1, 2) == 3\nassert add(-1, 1) == 0\nassert add(0, 0) == 0\n"),
    "javascript": ("function add(a, b) { return a + b; }", "function add(a, b) { return a - b; }",
                   "console.assert(add(1, 2) === 3);\nconsole.assert(add(-1, 1) === 0);\n"
                   "console.assert(add(0, 0) === 0);"),
    "java": ("class Solution {\n  public static int add(int a, int b) { return a + b; }\n}",
             "class Solution {\n  public static int add(int a, int b) { return a - b; }\n}",
             'if (!(Solution.add(1, 2) == 3)) throw new AssertionError("t1");\n'
             'if (!(Solution.add(-1, 1) == 0)) throw new AssertionError("t2");\n'
             'if (!(Solution.add(0, 0) == 0)) throw new AssertionError("t3");'),
    "cpp": ("int add(int a, int b) { return a + b; }", "int add(int a, int b) { return a - b; }",
            "assert(add(1, 2) == 3);\nassert(add(-1, 1) == 0);\nassert(add(0, 0) == 0);"),
    "go": ("package main\n\nfunc Add(a, b int) int { return a + b }\n",
           "package main\n\nfunc Add(a, b int) int { return a - b }\n",
           'func TestGenerated(t *testing.T) {\n\tif Add(1, 2) != 3 { t.Errorf("t1") }\n'
           '\tif Add(-1, 1) != 0 { t.Errorf("t2") }\n\tif Add(0, 0) != 0 { t.Errorf("t3") }\n}'),
}


def test_python_tests_split_into_one_unit_per_assert() -> None:
    suite = split_tests("python", "import math\n\ndef test_all():\n    assert f(1) == 2\n    assert f(2) == 3\n\n"
                                  "test_all()\nassert f(0) == 1\ndef helper(): pass\n")
    assert suite.units == ["assert f(1) == 2", "assert f(2) == 3", "assert f(0) == 1"]
    assert "import math" in suite.setup and "def helper" in suite.setup


def test_unparseable_python_tests_fall_back_to_assert_lines() -> None:
    suite = split_tests("python", "assert f(2 ==\n")
    assert suite.units == ["assert f(2 =="]  # fails on the reference: the repair round is shown why


def test_a_python_suite_cut_off_keeps_its_whole_statements() -> None:
    """A reply cut off mid-suite (``def test_last():`` with no body) keeps the statements before
    the cut, whole: its test functions keep their own steps (were: bare assert lines, NameError).
    A statement that does not parse is dropped alone."""
    suite = split_tests("python", "def test_one():\n    ax = f([5])\n    assert ax.t == 'A'\n"
                                  "    assert len(ax.p) == 1\n\nassert f(2 ==\n\ndef test_two():")
    assert suite.units == ["ax = f([5])\nassert ax.t == 'A'", "ax = f([5])\nassert len(ax.p) == 1"]
    typo = split_tests("python", "assert f([1]) == 1\nassert f(['', '')] == 2\nassert f([]) == 0\n")
    assert typo.units == ["assert f([1]) == 1", "assert f([]) == 0"]  # a mistyped line alone is dropped


def test_python_script_tests_run_each_check_after_its_own_steps() -> None:
    """Top-level tests (``df = f('a')``, asserts, ``df = f('b')``, asserts): each check runs after
    the steps of its own test and the earlier steps whose names it reads, not after every step of
    the file in the setup (where the first step that raised stopped all, and every check saw the
    last test's values)."""
    tests = ("import numpy as np\nk = 3\nx = np.arange(k)\ndf = f(x, 'a')\nassert df.n == 1\n"
             "assert df.m == 2\ndf = f(x, 'b')\ndf['c'] = 1\nassert df.n == 3\nassert g(k) == 0\n")
    suite = split_tests("python", tests, reference="def f(x, s): ...\ndef g(k): ...\n")
    assert suite.setup == "try:\n    import numpy as np\nexcept Exception:\n    pass\nk = 3"
    assert suite.units == ["x = np.arange(k)\ndf = f(x, 'a')\nassert df.n == 1",
                           "x = np.arange(k)\ndf = f(x, 'a')\nassert df.m == 2",
                           "x = np.arange(k)\ndf = f(x, 'b')\ndf['c'] = 1\nassert df.n == 3", "assert g(k) == 0"]


def test_python_script_tests_reassigning_a_literal_and_importing_the_function() -> None:
    """``labels = ['A']`` then ``labels = []`` later: each check sees its own test's value (in the
    setup, every check saw the last); an import of the function under test from a module that does
    not exist is dropped, and a failing import no longer stops the rest of the setup."""
    tests = ("from your_module import task_func\nimport nosuchlib\nlabels = ['A']\nassert task_func(labels) == 1\n"
             "labels = []\nassert task_func(labels) == 0\n")
    suite = split_tests("python", tests, reference="def task_func(x): ...\n")
    assert suite.setup == "try:\n    import nosuchlib\nexcept Exception:\n    pass"
    assert suite.units == ["labels = ['A']\nassert task_func(labels) == 1",
                           "labels = []\nassert task_func(labels) == 0"]


def test_python_test_functions_get_the_module_steps_they_read() -> None:
    """A test function reading a name a top-level step computed gets that step (its last value),
    and the steps that call nothing under test (a file written, a seed: as the setup ran them);
    not a step that calls the function under test for a name the test does not read."""
    tests = ("data = make(4)\nopen('in.txt', 'w').write('1')\nwanted = f(1)\ndata = make(5)\n"
             "def test_a():\n    assert f(data) == 2\n")
    suite = split_tests("python", tests, reference="def f(x): ...\n")
    assert suite.units == ["data = make(4)\nopen('in.txt', 'w').write('1')\ndata = make(5)\nassert f(data) == 2"]


def test_c_like_statements_keep_brackets_and_strings_whole() -> None:
    suite = split_tests("javascript", "const xs = [1,\n 2];\nconsole.assert(f(xs) === 3,\n 'multi;line');\n"
                                      "// a comment\nconsole.assert(g(')') === 1);")
    assert suite.setup == "const xs = [1,\n 2];"
    assert suite.units == ["console.assert(f(xs) === 3,\n 'multi;line');", "console.assert(g(')') === 1);"]


def test_go_units_come_from_the_test_function_body() -> None:
    suite = split_tests("go", CASES["go"][2])
    assert len(suite.units) == 3 and all(u.startswith("if Add(") for u in suite.units)


def test_a_c_like_suite_cut_off_mid_statement_keeps_its_whole_statements() -> None:
    """A reply cut off at the model's token limit (``if F(2) != 3 {`` and no more) used to fail to
    compile as a whole (``expected '}', found 'EOF'``); the partial statement alone is dropped."""
    suite = split_tests("go", 'func TestX(t *testing.T) {\n\tif F(1) != 2 { t.Errorf("a") }\n\tif F(2) != 3 {\n')
    assert suite.units == ['if F(1) != 2 { t.Errorf("a") }']


def test_humaneval_style_body_is_joined_to_the_signature() -> None:
    problem = 'def inc(x):\n    """Return x + 1."""\n'
    assert assemble_program("python", problem, "    return x + 1\n") == problem.rstrip() + "\n    return x + 1\n"
    assert assemble_program("python", problem, "def inc(x):\n    return x + 1\n") == "def inc(x):\n    return x + 1\n"


def test_humaneval_body_whose_first_line_lost_its_indentation_is_reindented() -> None:
    # datasets that strip generations store "y = x\n    return y": the first line gets the body's indent back
    problem = 'def inc(x):\n    """Add one."""\n'
    body = "y = x + 1\n    if y > 9:\n        y = 9\n    return y"
    program = assemble_program("python", problem, body)
    assert program == problem.rstrip() + "\n    y = x + 1\n    if y > 9:\n        y = 9\n    return y"
    ns: dict[str, object] = {}
    exec(compile(program, "p", "exec"), ns)
    assert ns["inc"](3) == 4  # type: ignore[operator]
    assert assemble_program("python", problem, "return x + 1").endswith("\n    return x + 1")



@pytest.mark.docker
@pytest.mark.parametrize("language", list(CASES))
async def test_correct_and_wrong_candidate_on_the_same_tests(sandbox: DockerSandbox, language: str) -> None:
    good, bad, tests = CASES[language]
    suite = split_tests(language, tests)
    assert len(suite.units) == 3
    ok = await run_suite(sandbox, language, assemble_program(language, "", good), suite)
    assert ok.loaded and ok.passed == [True, True, True], ok
    wrong = await run_suite(sandbox, language, assemble_program(language, "", bad), suite)
    assert wrong.loaded and wrong.passed == [False, False, True], wrong  # add(0, 0) == 0 either way
    assert all(wrong.reasons[:2]) and wrong.reasons[2] == ""
    broken = await run_suite(sandbox, language, good[: len(good) // 2], suite)
    assert not broken.loaded and broken.passed == [False, False, False]


@pytest.mark.docker
async def test_a_test_that_does_not_compile_is_dropped_not_the_suite(sandbox: DockerSandbox) -> None:
    good, _, tests = CASES["java"]
    suite = split_tests("java", tests + '\nif (!(Solution.missing(1) == 2)) throw new AssertionError("t4");')
    report = await run_suite(sandbox, "java", good, suite)
    assert report.passed == [True, True, True, False]
    assert report.reasons[3] == "does not compile" and report.runs == 2


@pytest.mark.docker
async def test_units_broken_in_each_compiler_phase_are_dropped_one_round_each(sandbox: DockerSandbox) -> None:
    """javac reports a type error only once the file parses, and a flow error (a variable read before
    it is set) only once it type-checks: three broken units take three rounds, then the good ones
    run (with three compiles at most, as before, every unit was lost)."""
    good, _, tests = CASES["java"]
    broken = ['if (!(Solution.add(1, 2) === 3)) throw new AssertionError("syntax");',
              '{ String s = Solution.add(1, 2); if (!(s.isEmpty())) throw new AssertionError("type"); }',
              '{ int y; if (!(Solution.add(y, 1) == 1)) throw new AssertionError("flow"); }']
    suite = split_tests("java", tests + "\n" + "\n".join(broken))
    assert len(suite.units) == 6
    report = await run_suite(sandbox, "java", good, suite)
    assert report.passed == [True, True, True, False, False, False]
    assert report.reasons[3:] == ["does not compile"] * 3 and report.runs == 4


@pytest.mark.docker
async def test_an_infinite_loop_in_one_python_test_fails_only_that_test(sandbox: DockerSandbox) -> None:
    code = "def f(x):\n    while x == 0:\n        pass\n    return x\n"
    suite = split_tests("python", "assert f(1) == 1\nassert f(0) == 0\nassert f(2) == 2\n")
    report = await run_suite(sandbox, "python", code, suite)
    assert report.passed == [True, False, True]
    assert "TimeoutError" in report.reasons[1]


WHOLE_PROGRAM_TESTS = {
    # what the embedded 1.5B model really wrote: the reference again, then a main with the checks
    "cpp": ("int count_vowels(const std::string& s) {\n    return 0;\n}\n",
            '#include <cassert>\nint count_vowels(const std::string& s) {\n    return 99;\n}\n\nint main() {\n'
            '    assert(count_vowels("") == 0);\n    assert(count_vowels("ab") == 1);\n    return 0;\n}\n'),
    "java": ("class Solution {\n  public static int f(String s) { return 0; }\n}",
             'class Solution {\n  public static int f(String s) { return 99; }\n}\n\npublic class Main {\n'
             '  public static void main(String[] args) {\n    assert Solution.f("") == 0 : "t1";\n'
             '    assert Solution.f("ab") == 1 : "t2";\n  }\n}\n'),
    "python": ("def f(s):\n    return 0\n",
               "def f(s):\n    return 99\n\nassert f('') == 0\nassert f('ab') == 1\n"
               "if __name__ == '__main__':\n    print('ok')\n"),
    "javascript": ("function f(s) { return 0; }", "function f(s) { return 99; }\nconsole.assert(f('') === 0);\n"
                   "console.assert(f('ab') === 1);"),
    "go": ("package main\n\nfunc F(s string) int { return 0 }\n",
           'package main\n\nimport "testing"\n\nfunc F(s string) int { return 99 }\n\n'
           'func TestF(t *testing.T) {\n\tif F("") != 0 { t.Errorf("t1") }\n\tif F("ab") != 1 { t.Errorf("t2") }\n}\n'),
}


@pytest.mark.parametrize("language", list(WHOLE_PROGRAM_TESTS))
def test_a_copy_of_the_solution_in_the_tests_is_dropped(language: str) -> None:
    reference, tests = WHOLE_PROGRAM_TESTS[language]
    suite = split_tests(language, tests, reference)
    assert len(suite.units) == 2, suite
    assert "99" not in suite.setup and not any("99" in u for u in suite.units)


@pytest.mark.docker
async def test_go_table_driven_subtests_fail_inside_their_unit(sandbox: DockerSandbox) -> None:
    tests = ('func TestX(t *testing.T) {\n\tcases := []struct{ in, want int }{{1, 2}, {2, 3}}\n'
             '\tfor _, c := range cases {\n\t\tt.Run(fmt.Sprint(c.in), func(t *testing.T) {\n'
             '\t\t\tif Inc(c.in) != c.want { t.Errorf("Inc(%d)", c.in) }\n\t\t})\n\t}\n'
             '\tif Inc(0) != 1 { t.Errorf("zero") }\n}')
    suite = split_tests("go", tests, "func Inc(x int) int { return x + 1 }")
    assert len(suite.units) == 3  # one unit per row of the table (issue 18), and the last check
    wrong = await run_suite(sandbox, "go", "package main\n\nfunc Inc(x int) int { return x }\n", suite)
    assert wrong.loaded and wrong.passed == [False, False, False] and "Inc(1)" in wrong.reasons[0]
    assert "Inc(2)" in wrong.reasons[1]


GO_AS_THE_MODEL_WRITES = """package collatz_test

import (
    "testing"
    "collatz"
)

func TestGenerated(t *testing.T) {
    arr := []int{3, 1}
    expected := []int{1, 3}
    if !slicesEqual(collatz.SortIt(arr), expected) {
        t.Errorf("case 1")
    }
    arr = []int{}
    expected := []int{}
    if !slicesEqual(collatz.SortIt(arr), expected) {
        t.Errorf("case 2")
    }
}

// Helper function to check if two slices are equal
func slicesEqual(a, b []int) bool {
    if len(a) != len(b) {
        return false
    }
    for i := range a {
        if a[i] != b[i] {
            return false
        }
    }
    return true
}"""
SORT_IT = ("package main\n\nimport \"sort\"\n\nfunc SortIt(a []int) []int {\n  b := append([]int{}, a...)\n"
           "  sort.Ints(b)\n  return b\n}\n")


@pytest.mark.docker
async def test_go_tests_as_the_model_writes_them_compile_and_check_their_own_case(sandbox: DockerSandbox) -> None:
    """Four things the 1.5B model does in Go that made whole suites fail to compile on the reference:
    a helper defined beside the test function (was dropped: ``undefined: slicesEqual``), the program
    called as a package of its own (``collatz.SortIt``), ``expected :=`` once per case (``no new
    variables on left side of :=``); and each case's values assigned before its check (every check
    saw the last case's)."""
    suite = split_tests("go", GO_AS_THE_MODEL_WRITES, SORT_IT)
    assert suite.units[1].startswith("arr = []int{}\nexpected = []int{}\nif !slicesEqual(SortIt(arr)"), suite.units
    right = await run_suite(sandbox, "go", SORT_IT, suite)
    assert right.loaded and right.passed == [True, True], right.reasons
    wrong = await run_suite(sandbox, "go", SORT_IT.replace("sort.Ints(b)\n", ""), suite)
    assert wrong.passed == [False, True], wrong.reasons  # the empty case still holds for the unsorted copy


GO_SLIPS = """func TestSortIt(t *testing.T) {
    tests := []struct {
        input    []int
        expected []int
    }{
        {[]int{3, 1}, []int{1, 3}},
        {[]int{}, []int{}} // the last row without its comma
    }
    for _, tc := range tests {
        if !equalSlices(SortIt(tc.input), tc.expected) {
            t.Errorf("SortIt(%v)", tc.input)
        }
    }
    seen := map[int]bool{2: true, 1: false, 2: true}
    if !equalSlices(SortIt([]int{2, 2, 1}), []int{
        1,
        2,
        2
    }) || len(seen) != 2 {
        t.Errorf("duplicates")
    }
}"""


@pytest.mark.docker
async def test_go_tests_the_compiler_refuses_for_a_slip_are_repaired(sandbox: DockerSandbox) -> None:
    """Three slips of the 1.5B model that made whole Go suites fail to compile on the reference
    (``missing ',' before newline in composite literal``, ``duplicate key 2 in map literal``,
    ``undefined: equalSlices``): the commas are given, the repeated key dropped, the helper defined;
    the suite then checks what it says, and tells a wrong program from the reference."""
    suite = split_tests("go", GO_SLIPS, SORT_IT)
    assert len(suite.units) == 3 and "var equalSlices func(a, b interface{}) bool" in suite.setup, suite
    right = await run_suite(sandbox, "go", SORT_IT, suite)
    assert right.loaded and right.passed == [True, True, True], right.reasons
    wrong = await run_suite(sandbox, "go", SORT_IT.replace("sort.Ints(b)\n", ""), suite)
    assert wrong.passed == [False, True, False], wrong.reasons  # [] sorted is [] (nil and empty are equal)


QUAD_PROBLEM = ('import (\n    "strings"\n)\n\n// Double repeats s twice.\nfunc Double(s string) string {\n'
                '    return strings.Repeat(s, 2)\n}\n\n// Quad repeats s four times, with Double.\n'
                'func Quad(s string) string {\n')


@pytest.mark.docker
async def test_a_go_solution_standing_alone_keeps_the_helper_the_problem_gives(sandbox: DockerSandbox) -> None:
    """HumanEval-X's Go candidates and references are whole functions (``func DecodeCyclic(...)
    {...}``) that call a helper the problem defines (``EncodeCyclic``); the program kept only the
    code, so the reference did not compile (``undefined: EncodeCyclic``) and no test could run."""
    code = "func Quad(s string) string {\n    return Double(Double(s))\n}\n"
    program = assemble_program("go", QUAD_PROBLEM, code)
    assert program.count("func Double(") == 1 and program.startswith(code.rstrip())
    whole = code + "\nfunc Double(s string) string {\n    return s + s\n}\n"  # defines it: nothing added
    assert assemble_program("go", QUAD_PROBLEM, whole) == whole
    suite = split_tests("go", 'func TestQuad(t *testing.T) {\n    if Quad("ab") != "abababab" { t.Errorf("ab") }\n}',
                        program)
    report = await run_suite(sandbox, "go", program, suite)
    assert report.loaded and report.passed == [True], (report.load_error, report.reasons)


PYTEST_FORMS = """import pytest

@pytest.fixture
def word():
    return "level"

@pytest.fixture
def words():
    yield ["a", "ab", "aba"]

@pytest.mark.parametrize("text, expected", [("racecar", True), ("ab", False), pytest.param("x", True, id="one"),
                                            ("abc", True), ("abca", False)])
def test_is_palindrome(text, expected):
    assert is_palindrome(text) == expected

@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("s", ["aa", "ab"])
def test_repeated(s, n):
    assert is_palindrome(s * n) == (s == "aa")

def test_fixtures(word, words, tmp_path):
    assert is_palindrome(word) and [is_palindrome(w) for w in words] == [True, False, True]
    assert tmp_path.is_dir()
"""
PALINDROME = "def is_palindrome(text):\n    return text == text[::-1]\n"


@pytest.mark.docker
async def test_pytest_parametrize_rows_and_fixtures_run_as_pytest_would(sandbox: DockerSandbox) -> None:
    """pytest's forms the model (and a user) write: each parametrize row is a unit of its own (the
    wrong row ``("abc", True)`` fails alone on the reference), stacked marks give every combination,
    the suite's fixtures and ``tmp_path`` are given; before, the functions were called bare
    (``TypeError: missing 2 required positional arguments``) and every test failed on the reference."""
    suite = split_tests("python", PYTEST_FORMS, PALINDROME)
    assert [u.splitlines()[-1] for u in suite.units] == [
        "test_is_palindrome(text='racecar', expected=True)", "test_is_palindrome(text='ab', expected=False)",
        "test_is_palindrome(text='x', expected=True)", "test_is_palindrome(text='abc', expected=True)",
        "test_is_palindrome(text='abca', expected=False)", "test_repeated(n=1, s='aa')", "test_repeated(n=1, s='ab')",
        "test_repeated(n=2, s='aa')", "test_repeated(n=2, s='ab')",
        "test_fixtures(word=_sejury_word, words=_sejury_words, tmp_path=_sejury_tmp_path)"]  # (words: a teardown)
    right = await run_suite(sandbox, "python", PALINDROME, suite)
    assert right.loaded and right.passed == [True, True, True, False, True, True, True, True, True, True], \
        right.reasons
    wrong = await run_suite(sandbox, "python", "def is_palindrome(text):\n    return text[0] == text[-1]\n", suite)
    assert wrong.loaded and wrong.passed[4] is False  # "abca" is no palindrome; this candidate says it is
    assert wrong.passed[:3] == [True, True, True] and all(wrong.passed[5:])


SUM_PRODUCT_TESTS = """func TestSumProduct(t *testing.T) {
    tests := []struct {
        input    []int
        expected [2]int
    }{
        {[]int{}, [2]int{0, 1}},
        {[]int{1, 1, 1}, [2]int{3, 1}},
        {[]int{-1, -2, -3, -4}, [2]int{-10, -24}},
    }
    for _, test := range tests {
        if got := SumProduct(test.input); got != test.expected {
            t.Errorf("SumProduct(%v) = %v; want %v", test.input, got, test.expected)
        }
    }
}"""


@pytest.mark.docker
async def test_one_wrong_row_of_a_go_table_fails_alone(sandbox: DockerSandbox) -> None:
    """The model's table with one wrong row (the product of -1..-4 is 24, not -24): that row alone
    fails on the reference, so the other rows stay valid (the table used to be one unit)."""
    reference = ("package main\n\nfunc SumProduct(numbers []int) [2]int {\n    s, p := 0, 1\n"
                 "    for _, n := range numbers {\n        s += n\n        p *= n\n    }\n    return [2]int{s, p}\n}\n")
    suite = split_tests("go", SUM_PRODUCT_TESTS, reference)
    assert len(suite.units) == 3
    report = await run_suite(sandbox, "go", reference, suite)
    assert report.loaded and report.passed == [True, True, False], report.reasons


@pytest.mark.docker
async def test_a_candidates_builtin_exception_reaches_the_tests_as_itself(sandbox: DockerSandbox) -> None:
    """The sealed Python harness remakes a builtin exception the program raised, TypeError too
    (it was caught by the remaking itself and came as a CandidateError)."""
    program = "def f(x):\n    if not isinstance(x, int):\n        raise TypeError('an int')\n    return x\n"
    tests = ("import pytest\nwith pytest.raises(TypeError):\n    f('x')\n"
             "with pytest.raises(ValueError):\n    f('x')\n")
    report = await run_suite(sandbox, "python", program, split_tests("python", tests))
    assert report.passed == [True, False], report.reasons


@pytest.mark.docker
@pytest.mark.parametrize("command", ["SYNTAX", "BUILD", "PROGRAM", "OPTIMISED"])
async def test_each_cpp_compile_reads_the_images_precompiled_header(sandbox: DockerSandbox, command: str) -> None:
    """The sandbox image holds <bits/stdc++.h> precompiled for each of the harnesses' g++ command
    lines (``sandbox/cxx.py``): GCC uses one only when it was made with the same flags, so a change
    of flags, compiler or image without a matching header would quietly cost each compile ~1 s of
    CPU.  ``-H`` lists the headers read: ``!`` marks a precompiled header used."""
    from sejury.sandbox import cxx

    program = "#include <bits/stdc++.h>\nusing namespace std;\nint main() { cout << vector<int>{1, 2}.size(); }\n"
    out = "" if command == "SYNTAX" else " -o prog"
    res = await sandbox.run({"a.cpp": program}, f"{getattr(cxx, command)} -H{out} a.cpp", timeout=60)
    used = [line for line in res.stderr.splitlines() if line.startswith("! ")]
    assert res.exit_code == 0 and len(used) == 1 and used[0].endswith(".gch"), res.stderr[:2000]


@pytest.mark.docker
async def test_javac_starts_from_the_images_class_archive(sandbox: DockerSandbox) -> None:
    """The image holds an archive of the classes javac loads (``sandbox/jvm.py``): with
    ``-Xshare:on`` the JVM refuses to start when the archive is missing or does not fit the JDK, and
    the class-loading log says which classes came from it (most of the compiler's)."""
    from sejury.sandbox import jvm

    program = "public class A { public static void main(String[] a) { System.out.println(1); } }\n"
    command = (f"{jvm.JAVAC} -J-Xshare:on -J-Xlog:class+load=info -d out A.java > log 2>&1; echo exit=$?; "
               "grep -c 'shared objects file (top)' log; head -3 log")
    res = await sandbox.run({"A.java": program}, command, timeout=60)
    lines = res.stdout.splitlines()
    assert lines[0] == "exit=0" and int(lines[1]) > 500, res.stdout


def test_a_scripts_import_of_the_assert_module_is_no_test_of_its_own() -> None:
    """``const assert = require('assert');`` names ``assert``, and was read as a check: a unit every
    program passed (found by the review of ``RUNNERS_VERSION`` 63)."""
    suite = split_tests("javascript", "const assert = require('assert');\nconst { f } = require('./solution');\n"
                        "assert.strictEqual(f(2), 4);\nif (f(3) !== 6) throw new Error('f(3)');\n", "function f(x) {}")
    assert suite.units == ["assert.strictEqual(f(2), 4);", "if (f(3) !== 6) throw new Error('f(3)');"]
    assert "const assert = require('assert');" in suite.setup
