"""Programs that read standard input and print: the form of APPS, CodeContests, Codeforces and
most competitive programming.  A test is an input (the text on stdin) and the output it should
print; nothing is called.

Which samples have this form (``is_stdio``): the sample says so (``"form": "stdio"``), or its
problem has Input/Output sections and the reference (else the candidate) reads standard input.
Their tests come from the problem's own examples (``statement_examples``: the ``Input`` /
``Output`` blocks of the statement), from the sample's ``tests`` (``parse_cases``), from the model
(inputs only; the reference's output is the expected one) and from mutations of those inputs
(``io_fuzz.py``).

``run_io`` builds the program once (the language's ``stdio``: its load check) and runs it on each
input in one sandbox run, each in a session of its own killed at its time limit; every output
leaves the sandbox and is compared on the host (``same_output``: whitespace-normalised, numbers
with a tolerance of 1e-6).  The expected outputs never enter the sandbox.  The loop is sealed as
the function harnesses are (``languages/sealed_stdio/loop.pyt``, ``sealed.py``): a checker process
that is not dumpable reads and deletes the run's key, runs the program with its stdout on a file,
and authenticates each result line; a forged line, a missing one or a killed loop is reported
as tampering (``IoRun.tampering``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass

from pydantic import BaseModel

from sejury.execution import languages
from sejury.execution.runner import killed_by
from sejury.execution.sealed import new_seal, resource_files, unseal
from sejury.sandbox.base import ExecStatus, SandboxProvider

OUTPUT_SHOWN = 4096  # bytes of each output that leave the sandbox; longer ones are compared by digest
MAX_INPUT_CHARS = 100_000
BUILD_SECONDS = 90.0  # the compile or load check, within the run's time limit
RUN_BUDGET = 150.0  # seconds for all the inputs of one run; the inputs left after it count as not run


@dataclass(frozen=True)
class IoCase:
    """One test: what goes to stdin, and the output the problem states (None: unknown, the
    reference's output will be the expected one)."""

    input: str
    output: str | None = None


# ---------------------------------------------------------------- which samples are programs

_SECTION = re.compile(r"^[ \t-]*(?:(?:sample|example)s?\s+)?(?:input|output)(?:\s+format)?[ \t:-]*$", re.I | re.M)


def reads_stdin(language: str, program: str) -> bool:
    """Does ``program`` read standard input, as its language's ``reads_stdin`` finds it?"""
    lang = languages.get(language)
    pattern = lang.reads_stdin if lang is not None else None
    return bool(pattern and pattern.search(program))


def is_stdio(problem: str, reference: str | None, candidate: str, language: str,
             metadata: dict[str, object]) -> bool:
    """Is this sample a program reading stdin and printing?  ``metadata["form"]`` decides when
    given (``stdio``, or anything else for no); else the problem must have an Input and an Output
    section and the reference (the candidate when there is none) must read standard input."""
    form = metadata.get("form")
    if isinstance(form, str) and form.strip():
        return form.strip().lower() in ("stdio", "io", "program")
    heads = {m.group(0).strip(" \t:-").lower().split()[-1] for m in _SECTION.finditer(problem)}
    heads = {"input" if h.startswith("input") else "output" if h.startswith("output") else h for h in heads}
    if not {"input", "output"} <= heads and "format" not in heads:
        return False
    return reads_stdin(language, reference if reference else candidate)


# ---------------------------------------------------------------- tests from the text

_EXAMPLES = re.compile(r"^[ \t-]*(?:examples?|samples?|sample tests?|sample cases?)[ \t:-]*$", re.I)
_IN_HEAD = re.compile(r"^[ \t-]*(?:(?:sample|example)\s+)?input(?:\s*#?\s*\d+)?[ \t:-]*$", re.I)
_OUT_HEAD = re.compile(r"^[ \t-]*(?:(?:sample|example)\s+)?output(?:\s*#?\s*\d+)?[ \t:-]*$", re.I)
_OTHER_HEAD = re.compile(r"^\s*-{3,}.*-{3,}\s*$|^\s*(?:note|notes|explanation|hint)s?\s*:?\s*$", re.I)


def statement_examples(problem: str) -> list[IoCase]:
    """The problem's own examples: each ``Input`` block and the ``Output`` block after it, read
    after an ``Examples`` heading when there is one (before it, ``Input``/``Output`` are the format
    sections), else from ``Sample Input``/``Sample Output`` headings.  An input runs to its output
    heading; an output to the first blank line or the next heading."""
    lines = problem.replace("\r\n", "\n").splitlines()
    start = next((i + 1 for i, ln in enumerate(lines) if _EXAMPLES.match(ln)), None)
    if start is None:
        if not any(_IN_HEAD.match(ln) and re.search(r"sample|example", ln, re.I) for ln in lines):
            return []
        start = 0
    cases: list[IoCase] = []
    i = start
    while i < len(lines):
        if not _IN_HEAD.match(lines[i]) or (start == 0 and not re.search(r"sample|example", lines[i], re.I)):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and not _OUT_HEAD.match(lines[j]) and not _IN_HEAD.match(lines[j]):
            j += 1
        if j >= len(lines) or not _OUT_HEAD.match(lines[j]):
            i = j
            continue
        given = "\n".join(lines[i + 1:j]).strip("\n")
        k = j + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        out: list[str] = []
        while k < len(lines) and lines[k].strip() and not _IN_HEAD.match(lines[k]) and not _OTHER_HEAD.match(lines[k]):
            out.append(lines[k])
            k += 1
        if given.strip() and out:
            cases.append(IoCase(given + "\n", "\n".join(out) + "\n"))
        i = k
    return cases


def parse_cases(text: str) -> list[IoCase]:
    """A sample's own tests for a program: a JSON list of ``{"input": ..., "output": ...}`` (or of
    ``[input, output]`` pairs), or the statement's form (``Input`` / ``Output`` blocks)."""
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise ValueError(f"the sample's tests look like JSON but do not parse: {exc}") from exc
        cases = []
        for n, item in enumerate(data):
            if isinstance(item, dict) and isinstance(item.get("input"), str):
                out = item.get("output")
                cases.append(IoCase(item["input"], out if isinstance(out, str) else None))
            elif isinstance(item, list) and len(item) == 2 and all(isinstance(x, str) for x in item):
                cases.append(IoCase(item[0], item[1]))
            else:
                raise ValueError(f"the sample's tests, item {n}: expected {{\"input\": str, \"output\": str}}")
        return cases
    return statement_examples("Examples\n" + text)


_SEVERAL = re.compile(r"\b(?:print|output|find|return)\s+any\b|\bany\s+of\s+them\b|\bany\s+(?:such|valid|correct|"
                      r"optimal|possible)\b|\b(?:several|multiple|many)\s+(?:possible\s+|correct\s+|valid\s+)?"
                      r"(?:answers|solutions|outputs)\b|\bmore\s+than\s+one\s+(?:answer|solution)\b|"
                      r"\banswers?\s+(?:is|are)\s+not\s+unique\b", re.I)


def several_answers(problem: str) -> bool:
    """Does the problem accept any of several outputs ("print any of them")?  Then an output
    that differs from the reference's is not proof of a wrong program."""
    return bool(_SEVERAL.search(problem))


# ---------------------------------------------------------------- comparing outputs

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
TOLERANCE = 1e-6


def tokens(text: str) -> list[str]:
    """An output's tokens, as the sandbox's digest reads them (awk's fields, carriage returns dropped)."""
    return [t for t in re.split(r"[ \t\n]+", text.replace("\r", "")) if t]


def digest_of(text: str) -> str:
    return hashlib.sha256("".join(t + "\n" for t in tokens(text)).encode()).hexdigest()


def _same_token(a: str, b: str) -> bool:
    if a == b:
        return True
    if not (_NUMBER.fullmatch(a) and _NUMBER.fullmatch(b)) or not any(c in a + b for c in ".eE"):
        return False
    x, y = float(a), float(b)
    return abs(x - y) <= TOLERANCE * max(1.0, abs(y))


class IoOutput(BaseModel):
    """One run of the program on one input."""

    exit_code: int  # 137: killed (at its time limit when ``timed_out``)
    timed_out: bool = False
    seconds: float
    bytes: int  # the whole output's size
    digest: str  # of the output's tokens (``digest_of``)
    stdout: str  # its first OUTPUT_SHOWN bytes
    stderr_tail: str = ""

    @property
    def complete(self) -> bool:
        return self.bytes <= OUTPUT_SHOWN

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out


def same_output(expected: IoOutput | str, got: IoOutput) -> bool:
    """Equal after normalising whitespace, numbers within ``TOLERANCE``; an output longer than
    the shown part is compared by its digest."""
    if isinstance(expected, str):
        if not got.complete:
            return digest_of(expected) == got.digest
        want = tokens(expected)
    elif expected.complete and got.complete:
        want = tokens(expected.stdout)
    else:
        return expected.digest == got.digest
    have = tokens(got.stdout)
    return len(want) == len(have) and all(map(_same_token, want, have))


# ---------------------------------------------------------------- running

class IoRun(BaseModel):
    """A program built once and run on each input."""

    loaded: bool
    load_error: str = ""
    outputs: dict[int, IoOutput] = {}  # by input index; a missing one did not run
    status: ExecStatus
    seconds: float
    tampering: list[str] = []


_IO_LINE = re.compile(r"^@@IO (\d+) (\d+) (\d+) (\d+) ([0-9a-f]{64}) (\S+) (\S+)$", re.M)
_PLAIN = ("@@LOAD OK", "@@LOAD FAIL")


def _decode(field: str) -> str:
    return "" if field == "-" else base64.b64decode(field).decode(errors="replace")


async def run_io(sandbox: SandboxProvider, language: str, program: str, inputs: list[str],
                 limits: list[float], *, give_up: int = 0, soft: list[float] | None = None) -> IoRun:
    """Build ``program`` and run it on each input, input ``i`` killed after ``limits[i]`` seconds.
    ``give_up``: once that many inputs took longer than their ``soft`` limit, the rest is not run
    (ranking's cap on a hung or slow attempt's cost; they are then missing from ``outputs``)."""
    lang = languages.get(language)
    if lang is None or lang.stdio is None:
        raise ValueError(f"no way to run a {language!r} program on standard input")
    prog = lang.stdio(program)
    key = new_seal()
    plan = {"run": prog.run, "limits": limits, "budget": RUN_BUDGET, "shown": OUTPUT_SHOWN}
    if give_up:
        plan |= {"give_up": give_up, "soft": soft or limits}
    files = {**prog.files, **resource_files("sealed_stdio", {"loop.pyt": "loop.py"}), "seal": key,
             "plan.json": json.dumps(plan)}
    files.update({f"in/{i}": text[:MAX_INPUT_CHARS] for i, text in enumerate(inputs)})
    command = (f"({prog.build}) > .build 2>&1 || {{ echo '@@LOAD FAIL'; tail -c 1500 .build; exit 3; }}; "
               f"echo '@@LOAD OK'; python3 -I -B loop.py")
    timeout = BUILD_SECONDS + min(RUN_BUDGET + max(limits, default=0), sum(limits) + len(inputs))
    res = await sandbox.run(files, command, timeout=timeout)
    out, tampering = unseal(res.stdout, key, killed_by=killed_by(res), plain=_PLAIN)
    if "@@LOAD OK" not in out:
        return IoRun(loaded=False, load_error=(out + res.stderr).replace("@@LOAD FAIL", "").strip()[-1500:],
                     status=res.status, seconds=res.seconds, tampering=tampering)
    outputs: dict[int, IoOutput] = {}
    for m in _IO_LINE.finditer(out):
        i, rc, seconds = int(m.group(1)), int(m.group(2)), int(m.group(3)) / 1000
        if i < len(inputs) and i not in outputs:
            outputs[i] = IoOutput(exit_code=rc, timed_out=rc == 137 and seconds >= 0.9 * limits[i], seconds=seconds,
                                  bytes=int(m.group(4)), digest=m.group(5), stdout=_decode(m.group(6)),
                                  stderr_tail=_decode(m.group(7)))
    return IoRun(loaded=True, outputs=outputs, status=res.status, seconds=res.seconds, tampering=tampering)
