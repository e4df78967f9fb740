"""A Java suite's two compiles in one JVM (``sandbox/jvm.py``'s ``compiles``, ``SejuryJavac.java``):
what each outcome of the program's compile and the tests' compile is reported as, on the real
sandbox, the sealed harness and the plain one alike.  The driver is replaced in two tests by one
that the JVM's death cuts short, before or after the program compiled: a harness fault after it is
the tests' failure to compile, never the program's."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from sejury.execution.languages._java_harness import harness, sealed_harness
from sejury.execution.languages.base import Harness, Suite
from sejury.execution.runner import load_program, run_suite, split_tests
from sejury.execution.sealed import unseal
from sejury.sandbox import jvm
from sejury.sandbox.docker import DockerSandbox

pytestmark = pytest.mark.docker

PROGRAM = """class Problem {
    static int twice(int x) { return 2 * x; }
}
"""
TESTS = """if (Problem.twice(2) != 4) throw new AssertionError("2");
if (Problem.twice(3) != 7) throw new AssertionError("3");
"""


def _before_compile(ok: str, statement: str) -> str:
    """The driver, running ``statement`` as the compile of ``ok`` starts."""
    return jvm.DRIVER_SOURCE.replace("int rc = ", f'if (task.get(0).equals("{ok}")) {statement}\n'
                                                 "            int rc = ")


def _dies(ok: str) -> str:
    """A driver whose JVM dies (as the OOM killer or a signal ends it) as the compile of ``ok`` starts."""
    return _before_compile(ok, "Runtime.getRuntime().halt(137);")


async def _lines(sandbox: DockerSandbox, h: Harness) -> list[str]:
    """The lines the harness itself printed (authenticated where it is sealed)."""
    res = await sandbox.run(h.files, h.command, timeout=90)
    return (unseal(res.stdout, h.seal, plain=h.plain_markers)[0] if h.seal else res.stdout).splitlines()


@pytest.mark.parametrize("make", [sealed_harness, harness], ids=["sealed", "plain"])
async def test_the_program_and_the_tests_compile_in_one_jvm_and_the_tests_run(
        sandbox: DockerSandbox, make: Callable[[str, Suite, dict[int, str], int], Harness]) -> None:
    suite = split_tests("java", TESTS)
    h = make(PROGRAM, suite, dict(enumerate(suite.units)), 5)
    ok = "srv.ok" if make is sealed_harness else "out.ok"
    assert jvm.DRIVER in h.files and h.command.count(f"{jvm.DRIVER} --said '@@LOAD OK' {ok} - ") == 1
    assert f"{ok} - " in h.load_command and " -- " not in h.load_command  # the load step: the program alone
    lines = await _lines(sandbox, h)
    assert "@@LOAD OK" in lines and any(ln.startswith("@@T 0 PASS") for ln in lines), lines
    assert any(ln.startswith("@@T 1 FAIL") for ln in lines), lines
    report = await run_suite(sandbox, "java", PROGRAM, suite)
    assert report.loaded and report.passed == [True, False] and report.sealed


async def test_a_program_that_does_not_compile_is_a_load_failure_and_its_diagnostics_are_shown(
        sandbox: DockerSandbox) -> None:
    broken = PROGRAM.replace("return 2 * x;", "return 2 * y;")
    report = await run_suite(sandbox, "java", broken, split_tests("java", TESTS))
    assert not report.loaded and "cannot find symbol" in report.load_error, report
    assert not (await load_program(sandbox, "java", broken)).loaded
    assert (await load_program(sandbox, "java", PROGRAM)).loaded  # no tests: the program's compile alone


async def test_tests_that_do_not_compile_fail_as_tests_not_as_the_program(sandbox: DockerSandbox) -> None:
    suite = split_tests("java", 'if (Problem.twice(2) != 4) throw new AssertionError("2");\n'
                        'if (Problem.nothing(1) != 1) throw new AssertionError("1");\n')
    report = await run_suite(sandbox, "java", PROGRAM, suite)
    assert report.loaded and report.passed == [True, False], report  # the broken unit fails alone
    assert report.reasons[1] == "does not compile" and report.runs == 2, report


async def test_stubs_that_do_not_compile_fall_back_to_the_methods_stubs(sandbox: DockerSandbox) -> None:
    suite = split_tests("java", TESTS)
    h = sealed_harness(PROGRAM, suite, dict(enumerate(suite.units)), 5)
    h = dataclasses.replace(h, files={**h.files, "stub/Stubs.java": "class Problem { this does not compile }\n"})
    lines = await _lines(sandbox, h)
    assert "@@LOAD OK" in lines and "@@TESTS NOCOMPILE" not in lines, lines
    assert any(ln.startswith("@@T 0 PASS") for ln in lines) and any(ln.startswith("@@T 1 FAIL") for ln in lines), lines


@pytest.mark.parametrize(("dies_at", "expected"), [("srv.ok", "@@LOAD FAIL"), ("chk.ok", "@@TESTS NOCOMPILE")],
                         ids=["the-programs-compile", "the-tests-compile"])
async def test_a_jvm_that_dies_while_compiling_the_tests_is_never_the_programs_failure(
        sandbox: DockerSandbox, dies_at: str, expected: str) -> None:
    suite = split_tests("java", TESTS)
    h = sealed_harness(PROGRAM, suite, dict(enumerate(suite.units)), 5)
    lines = await _lines(sandbox, dataclasses.replace(h, files={**h.files, jvm.DRIVER: _dies(dies_at)}))
    assert expected in lines and not any(ln.startswith("@@T ") for ln in lines), lines
    assert ("@@LOAD OK" in lines) == (dies_at == "chk.ok"), lines


async def test_a_jvm_that_dies_after_the_programs_compile_leaves_the_tests_to_javac(sandbox: DockerSandbox) -> None:
    """Where the driver ends before it begins the tests' compile (no log of it), javac compiles them."""
    suite = split_tests("java", TESTS)
    h = sealed_harness(PROGRAM, suite, dict(enumerate(suite.units)), 5)
    dies = jvm.DRIVER_SOURCE.replace("Files.createFile(Path.of(task.get(0)));",
                                     "Files.createFile(Path.of(task.get(0))); Runtime.getRuntime().halt(137);")
    lines = await _lines(sandbox, dataclasses.replace(h, files={**h.files, jvm.DRIVER: dies}))
    assert "@@LOAD OK" in lines and any(ln.startswith("@@T 0 PASS") for ln in lines), lines


async def test_a_program_whose_class_is_named_as_the_driver_compiles(sandbox: DockerSandbox) -> None:
    """The driver has a folder of its own: a program's ``SejuryJavac.java`` is the program's.  (In the
    plain harness: the sealed one leaves the program's classes named ``Sejury...`` out of its stubs,
    the harness's own names, as before.)"""
    program = PROGRAM.replace("class Problem", "public class SejuryJavac")
    suite = split_tests("java", TESTS.replace("Problem.", "SejuryJavac."))
    h = harness(program, suite, dict(enumerate(suite.units)), 5)
    assert h.files["SejuryJavac.java"].endswith(program)
    lines = await _lines(sandbox, h)
    assert "@@LOAD OK" in lines and any(ln.startswith("@@T 0 PASS") for ln in lines), lines


async def test_a_run_that_times_out_in_the_tests_compile_has_loaded_the_program(sandbox: DockerSandbox) -> None:
    """``@@LOAD OK`` is said as soon as the program compiled, before the tests' compile begins."""
    suite = split_tests("java", TESTS)
    h = sealed_harness(PROGRAM, suite, dict(enumerate(suite.units)), 5)
    slow = _before_compile("chk.ok", "Thread.sleep(600_000);")
    res = await sandbox.run({**h.files, jvm.DRIVER: slow}, h.command, timeout=20)
    lines = unseal(res.stdout, h.seal, plain=h.plain_markers)[0].splitlines()
    assert res.status.value == "timeout" and "@@LOAD OK" in lines and "@@LOAD FAIL" not in lines, (res.status, lines)


MODERN = """import java.util.*;
public class Solution {
    record R(int a, String b) {}
    enum E { A, B }
    sealed interface S permits X {}
    static final class X implements S {}
    public static int g(int n) { var r = new R(n, "x"); return switch (E.A) { case A -> r.a() * r.a(); case B -> 0; }; }
}
class Другой { static int z() { return 1; } }
"""


async def test_a_program_with_nested_records_enums_and_sealed_types_runs_sealed(sandbox: DockerSandbox) -> None:
    """A nested ``record R(int a, String b) {}`` was stubbed as a method returning ``record``: no test
    of the suite compiled, on a right program (a review's find)."""
    suite = split_tests("java", 'if (Solution.g(2) != 4) throw new AssertionError("g");\n'
                                'if (Другой.z() != 1) throw new AssertionError("z");\n')
    right = await run_suite(sandbox, "java", MODERN, suite)
    assert right.sealed and right.passed == [True, True], right
    wrong = await run_suite(sandbox, "java", MODERN.replace("r.a() * r.a()", "r.a() + r.a() + 1"), suite)
    assert wrong.passed == [False, True], wrong
