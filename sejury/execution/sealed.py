"""The sealed harness's channel: result lines authenticated with a per-run key.

A sealed harness (every language's: ``languages/sealed_<language>/``) runs the tests in a checker
process and the program in another process that sees only the calls' arguments.  The checker reads the run's
key from a file and deletes it before the program starts (and the sandbox's wrapper has replaced
the command line that carried the files, ``sandbox/docker/box.py``), then writes every result line
as ``@@M <n> <mac> <line>``, the MAC being HMAC-SHA256 over ``<n>|<line>`` under the key.  Here the
host keeps the lines whose MAC holds, in order, and reports what does not fit as tampering: a
marker line without a valid MAC (forged on the harness's output), a gap in the numbering (another
process read the harness's lines off the pipe), a harness killed before it finished.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from importlib import resources

from sejury.sandbox.interpreters import SEALED_INTERPRETERS


# Execute-only copies of the interpreters a sealed checker runs on (the sandbox image makes them):
# a process started from a file its user cannot read is not dumpable, so another process of the same
# user (the program under test) can read neither its memory nor its open files.  Each: (the
# interpreter, its copy); Java's beside the JDK's launcher, which finds the JDK relative to itself.
def interpreter(name: str) -> str:
    """A shell word for the sealed copy of ``name`` where the image has it, else ``name`` itself."""
    copy = SEALED_INTERPRETERS[name][1]
    return f'$( [ -x {copy} ] && echo {copy} || echo {name})'


_SEALED = re.compile(r"^@@M (\d+) ([0-9a-f]{32}) (.*)$")
DONE = "@@DONE"


def new_seal() -> str:
    """A fresh key for one run."""
    return secrets.token_hex(32)


def resource_files(folder: str, names: dict[str, str]) -> dict[str, str]:
    """A harness's files shipped in ``sejury/execution/languages/<folder>``, by their name in the sandbox."""
    root = resources.files("sejury.execution.languages").joinpath(folder)
    return {inside: root.joinpath(shipped).read_text(encoding="utf-8") for shipped, inside in names.items()}


def mac(key: str, n: int, line: str) -> str:
    return hmac.new(key.encode(), f"{n}|{line}".encode(), hashlib.sha256).hexdigest()[:32]


def unseal(stdout: str, key: str, *, killed_by: int | None = None,
           plain: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """The harness's own lines of ``stdout`` (authenticated, in order, without the seal), other
    text as it was, and what looks like tampering.  ``killed_by``: the signal that ended the run,
    when one did (a run the sandbox timed out or ran out of memory passes None).  ``plain``: marker
    lines the harness's shell prints unauthenticated (a compiler's verdict), kept as they are."""
    kept: list[str] = []
    forged = 0
    expect = 0
    gaps = False
    done = False
    lines = stdout.split("\n")  # (not splitlines: a value's U+2028 or \x1c is inside its line, not a break)
    if lines and lines[-1] == "":
        lines.pop()
    for line in lines:
        line = line.removesuffix("\r")
        m = _SEALED.match(line)
        if m and hmac.compare_digest(m.group(2), mac(key, int(m.group(1)), m.group(3))):
            n = int(m.group(1))
            if n != expect:
                gaps = gaps or n > expect
                if n < expect:  # a line sent twice (replayed): counted once
                    continue
            expect = n + 1
            kept.append(m.group(3))
            done = done or m.group(3) == DONE
        elif line.startswith("@@") and not line.startswith(plain or ("\0",)):
            forged += 1
        else:
            kept.append(line)
    seen: list[str] = []
    if forged:
        seen.append(f"{forged} result line(s) on the harness's output were not written by the harness (forged)")
    if gaps:
        seen.append("some of the harness's result lines never arrived (another process read them off its output)")
    if killed_by is not None and not done:
        seen.append(f"the harness was killed (signal {killed_by}) before it finished")
    return "\n".join(kept), seen
