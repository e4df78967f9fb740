"""The programs S5 and the evidence jurors run: the reference and the candidate, as code
generation gives them (joined to the problem's signature) or as a repair's patches make them."""

from __future__ import annotations

from sejury.execution import languages
from sejury.execution.patching import PatchError, apply_patch
from sejury.execution.runner import assemble_program, assemble_reference


def programs(task: str, language: str, problem: str, reference: str, candidate: str,
             metadata: dict[str, object]) -> tuple[str, str | None, str]:
    """The reference and candidate programs to run: (reference, candidate or None, why not).

    Code generation: the code itself (joined to the problem's signature, HumanEval-style), after
    the imports the benchmark's tests give it where its reference relies on them.
    Program repair: the buggy program (``metadata["buggy_code"]``) with each patch applied; a
    candidate patch that does not apply yields None (it cannot run: executability fails).
    Raises PatchError when there is nothing to run the reference on."""
    if task != "program_repair":
        given = _given(language, reference)
        return (given + assemble_reference(language, problem, reference),
                given + assemble_program(language, problem, candidate), "")
    buggy = metadata.get("buggy_code")
    if not isinstance(buggy, str) or not buggy.strip():
        raise PatchError("running a patch needs the buggy program, which this sample does not carry "
                         "(metadata.buggy_code)")
    ref = apply_patch(buggy, reference)  # PatchError: the developer patch does not apply
    try:
        return ref, apply_patch(buggy, candidate), ""
    except PatchError as exc:
        return ref, None, f"the candidate patch does not apply: {exc}"


def _given(language: str, reference: str) -> str:
    """What the benchmark's tests give a reference that relies on it (``Language.given_by_tests``)."""
    lang = languages.get(language)
    return lang.given_by_tests(reference) if lang and lang.given_by_tests else ""


def reference_program(language: str, problem: str, reference: str) -> str:
    """A code-generation reference as it runs: what the tests give it, then the reference in its
    setting (``runner.assemble_reference``); the reference ``programs`` gives, for callers that run
    no candidate beside it (ranking)."""
    return _given(language, reference) + assemble_reference(language, problem, reference)
