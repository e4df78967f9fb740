"""C++: g++ checks the program compiles, then a generated main includes it and runs each unit,
``assert`` turned into a throwing check so one failure does not end the rest."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _adapt, _clike
from sejury.execution.languages.base import Harness, Language, Suite, compile_then_run, wrap_units

_DEFINES = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(\w+)|"
                      r"^[\w:<>,\s*&]+?\b(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{")
_ENTRY = re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{")


def split(tests: str, names: set[str]) -> Suite:
    return _clike.split_c_like(tests, names, entry=_ENTRY, defines=_DEFINES, check=re.compile(r"\bassert\b|throw"),
                               terminated=True)


# differential testing: the value of a call, shown alike for reference and candidate, returned unchanged
RECORDER = r"""
template <class T, class = void> struct sejury_iterable : std::false_type {};
template <class T> struct sejury_iterable<T, std::void_t<decltype(std::begin(std::declval<const T&>()))>>
    : std::true_type {};
template <class T> struct sejury_pair : std::false_type {};
template <class A, class B> struct sejury_pair<std::pair<A, B>> : std::true_type {};
template <class T> struct sejury_tuple : std::false_type {};
template <class... A> struct sejury_tuple<std::tuple<A...>> : std::true_type {};
template <class T> struct sejury_optional : std::false_type {};
template <class A> struct sejury_optional<std::optional<A>> : std::true_type {};
template <class T, class = void> struct sejury_streamable : std::false_type {};
template <class T> struct sejury_streamable<T, std::void_t<decltype(std::declval<std::ostream&>()
    << std::declval<const T&>())>> : std::true_type {};
template <class T> std::string sejury_show(const T& v) {
  using D = std::decay_t<T>;
  if constexpr (std::is_same_v<D, std::string>) return "\"" + v + "\"";
  else if constexpr (std::is_same_v<D, const char*> || std::is_same_v<D, char*>) return std::string("\"") + v + "\"";
  else if constexpr (std::is_same_v<D, bool>) return v ? "true" : "false";
  else if constexpr (std::is_same_v<D, char>) return std::string("'") + v + "'";
  else if constexpr (std::is_floating_point_v<D>) { char b[64]; snprintf(b, sizeof b, "%.6g", (double) v); return b; }
  else if constexpr (std::is_arithmetic_v<D>) return std::to_string(v);
  else if constexpr (sejury_pair<D>::value) return "(" + sejury_show(v.first) + ", " + sejury_show(v.second) + ")";
  else if constexpr (sejury_tuple<D>::value) {
    std::string s = "(";
    std::apply([&](const auto&... x) { ((s += sejury_show(x) + ", "), ...); }, v);
    return s + ")";
  } else if constexpr (sejury_optional<D>::value) return v ? "some(" + sejury_show(*v) + ")" : std::string("none");
  else if constexpr (sejury_iterable<D>::value) {
    std::string s = "[";
    bool first = true;
    for (const auto& x : v) { s += (first ? "" : ", ") + sejury_show(x); first = false; }
    return s + "]";
  } else if constexpr (sejury_streamable<D>::value) { std::ostringstream o; o << v; return o.str(); }
  else return "<value>";
}
static int sejury_unit = -1, sejury_auto = 0;  // the unit running, and its helpers' calls recorded so far
template <class T> T sejury_rec(int i, int k, T v) {
  if (i < 0) { i = sejury_unit; k = 1000 + sejury_auto++; }  // a helper's call, under the running unit
  std::string s = sejury_show(v);
  for (size_t p = 0; (p = s.find('\n', p)) != std::string::npos; p += 2) s.replace(p, 1, "\\n");
  printf("@@V %d %d %s|%zu\n", i, k, s.substr(0, 1000).c_str(), s.size());
  return v;
}
""".strip("\n").splitlines()


def harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    head = ["#include <bits/stdc++.h>", "using namespace std;", "#define main sejury_candidate_main",
            '#include "solution.cpp"', "#undef main", "#undef assert",
            '#define assert(c) do { if (!(c)) throw std::runtime_error("assertion failed: " #c); } while (0)',
            *RECORDER, "int main() {"]
    head += ["  " + ln for ln in suite.setup.splitlines()]
    body, spans = wrap_units(active, head, "  ", lambda i, u: (
        f"sejury_unit = {i}; sejury_auto = 0;\ntry {{\n{textwrap.indent(u, '  ')}\n  puts(\"@@T {i} PASS\");\n}} "
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
                    test_line=re.compile(r"\bassert\s*\("), timeout=90.0, codebleu="cpp",
                    adapt_reference=lambda program, output: _adapt.adapt(_adapt.CPP, program, output))
