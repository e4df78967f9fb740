"""What a language module provides: ``Language`` (its names, how tests split into units, how the
program and the units become files and a command for the sandbox, its time limit, its tree-sitter
grammar), and the pieces every harness shares.

Each grammar has one tree-sitter parser, made with its first use (``grammar_parser``): importing
sejury never imports tree-sitter.  ``_parsers.parser`` gives it by language name.

The harness contract: the command prints ``@@LOAD OK`` or ``@@LOAD FAIL`` (does the program load /
compile at all: executability), then ``@@T <i> PASS|FAIL <why>`` per unit, ``i`` being the unit's
index in the suite.  Compiled languages print ``@@TESTS NOCOMPILE`` when the test file does not
compile; the runner then drops the units the compiler names and tries again.

A *sealed* harness (every language's) runs the units outside the program's process and
writes each of these lines authenticated, ``@@M <n> <mac> <line>``, under the run's key
(``Harness.seal``); the runner keeps only the lines whose MAC holds (``execution/sealed.py``), so a
line the program prints or forges does not count, and reports what did not fit as tampering.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the parser loads with its first use (``sejury --help`` never imports it)
    import tree_sitter as ts

    from sejury.execution.calls import Args
    from sejury.execution.typed_literals import Type


@dataclass
class Suite:
    setup: str  # run once before the units (imports, helpers, shared fixtures)
    units: list[str]
    # the random state each unit and call starts from, where the harness seeds one (Python's sealed
    # harness): 0, or another to see which of the reference's values depend on it
    random_state: int = 0
    # the names the reference defines, which the tests call as the problem's (``runner.split_tests``);
    # empty where there is no reference.  C++'s checker makes only these mean the program's function
    # where C++ would pick a standard one (``strlen("abc")``)
    tested: frozenset[str] = frozenset()


@dataclass
class Copies:
    """How much text a suite's units may hold in all, where one test's unit repeats what surrounds
    it (a Jest ``describe`` block, a ``unittest`` class, a JUnit class's fixture, once per test): a
    sample's tests of 1 MB with 20,000 tests in one block would otherwise become 20 GB of units.
    Units past it are left out, the first ones kept."""

    left: int = 4_000_000  # characters

    def take(self, unit: str) -> bool:
        if len(unit) > self.left:
            self.left = 0
            return False
        self.left -= len(unit)
        return True

    def keep(self, units: Iterable[str]) -> list[str]:
        """The first of ``units`` (made one by one, so none past the bound is built) that fit."""
        out = []
        for unit in units:
            if not self.take(unit):
                break
            out.append(unit)
        return out


@dataclass
class Harness:
    files: dict[str, str]
    command: str
    unit_lines: dict[int, tuple[int, int]] = field(default_factory=dict)  # unit -> lines in test file
    test_file: str = ""
    # a sealed harness authenticates its result lines with this key (``sealed.unseal``): the tests
    # run outside the program's process, and a line the program prints or forges does not count
    seal: str = ""
    # with a seal, the markers the shell prints before any program code runs (a compiler's verdict):
    # unauthenticated, they are kept; none of them passes a test
    plain_markers: tuple[str, ...] = ()
    # parts of the suite's setup the harness can do without (C++'s file-scope helpers), by their lines
    # in the test file: one a diagnostic names is dropped from the setup and the suite compiled again
    setup_parts: dict[tuple[int, int], str] = field(default_factory=dict)
    # the load step alone, where ``command`` holds it but not as its shell's ``LOADED`` (``load_step``)
    load_command: str = ""


@dataclass(frozen=True)
class StdioProgram:
    """A program that reads standard input and prints (``execution/stdio.py``): its files, the
    command that compiles or checks it (its failure is a load failure) and the one that runs it."""

    files: dict[str, str]
    build: str
    run: str


def _as_is(problem: str, code: str) -> str:
    return code


def _plain_call(program: str, name: str) -> str:
    return f"{name}(...)"


@dataclass(frozen=True)
class Language:
    """One language's runner.  ``split(tests, names)`` turns generated tests into a suite, dropping
    redefinitions of ``names`` (what the reference defines, so a copy of it cannot mask the
    candidate); ``harness(program, suite, active, per_test)`` builds the files and the command."""

    name: str
    aliases: tuple[str, ...]
    split: Callable[[str, set[str]], Suite]
    defined_names: Callable[[str], set[str]]
    harness: Callable[[str, Suite, dict[int, str], int], Harness]
    test_line: re.Pattern[str]  # a line that holds one test, for counting what the model wrote
    timeout: float = 20.0  # seconds for one suite run (compiling included)
    assemble: Callable[[str, str], str] = _as_is  # (problem, code) -> the program to test
    codebleu: str | None = None  # CodeBLEU's name for it, when its parsers cover it
    # (reference program, its failed load's output) -> the program adapted to its signature and a
    # note per change, or None; for references only (``_adapt.py``)
    adapt_reference: Callable[[str, str], tuple[str, list[str]] | None] | None = None
    call: Callable[[str, str], str] = _plain_call  # (program, function name) -> how a test calls it
    # program -> how it builds and runs as a program reading standard input (``_stdio.py``)
    stdio: Callable[[str], StdioProgram] | None = None
    # found in a program that reads standard input (``stdio.is_stdio``: is the sample such a program)
    reads_stdin: re.Pattern[str] | None = None
    # reference program -> statements that give the tests the names it imports (Python's, guarded)
    imports_of: Callable[[str], str] | None = None
    # reference program -> imports every program of the sample gets, as the benchmark's tests give
    # them (Python: the aliases its reference uses unbound, ``python.given_by_tests``)
    given_by_tests: Callable[[str], str] | None = None
    # the module of its tree-sitter grammar (``tree_sitter_python``), when one is installed: what
    # the mutants, the probe's variants and the literal readers parse it with (``parser``)
    grammar: str | None = None
    # a load failure the program's own text causes: a syntax or compile error placed in the program's
    # file (not the sandbox's or the harness's); such a candidate fails even where the reference does
    # not load either (``TestExecution.against``)
    program_error: re.Pattern[str] | None = None
    # reference program -> the program in the setting its benchmark edition wrote it for, where that
    # differs from how a candidate is compiled (C++: ``using namespace std;``, ``cpp.reference_setting``)
    reference_setting: Callable[[str], str] | None = None
    # unit -> how a verdict names it where the unit holds more than its test (Python's ``TestCases.test_x``
    # of a unittest class, JavaScript's test title of a describe block); None: the unit as it is
    test_name: Callable[[str], str] | None = None

    # ---- its syntax tree, as the mutants read it (``mutants.py``)
    # (declared return type) -> (label, body statements) of the trivial bodies that replace a
    # function's (``_dummies.py``); None: no dummies
    dummies: Callable[[str], list[tuple[str, str]]] | None = None
    return_type: str | None = None  # the tree-sitter field of a function's declared return type
    name_in_declarator: bool = False  # the function's name sits in its declarator (C++: ``int f(...)``)
    function_body: str | None = None  # the node type a replaced body must have (JavaScript: not an arrow's expression)
    indented_blocks: bool = False  # a block is its indented lines (Python), not ``{ ... }``
    empty_statement: str = ";"  # what a removed statement becomes
    line_comment: str = "//"  # what starts a comment to the line's end (the probe's injected comments)

    # ---- its literals: the calls of a problem's function read and written as Python values
    # (``calls.py``); the callables here load their modules with their first use (``_literals.py``)
    # its calls are read and written (by the fields below; Python's literals where one is None): the
    # fuzzers (Ex-fuzz, S5-fuzz), the stated examples and ranking's example inputs judge it
    # (``calls.reads_literals``); False: they say its literals are not read
    literals: bool = False
    # (tests, function) -> the literal arguments of its calls there; None: read as Python's literals
    read_calls: Callable[[str, str], list[Args]] | None = None
    # (a call the problem's text shows, function) -> its arguments; None: read as Python's literals
    # (the benchmarks write most languages' examples so)
    read_example: Callable[[str, str], list[Args]] | None = None
    braced_lists: bool = False  # its examples may write a list in braces, ``f({1, 2})`` (C++)
    render_call: Callable[[str, Args], str] | None = None  # (function, args) -> a call; None: Python's
    # (problem, function) -> its declared (type, name) parameters, or None; set: a call's values are
    # written by the parameters' types (``typed_literals``, ``calls.typed_calls``: the fuzzers make more
    # inputs for it, as fewer fit the types)
    parameters: Callable[[str, str], list[tuple[Type, str]] | None] | None = None
    write_typed: Callable[[Any, Type], str | None] | None = None  # (value, its type) -> an expression, or None
    # a character's escape in a string literal where C's (octal for control characters) is not it
    escape: Callable[[str], str | None] | None = None
    fragment_file: Callable[[str], str] | None = None  # a test fragment as a file its grammar parses (Go)
    conversions: re.Pattern[str] | None = None  # callees whose one-argument call converts a literal (Go)
    # (tests, the reference program or "") -> the tests with a slip only the declared types can repair
    # written in them, before ``split`` (Go: a Python list as its type's composite literal, ``_go_lists``)
    typed_repair: Callable[[str, str], str] | None = None
    # {path: content} -> statements, put before the tests, that write those data files in the test's
    # folder before each test (the files S5's tests read and never wrote: ``strategies/_test_files``)
    write_files: Callable[[dict[str, str]], str] | None = None
    # the tests in the program's own process, as a user's own runner has them (the harness before
    # sealing): a second run of the units the sealed harness failed when no reference checked the
    # tests (``evidence.confirm_failures``); the program can forge its passes there, so a unit that
    # fails it is confirmed as failing, and one that passes it is only "not confirmed"; None: no such run
    plain_harness: Callable[[str, Suite, dict[int, str], int], Harness] | None = None

    def parser(self) -> Parser:
        """The one tree-sitter parser of this language's grammar (``grammar_parser``)."""
        if self.grammar is None:
            raise ValueError(f"no tree-sitter grammar for {self.name!r}")
        return grammar_parser(self.grammar)


class Parser:
    """tree-sitter's parser of one grammar, each parse limited to ``PARSE_LIMIT_MICROS``: one over it
    raises ValueError, and the parser is reset first (tree-sitter would otherwise resume that parse
    on the next call, and give the next text a tree of the old one's).  A guarded parser parses a
    text over ``_parse_guard.IN_PROCESS_BYTES`` in a child process first, and raises its
    ``TooCostly`` (a ValueError) if that takes too much memory or time there."""

    def __init__(self, parser: ts.Parser, grammar: str, *, guarded: bool) -> None:
        self._parser, self.grammar, self.guarded = parser, grammar, guarded

    def parse(self, data: bytes) -> ts.Tree:
        if self.guarded:
            from sejury.execution.languages import _parse_guard

            if len(data) > _parse_guard.IN_PROCESS_BYTES:
                _parse_guard.check(self.grammar, data)
        try:
            return self._parser.parse(data)
        except ValueError:
            self._parser.reset()
            raise


@cache
def grammar_parser(grammar: str, *, guarded: bool = True) -> Parser:
    """tree-sitter's parser of the grammar module ``grammar``, made once (tree-sitter and the
    grammar are imported then).  A parse that takes over ``PARSE_LIMIT_MICROS`` raises ValueError:
    tree-sitter's error recovery is slower than linear on some garbage (100 kB of ``<`` in a Go
    test took 12 s), and a sample's text is the judge's input, never trusted to be code.  Guarded
    (the default; ``_parse_guard``), a text that would take too much memory raises ValueError too."""
    import tree_sitter as ts

    parser = ts.Parser(ts.Language(importlib.import_module(grammar).language()))
    parser.timeout_micros = PARSE_LIMIT_MICROS
    return Parser(parser, grammar, guarded=guarded)


PARSE_LIMIT_MICROS = 5_000_000  # a test text of 1 MB that is code parses in well under a second


def wrap_units(units: dict[int, str], before: list[str], indent: str, make: Callable[[int, str], str],
               ) -> tuple[str, dict[int, tuple[int, int]]]:
    """A test file: ``before``, then each unit wrapped by ``make``; returns the text and each
    unit's line span (to map a compiler's ``file:line`` back to the unit).  An entry of ``before``
    may hold several lines (Go's import block): each counts."""
    lines = [ln for entry in before for ln in entry.split("\n")]
    spans: dict[int, tuple[int, int]] = {}
    for i, unit in units.items():
        start = len(lines) + 1
        lines += [indent + ln for ln in make(i, unit).splitlines()]
        spans[i] = (start, len(lines))
    return "\n".join(lines), spans


# how a compiled language's command (``compile_then_run``, the sealed harnesses of C++, Java and Go) says
# its program compiled: the shell prints it after the load step, before anything of the tests is built
LOADED = "echo '@@LOAD OK'"


def compile_then_run(load: str, build_tests: str, run: str) -> str:
    """The command of a compiled language: ``load`` checks the program compiles (executability),
    ``build_tests`` compiles the test file, ``run`` runs it; each failure is reported as the contract says."""
    return (f"({load} 2>&1 || {{ echo '@@LOAD FAIL'; exit 3; }}) && {LOADED} && "
            f"({build_tests} 2>&1 || {{ echo '@@TESTS NOCOMPILE'; exit 4; }}) && {run}")


def load_step(harness: Harness) -> Harness:
    """The harness's command up to its shell's ``@@LOAD OK``: a compiled language's load step alone,
    no test program built (C++'s checker and program process, Java's and Go's checker).  A harness
    whose shell prints no such line (Python's, JavaScript's: the checker loads the program) as it is;
    one that says its load step apart (``load_command``: Java's, whose compiles run in one JVM), that."""
    if harness.load_command:
        return replace(harness, command=harness.load_command)
    head, found, _ = harness.command.partition(LOADED)
    return replace(harness, command=head + LOADED) if found else harness
