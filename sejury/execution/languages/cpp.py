"""C++: g++ checks the program compiles, then a generated main includes it and runs each unit,
``assert`` turned into a throwing check so one failure does not end the rest."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _clike
from sejury.execution.languages.base import Harness, Language, Suite, compile_then_run, wrap_units

_DEFINES = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(\w+)|"
                      r"^[\w:<>,\s*&]+?\b(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{")
_ENTRY = re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{")


def split(tests: str, names: set[str]) -> Suite:
    return _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES, check=re.compile(r"\bassert\b|throw"))


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    head = ["#include <bits/stdc++.h>", "using namespace std;", "#define main sejury_candidate_main",
            '#include "solution.cpp"', "#undef main", "#undef assert",
            '#define assert(c) do { if (!(c)) throw std::runtime_error("assertion failed: " #c); } while (0)',
            "int main() {"]
    head += ["  " + ln for ln in suite.setup.splitlines()]
    body, spans = wrap_units(active, head, "  ", lambda i, u: (
        f"try {{\n{textwrap.indent(u, '  ')}\n  puts(\"@@T {i} PASS\");\n}} "
        f"catch (std::exception& e) {{ printf(\"@@T {i} FAIL %s\\n\", e.what()); }} "
        f"catch (...) {{ puts(\"@@T {i} FAIL exception\"); }}\nfflush(stdout);"))
    body += "\n  return 0;\n}\n"
    prog = "#include <bits/stdc++.h>\nusing namespace std;\n" + program
    return Harness(
        {"solution.cpp": prog, "test_main.cpp": body},
        compile_then_run("g++ -std=c++17 -fsyntax-only -Dmain=sejury_candidate_main solution.cpp",
                         "g++ -std=c++17 -O0 -o test_main test_main.cpp", "./test_main"),
        spans, "test_main.cpp")


LANGUAGE = Language(name="cpp", aliases=("c++",), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=harness,
                    assemble=_clike.assemble_c_like,
                    test_line=re.compile(r"\bassert\s*\("), timeout=90.0, codebleu="cpp")
