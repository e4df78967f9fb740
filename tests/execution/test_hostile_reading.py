"""A sample's text written to break the judge's own reading of code: tree-sitter's error recovery
taking all the machine's memory (50 kB of ``a<b<c`` in Java: ~10 GB; 100 kB: the kernel killed the
process), and trees 40,000 deep that recursive walks and per-node ``parent`` lookups could not
finish (``sejury probe`` crashed with RecursionError, then took 100 s).  The reading now stays
bounded: a costly text is found in a limited child process (``_parse_guard``, ``workers``) and
not read; deep trees are walked without recursion or per-node lookups.

Each attack on the real stack runs in a child with an 8 GiB address-space limit, so that if the
defence regressed the test fails there instead of taking the machine.  The time bounds below only
stop a hang (20x the time each takes); how long they take is measured by hand (results page).
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from sejury.checks.variants import equivalents
from sejury.execution.languages import _parse_guard
from sejury.execution.languages._parse_guard import MEMORY, TooCostly
from sejury.execution.languages._parsers import parser
from sejury.execution.mutants import mutants, region_of
from sejury.execution.runner import assemble_program
from sejury.workers import MIB, Worker, WorkerFailed

COSTLY = ("a<b<c" * 20_000).encode()  # 100 kB: in-process, ~24 GiB and the OOM killer
LIMIT = 8 << 30
SEJURY = str(Path(sys.executable).parent / "sejury")


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def _run(cmd: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, preexec_fn=_limited,
                          env={**os.environ, "COLUMNS": "200"})


HOG = '''
import os, sys, time
from sejury import workers

def handle(req):
    if "mb" in req:
        block = bytearray(req["mb"] << 20)
        return {"got": len(block) >> 20}
    if "abort" in req:  # as tree-sitter does when an allocation fails
        os.abort()
    if "print" in req:  # a library that prints to stdout, even a line that looks like a reply
        print(req["print"])
        sys.stdout.flush()
        os.write(1, b'{"got": 666}\\n')
        return {"printed": True}
    time.sleep(req["sleep"])
    return {"slept": req["sleep"]}

if __name__ == "__main__":
    workers.serve(handle)
'''


def test_a_worker_over_its_memory_or_time_fails_the_request_and_the_next_gets_a_fresh_one(tmp_path: Path) -> None:
    (tmp_path / "hog_worker.py").write_text(HOG)
    w = Worker("hog_worker", memory=256 * MIB, seconds=2, what="the hog",
               env={"PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])})
    assert w.ask({"mb": 16}) == {"got": 16}
    assert w.ask({"mb": 1024}) == {"error": "MemoryError: "}  # the limit holds; Python says so itself
    with pytest.raises(WorkerFailed, match=r"the hog ended its process: over its 256 MiB of memory, or a crash"):
        w.ask({"abort": True})
    with pytest.raises(WorkerFailed, match=r"the hog took over 2 s; stopped"):
        w.ask({"sleep": 30})
    assert w.ask({"mb": 16}) == {"got": 16}  # a fresh child
    assert w.ask({"print": '{"got": 1}'}) == {"printed": True}  # what it prints is never a reply
    assert w.ask({"sleep": 0}) == {"slept": 0}
    gone = Worker("no_such_worker_module", memory=256 * MIB, seconds=2, what="the absent")
    with pytest.raises(WorkerFailed, match="the absent's helper process did not start") as failed:
        gone.ask({"sleep": 0})
    assert not failed.value.deterministic


def test_a_helper_that_did_not_start_refuses_a_text_this_time_only(monkeypatch: pytest.MonkeyPatch) -> None:
    text = b"class A {\n" + b"    int g(int a) { return a - 1; }\n" * 200 + b"}\n"
    real = _parse_guard._worker
    monkeypatch.setattr(_parse_guard, "_worker", Worker("no_such_worker_module", memory=MEMORY, seconds=2,
                                                        what="tree-sitter's parse"))
    with pytest.raises(TooCostly, match="helper process did not start"):
        parser("java").parse(text)
    monkeypatch.setattr(_parse_guard, "_worker", real)
    assert not parser("java").parse(text).root_node.has_error  # not kept as the text's finding


def test_a_text_too_costly_to_parse_is_found_in_the_child_and_never_parsed_here() -> None:
    script = textwrap.dedent("""
        import json
        from sejury.execution.languages._parsers import parser
        try:
            parser("java").parse(("a<b<c" * 20_000).encode())
            got = "parsed"
        except ValueError as exc:
            got = f"{type(exc).__name__}: {exc}"
        peak = next(line for line in open("/proc/self/status") if line.startswith("VmHWM:"))  # this process's own
        print(json.dumps({"got": got, "peak_mb": int(peak.split()[1]) >> 10}))
    """)
    out = _run([sys.executable, "-c", script], Path.cwd(), timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    got = json.loads(out.stdout)
    assert got["got"].startswith("TooCostly: a text of 100,000 bytes was not read: tree-sitter's parse ended "
                                 "its process: over its 512 MiB of memory"), got
    assert got["peak_mb"] < 300  # this process never parsed it (the child's memory is its own)


def test_a_finding_is_kept_so_the_child_is_asked_once_per_text(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    real = _parse_guard._why_not

    def counted(grammar: str, data: bytes) -> str | None:
        asked.append(len(data))
        return real(grammar, data)

    monkeypatch.setattr(_parse_guard, "_why_not", counted)
    fine = b"class A {\n" + b"    int f(int a) { return a + 1; }\n" * 200 + b"}\n"  # 7 kB: the child is asked
    for _ in range(2):
        with pytest.raises(TooCostly):
            parser("java").parse(COSTLY)
        assert not parser("java").parse(fine).root_node.has_error
    assert asked == [len(COSTLY), len(fine)]  # each text once


@pytest.mark.parametrize("language", ["java", "python", "javascript", "cpp", "go"])
def test_a_megabyte_of_real_code_still_parses_through_the_guard(language: str) -> None:
    one = {"java": "class T%d { int f(int a) { int s = 0; for (int x = 0; x < a; x++) { s += x; } return s; } }\n",
           "python": "def f%d(a):\n    s = 0\n    for x in range(a):\n        s += x\n    return s\n\n",
           "javascript": "function f%d(a) { let s = 0; for (let x = 0; x < a; x++) { s += x; } return s; }\n",
           "cpp": "int f%d(int a) { int s = 0; for (int x = 0; x < a; x++) { s += x; } return s; }\n",
           "go": "func f%d(a int) int { s := 0; for x := 0; x < a; x++ { s += x }; return s }\n"}[language]
    text = ("package p\n" if language == "go" else "") + "".join(one % i for i in range(1_000_000 // len(one)))
    tree = parser(language).parse(text.encode())
    assert not tree.root_node.has_error
    assert tree.root_node.end_byte == len(text.encode())


DEEP = "class Solution {\n    public static int digits(int n) { return String.valueOf(Math.abs(n)).length(); }\n}\n" \
       "/* */ int z = " + "a<b<c" * 20_000 + ";\n"


def test_a_tree_forty_thousand_deep_gives_its_mutants_and_equivalents() -> None:
    program = assemble_program("java", "class Solution {\n", DEEP)
    span = region_of(program, DEEP)
    assert span is not None
    every = mutants("java", program, [span])  # each holds its change, not a copy of the program
    assert len([m for m in every if m.operator == "comparison"]) == 40_000  # each `<` once, none lost
    drawn = mutants("java", program, [span], limit=3, seed=0)
    assert len(drawn) == 3 and {m.label for m in drawn} <= {m.label for m in every}
    for m in drawn:
        a, b = m.at
        assert m.program == program[:a] + m.after + program[b:] != program  # ASCII: bytes are characters
    labels = [v.label for v in equivalents("java", program, span, DEEP, {"digits"})]
    assert "comparisons mirrored" in labels and "renamed locals" in labels


def _probe(tmp_path: Path, candidate: str) -> subprocess.CompletedProcess[str]:
    sample = {"id": "hostile-java", "task": "code_generation", "language": "java",
              "problem": "class Solution {\n    // Return the number of digits of n.\n"
                         "    public static int digits(int n) {\n",
              "candidate": candidate,
              "reference": "class Solution {\n    public static int digits(int n) "
                           "{ return Integer.toString(Math.abs(n)).length(); }\n}\n"}
    (tmp_path / "s.jsonl").write_text(json.dumps(sample) + "\n")
    return _run([SEJURY, "probe", "s.jsonl", "--team", "BLEU", "--no-verify", "-o", "out",
                 "--cache-path", "r.sqlite", "--trace-path", "t.sqlite"], tmp_path, timeout=120)


def test_sejury_probe_reads_a_candidate_forty_thousand_deep(tmp_path: Path) -> None:
    out = _probe(tmp_path, DEEP)  # before: RecursionError, the probe ended; then 100 s
    assert out.returncode == 0, out.stderr[-3000:]
    judged = [json.loads(line) for line in (tmp_path / "out" / "probe-judged.jsonl").read_text().splitlines()]
    kinds = [j["kind"] for j in judged]
    assert kinds.count("equivalent") >= 2 and kinds.count("mutant") == 3


def test_sejury_probe_skips_what_it_cannot_read_of_a_costly_candidate_and_says_so(tmp_path: Path) -> None:
    costly = DEEP.split("/* */")[0] + COSTLY.decode() + "\n"
    out = _probe(tmp_path, costly)  # before: all the machine's memory (here: the 8 GiB limit, a crash)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "hostile-java: no equivalents or mutants of the candidate: a text of 100,105 bytes was not read: " \
           "tree-sitter's parse ended its process: over its 512 MiB of memory" in out.stderr
    judged = [json.loads(line) for line in (tmp_path / "out" / "probe-judged.jsonl").read_text().splitlines()]
    assert [j["kind"] for j in judged] == ["original", "injection", "injection", "injection"]


def test_copies_are_told_apart_by_their_text_whatever_the_edit() -> None:
    from sejury.execution.mutants import _Copies

    src = b"x = 1; x = 1; y = 22;" + b"a<b<c" * 100
    copies = _Copies(src, [0, 7, 14, 18, 20, 21, 100])
    assert copies.new(0, 7, b"")  # the first `x = 1; ` removed ...
    assert not copies.new(7, 14, b"")  # ... and the second: the same text
    assert not copies.new(18, 20, b"22")  # the text itself
    assert copies.new(18, 20, b"23") and copies.new(18, 20, b"2") and not copies.new(18, 20, b"23")
    assert copies.new(21, 21, b";")  # y = 22;; -- another length, another copy
    assert copies.new(100, 100, b"<") and copies.new(20, 20, b"<")  # a periodic text's insertions differ
    assert not copies.new(100, 100, b"<")


def test_a_javascript_literal_nested_past_pythons_stack_is_no_literal_not_an_error() -> None:
    from sejury.execution import js_literals

    nested = "[" * 50_000 + "]" * 50_000
    tests = f"test('x', () => {{ expect(f({nested})).toBe(1); expect(f([1, [2]])).toBe(2); }});"
    assert js_literals.seed_calls(tests, "f") == [(([1, [2]],), ())]  # before: RecursionError



def test_a_name_tree_sitter_made_up_is_not_renamed() -> None:
    """Where the text lacks a name, tree-sitter puts a zero-width one: it is no local to rename
    (``int = n + 1;`` stayed as it is before the walks carried parents, and does again)."""
    from sejury.checks.variants import renamed

    program = ("class Solution {\n    static int f(int n) {\n        int = n + 1;\n        int k = n;\n"
               "        return k;\n    }\n}\n")
    start = program.index("static")
    got = renamed("java", program, (start, len(program) - 2), {"f"})
    assert got == "static int f(int v2) {\n        int = v2 + 1;\n        int v1 = v2;\n        return v1;\n    }\n"
