"""Candidates and references load in the forms generators and benchmarks really write, in all five
languages, on the real sandbox: exports and demo code, ``package main`` and missing imports, a
``public class`` with a ``main``, HumanEval-X / MultiPL-E bodies without their closing braces."""

from __future__ import annotations

import pytest

from sejury.execution import evidence, languages
from sejury.execution.evidence import (
    SuiteRun,
    check_on_reference,
    load_alone,
    reference_failed,
    run_on_candidate,
    run_reference,
    validate_on_reference,
)
from sejury.execution.languages import Suite, _adapt, _clike
from sejury.execution.languages.base import LOADED, load_step
from sejury.execution.languages.java import Method, fix_calls, methods_of
from sejury.execution.languages.javascript import script_of
from sejury.execution.runner import assemble_program, assemble_reference, call_form, run_suite, split_tests
from sejury.sandbox.docker import DockerSandbox

JS_TESTS = "console.assert(add(1, 2) === 3);\nconsole.assert(add(-1, 1) === 0);"
GO_TESTS = ('func TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 { t.Errorf("t1") }\n'
            '\tif Add(-1, 1) != 0 { t.Errorf("t2") }\n}')
CPP_TESTS = "assert(add(1, 2) == 3);\nassert(add(-1, 1) == 0);"
PY_TESTS = "assert add(1, 2) == 3\nassert add(-1, 1) == 0"

# (language, form, problem, code, tests)
FORMS = [
    ("python", "a __main__ block", "", "def add(a, b):\n    return a + b\n\nif __name__ == '__main__':\n"
     "    print(add(1, 2))\n    raise SystemExit(1)\n", PY_TESTS),
    ("javascript", "CommonJS module.exports", "", "const add = (a, b) => a + b;\nmodule.exports = add;\n", JS_TESTS),
    ("javascript", "CommonJS exports.name", "", "function add(a, b) { return a + b; }\nexports.add = add;\n", JS_TESTS),
    ("javascript", "an ES module", "", 'import assert from "assert";\nexport function add(a, b) { return a + b; }\n'
     "export default add;\n", JS_TESTS),
    ("javascript", "trailing demo code", "", "function add(a, b) { return a + b; }\nconsole.log(add(2, 2));\n",
     JS_TESTS),
    ("javascript", "a HumanEval-X body", "// Add two numbers.\nfunction add(a, b){\n", "  return a + b;\n}\n",
     JS_TESTS),
    ("javascript", "a body without its closing brace", "// Add two numbers.\nconst add = (a, b) => {\n",
     "  return a + b;\n", JS_TESTS),
    ("go", "package main with a main()", "",
     'package main\n\nimport "fmt"\n\nfunc Add(a, b int) int { return a + b }\n\n'
     "func main() { fmt.Println(Add(1, 2)) }\n", GO_TESTS),
    ("go", "missing and unused imports", "", 'package main\n\nimport "strings"\n\n'
     "func Add(a, b int) int { return int(math.Round(float64(a + b))) }\n", GO_TESTS),
    ("go", "a HumanEval-X body (imports left to the harness)",
     "package main\n\n// Add returns a + b.\n// >>> Add(1, 2)\n// 3\nfunc Add(a, b int) int {\n",
     "    return int(math.Floor(float64(a) + float64(b)))\n}\n", GO_TESTS),
    ("java", "a public class with a main, a package line and imports", "",
     "package com.example;\n\nimport java.util.*;\n\npublic class Main {\n"
     "    public static int add(int a, int b) { return a + b; }\n"
     "    public static void main(String[] args) { System.out.println(add(1, 2)); }\n}\n",
     'if (Main.add(1, 2) != 3) throw new AssertionError("t1");\n'
     'if (Main.add(-1, 1) != 0) throw new AssertionError("t2");'),
    ("java", "an instance method called as static (HumanEval-X's class Solution)", "",
     "import java.util.*;\n\nclass Solution {\n    public int add(int a, int b) {\n        return a + b;\n    }\n}\n",
     'if (Solution.add(1, 2) != 3) throw new AssertionError("t1");\n'
     'if (new Solution().add(-1, 1) != 0) throw new AssertionError("t2");'),
    ("java", "a static method called bare (as the model saw it in the problem)",
     "import java.util.*;\nclass Problem {\n    // Add.\n    public static long add(long a, long b) {\n",
     "        return a + b;\n",
     'if (add(1L, 2L) != 3L) throw new AssertionError("t1");\n'
     'if (Problem.add(-1L, 1L) != 0L) throw new AssertionError("t2");'),
    ("java", "a MultiPL-E body (javatuples, no closing braces)",
     "import java.util.*;\nimport org.javatuples.*;\nclass Problem {\n    // Sum and product.\n"
     "    public static Pair<Long, Long> sumProduct(long a, long b) {\n",
     "        return Pair.with(a + b, a * b);\n",
     'if (!Problem.sumProduct(2L, 3L).equals(Pair.with(5L, 6L))) throw new AssertionError("t1");\n'
     'if (Problem.sumProduct(1L, 1L).getValue1() != 1L) throw new AssertionError("t2");'),
    ("cpp", "includes and a main()", "",
     "#include <vector>\n#include <cstdio>\nint add(int a, int b) { return a + b; }\n"
     'int main() { printf("%d\\n", add(1, 2)); return 1; }\n', CPP_TESTS),
    ("cpp", "a MultiPL-E body without its closing brace",
     "#include<assert.h>\n#include<bits/stdc++.h>\n// Add them, e.g. add({1}) is not valid.\n"
     "long add(long a, long b) {\n",
     "    return a + b;\n", CPP_TESTS),
]



@pytest.mark.docker
@pytest.mark.parametrize(("language", "form", "problem", "code", "tests"), FORMS,
                         ids=[f"{f[0]}: {f[1]}" for f in FORMS])
async def test_the_form_loads_and_passes(sandbox: DockerSandbox, language: str, form: str, problem: str, code: str,
                                         tests: str) -> None:
    program = assemble_program(language, problem, code)
    suite = split_tests(language, tests)
    report = await run_suite(sandbox, language, program, suite)
    assert report.loaded, report.load_error
    assert suite.units and report.passed == [True] * len(suite.units), report.reasons  # every unit ran and passed


def test_brace_balance_skips_strings_chars_and_comments() -> None:
    assert _clike.brace_balance('f() { s = "{"; c = \'}\'; // {\n /* { */ t = `{`') == 1
    assert _clike.brace_balance("}\n}") == -2


def test_a_candidate_that_repeats_the_signature_stands_alone() -> None:
    problem = "// Add.\nfunction add(a, b){\n"
    whole = "function add(a, b){\n  return a + b;\n}\n"
    assert assemble_program("javascript", problem, whole) == whole
    assert assemble_program("javascript", "Add two numbers.", "x") == "x"  # a prose problem


def test_es_module_syntax_becomes_a_script() -> None:
    script = script_of("export const f = 1;\nexport { f };\nimport { a as b } from 'x';")
    assert script.splitlines() == ["const f = 1;", "const { a: b } = require('x');"]
    crlf = script_of("export const f = 1;\r\nexport { f };\r\nimport { a as b } from 'x';\r\n")
    assert "export" not in crlf and crlf.splitlines() == ["const f = 1;", "const { a: b } = require('x');"]


def test_static_calls_of_instance_methods_are_repaired() -> None:
    methods = methods_of("class Solution {\n  public int f(int x) {\n    if (x > 0) { return 1; }\n"
                         "    return 0;\n  }\n  public static int g() { return 1; }\n}\n")
    assert methods == {"f": Method("Solution", static=False), "g": Method("Solution", static=True)}
    assert fix_calls("assert Solution.f(1) == Solution.g();", methods) == \
        "assert new Solution().f(1) == Solution.g();"


def test_bare_calls_of_static_methods_get_their_class() -> None:
    methods = methods_of("class Problem {\n  public static long f(long x) {\n    return x;\n  }\n}\n")
    assert fix_calls("if (f(1L) != Math.max(f(2L), 0)) throw new AssertionError();", methods) == \
        "if (Problem.f(1L) != Math.max(Problem.f(2L), 0)) throw new AssertionError();"


JUNIT = """import static org.junit.Assert.*;
import org.junit.Test;
import java.util.*;

public class ProblemTest {
    @Test
    public void testUnique() {
        ArrayList<Long> l = new ArrayList<>(Arrays.asList(5L, 3L, 5L, 2L));
        ArrayList<Long> expected = new ArrayList<>(Arrays.asList(2L, 3L, 5L));
        assertArrayEquals(expected.toArray(), Problem.unique(l).toArray());
    }

    @Test
    public void testEmpty() {
        ArrayList<Long> l = new ArrayList<>();
        assertEquals(0, Problem.unique(l).size());
        Assert.assertTrue(Problem.unique(l).isEmpty());
    }

    @Test
    public void testThrows() {
        assertThrows(NullPointerException.class, () -> Problem.unique(null));
    }

    @Test
    public void testWrongExpectation() {
        assertEquals(new ArrayList<>(Arrays.asList(1L)), Problem.unique(new ArrayList<>(Arrays.asList(2L))));
    }
}"""
UNIQUE = ("import java.util.*;\nclass Problem {\n    public static ArrayList<Long> unique(ArrayList<Long> l) {\n"
          "        return new ArrayList<>(new TreeSet<>(l));\n    }\n}\n")


def test_junit_test_classes_split_into_one_unit_per_test_method() -> None:
    suite = split_tests("java", JUNIT)
    assert len(suite.units) == 5 and suite.setup == ""  # one per assertion, with the statements before it
    # each unit named by a comment, its test method's (``java.test_name``)
    assert suite.units[0].startswith("{\n// ProblemTest.testUnique\nArrayList<Long> l =")
    assert suite.units[0].endswith("\n}")
    assert suite.units[2].splitlines() == ["{", "// ProblemTest.testEmpty", "ArrayList<Long> l = new ArrayList<>();",
                                           "Assert.assertTrue(Problem.unique(l).isEmpty());", "}"]


@pytest.mark.docker
async def test_junit_tests_run_with_junits_assertions(sandbox: DockerSandbox) -> None:
    """What models write for Java whatever the prompt says: a JUnit class.  Its methods run as
    units, with JUnit's assertions (4 and 5 spellings) provided by the harness."""
    report = await run_suite(sandbox, "java", UNIQUE, split_tests("java", JUNIT))
    assert report.loaded, report.load_error
    assert report.passed == [True, True, True, True, False], report.reasons
    assert "expected [1] but was [2]" in report.reasons[4]


# A reference written for another edition of the signature (the shared HumanEval-X sets join
# HumanEval-X bodies to MultiPL-E signatures): (language, what differs, problem, reference, tests)
MISMATCHED = [
    ("java", "a List returned for an ArrayList, a misspelt parameter",
     "import java.util.*;\nclass Problem {\n    // Interleave.\n"
     "    public static ArrayList<Long> intersperse(ArrayList<Long> numbers, long delimeter) {\n",
     "        if (numbers.size() == 0) {\n            return List.of();\n        }\n"
     "        List<Long> result = new ArrayList<>();\n"
     "        for (int i = 0; i < numbers.size() - 1; i++) {\n"
     "            result.add(numbers.get(i));\n            result.add(delimiter);\n        }\n"
     "        result.add(numbers.get(numbers.size() - 1));\n        return result;\n    }\n}\n",
     'if (!intersperse(new ArrayList<Long>(Arrays.asList(1L, 2L)), 7L).equals(Arrays.asList(1L, 7L, 2L))) '
     'throw new AssertionError("t1");\n'
     'if (!intersperse(new ArrayList<Long>(), 7L).isEmpty()) throw new AssertionError("t2");'),
    ("java", "a list for a javatuples Pair, a double for a float",
     "import java.util.*;\nimport org.javatuples.*;\nclass Problem {\n"
     "    public static Pair<Long, Long> sumProduct(ArrayList<Long> numbers) {\n",
     "        long sum = 0, product = 1;\n        for (long n : numbers) { sum += n; product *= n; }\n"
     "        return Arrays.asList(sum, product);\n    }\n}\n",
     'if (!sumProduct(new ArrayList<Long>(Arrays.asList(2L, 3L))).equals(Pair.with(5L, 6L))) '
     'throw new AssertionError("t1");'),
    ("cpp", "a vector<int> for a vector<long>, the parameter under another name",
     "#include<assert.h>\n#include<bits/stdc++.h>\n// Lengths of the words.\n"
     "std::vector<long> lengths(std::string sentence) {\n",
     "    vector<int> out;\n    stringstream ss(text);\n    string w;\n"
     "    while (ss >> w) out.push_back(w.size());\n    return out;\n}\n",
     'assert((lengths("ab c") == std::vector<long>({2, 1})));\nassert(lengths("").empty());'),
    ("cpp", "a map<char, int> for a map<string, long>",  # HumanEval-X's histogram body, MultiPL-E's signature
     "#include<assert.h>\n#include<bits/stdc++.h>\n// Letters and their counts.\n"
     "std::map<std::string,long> histogram(std::string test) {\n",
     "    map<char,int> out;\n    for (char c : test) if (c != ' ') out[c] += 1;\n    return out;\n}\n",
     'assert((histogram("a b b") == std::map<std::string,long>({{"a", 1}, {"b", 2}})));\n'
     'assert(histogram("").empty());'),
    ("cpp", "a parameter named string, the body's str",  # MultiPL-E's std::string string hides the type
     "#include<assert.h>\n#include<bits/stdc++.h>\n// The string, then it reversed.\n"
     "std::string mirrored(std::string string) {\n",
     "    string rstr(str.rbegin(), str.rend());\n    return str + rstr;\n}\n",
     'assert(mirrored("ab") == "abba");\nassert(mirrored("") == "");'),
    ("cpp", "a tuple indexed as a vector",  # HumanEval-X's vector<int> interval, MultiPL-E's tuple
     "#include<assert.h>\n#include<bits/stdc++.h>\n// The length of the intervals' overlap.\n"
     "long overlap(std::tuple<long, long> a, std::tuple<long, long> b) {\n",
     "    long lo = max(a[0], b[0]), hi = min(a[1], b[1]);\n    return hi > lo ? hi - lo : 0;\n}\n",
     'assert(overlap({1, 3}, {2, 5}) == 1);\nassert(overlap({1, 2}, {3, 4}) == 0);'),
]


@pytest.mark.docker
@pytest.mark.parametrize(("language", "what", "problem", "reference", "tests"), MISMATCHED,
                         ids=[f"{m[0]}: {m[1]}" for m in MISMATCHED])
async def test_a_reference_for_another_signature_is_adapted_and_a_candidate_is_not(
        sandbox: DockerSandbox, language: str, what: str, problem: str, reference: str, tests: str) -> None:
    program = assemble_reference(language, problem, reference)
    suite = split_tests(language, tests)
    as_given = await run_suite(sandbox, language, program, suite)
    assert not as_given.loaded  # the premise: it does not compile as it is
    report, notes = await run_reference(sandbox, language, program, suite)
    assert report.loaded, report.load_error
    assert report.passed == [True] * len(suite.units), report.reasons
    assert notes and all("->" in n or "is the parameter" in n or "as a type" in n for n in notes), notes
    ex, valid = await validate_on_reference(sandbox, language, program, tests)
    assert ex.status == "ran" and ex.reference_adapted == notes and len(valid.units) == len(suite.units)
    assert "adapted to the signature" in ex.reason
    # the same body as a *candidate* is never adapted: it fails, as in the benchmark
    done = await run_on_candidate(sandbox, ex, valid, program)
    assert done.executable is False and done.pass_ratio == 0.0


def test_adaptation_rewrites_only_the_lines_the_compiler_names() -> None:
    program = ("class Problem {\n    public static ArrayList<String> f(String s) {\n"
               "        List<String> a = List.of(s);\n        if (a.isEmpty()) return List.of();\n"
               "        return a;\n    }\n}\n")
    javac = ("Solution.java:6: error: incompatible types: no instance(s) of type variable(s) E exist so that "
             "List<E> conforms to ArrayList<String>\n        if (a.isEmpty()) return List.of();\n"
             "                                       ^\n1 error\n")
    adapted = _adapt.adapt(_adapt.JAVA, program, javac)
    assert adapted is not None
    text, notes = adapted
    assert text.splitlines()[3] == "        if (a.isEmpty()) return new ArrayList<>(List.of());"
    assert text.splitlines()[4] == "        return a;"  # not named by the compiler: left alone
    assert notes == ["line 4: `return List.of();` -> `return new ArrayList<>(List.of());`"]
    assert _adapt.adapt(_adapt.JAVA, program, "Solution.java:3: error: ';' expected\n") is None


def test_an_undeclared_name_is_aliased_only_to_a_parameter_the_body_never_uses() -> None:
    program = "long f(std::string s, long k) {\n    return str.size() + k;\n}\n"
    gcc = "solution.cpp:4:12: error: 'str' was not declared in this scope; did you mean 'std'?\n"
    adapted = _adapt.adapt(_adapt.CPP, program, gcc)
    assert adapted is not None and adapted[0].splitlines()[1] == "    auto& str = s;"
    # both parameters used by the body: the undeclared name is something else, not aliased
    used = "long f(std::string s, long k) {\n    return s.size() + k + str.size();\n}\n"
    assert _adapt.adapt(_adapt.CPP, used, gcc) is None


def _not_loaded(error: str) -> SuiteRun:
    return SuiteRun(loaded=False, total=0, passed=0, status="failed", seconds=0.1, load_error=error)


@pytest.mark.parametrize(("language", "error", "definitive"), [
    ("cpp", "solution.cpp:18:25: error: template argument 2 is invalid\n", True),
    ("python", "@@LOAD FAIL SyntaxError invalid syntax (solution.py, line 4)\n@@DONE", True),
    ("javascript", "@@LOAD FAIL SyntaxError: Unexpected token ';'\n@@DONE", True),
    ("java", "Solution.java:6: error: illegal start of expression\n", True),
    ("go", "solution.go:5:1: expected operand, found '}'\n", True),
    ("java", "SejuryTestMain.java:6: error: cannot find symbol\n", False),  # the harness's file, not the program
    ("cpp", "sh: 1: g++: not found\n", False),  # the sandbox, not the program
    ("python", "ModuleNotFoundError: No module named 'torch'", False),  # a library the image lacks
])
def test_where_the_reference_does_not_load_only_the_candidates_own_error_is_definitive(
        language: str, error: str, definitive: bool) -> None:
    ex = evidence.TestExecution(status="skipped", language=language, candidate=_not_loaded(error),
                                reference=_not_loaded("solution.cpp:3:1: error: x"))
    assert bool(ex.against()) is definitive, ex.against()
    if definitive:
        assert ex.against() == "the candidate does not load or compile, for an error in its own text: " + \
            ex.candidate.load_error.replace("@@LOAD FAIL", "").strip().splitlines()[0]  # type: ignore[union-attr]
    # where the reference loads, as before: any load failure but a missing library is definitive
    assert bool(ex.model_copy(update={"status": "ran", "reference": None}).against()) is ("torch" not in error)


# MultiPL-E's C++ ``bf``: the signature the problem gives does not compile (``std::tuple<std::string, >``),
# so neither the reference nor any completion of it does
BROKEN_SIGNATURE = ("#include<assert.h>\n#include<bits/stdc++.h>\n// The planets between two.\n"
                    "std::tuple<std::string, > bf(std::string planet1, std::string planet2) {\n")


@pytest.mark.docker
async def test_a_candidate_that_does_not_compile_fails_where_the_reference_does_not_compile_either(
        sandbox: DockerSandbox) -> None:
    reference = assemble_program("cpp", BROKEN_SIGNATURE, "    return {};\n}\n")
    ex, valid, _ = await check_on_reference(sandbox, "cpp", reference, 'assert(bf("Mars", "Mars") == bf("a", "b"));')
    assert reference_failed(ex) and not valid.units
    broken = await load_alone(sandbox, ex, assemble_program("cpp", BROKEN_SIGNATURE, "    return {};\n}\n"))
    assert broken.executable is False and broken.status == "skipped"
    assert (broken.against() or "").startswith("the candidate does not load or compile, for an error in its own text")
    # a candidate whose own code compiles (it gives the signature whole, fixed) is not held to the reference's fault
    whole = ("#include<bits/stdc++.h>\nstd::vector<std::string> bf(std::string planet1, std::string planet2) {\n"
             "    return {};\n}\n")
    fine = await load_alone(sandbox, ex, whole)
    assert fine.executable is True and fine.against() is None


# per language, a candidate that compiles and one whose own text does not
ALONE = {
    "cpp": ("int add(int a, int b) {\n    return a + b;\n}\n", "int add(int a, int b) {\n    return a + ;\n}\n"),
    "java": ("class Solution {\n    public int add(int a, int b) { return a + b; }\n}\n",
             "class Solution {\n    public int add(int a, int b) { return a + ; }\n}\n"),
    "go": ("package main\n\nfunc Add(a, b int) int { return a + b }\n",
           "package main\n\nfunc Add(a, b int) int { return a + }\n"),
    "python": ("def add(a, b):\n    return a + b\n", "def add(a, b):\n    return a +\n"),
    "javascript": ("function add(a, b) { return a + b; }\n", "function add(a, b) { return a + ; }\n"),
}
COMPILED = ("cpp", "java", "go")


def test_a_compiled_languages_load_step_ends_before_the_tests_are_built() -> None:
    for language, (program, _) in ALONE.items():
        lang = languages.get(language)
        assert lang is not None
        whole = lang.harness(program, Suite("", []), {}, 5)
        step = load_step(whole)
        if language in COMPILED:
            # the shell says the program compiled (LOADED), or Java's compiler driver does (jvm.compiles)
            says = step.command.endswith(LOADED) or "--said '@@LOAD OK' " in step.command
            assert says and whole.command.startswith(step.command), language
            assert len(step.command) < len(whole.command) and step.seal == whole.seal, language
        else:  # the checker loads the program: nothing to cut
            assert step == whole, language


@pytest.mark.docker
@pytest.mark.parametrize("language", sorted(ALONE))
@pytest.mark.parametrize("compiles", [True, False])
async def test_loading_alone_compiles_only_the_candidate_and_gives_the_whole_harness_verdict(
        sandbox: DockerSandbox, language: str, compiles: bool) -> None:
    program = ALONE[language][0 if compiles else 1]
    ex = evidence.TestExecution(status="skipped", language=language, reference=_not_loaded("the reference's error"))
    alone = await load_alone(sandbox, ex, program)
    whole = await run_suite(sandbox, language, program, Suite("", []))  # every program of the harness built and run
    before = ex.model_copy(update={"candidate": SuiteRun.of(whole, []), "executable": whole.loaded})
    assert alone.candidate is not None and before.candidate is not None
    assert alone.executable is before.executable is compiles
    assert alone.candidate.load_error == before.candidate.load_error
    assert alone.against() == before.against()
    if not compiles:
        assert (alone.against() or "").startswith("the candidate does not load or compile, for an error in its own")
    else:  # the checker ran in the whole harness; loading alone, a compiled language's was never built
        assert "@@DONE" in whole.stdout_tail
        assert ("@@DONE" in alone.candidate.stdout_tail) is (language not in COMPILED)


# MultiPL-E's C++ prompts include their headers and say no ``using namespace std;``: there a candidate's
# ``abs`` of a float is C's ``int abs(int)``, which truncates (the benchmark fails such a candidate)
MAD_PROBLEM = ("#include<assert.h>\n#include<bits/stdc++.h>\n// Mean absolute deviation around the mean.\n"
               "float mad(std::vector<float> numbers) {\n")
MAD_BODY = ("    float sum = 0.0;\n    for (float x : numbers) sum += x;\n"
            "    float mean = sum / numbers.size();\n    float dev = 0.0;\n"
            "    for (float x : numbers) dev += abs(x - mean);\n    return dev / numbers.size();\n}\n")


@pytest.mark.docker
async def test_a_cpp_program_with_its_own_includes_compiles_as_written(sandbox: DockerSandbox) -> None:
    suite = split_tests("cpp", "assert(mad({1.0, 2.0, 3.0, 4.0}) == 1.0f);\n"
                               "assert(mad({1.0, 2.0, 3.0, 4.0}) == 0.5f);")
    candidate = await run_suite(sandbox, "cpp", assemble_program("cpp", MAD_PROBLEM, MAD_BODY), suite)
    assert candidate.loaded and candidate.passed == [False, True]  # C's abs: |1 - 2.5| is 1, |2 - 2.5| is 0
    # the same body as a reference: HumanEval-X wrote its bodies for ``using namespace std;``, std::abs
    reference = await run_suite(sandbox, "cpp", assemble_reference("cpp", MAD_PROBLEM, MAD_BODY), suite)
    assert reference.loaded and reference.passed == [True, False]
    # a bare function, no #include of its own, is given the directive (HumanEval-X's prompts have it)
    bare = "int biggest(vector<int> v) {\n    return *max_element(v.begin(), v.end());\n}\n"
    report = await run_suite(sandbox, "cpp", bare, split_tests("cpp", "assert(biggest({3, 9, 2}) == 9);"))
    assert report.loaded and report.passed == [True], report.load_error
    # with its own includes and no directive, unqualified standard names do not compile, as on their own
    alone = await run_suite(sandbox, "cpp", "#include <vector>\n" + bare,
                            split_tests("cpp", "assert(biggest({3}) == 3);"))
    assert not alone.loaded and "not declared" in alone.load_error


def test_a_tuple_parameter_indexed_as_a_vector_is_read_with_get() -> None:
    program = "long f(std::tuple<long, long> a, std::vector<long> v) {\n    return a[1] + v[0] + a [0];\n}\n"
    gcc = ("solution.cpp:4:13: error: no match for ‘operator[]’ (operand types are ‘std::tuple<long int, long int>’ "
           "and ‘int’)\n")
    adapted = _adapt.adapt(_adapt.CPP, program, gcc)
    assert adapted is not None
    assert adapted[0].splitlines()[1] == "    return std::get<1>(a) + v[0] + std::get<0>(a);"  # the vector's left alone
    assert adapted[1] == ["line 2: `a[k]` -> `std::get<k>(a)` (a tuple)"]
    # another complaint about the same line: no tuple rewrite
    assert _adapt.adapt(_adapt.CPP, program, "solution.cpp:4:13: error: expected ';' before '}' token\n") is None


@pytest.mark.parametrize(("language", "problem", "expected"), [
    ("java", "import java.util.*;\n\nclass Solution {\n    /** Join. */\n"
     "    public String concatenate(List<String> strings) {\n", "new Solution().concatenate(...)"),
    ("java", "import java.util.*;\nclass Problem {\n    // Add.\n    public static long add(long a, long b) {\n",
     "Problem.add(...)"),
    ("python", 'def add(a: int, b: int) -> int:\n    """Add them.\n    >>> add(1, 2)\n    3\n    """\n', "add(...)"),
    ("go", "package main\n\n// Add returns a + b.\nfunc Add(a, b int) int {\n", "Add(...)"),
    ("javascript", "/* Add. */\nconst add = (a, b) => {\n", "add(...)"),
    ("cpp", "#include<bits/stdc++.h>\n// Add.\nstd::vector<long> add(std::vector<long> a, long b) {\n", "add(...)"),
    ("python", "How do I sort a list of tuples by their second item?", ""),
])
def test_the_call_form_s5_is_told(language: str, problem: str, expected: str) -> None:
    assert call_form(language, problem) == expected


JAVA_HELPERS_TESTS = """import static org.junit.Assert.*;
import java.util.*;

public class ProblemTest {
    public static void main(String[] args) {
        testAbsSum(1L, 2L, 3L);
        testAbsSum(-1L, 2L, 3L);
        checkZero();
    }

    private static void testAbsSum(long a, long b, long expected) {
        try {
            assertEquals(expected, Problem.absSum(a, b));
        } catch (AssertionError e) {
            System.out.println("Test failed: " + e.getMessage());
        }
    }

    private static void checkZero() {
        if (absSum(0L, 0L) != 0L) throw new AssertionError("zero");
    }
}
"""


@pytest.mark.docker
async def test_java_main_calling_helper_methods_one_unit_per_call(sandbox: DockerSandbox) -> None:
    """The 1.5B model's common Java form: a main that calls a helper once per case.  Each call is
    a unit; a helper that catches AssertionError to print it cannot hide the failure."""
    problem = ("import java.util.*;\nclass Problem {\n    // Sum of the absolute values.\n"
               "    public static long absSum(long a, long b) {\n")
    suite = split_tests("java", JAVA_HELPERS_TESTS)
    assert len(suite.units) == 3 and "class SejuryHelpers" in suite.setup
    right = assemble_program("java", problem, "        return Math.abs(a) + Math.abs(b);\n    }\n}\n")
    wrong = assemble_program("java", problem, "        return a + b;\n    }\n}\n")
    assert (await run_suite(sandbox, "java", right, suite)).passed == [True, True, True]
    assert (await run_suite(sandbox, "java", wrong, suite)).passed == [True, False, True]


# The 1.5B model's Java tests, verbatim from a HumanEval-X row (humaneval-java-34): the helper takes
# the signature's ArrayList<Integer>, and four of the five calls pass it Arrays.asList(...), a List
JAVA_LIST_ARGUMENTS_TESTS = """import static org.junit.Assert.*;
import java.util.ArrayList;
import java.util.Arrays;

public class ProblemTest {
    public static void main(String[] args) {
        testUnique(new ArrayList<>(), new ArrayList<>());
        testUnique(Arrays.asList(5), Arrays.asList(5));
        testUnique(Arrays.asList(3, 5, 2, 3, 3, 9, 0, 123), Arrays.asList(0, 2, 3, 5, 9, 123));
        testUnique(Arrays.asList(-1, -2, -3, -4, -5), Arrays.asList(-5, -4, -3, -2, -1));
        testUnique(Arrays.asList(100, 200, 300, 400, 500), Arrays.asList(100, 200, 300, 400, 500));
    }

    private static void testUnique(ArrayList<Integer> input, ArrayList<Integer> expected) {
        try {
            ArrayList<Integer> result = Problem.unique(input);
            assertEquals(expected, result);
        } catch (AssertionError e) {
            System.out.println("Test failed for input " + input + ": " + e.getMessage());
        }
    }
}
"""


def test_list_factories_given_as_arguments_become_array_lists() -> None:
    from sejury.execution.languages.java import wrap_list_arguments

    assert wrap_list_arguments("f(Arrays.asList(5), List.of(1, 2));") == \
        "f(new ArrayList<>(Arrays.asList(5)), new ArrayList<>(List.of(1, 2)));"
    nested = "assert g(Arrays.asList(Arrays.asList(1))).equals(x);"
    assert wrap_list_arguments(nested) == \
        "assert g(new ArrayList<>(Arrays.asList(new ArrayList<>(Arrays.asList(1))))).equals(x);"
    untouched = ('l = new ArrayList<>(Arrays.asList(5, 3)); n = Arrays.asList(1).size(); '
                 's = "f(Arrays.asList(1))"; // f(Arrays.asList(2))')
    assert wrap_list_arguments(untouched) == untouched  # a constructor's argument, a receiver, text


@pytest.mark.docker
async def test_java_tests_passing_lists_where_the_signature_takes_array_lists(sandbox: DockerSandbox) -> None:
    """Before: four of the five calls did not compile (a List is no ArrayList), so only one test
    stood; now all five run, pass on the reference and catch a candidate that does not sort."""
    problem = ("import java.util.*;\nclass Problem {\n    // Sorted unique elements in a list.\n"
               "    public static ArrayList<Integer> unique(ArrayList<Integer> l) {\n")
    suite = split_tests("java", JAVA_LIST_ARGUMENTS_TESTS)
    assert len(suite.units) == 5
    right = assemble_program("java", problem, "        return new ArrayList<>(new TreeSet<>(l));\n    }\n}\n")
    unsorted = assemble_program("java", problem, "        return new ArrayList<>(new LinkedHashSet<>(l));\n    }\n}\n")
    report = await run_suite(sandbox, "java", right, suite)
    assert report.passed == [True] * 5, report.reasons
    assert (await run_suite(sandbox, "java", unsorted, suite)).passed == [True, True, False, False, True]


# The 1.5B model's Java tests, verbatim from a HumanEval-X row (humaneval-java-149): `==` between lists
JAVA_IDENTITY_TESTS = "\n".join([
    "public class ProblemTest {",
    "    public static void main(String[] args) {",
    '        assert sortedListSum(new ArrayList<>(Arrays.asList("aa", "a", "aaa"))) == '
    'new ArrayList<>(Arrays.asList("aa"));',
    '        assert sortedListSum(new ArrayList<>(Arrays.asList("ab", "a", "aaa", "cd"))) == '
    'new ArrayList<>(Arrays.asList("ab", "cd"));',
    "        assert sortedListSum(new ArrayList<>(Arrays.asList())) == new ArrayList<>();",
    '        assert sortedListSum(new ArrayList<>(Arrays.asList("a", "b", "c"))) == '
    'new ArrayList<>(Arrays.asList("a", "b", "c"));',
    "    }",
    "}", ""])
SORTED_LIST_SUM = ("import java.util.*;\nclass Problem {\n"
                   "    // Drop odd-length strings; sort by length, then alphabetically.\n"
                   "    public static ArrayList<String> sortedListSum(ArrayList<String> lst) {\n")


def test_identity_comparisons_of_objects_become_value_comparisons() -> None:
    from sejury.execution.languages.java import returns_of, value_equality

    program = SORTED_LIST_SUM + ("        return lst;\n    }\n"
                                 "    public static long n(long a) {\n        return a;\n    }\n}\n")
    returns = returns_of(program)
    assert returns == {"sortedListSum": "ArrayList<String>", "n": "long"}
    assert value_equality("assert sortedListSum(x) == new ArrayList<>();", returns) == \
        "assert java.util.Objects.equals(sortedListSum(x), new ArrayList<>());"
    assert value_equality('if (s != "a") f();', returns) == 'if (!java.util.Objects.equals(s, "a")) f();'
    assert value_equality("assert sejury_rec(0, 1, sortedListSum(x)) == y;", returns) == \
        "assert java.util.Objects.equals(sejury_rec(0, 1, sortedListSum(x)), y);"  # S5-diff's recorder
    kept = "assert n(1) == 1L; assert sortedListSum(x) == null; int k = 2; assert k == n(2);"
    assert value_equality(kept, returns) == kept  # numbers, null: == is right


@pytest.mark.docker
async def test_java_tests_comparing_lists_with_identity(sandbox: DockerSandbox) -> None:
    """Before: every test compared lists with `==` (always false, or not even comparable), so every
    one failed on the reference and S5 had no suite; now the three right ones pass there and the
    wrong expectation (odd-length strings kept) still fails."""
    suite = split_tests("java", JAVA_IDENTITY_TESTS)
    assert len(suite.units) == 4
    right = assemble_program("java", SORTED_LIST_SUM, (
        "        ArrayList<String> out = new ArrayList<>();\n"
        "        for (String s : lst) if (s.length() % 2 == 0) out.add(s);\n"
        "        out.sort(Comparator.comparing(String::length).thenComparing(Comparator.naturalOrder()));\n"
        "        return out;\n    }\n}\n"))
    report = await run_suite(sandbox, "java", right, suite)
    assert report.passed == [True, True, True, False], report.reasons


# The 1.5B model's Java tests of a Pair<Integer, Integer> (verbatim, abridged, from a HumanEval-X
# row: humaneval-java-8): a plain number against a boxed one, ambiguous under JUnit's overloads
JAVA_BOXED_TESTS = "\n".join([
    "import static org.junit.Assert.*;",
    "import java.util.*;",
    "",
    "public class ProblemTest {",
    "    @Test",
    "    public void testEmptyList() {",
    "        Pair<Integer, Integer> result = Problem.sumProduct(new ArrayList<>());",
    "        assertEquals(0, result.getValue0());",
    "        assertEquals(1, result.getValue1());",
    "    }",
    "",
    "    @Test",
    "    public void testBoundaryCases() {",
    "        Pair<Integer, Integer> result = Problem.sumProduct(Arrays.asList(0, 1, 2, 3, 4));",
    "        assertEquals(10, result.getValue0());",
    "        assertEquals(24, result.getValue1());",
    "    }",
    "}", ""])


@pytest.mark.docker
async def test_java_tests_comparing_a_number_with_a_boxed_one(sandbox: DockerSandbox) -> None:
    """Before: `assertEquals(0, result.getValue0())` did not compile ("reference to assertEquals is
    ambiguous"), every unit of the suite with it; now each runs and compares by value, and the
    wrong expectation (a product of 24 where a 0 is in the list) still fails."""
    problem = ("import java.util.*;\nimport org.javatuples.*;\nclass Problem {\n"
               "    public static Pair<Integer, Integer> sumProduct(ArrayList<Integer> numbers) {\n")
    right = assemble_program("java", problem, (
        "        int sum = 0, product = 1;\n        for (int n : numbers) { sum += n; product *= n; }\n"
        "        return Pair.with(sum, product);\n    }\n}\n"))
    suite = split_tests("java", JAVA_BOXED_TESTS)
    report = await run_suite(sandbox, "java", right, suite)
    assert report.loaded and len(report.passed) >= 3 and not all(report.passed), report
    assert [r for p, r in zip(report.passed, report.reasons, strict=True) if not p] == \
        ["java.lang.AssertionError: expected 24 but was 0"], report.reasons


# A reply that reached the token limit (verbatim tail of the 1.5B model's Java tests, humaneval-java-106):
# the main and its class never close
JAVA_CUT_OFF_TESTS = "\n".join([
    "public class ProblemTest {",
    "    public static void main(String[] args) {",
    "        ArrayList<Integer> result4 = Problem.f(1);",
    '        assert result4.equals(new ArrayList<>(Arrays.asList(1))) : "Test 4 failed";',
    "",
    "        // Test 5: n = 20",
    "        ArrayList<Integer> result5 = Problem.f(20);"])


@pytest.mark.parametrize(("tail", "setup_ends"), [
    ("", "Problem.f(20);"),  # cut after a whole statement: it is kept whole (its `;` was lost before)
    ("\n        assert result5.equals(new ArrayList<>(Arrays.asList(1, 2", "Problem.f(20);"),  # mid-statement
])
def test_java_tests_cut_off_by_the_token_limit_keep_their_complete_statements(tail: str, setup_ends: str) -> None:
    suite = split_tests("java", JAVA_CUT_OFF_TESTS + tail)
    assert suite.setup.endswith(setup_ends), suite.setup
    assert suite.units == ['assert result4.equals(new ArrayList<>(Arrays.asList(1))) : "Test 4 failed";']


def test_a_cut_off_text_keeps_its_statements_with_trailing_comments() -> None:
    """The model comments its asserts (`assert f(2); // 2 is prime`): such a line ends a statement."""
    tests = ("public class ProblemTest {\n    public static void main(String[] args) {\n"
             '        assert Problem.f(2); // 2 is "a prime"\n        assert Problem.f(4); // 4 is not\n'
             "        assert Problem.f(")
    suite = split_tests("java", tests)
    assert suite.units == ['assert Problem.f(2); // 2 is "a prime"', "assert Problem.f(4); // 4 is not"]


def test_a_name_the_body_declares_is_not_taken_for_a_parameter() -> None:
    """``string rstr(...)`` declares ``rstr`` (undeclared only because a parameter hid the type);
    ``or operato[i]`` and ``return n;`` declare nothing: there the parameter may stand for it."""
    assert _adapt._declares("rstr", "    string rstr(str.rbegin(), str.rend());\n")
    assert _adapt._declares("n", "    int n = 0;\n")
    assert not _adapt._declares("operato", "    if (operato[i]==\"*\" or operato[i]==\"//\")\n")
    assert not _adapt._declares("n", "    return n;\n")
