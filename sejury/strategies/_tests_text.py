"""Reading the tests a model wrote out of its reply (S5's first round and its second rounds)."""

from __future__ import annotations

from sejury.execution import languages
from sejury.scoring import extract_code

MAX_TEST_LINES = 60


def read_tests(text: str, language: str, cut_off: bool) -> tuple[str, int]:
    """The test code and how many tests it holds (assertion lines, else non-blank lines)."""
    lines = extract_code(text).splitlines()
    if cut_off and lines:
        lines = lines[:-1]
    lines = lines[:MAX_TEST_LINES]
    code = "\n".join(lines).strip()
    lang = languages.get(language)
    count = sum(1 for ln in lines if lang.test_line.search(ln)) if lang else 0
    if count == 0:
        count = sum(1 for ln in lines if ln.strip() and not ln.strip().startswith(("#", "//", "import")))
    return code, count
