"""Java's harness: javac compiles the program, then a generated main (over ``SejuryAssert.java``,
JUnit's assertions) runs each unit in its own try block; and its sealed form (``sealed_java/``)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from sejury.execution.languages._java_repairs import (
    PACKAGE,
    fix_calls,
    methods_of,
    returns_of,
    value_equality,
    wrap_list_arguments,
)
from sejury.execution.languages._java_stubs import cleaned, object_stubs, stubs
from sejury.execution.languages.base import Harness, Suite, wrap_units
from sejury.execution.sealed import interpreter, new_seal, resource_files
from sejury.sandbox import jvm

# JUnit's assertions, for tests written against JUnit 4 or 5 (the test main extends that class)
ASSERTIONS = (Path(__file__).parent / "SejuryAssert.java").read_text(encoding="utf-8")
_JUNIT_PREFIX = re.compile(r"\b(?:org\.junit\.(?:jupiter\.api\.)?)?(?:Assert|Assertions)\.(?=assert\w*\(|fail\()")


def _class_of(code: str) -> str:
    m = re.search(r"public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", code)
    return m.group(1) if m else "Solution"


# what the benchmarks' problems import beyond the JDK (MultiPL-E's Pair and friends)
CLASSPATH = "out:/usr/share/java/javatuples.jar"


def _compile_then_run(program: tuple[str, str], tests: tuple[str, str, str], compile_tests: bool, run: str, *,
                      prepare: str, files: str, failed_tests: str = "") -> tuple[str, str]:
    """``base.compile_then_run`` for Java, and its load step alone (``Harness.load_command``): javac on
    the program (``(ok file, javac's arguments)``), then on the tests (``(ok file, log file,
    arguments)``), in one JVM where ``compile_tests`` (``jvm.compiles``, which says ``@@LOAD OK`` as
    soon as the program compiled; else the tests compile after it, with javac); the tests'
    diagnostics follow ``@@LOAD OK``, or ``failed_tests`` decides from the log file what to do;
    ``files`` (the compiles' files and the tests' sources) are deleted before ``run``."""
    (ok, args), (tests_ok, log, tests_args) = program, tests

    def loading(*more: tuple[str, str, str]) -> str:
        said = jvm.compiles((ok, "-", args), *more, said="@@LOAD OK")
        return f"{prepare} && ({said} 2>&1 || [ -e {ok} ] || {{ echo '@@LOAD FAIL'; exit 3; }})"

    failed = failed_tests or f"{{ cat {log}; false; }}"
    begun = f"if [ -e {log} ]; then false; else {jvm.JAVAC} {tests_args} >{log} 2>&1; fi"  # or not yet
    command = (f"{loading(*([(tests_ok, log, tests_args)] if compile_tests else []))} && "
               f"([ -e {tests_ok} ] || {{ {begun}; }} || {failed} || {{ echo '@@TESTS NOCOMPILE'; exit 4; }}) && "
               f"rm -rf {files} {jvm.DRIVER_DIR} && {run}")
    return command, loading()


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    program = PACKAGE.sub("", program)
    cls = _class_of(program)
    methods = methods_of(cleaned(program))  # names and types read where comments and literals cannot pose as code
    returns = returns_of(cleaned(program))

    def repaired(code: str) -> str:  # the slips small models make, before compiling
        return _JUNIT_PREFIX.sub("", fix_calls(value_equality(wrap_list_arguments(code), returns), methods))

    active = {i: repaired(u) for i, u in active.items()}
    own = (m.strip() for m in re.findall(r"^[ \t]*import\s+(?:static\s+)?[\w.*]+\s*;", program, re.M))
    imports = dict.fromkeys(["import java.util.*;", "import java.util.stream.*;", *own])  # and the program's own
    # the harness's classes are in a package of their own (``sejury``), so no class of the program's
    # (``Math``, ``Objects``, ``Files``) stands for a JDK one in the harness's code
    head = [*imports, "import sejury.SejuryAssert;", "public class SejuryTestMain extends SejuryAssert {",
            "  public static void main(String[] args) throws Exception {"]
    head += ["    " + ln for ln in repaired(suite.setup).splitlines()]
    body, spans = wrap_units(active, head, "    ", lambda i, u: (
        f"sejuryUnit = {i}; sejuryAuto = 0;\n"
        f"try {{\n{textwrap.indent(u, '  ')}\n  System.out.println(\"@@T {i} PASS\");\n"
        f"}} catch (Throwable e) {{ System.out.println(\"@@T {i} FAIL \" + e); }}"))
    body += "\n  }\n}\n"
    command, load = _compile_then_run(
        ("out.ok", f"-cp {CLASSPATH} -d out {cls}.java"),
        ("tests.ok", "tests.log", f"-cp {CLASSPATH} -d out SejuryAssert.java SejuryTestMain.java"), bool(active),
        f"java -ea -Xss16m -XX:+UseSerialGC -cp {CLASSPATH} SejuryTestMain", prepare="mkdir -p out",
        files="tests.ok tests.log")
    return Harness(
        {f"{cls}.java": "import java.util.*;\nimport java.util.stream.*;\n" + program,
         "SejuryAssert.java": ASSERTIONS, "SejuryTestMain.java": body, jvm.DRIVER: jvm.DRIVER_SOURCE},
        command, spans, "SejuryTestMain.java", load_command=load)


# ---- the sealed harness (``sealed_java/``): the tests in a checker, the program in a process of its own

_SEALED = resource_files("sealed_java", {n: n for n in ("SejuryCodec.java", "SejuryServer.java", "Sejury.java")})
def sealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The program with a server over its classes (``srv/``), the tests with stubs of its methods
    (``chk/``, loaded then deleted before the program starts), run on an execute-only copy of the JVM
    launcher where the image has one, so the program cannot read the checker's memory."""
    key = new_seal()
    program = PACKAGE.sub("", program)
    cls = _class_of(program)
    plain = harness(program, suite, active, per_test)
    tests = plain.files["SejuryTestMain.java"]
    tests = tests.replace("public static void main(String[] args) throws Exception {",
                          "public static void main(String[] args) throws Exception { Sejury.setup();", 1)
    tests = tests.replace("import sejury.SejuryAssert;", "import sejury.SejuryAssert;\nimport sejury.Sejury;", 1)
    tests = re.sub(r"^(\s*)sejuryUnit = (\d+); sejuryAuto = 0;",  # each unit starts with no fault (Sejury.java)
                   r"\1sejuryUnit = \2; sejuryAuto = 0; Sejury.begin();", tests, flags=re.M)
    tests = re.sub(r'System\.out\.println\("@@T (\d+) PASS"\);', r'Sejury.passed(\1);', tests)  # unless a fault
    tests = re.sub(r'System\.out\.println\("@@T (\d+) FAIL " \+ e\);', r'Sejury.emit("@@T \1 FAIL " + e);', tests)
    tests = tests.rstrip()[:-1].rstrip()[:-1] + "  Sejury.kill();\n    Sejury.emit(\"@@DONE\");\n  }\n}\n"
    assertions = ASSERTIONS.replace('System.out.println("@@V "', 'Sejury.emit("@@V "').replace(
        "static void sejuryNotSame(Object e, Object a) {}",
        "static void sejuryNotSame(Object e, Object a) { Sejury.notSame(e, a); }")
    own = "\n".join(dict.fromkeys(m.strip() for m in re.findall(r"^[ \t]*import\s+(?:static\s+)?[\w.*]+\s*;", program,
                                                                 re.M)))
    head = f"import java.util.*;\nimport java.util.stream.*;\n{own}\nimport sejury.Sejury;\n"
    jt = "/usr/share/java/javatuples.jar"
    checker = "SejuryCodec.java Sejury.java SejuryAssert.java SejuryTestMain.java"
    # where the stubs with the program's objects do not compile (a class header they cannot copy), the
    # stubs of its methods alone, as before objects, and that compile's diagnostics
    flat = ("{ if grep -q '^stub/Stubs.java:' rich.log; then rm -rf chk && mkdir chk && "
            f"{jvm.JAVAC} -cp {jt} -d chk flat/Stubs.java {checker} 2>&1; else cat rich.log; false; fi; }}")
    command, load = _compile_then_run(
        ("srv.ok", f"-cp {jt} -d srv {cls}.java SejuryCodec.java SejuryServer.java"),
        ("chk.ok", "rich.log", f"-cp {jt} -d chk stub/Stubs.java {checker}"), bool(active),
        f"{interpreter('java')} -ea -Xss16m -XX:+UseSerialGC -cp chk:{jt} SejuryTestMain",
        prepare="mkdir -p srv chk", failed_tests=flat,
        files="stub flat rich.log srv.ok chk.ok SejuryTestMain.java SejuryAssert.java Sejury.java")
    return Harness({f"{cls}.java": plain.files[f"{cls}.java"], "SejuryAssert.java": assertions,
                    "SejuryTestMain.java": tests, "stub/Stubs.java": head + object_stubs(program) + "\n",
                    "flat/Stubs.java": head + stubs(program) + "\n", "seal": key, jvm.DRIVER: jvm.DRIVER_SOURCE,
                    **_SEALED},
                   command, plain.unit_lines, "SejuryTestMain.java", seal=key,
                   plain_markers=("@@LOAD OK", "@@LOAD FAIL", "@@TESTS NOCOMPILE"), load_command=load)
