"""Differential evidence from S5's tests: every call of the problem's function in a test is
recorded (its value, printed by the harness as ``@@V <unit> <k> <value>|<length>``), on the
reference and on the candidate, and the candidate agrees on a test when it returns the same values
for the same calls.  The model's *expected* values no longer matter: a test whose expectation the
model got wrong (dropped by S5-exec) still gives an input, and the reference gives its answer.

Calls are wrapped textually (``f(x)`` -> ``sejury_rec(<unit>, <k>, f(x))``, the outermost call
only, strings skipped); each harness defines ``sejury_rec``, which prints the value and returns it
unchanged.  Calls in the suite's setup (helpers the units call, ``check(a, b, want)`` calling
``f(a, b)``) are wrapped too, with the index -1: the harness records them under the unit running
at that moment, after the unit's own calls.  A function declared ``void`` (or a Go function
returning several values) is not wrapped: there is no value to compare.  Values are shown alike
in every language (floats to six significant digits, sets and maps sorted) and object addresses
are blanked before comparing.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

from sejury.execution.languages import _clike
from sejury.execution.signatures import last_function

if TYPE_CHECKING:
    from sejury.execution.random_state import Settled

RECORDER = "sejury_rec"
HELPER = -1  # the recorder's index for a call in the setup: the harness records it under the running unit
MAX_MISMATCHES_SHOWN = 5
_VALUE = re.compile(r"^@@V (\d+) (\d+) (.*)$", re.M)
_ADDRESS = re.compile(r"(?:0x[0-9a-fA-F]{6,}|@[0-9a-f]{5,8}\b)")


def recorded_function(problem: str) -> str | None:
    """The function whose calls are recorded: the last one the problem's code declares, when it
    returns one value (not ``void``, not a Go tuple); None for prose problems."""
    found = last_function(problem)
    return found.name if found and found.returns_value else None


def record_calls(unit: str, index: int, name: str, helpers: bool = False) -> str:
    """``unit`` with each outermost call of ``name`` (with its qualifier: ``Problem.``, ``new
    Solution().``, ``s.``) wrapped in the recorder, numbered in order.  ``helpers``: the text is
    the suite's setup, whose helper methods the units call (``testUnique(input, expected)`` calling
    ``unique(input)``); a declaration there is left alone, and its calls are recorded with the
    index ``HELPER`` (-1), which the harness turns into the unit running at that moment."""
    call = re.compile(rf"(?<![\w$.])(?:new\s+\w+\s*\(\s*\)\s*\.\s*|[A-Za-z_$][\w$]*\s*\.\s*)*{re.escape(name)}\s*\(")
    out: list[str] = []
    i = k = 0
    while i < len(unit):
        ch = unit[i]
        if ch in "\"'`":
            end = _clike.string_end(unit, i)
            out.append(unit[i:end + 1])
            i = end + 1
            continue
        m = call.match(unit, i)  # its lookbehind sees the text before i: never inside a name
        if m and not (helpers and _declares(unit, i)):
            close = _clike.closing(unit, m.end() - 1)
            if close > 0:
                out.append(f"{RECORDER}({index}, {k}, {unit[i:close + 1]})")
                k += 1
                i = close + 1
                continue
        out.append(ch)
        i += 1
    return "".join(out)


def renumber(unit: str, index: int, position: int) -> str:
    """A recorded unit (``record_calls(unit, index, ...)``) as the unit at ``position`` of a run:
    a harness records its helpers' calls under the position of the unit running, so a run of some
    of the units numbers every call by position too (``evidence._run_with_probe`` maps them back)."""
    return unit.replace(f"{RECORDER}({index}, ", f"{RECORDER}({position}, ")


# words after which a name and a parenthesis are a call, not a declaration (``return f(x)``)
_BEFORE_CALL = frozenset({"return", "await", "yield", "throw", "else", "in", "not", "and", "or", "is", "if",
                          "elif", "while", "assert", "case", "do", "lambda", "typeof", "of", "range", "go", "defer",
                          "new"})
_TYPE_END = re.compile(r"(?:([A-Za-z_$][\w$]*)|[>\]])\s*([*&]*)\s*$")


def _declares(text: str, at: int) -> bool:
    """Does the name at ``at`` follow a type or a defining word (``int f(``, ``List<T> f(``,
    ``vector<int>& f(``, ``def f(``)?  Then a helper the test text defines is declared there."""
    m = _TYPE_END.search(text, max(0, at - 80), at)
    if m is None or m.group(2) == "&&":
        return False
    if m.group(1) is None:  # after > or ]: a type's end (List<T>, int[]), unless an arrow (=>, ->)
        return text[m.start() - 1:m.start() + 1] not in ("=>", "->")
    return m.group(1) not in _BEFORE_CALL


def unrecord(unit: str) -> str:
    """The unit as written: every ``sejury_rec(i, k, X)`` back to ``X``."""
    out, i = [], 0
    while (j := unit.find(RECORDER + "(", i)) >= 0:
        close = _clike.closing(unit, j + len(RECORDER))
        inner = unit[j + len(RECORDER) + 1:close] if close > 0 else ""
        parts = inner.split(",", 2)
        if close < 0 or len(parts) < 3:
            break
        out.append(unit[i:j])
        out.append(unrecord(parts[2].strip()))
        i = close + 1
    return "".join(out) + unit[i:]


def read_values(stdout: str) -> dict[int, list[str]]:
    """Each unit's recorded values, in call order, object addresses blanked."""
    got: dict[int, dict[int, str]] = {}
    for m in _VALUE.finditer(stdout):
        got.setdefault(int(m.group(1)), {})[int(m.group(2))] = _ADDRESS.sub("@", m.group(3).rstrip())
    return {i: [vals[k] for k in sorted(vals)] for i, vals in got.items()}


_LENGTH = re.compile(r"\|\d+$")


def bare(value: str) -> str:
    """A recorded value without the ``|<length>`` the harness prints after it."""
    return _LENGTH.sub("", value)

# JavaScript's undefined as the harness shows it, bare (a string "undefined" is shown quoted): the
# reference answering undefined, or a list holding it, means the problem defines no answer there
_UNDEFINED = re.compile(r"(?<![\w\"'])undefined(?![\w\"'])")
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'')
# a number or a quoted string in a shown value (``form``)
_LITERAL = re.compile(_QUOTED.pattern + r"|[-+]?\b\d+(?:\.\d*)?(?:[eE][-+]?\d+)?\b|\bnan\b|\binf\b")


def form(value: str) -> str:
    """A recorded value (``text|length``) with every number and quoted string left out: its form,
    as ``random_state.py`` compares values that depend on the random state.  A value the harness
    cut (its text shorter than its length) keeps only its opening, up to its first number or
    string: where it was cut depends on how wide its numbers were printed."""
    m = _LENGTH.search(value)
    text = value[:m.start()] if m else value
    masked = _LITERAL.sub("#", text)
    if m is None:
        return masked
    if len(text) < int(m.group()[1:]):  # cut: its count of items is not shown
        return masked[:masked.find("#") + 1] + "..." if "#" in masked else masked
    return masked + "|#"


def defined(values: list[str]) -> bool:
    """The reference's values on one test hold no undefined: an input the problem defines."""
    return not any(_UNDEFINED.search(_QUOTED.sub("", bare(v))) for v in values)


class Mismatch(BaseModel):
    test: str
    reference: str  # the value as the harness printed it: ``<value>|<its length>``
    candidate: str  # the same, or "(no value: ...)" when the call raised or never ran

    def shown(self) -> tuple[str, str]:
        """The reference's and the candidate's values without the printed length."""
        return bare(self.reference), bare(self.candidate)

    @classmethod
    def lines(cls, recorded: list[dict[str, str]], most: int = 2) -> list[str]:
        """The first mismatches a juror recorded (``artifacts["mismatches"]``), for the verdict's table."""
        out = []
        for m in map(cls.model_validate, recorded[:most]):
            theirs, mine = m.shown()
            out.append(f"differs: {m.test[:120]} -> reference {theirs[:60]}, candidate {mine[:60]}")
        return out


class DifferentialRun(BaseModel):
    """The candidate against the reference on the calls of S5's tests."""

    function: str
    inputs: int  # tests whose calls returned on the reference (usable inputs)
    agreed: int  # of them, the candidate returned the same values
    from_invalid: int = 0  # usable tests whose stated expectation was wrong (S5-exec dropped them)
    ratio: float | None = None
    # of the inputs, those on which every call of the candidate returned (none raised, crashed or hung):
    # CodeScore's executability; None in runs recorded before it was counted
    returned: int | None = None
    mismatches: list[Mismatch] = Field(default_factory=list)
    # of the inputs, those on which every call raised on the reference (a stated exception's path)
    error_paths: int = 0
    # every valid test that calls the function saw it only raise on the reference (``with
    # pytest.raises`` tests alone): passing them says nothing about what the function returns
    valid_only_error_paths: bool = False
    # no valid test calls the function (a test that only writes a file passes on any program), while
    # the other tests' calls were recorded: the valid tests are no evidence either way
    valid_without_calls: bool = False
    # tests left out because the reference reached for the network on them (``NETWORK``)
    network: int = 0
    # tests whose stated expectation failed on the reference's value but holds on the candidate's (it
    # returns what the test expects, the reference does not): a wrong reference, or, far more often
    # on HumanEval (24 of 25), a misreading the model and the candidate share; recorded, not a review reason
    disputed: int = 0
    disputed_shown: list[str] = Field(default_factory=list)
    # tests whose reference values depend on the random state (``random_state.py``): compared by
    # their form, and left out (their form changes too)
    random_by_form: int = 0
    random_dropped: int = 0
    random_same_form: int = 0  # of those compared by form, left out: another value of the reference's form

    def no_inputs(self, what: str) -> str:
        """Why there is no input: ``what`` (the juror's words), and the tests on which the
        reference needed the network, when there were any; or that every value depended on the
        random state and the candidate's had the reference's form (``random_state.py``)."""
        if self.random_same_form:
            return (f"the reference's values depend on the random state on every input it answered, and the "
                    f"candidate's have their form on {self.random_same_form} of them: no evidence either way"
                    + (f" ({self.random_dropped} not compared: their form changes too)" if self.random_dropped else ""))
        if not self.network:
            return what
        return (f"{what}: on {self.network} test(s) the reference reached for the network, which the sandbox "
                "does not have (the tests give the function no stand-in for it)")

    def only_error_paths(self) -> bool:
        """Every input is an error path, so agreeing on all of them is no evidence of correctness."""
        return bool(self.inputs) and self.error_paths == self.inputs


# why a juror that found nothing against the candidate on error paths alone stays unscored (one
# that found something against it keeps its score: failing a stated exception is evidence)
ONLY_ERROR_PATHS = ("every call of {function} in the valid tests raised on the reference (the exceptions the "
                    "problem states): the candidate raising them too says nothing about what it returns")


# what Python's sealed harness records for a call that did not return a value: ``!raises <name>``,
# ``!timeout``, ``!exited`` (a value the harness shows never starts with "!")
NO_VALUE = "!"
RAISES = "!raises "
# a call that reached for the network (a name lookup, a connection), which the sandbox does not
# have: what it answered is the sandbox's doing, so a test on which the reference did is no input
NETWORK = "!network"
_STATES_RAISES = re.compile(r"\b(?:raise[sd]?|throws?|exceptions?)\b", re.I)


def states_raises(problem: str) -> bool:
    """Does the problem say what its function raises ("The function should raise the exception
    for: ValueError ...")?  Then the exception's name is part of the answer."""
    return bool(_STATES_RAISES.search(problem))


def as_compared(values: list[str], typed_raises: bool) -> list[str]:
    """Values as compared: a call that raised counts by its exception's name when the problem
    states what its function raises, else only as having raised (the reference's choice of
    exception on an input the problem says nothing of is not a duty)."""
    return [v if typed_raises or not v.startswith(RAISES) else "!raises" for v in values]


def _returned(mine: list[str], theirs: list[str]) -> bool:
    """Did every call of the candidate return (it stopped without a value only where the reference did)?"""
    return len(mine) >= len(theirs) and all(not v.startswith(NO_VALUE) or (k < len(theirs) and theirs[k] == v)
                                            for k, v in enumerate(mine))


def compare(function: str, units: list[str], reference: dict[int, list[str]], candidate: dict[int, list[str]],
            valid: set[int], reasons: dict[int, str], typed_raises: bool = False,
            passed: dict[int, bool] | None = None, random: Settled | None = None) -> DifferentialRun:
    """Agreement per test: the candidate's values equal the reference's, call for call (a call
    that raised compared as ``as_compared`` says).  Tests are shown as written (``units`` may carry
    the recorder).  A test on which the reference answers undefined (JavaScript) is outside what the
    problem defines, and is not counted; nor is one where the reference returned nothing, unless the
    problem states what its function raises.  ``passed``: which tests' own checks held on the
    candidate (those that failed on the reference and hold on it are ``disputed``).  ``random``:
    how the reference's values depend on the random state (``random_state.settle``): the tests it
    says are compared by their form."""
    reference = {i: as_compared(v, typed_raises) for i, v in reference.items()}
    candidate = {i: as_compared(v, typed_raises) for i, v in candidate.items()}
    network = {i for i, v in reference.items() if any(bare(x) == NETWORK for x in v)}
    usable = [i for i in range(len(units)) if reference.get(i) and defined(reference[i]) and i not in network
              and (typed_raises or any(not v.startswith(NO_VALUE) for v in reference[i]))]
    by_form = random.by_form if random else set()
    # a value that depends on the random state, other than the reference's but of its form: no
    # evidence either way (the same value still agrees, another form disagrees)
    same_form = {i for i in usable if i in by_form and candidate.get(i, []) != reference[i] and
                 list(map(form, candidate.get(i, []))) == list(map(form, reference[i]))}
    usable = [i for i in usable if i not in same_form]
    agreed, shown = 0, list[Mismatch]()
    for i in usable:
        mine = candidate.get(i, [])
        if mine == reference[i]:
            agreed += 1
        elif len(shown) < MAX_MISMATCHES_SHOWN:
            first = next((k for k, v in enumerate(reference[i]) if k >= len(mine) or mine[k] != v), 0)
            theirs = mine[first] if first < len(mine) else f"(no value: {reasons.get(i) or 'the call did not return'})"
            shown.append(Mismatch(test=unrecord(units[i])[:300], reference=reference[i][first][:300],
                                  candidate=theirs[:300]))
    raising = {i for i, v in reference.items() if v and all(x.startswith(RAISES.strip()) for x in v)}  # typed or not
    valid_calls = [i for i in valid if reference.get(i)]
    disputed = [i for i in usable if i not in valid and (passed or {}).get(i) and candidate.get(i) != reference[i]]
    return DifferentialRun(function=function, inputs=len(usable), agreed=agreed,
                           from_invalid=sum(1 for i in usable if i not in valid),
                           ratio=agreed / len(usable) if usable else None, mismatches=shown,
                           returned=sum(1 for i in usable if _returned(candidate.get(i, []), reference[i])),
                           error_paths=sum(1 for i in usable if i in raising),
                           network=len(network),
                           valid_only_error_paths=bool(valid_calls) and all(i in raising for i in valid_calls),
                           valid_without_calls=bool(valid) and not valid_calls and any(reference.values()),
                           disputed=len(disputed),
                           disputed_shown=[unrecord(units[i])[:300] for i in disputed[:MAX_MISMATCHES_SHOWN]],
                           random_by_form=len(by_form), random_dropped=random.dropped if random else 0,
                           random_same_form=len(same_form))
