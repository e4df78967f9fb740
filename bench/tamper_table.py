"""The adversarial suite as a table: per language and category, the verdict a candidate written to
game the harness gets against a plain wrong candidate on the same sample, on the sealed harness
(now) and on the harness before sealing (the tests in the program's own process; C++ keeps none,
so its column says "sealed only"); then the exit and hang hacks against tests that expect a throw.  The hacks are
the ones ``tests/execution/test_tamper.py`` runs; the jurors are the evidence ones (the sample's tests, S5-exec
and S5-diff on S5's tests written by a scripted model, Ex-fuzz); no model call.

    .venv/bin/python bench/tamper_table.py [python,javascript,go,cpp,java]

Needs the Docker engine and the sandbox image.
"""

from __future__ import annotations

import asyncio
import dataclasses
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repository: tests is a package
import tests.execution.test_tamper as t  # the hacks, the samples and the judging of the adversarial tests
from sejury.execution import languages
from sejury.execution.languages import cpp, go, java, javascript, python
from sejury.sandbox.docker import DockerSandbox

Judged = tuple[float | None, bool | None, dict[str, float | None], list[str]]


MODULES = (python, javascript, go, cpp, java)
SEALED = {module.LANGUAGE.name: module.LANGUAGE.harness for module in MODULES}  # what each language runs
# the harness before sealing, where the language keeps one (C++ has only its sealed harness)
UNSEALED = {"python": python.unsealed_harness, "javascript": javascript.unsealed_harness,
            "go": go.harness, "java": java.harness}


def harnesses(sealed: bool) -> None:
    """Every language on its sealed harness, or on the one before sealing where it has one."""
    for module in MODULES:
        name = module.LANGUAGE.name
        make = SEALED[name] if sealed else UNSEALED.get(name, SEALED[name])
        languages.unregister(name)  # the registry refuses another object under a name it holds
        languages.register(dataclasses.replace(module.LANGUAGE, harness=make))


def _score(score: float | None) -> str:
    return "-" if score is None else f"{score:g}"


def shown(j: Judged) -> str:
    score, passed, jurors, reasons = j
    tampering = " (tampering suspected)" if any(r.startswith("tampering") for r in reasons) else ""
    cells = " ".join(f"{k}={'-' if v is None else f'{v:g}'}" for k, v in jurors.items())
    return f"{'-' if score is None else f'{score:g}'} {'pass' if passed else 'fail'}{tampering} ({cells})"


async def main() -> None:
    sandbox = DockerSandbox(size=2)
    suites: list[tuple[str, Callable[[DockerSandbox, str], Awaitable[Judged]], str, dict[str, str]]] = [
        ("python", t._judge, t.WRONG, t.HACKS), ("javascript", t._judge_js, t.JS_WRONG, t.JS_HACKS),
        ("go", t._judge_go, t.GO_WRONG, t.GO_HACKS), ("cpp", t._judge_cpp, t.CPP_WRONG, t.CPP_HACKS),
        ("java", t._judge_java, t.JAVA_WRONG, t.JAVA_HACKS)]
    rows: list[str] = []
    try:
        for language, judge, wrong, hacks in suites:
            if len(sys.argv) > 1 and language not in sys.argv[1].split(","):
                continue
            harnesses(sealed=True)
            base_now = await judge(sandbox, wrong)
            base_before: Judged | None = None
            if language in UNSEALED:
                harnesses(sealed=False)
                base_before = await judge(sandbox, wrong)
            for name, code in sorted(hacks.items()):
                before = "sealed only"
                if base_before is not None:
                    harnesses(sealed=False)
                    judged = await judge(sandbox, code)
                    before = f"{shown(judged)} (plain wrong {_score(base_before[0])})"
                harnesses(sealed=True)
                now = await judge(sandbox, code)
                ok = now[0] is not None and base_now[0] is not None and now[0] <= base_now[0] and not now[1]
                rows.append(f"| {language} | {name} | {shown(base_now)} | {shown(now)} | {'yes' if ok else 'NO'} | "
                            f"{before} |")
    finally:
        harnesses(sealed=True)
        await sandbox.close()
    print("| language | category | plain wrong (sealed) | hack (sealed) | hack <= plain wrong | "
          "hack before sealing |\n| --- | --- | --- | --- | --- | --- |")
    print("\n".join(rows))
    print("\n" + "\n".join(await thrown()))


async def thrown() -> list[str]:
    """Tests that expect the program to throw (``tests/execution/test_harness_faults.py``): the
    sample's tests' verdict on a program that exits or hangs where the reference throws, against a
    plain wrong program that never throws, on the sealed harness."""
    import tests.execution.test_harness_faults as f
    from sejury import Judge, Sample

    sandbox = DockerSandbox(size=2)
    judge = Judge(team="Sample-tests", cache=False, traces=False, execute=True, sandbox=sandbox)
    rows = ["| language | category | plain wrong | hack | hack <= plain wrong |", "| --- | --- | --- | --- | --- |"]
    wanted = sys.argv[1].split(",") if len(sys.argv) > 1 else None
    try:
        for language, tests, right, hacks in f.SUITES:
            if wanted is not None and language not in wanted:
                continue

            async def verdict(candidate: str, lang: str = language, t: str = tests,
                              r: str = right) -> tuple[float | None, bool | None]:
                sample = Sample(id=f"throws-{lang}", task="code_generation", language=lang,
                                problem="Count the decimal digits of n; throw (panic) for a negative n.",
                                candidate=candidate, reference=r, tests=t)
                v = await judge.ajudge(sample)
                return v.strategies["sample_tests"].score, v.passed

            def cell(score: float | None, passed: bool | None) -> str:
                return f"{_score(score)} {'pass' if passed else 'fail'}"

            base, base_passed = await verdict(f.PLAIN_WRONG[language])
            for name, code in sorted(hacks.items()):
                score, passed = await verdict(code)
                ok = score is not None and base is not None and score <= base and not passed
                rows.append(f"| {language} | {name} where a throw is expected | {cell(base, base_passed)} | "
                            f"{cell(score, passed)} | {'yes' if ok else 'NO'} |")
    finally:
        await sandbox.close()
    return rows


if __name__ == "__main__":
    asyncio.run(main())
