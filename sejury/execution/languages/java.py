"""Java: javac compiles the program, then a generated main runs each unit in its own try block."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _clike
from sejury.execution.languages.base import Harness, Language, Suite, compile_then_run, wrap_units

_DEFINES = re.compile(r"^(?:public\s+|final\s+|abstract\s+)*(?:class|interface|record)\s+(\w+)")
_ENTRY = re.compile(r"static\s+void\s+main\s*\([^)]*\)\s*(?:throws\s+[\w\s,.]+)?\{")


def split(tests: str, names: set[str]) -> Suite:
    return _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES,
                               check=re.compile(r"assert|throw|AssertionError"))


def _class_of(code: str) -> str:
    m = re.search(r"public\s+(?:final\s+|abstract\s+)*class\s+(\w+)", code)
    return m.group(1) if m else "Solution"


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    cls = _class_of(program)
    head = ["import java.util.*;", "import java.util.stream.*;", "public class SejuryTestMain {",
            "  public static void main(String[] args) throws Exception {"]
    head += ["    " + ln for ln in suite.setup.splitlines()]
    body, spans = wrap_units(active, head, "    ", lambda i, u: (
        f"try {{\n{textwrap.indent(u, '  ')}\n  System.out.println(\"@@T {i} PASS\");\n"
        f"}} catch (Throwable e) {{ System.out.println(\"@@T {i} FAIL \" + e); }}"))
    body += "\n  }\n}\n"
    return Harness(
        {f"{cls}.java": "import java.util.*;\nimport java.util.stream.*;\n" + program,
         "SejuryTestMain.java": body},
        "mkdir -p out && " + compile_then_run(f"javac -nowarn -d out {cls}.java",
                                              "javac -nowarn -cp out -d out SejuryTestMain.java",
                                              "java -ea -Xss16m -XX:+UseSerialGC -cp out SejuryTestMain"),
        spans, "SejuryTestMain.java")


LANGUAGE = Language(name="java", aliases=(), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=harness,
                    test_line=re.compile(r"AssertionError|\bassert\w*\("), timeout=90.0, codebleu="java")
