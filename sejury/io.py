"""Reading samples and run files, with errors that name the file, line and field."""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from sejury.errors import InputError
from sejury.schema import Sample, Verdict

M = TypeVar("M", bound=BaseModel)


def validation_error(exc: ValidationError, file: str, line: int | None) -> InputError:
    """A record that does not validate, as one error naming its file, line and (first) field."""
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or None
    msg = err["msg"]
    if err["type"] == "missing":
        msg = "is required but missing"
    elif err["type"] == "enum" and field == "task":
        msg = f"unknown task {err.get('input')!r}; use code_generation, program_repair or code_summarization"
    more = len(exc.errors()) - 1
    if more:
        msg += f" (and {more} more problem{'s' if more > 1 else ''} on this line)"
    return InputError(msg, file=file, line=line, field=field)


def parse_sample(data: Any, *, file: str, line: int | None) -> Sample:
    if not isinstance(data, dict):
        raise InputError(f"expected a JSON object, got {type(data).__name__}", file=file, line=line)
    try:
        return Sample.model_validate(data)
    except ValidationError as exc:
        raise validation_error(exc, file, line) from None


def read_jsonl(path: str | Path) -> tuple[list[Sample], list[InputError]]:
    """Every valid sample and every error (file, line, field); duplicate ids are errors too."""
    p = Path(path)
    samples: list[Sample] = []
    errors: list[InputError] = []
    seen: dict[str, int] = {}
    try:
        handle = p.open(encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=str(p)) from None
    with handle:
        for n, raw in enumerate(handle, 1):
            if not raw.strip():
                continue
            try:
                data = json.loads(raw)
            except json.JSONDecodeError as exc:
                errors.append(InputError(f"not valid JSON ({exc.msg} at column {exc.colno})",
                                         file=str(p), line=n))
                continue
            try:
                sample = parse_sample(data, file=str(p), line=n)
            except InputError as exc:
                errors.append(exc)
                continue
            if sample.id in seen:
                errors.append(InputError(f"duplicate id {sample.id!r} (first on line {seen[sample.id]})",
                                         file=str(p), line=n, field="id"))
                continue
            seen[sample.id] = n
            samples.append(sample)
    return samples, errors


def text_lines(path: Path) -> list[str]:
    """The lines of a JSON-lines file, split at "\\n" only: JSON keeps U+2028, U+2029 and U+0085 raw (a
    model's reply may hold them), and ``splitlines`` would cut a record there.  A file that cannot be read,
    or is not UTF-8, is an error naming it."""
    try:
        return path.read_text(encoding="utf-8").split("\n")
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text (byte {exc.start})", file=str(path)) from None


def read_records(path: str | Path, model: type[M], *, what: str) -> list[tuple[int, M]]:
    """Each line of a JSONL file of ``model`` records, with its line number; the first line that is not
    one raises, naming the file, line and field.  ``what`` says what each line should be, in the messages."""
    p = Path(path)
    lines = text_lines(p)
    out: list[tuple[int, M]] = []
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"not valid JSON ({exc.msg} at column {exc.colno})", file=str(p), line=n) from None
        if not isinstance(data, dict):
            raise InputError(f"expected a JSON object, got {type(data).__name__} (each line is {what})", file=str(p),
                             line=n)
        try:
            out.append((n, model.model_validate(data)))
        except ValidationError as exc:
            bad = validation_error(exc, str(p), n)
            raise InputError(f"{bad.message} (each line is {what})", file=str(p), line=n, field=bad.field) from None
    if not out:
        raise InputError(f"nothing in the file (each line is {what})", file=str(p))
    return out


def read_sample_file(path: str | Path) -> list[Sample]:
    """A ``.json`` file holding one sample or a list of them, or a ``.jsonl`` file."""
    p = Path(path)
    if p.suffix == ".jsonl":
        samples, errors = read_jsonl(p)
        if errors:
            raise errors[0]
        return samples
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror}", file=str(p)) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not valid JSON ({exc.msg})", file=str(p), line=exc.lineno) from None
    items = data if isinstance(data, list) else [data]
    return [parse_sample(d, file=f"{p}[{i}]" if isinstance(data, list) else str(p), line=None)
            for i, d in enumerate(items)]


def run_key(sample_id: str, repeat: int | None = None) -> str:
    """What a run file knows a judgment by: the sample's id, and its repeat (``--repeats``) if any."""
    return sample_id if repeat is None else f"{sample_id}\x1frepeat={repeat}"


def _scan(path: Path) -> tuple[set[str], int, int]:
    """A run file's finished judgments (``run_key``), where its last whole line ends, and its size."""
    data = path.read_bytes()
    done: set[str] = set()
    good_end = 0
    pos = 0
    for n, raw in enumerate(data.splitlines(keepends=True), 1):
        pos += len(raw)
        if not raw.endswith(b"\n"):
            break  # torn write: the process died mid-line
        if raw.strip():
            try:
                record = json.loads(raw)
            except json.JSONDecodeError:
                raise InputError("not a verdict line (is this the right output file?)",
                                 file=str(path), line=n) from None
            sid = record.get("sample_id") if isinstance(record, dict) else None
            if not isinstance(sid, str):
                raise InputError("line has no sample_id: not a sejury run file",
                                 file=str(path), line=n, field="sample_id")
            repeat = record.get("repeat")
            done.add(run_key(sid, repeat if isinstance(repeat, int) else None))
        good_end = pos
    return done, good_end, len(data)


def finished_ids(path: str | Path) -> set[str]:
    """The judgments a run file holds (``run_key``: what a resumed run skips), read only: nothing is created,
    and a torn last line is left for the run to cut (``--dry-run``)."""
    p = Path(path)
    return _scan(p)[0] if p.exists() else set()


class _Fsync:
    """Makes a file's writes durable from a thread of its own, so a writer on the event loop never
    waits for the disk: each ``request`` is covered by the next fsync (one fsync covers every write
    flushed before it, however many came since the last); ``close`` returns after the last one.
    An fsync that fails is raised by the next ``request`` or by ``close``."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._cond = threading.Condition()
        self._dirty = False
        self._closing = False
        self._error: OSError | None = None
        self._thread: threading.Thread | None = None

    def request(self) -> None:
        with self._cond:
            self._raise()
            self._dirty = True
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="sejury-run-fsync", daemon=True)
                self._thread.start()
            self._cond.notify()

    def _run(self) -> None:
        while True:
            with self._cond:
                while not (self._dirty or self._closing):
                    self._cond.wait()
                if not self._dirty:
                    return
                self._dirty = False
            try:
                os.fsync(self._fd)
            except OSError as exc:
                with self._cond:
                    self._error = exc

    def _raise(self) -> None:
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    def close(self) -> None:
        with self._cond:
            self._closing = True
            self._cond.notify()
            thread = self._thread
        if thread is not None:
            thread.join()
        with self._cond:
            self._raise()


class RunFile:
    """An append-only JSONL of verdicts that survives being killed: each verdict is one line,
    written and flushed before ``write`` returns (a killed process loses none), and fsynced from a
    thread (``_Fsync``: within milliseconds, and before ``close`` returns); on reopening, a torn
    last line is cut off and finished ids are skipped."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.done: set[str] = set()
        self.repaired = False
        if self.path.exists():
            self._load()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._handle = self.path.open("a", encoding="utf-8")
        self._fsync = _Fsync(self._handle.fileno())

    def _load(self) -> None:
        self.done, good_end, size = _scan(self.path)
        if good_end < size:
            with self.path.open("r+b") as f:
                f.truncate(good_end)
            self.repaired = True

    def write(self, verdict: Verdict, *, trace: bool = True) -> None:
        record = verdict.model_dump(mode="json")
        if not trace:
            for result in record["strategies"].values():
                result["trace"] = []
        self._handle.write(json.dumps(record, ensure_ascii=False) + "\n")
        self._handle.flush()
        self._fsync.request()
        self.done.add(run_key(verdict.sample_id, verdict.repeat))

    def close(self) -> None:
        try:
            self._fsync.close()
        finally:
            self._handle.close()
