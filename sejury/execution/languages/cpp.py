"""C++: g++ checks the program compiles, then the sealed harness (``sealed_cpp/``) builds the program
into a process of its own and the tests into a checker that runs each unit, ``assert`` turned into
a throwing check so one failure does not end the rest.  Its plain form (``plain_harness``: the tests
and the program in one binary) runs again what the sealed one failed, where no reference checked the
tests."""

from __future__ import annotations

import re
import textwrap

from sejury.execution.languages import _adapt, _clike, _cpp_scope, _dummies, _gtest, _literals, _stdio
from sejury.execution.languages.base import LOADED, Copies, Harness, Language, Suite, wrap_units
from sejury.execution.sealed import new_seal, resource_files
from sejury.sandbox import cxx

_DEFINES = re.compile(r"^(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(\w+)|"
                      r"^[\w:<>,\s*&]+?\b(\w+)\s*\([^;]*\)\s*(?:const\s*)?\{")
_ENTRY = re.compile(r"\bint\s+main\s*\([^)]*\)\s*\{")


def split(tests: str, names: set[str]) -> Suite:
    """The tests of ``main`` (or bare statements) or GoogleTest's ``TEST`` blocks; what the file
    defines beside them (helpers, types, fixtures) kept at its file scope (``_cpp_scope``)."""
    top = _cpp_scope.read(_clike.complete_part(tests), names)
    checking = frozenset(top.checking)
    if _gtest.uses_gtest(tests):  # GoogleTest's TEST blocks (``_gtest.py``)
        return Suite(top.setup(""), _gtest.units(top.rest, Copies(), checking, _cpp_scope.gtest_rows(tests)))
    suite = _clike.split_c_like(top.rest, names, entry=_ENTRY, defines=_DEFINES,
                                check=re.compile(r"\bassert\b|throw"), terminated=True, checking=checking)
    return Suite(top.setup(suite.setup), suite.units)


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


# Every program's file starts with the image's precompiled header (``cxx``).  A program that
# includes its own headers then compiles as written: MultiPL-E's prompts have no ``using namespace
# std;``, and there a candidate's ``abs(x - mean)`` on floats is C's ``int abs(int)``, which
# truncates, so it must be here too (with the directive it would be ``std::abs(float)``).  A bare
# function, with no ``#include`` of its own, gets the directive, as HumanEval-X's prompts give it.
# A reference is compiled in the setting its edition wrote it for (``reference_setting``).
_OWN_INCLUDE = re.compile(r"^[ \t]*#\s*include\b", re.M)
_USING_STD = "using namespace std;"


def source(program: str) -> str:
    """``solution.cpp``: two lines of the harness's (``_adapt.CPP.prefix_lines``), then the program."""
    return f"#include <bits/stdc++.h>\n{'' if _OWN_INCLUDE.search(program) else _USING_STD}\n{program}"


def reference_setting(program: str) -> str:
    """A reference with ``using namespace std;``: HumanEval-X's bodies are written for it (``string``,
    ``max``, ``abs`` of a float), whatever the prompt they are joined to declares."""
    return program if re.search(r"\busing\s+namespace\s+std\s*;", program) else f"{_USING_STD}\n{program}"


# ---- the sealed harness (``sealed_cpp/``): the tests in a checker, the program in a process of its own

_SEALED = resource_files("sealed_cpp", {"codec.hpp": "codec.hpp", "checker.hpp": "checker.hpp",
                                        "server.cpp.txt": "server", "gtest.hpp": "gtest.hpp"})
_FUNC = re.compile(r"^((?:[\w:]+(?:<[^;{}()]*>)?[\s*&]+)+?)(\w+)\s*\(", re.M)
_QUALIFIERS = re.compile(r"\b(?:static|inline|constexpr|extern)\b\s*")


def _items(text: str) -> list[str]:
    """``text`` split at its top-level commas (inside no (), [], {} or <>)."""
    out, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    last = text[start:].strip()
    return [*out, last] if last else out


def signatures(program: str) -> dict[str, tuple[str, list[str]]]:
    """The free functions the program defines, once each: name -> (return type, parameter types);
    a name defined twice (overloads) is left out."""
    found: dict[str, tuple[str, list[str]] | None] = {}
    for m in _FUNC.finditer(program):
        ret, name = _QUALIFIERS.sub("", m.group(1)).strip(), m.group(2)
        if name in ("main", "if", "while", "for", "switch", "return") or not ret or ret in ("return", "else"):
            continue
        close = _clike.closing(program, m.end() - 1)
        if close < 0 or not re.match(r"\s*(?:const\s*)?\{", program[close + 1:]):
            continue
        params = []
        for p in _items(program[m.end():close]):
            p = p.split("=")[0].strip()
            if p in ("", "void"):
                continue
            named = re.match(r"^(.*?[\s*&>])\s*\w+\s*$", p)  # (``vector<int>b``: no space)
            params.append((named.group(1) if named else p).strip())
        found[name] = None if name in found else (ret, params)
    return {n: s for n, s in found.items() if s is not None}


def _stub(name: str, ret: str, params: list[str], tested: bool) -> str:
    """The checker's stand-in for the program's function ``name``: it sends the call to the
    program's process.  A function the problem names (``tested``: the reference defines it) is
    defined as ``sejury_fn_<name>`` and the tests' ``name`` is made to mean it (``#define``), so a
    test's call reaches the program even where C++ would pick another function of that name (C's
    ``strlen(const char*)`` for ``strlen("abc")``, an exact match).  Any other is declared under its
    own name, so a call resolves as in the user's own build: a program's ``int abs(double)`` is not
    the tests' ``abs(got - want)`` (``std::abs(double)``), as it was through the ``#define`` until
    ``RUNNERS_VERSION`` 63."""
    args = ", ".join(f"{t} p{i}" for i, t in enumerate(params))
    enc = " a += \",\";".join(f" sejury_enc(a, p{i});" for i in range(len(params)))
    defined = f"sejury_fn_{name}" if tested else name
    meant = f"\n#define {name} sejury_fn_{name}" if tested else ""
    return (f"{ret} {defined}({args}) {{\n  std::string a = \"[\";{enc} a += \"]\";\n"
            f"  return sejury::call<{ret}>(\"{name}\", a);\n}}{meant}")


def sealed_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The program with a dispatcher over its functions (``sejury_srv``), the tests with stubs of the
    functions they call (``chk``), built apart; the checker starts the program's process."""
    return _harness(program, suite, active, plain=False)


def plain_harness(program: str, suite: Suite, active: dict[int, str], per_test: int) -> Harness:
    """The same tests with the program compiled into their file (its ``main`` renamed), as the user's
    own build has them: a second run of the units the sealed harness failed, whose failures alone
    count (``Language.plain_harness``; ``checker.hpp``'s ``sejury_plain``: no key, no program process)."""
    return _harness(program, suite, active, plain=True)


def _harness(program: str, suite: Suite, active: dict[int, str], *, plain: bool) -> Harness:
    key = "" if plain else new_seal()
    said = suite.setup + "\n" + "\n".join(active.values())
    parts, setup = _cpp_scope.split_setup(suite.setup)
    # a function the tests define themselves is theirs (a program's ``issame`` does not replace the
    # tests' helper of that name, which its ``#define`` renamed, so the compiler dropped the tests' copy)
    own = set().union(*(_clike.defined_names(_DEFINES, part) for part in parts))
    sigs = {n: s for n, s in signatures(program).items() if re.search(rf"\b{re.escape(n)}\b", said) and n not in own}
    # the program's function, not a standard one of the same name (``unique``, ``max_element``, ``strlen``:
    # ``using namespace std;`` and the C library bring those in): its own signature picks it
    dispatch = "\n".join(f'      else if (name == "{n}") '
                         f'out = sejury_invoke(static_cast<{r} (*)({", ".join(p)})>(&::{n}), in);'
                         for n, (r, p) in sigs.items())
    recorder = [ln.replace('printf("@@V %d %d %s|%zu\\n", i, k, s.substr(0, 1000).c_str(), s.size());',
                           'sejury::emit("@@V " + std::to_string(i) + " " + std::to_string(k) + " " + '
                           's.substr(0, 1000) + "|" + std::to_string(s.size()));') for ln in RECORDER]
    program_lines = ["#define main sejury_candidate_main", '#include "solution.cpp"', "#undef main"]
    head = ["#include <bits/stdc++.h>", *(program_lines if plain else []), "using namespace std;",
            '#include "codec.hpp"', *(["#define sejury_plain"] if plain else []), '#include "checker.hpp"',
            *([] if plain else "\n".join(_stub(n, r, p, n in suite.tested) for n, (r, p) in sigs.items()).splitlines()),
            "#undef assert",
            '#define assert(c) do { if (!(c)) throw std::runtime_error("assertion failed: " #c); } while (0)',
            *recorder, *_SEALED["gtest.hpp"].splitlines()]
    part_lines: dict[tuple[int, int], str] = {}
    at = sum(entry.count("\n") + 1 for entry in head)  # lines so far, counted once: a file may hold 20,000 parts
    for part in parts:  # the test file's own scope (helpers, fixtures), each part dropped if it does not compile
        size = part.count("\n") + 1
        part_lines[(at + 1, at + size)] = part
        head.append(part)
        at += size
    head += ["int main(int sejury_argc, char** sejury_argv) {", "" if plain else "  sejury::setup(sejury_argv[0]);"]
    head += ["  " + ln for ln in setup.splitlines()]
    body, spans = wrap_units(active, head, "  ", lambda i, u: (
        f"sejury_unit = {i}; sejury_auto = 0; sejury::begin();\ntry {{\n{textwrap.indent(u, '  ')}\n"
        f"  sejury::emit(sejury::fault.empty() ? std::string(\"@@T {i} PASS\") : \"@@T {i} FAIL \" + sejury::fault);"
        f"\n}} "
        f"catch (std::exception& e) {{ sejury::emit(std::string(\"@@T {i} FAIL \") + e.what()); }} "
        f"catch (...) {{ sejury::emit(\"@@T {i} FAIL exception\"); }}"))
    body += "\n  sejury::kill_server();\n  sejury::emit(\"@@DONE\");\n  return 0;\n}\n"
    files = {"solution.cpp": source(program), "codec.hpp": _SEALED["codec.hpp"], "checker.hpp": _SEALED["checker.hpp"],
             "test_main.cpp": body}
    if plain:
        command = (f"({cxx.SYNTAX} solution.cpp 2>&1 || {{ echo '@@LOAD FAIL'; exit 3; }}) && echo '@@LOAD OK' && "
                   f"({cxx.PROGRAM} -o t test_main.cpp 2>&1 || {{ echo '@@TESTS NOCOMPILE'; exit 4; }}) && ./t")
        return Harness(files, command, spans, "test_main.cpp", setup_parts=part_lines)
    server = _SEALED["server"].replace("      /*DISPATCH*/", dispatch)
    # the program is compiled while the tests and the key cannot be read: a compiler reads what the
    # source names (``asm(".incbin \"test_main.cpp\"")`` put the tests' expected values in a program's
    # data until RUNNERS_VERSION 63), and no compiler runs code that could give itself the right back
    # (``@@LOAD OK`` ends the load step, ``load_step``: the shell before it stands alone)
    hidden, shown = "chmod 000 test_main.cpp seal; ", "; chmod 600 test_main.cpp seal; "
    command = (f"{hidden}{cxx.SYNTAX} solution.cpp 2>&1; loaded=$?{shown}"
               f"[ $loaded = 0 ] || {{ echo '@@LOAD FAIL'; exit 3; }}; {LOADED}; "
               f"{hidden}{cxx.PROGRAM} -o sejury_srv srv.cpp 2>&1; built=$?{shown}"
               f"{{ [ $built = 0 ] && {cxx.BUILD} -o chk test_main.cpp 2>&1; }} || "
               "{ echo '@@TESTS NOCOMPILE'; exit 4; }; rm -f srv.cpp && ./chk")
    return Harness({**files, "srv.cpp": server, "seal": key},
                   command, spans, "test_main.cpp", seal=key, setup_parts=part_lines,
                   plain_markers=("@@LOAD OK", "@@LOAD FAIL", "@@TESTS NOCOMPILE"))


LANGUAGE = Language(name="cpp", aliases=("c++",), split=split,
                    defined_names=lambda program: _clike.defined_names(_DEFINES, program), harness=sealed_harness,
                    plain_harness=plain_harness, assemble=_clike.assemble_c_like,
                    test_line=re.compile(r"\bassert\s*\("), timeout=90.0, codebleu="cpp",
                    program_error=re.compile(r"^solution\.cpp:\d+:\d+: error: ", re.M),
                    reference_setting=reference_setting, test_name=_clike.titled_name,
                    grammar="tree_sitter_cpp",
                    adapt_reference=lambda program, output: _adapt.adapt(_adapt.CPP, program, output),
                    stdio=_stdio.cpp, reads_stdin=_stdio.CPP_READS, literals=True,
                    dummies=_dummies.cpp, return_type="type", name_in_declarator=True,
                    read_calls=_literals.clike_calls("cpp"), braced_lists=True, parameters=_literals.c_parameters,
                    write_typed=_literals.cpp_value, escape=lambda ch: "\\?" if ch == "?" else None)  # never a trigraph
