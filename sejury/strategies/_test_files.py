"""The data files S5's tests read but never write.  Small models call ``task_func('data.csv')``
without writing ``data.csv`` first, and the repair round's rewrite rarely mends it (they write the
same call again).  Here the model is asked a narrower question, the files' contents only
(``_partials/test_files.md``); the suite runs again with them written first (each test's setup,
by the language's ``write_files``), and is validated on the reference as before.  A file is data
the candidate reads as it reads its input, never an expected value; only text files in the test's
own folder are asked for (``missing_files``)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from sejury import prompts
from sejury.context import JudgeContext
from sejury.execution import languages
from sejury.execution.evidence import TestExecution, TestRepair
from sejury.schema import Sample
from sejury.strategies.base import Recorder, ask_text

# Python's open() and pandas' readers ("No such file or directory: 'data.csv'"), and messages a
# program raises itself ("The file 'x.txt' does not exist", "FileNotFoundError ./out/a.csv does not exist")
_MISSING = re.compile(r"No such file or directory: '([^']+)'"
                      r"|(?:[Ff]ile|FileNotFoundError:?) '?([\w./-]+?)'? (?:does not exist|not found)")
TEXT_SUFFIXES = frozenset({".csv", ".tsv", ".txt", ".json", ".jsonl", ".xml", ".yaml", ".yml", ".md", ".log",
                           ".html", ".ini", ".cfg", ".conf", ".sql"})
MAX_FILES = 4
MAX_CHARS = 20_000  # a file's content, as the model wrote it
_NAME = re.compile(r"[\w.-]+(?:/[\w.-]+)*")
_FENCE = re.compile(r"```([^\n`]*)\n(.*?)```", re.S)


def missing_files(ex: TestExecution) -> list[str]:
    """The text files the suite's calls asked the reference to read and that were not there, where
    most of the reference's failures are such: relative paths inside the test's folder, with a
    text suffix, at most ``MAX_FILES``.  Empty when the language cannot write files for its tests."""
    ref = ex.reference
    lang = languages.get(ex.language)
    if ref is None or not ref.loaded or ex.valid or lang is None or lang.write_files is None:
        return []
    failed = [o.why for o in ref.outcomes if not o.passed]
    found = [[m.group(1) or m.group(2) for m in _MISSING.finditer(why)] for why in failed]
    if not failed or sum(1 for names in found if names) * 2 < len(failed):
        return []
    names = dict.fromkeys(n for names in found for n in names if _asked_for(n))
    return list(names)[:MAX_FILES]


def _asked_for(name: str) -> bool:
    path = PurePosixPath(name)
    return (bool(_NAME.fullmatch(name)) and not path.is_absolute() and ".." not in path.parts
            and path.suffix.lower() in TEXT_SUFFIXES and len(name) <= 100)


async def ask_files(sample: Sample, ctx: JudgeContext, rec: Recorder, tests: str, names: list[str]) -> dict[str, str]:
    """The model's contents for ``names`` (the files it did not write), read from its reply: a
    fenced block per file, its name on the line before the block or as the block's info string.
    A file the reply does not give is left out."""
    reply = await ask_text(ctx, rec, "test_files", prompts.render_partial(
        "test_files", language=sample.language, problem=sample.problem, reference=sample.reference or "",
        tests=tests, files=", ".join(names)))
    return read_files(reply.text, names)


def read_files(reply: str, names: list[str]) -> dict[str, str]:
    """Each named file's content from ``reply``.  A block belongs to the last of ``names`` written
    between it and the block before (or in its info string, or as a comment on its first line,
    which is then not content); with one name asked, the first block is that file's (small models
    write one per test)."""
    files: dict[str, str] = {}
    start = 0
    blocks = list(_FENCE.finditer(reply))
    for block in blocks:
        content = block.group(2)
        first, _, rest = content.partition("\n")
        named_inside = first.strip().strip("#/-<!> ") in names  # ``# people.csv`` as the block's first line
        before = reply[start:block.start()] + " " + block.group(1) + (" " + first if named_inside else "")
        content = rest if named_inside else content
        start = block.end()
        said = [(before.rfind(n), n) for n in names if n in before]
        name = max(said)[1] if said else (names[0] if len(names) == 1 else None)
        if name is not None and name not in files and len(content) <= MAX_CHARS:
            files[name] = content
    return files


def with_files(tests: str, files: dict[str, str], language: str) -> str:
    """The suite with the files written before its tests (the language's ``write_files``)."""
    lang = languages.get(language)
    if not files or lang is None or lang.write_files is None:
        return tests
    return lang.write_files(files) + "\n\n" + tests


def outcome(names: list[str], files: dict[str, str], again: TestExecution | None) -> TestRepair:
    """The record of the round: the files asked for and written, and whether the suite then ran."""
    valid = again.valid if again is not None else 0
    return TestRepair(errors=", ".join(names), generated=again.generated if again is not None else 0, valid=valid,
                      saved=valid > 0, files=list(files))
