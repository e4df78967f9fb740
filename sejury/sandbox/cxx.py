"""How the sandbox compiles C++, in one place: the g++ command lines the C++ harnesses use
(``execution/languages/cpp.py``, ``_stdio.py``), and the precompiled ``<bits/stdc++.h>`` the image
holds for each (``docker/image.py``).

Every C++ program the judge builds starts with ``#include <bits/stdc++.h>``: reading that header
is most of a compile (about 1 s of CPU here), and a C++ suite compiles three times (the program's
syntax, its process, the checker).  GCC uses a precompiled header only when it was made with the
same flags, so the image holds one for each set below, in ``bits/stdc++.h.gch/`` beside the header
(GCC tries each file of that folder); a compile with other flags reads the header as before.
"""

from __future__ import annotations

# the name the program's own ``main`` is compiled under, so the checker's ``main`` is the one that runs
CANDIDATE_MAIN = "sejury_candidate_main"

_STD = "-std=c++17"
FLAGS = {  # the precompiled header's file name -> the flags it was made with (and is used for)
    "O0": f"{_STD} -O0",
    "O0-main": f"{_STD} -O0 -Dmain={CANDIDATE_MAIN}",
    "O2": f"{_STD} -O2",
}
BUILD = f"g++ {FLAGS['O0']}"  # a test program (the checker, the program's process)
SYNTAX = f"g++ {FLAGS['O0-main']} -fsyntax-only"  # does the program compile at all (executability)
OPTIMISED = f"g++ {FLAGS['O2']}"  # a program reading standard input, timed as a contest judge would
# the program's process in the function harness (reference and candidate alike): a call whose signed
# arithmetic overflows stops there (SIGILL) instead of returning a value the language leaves undefined,
# so a reference that overflows on an input gives no expected value for it (the input is dropped, as
# any call that fails on the reference), and a candidate that overflows fails that call.  The trap
# needs no run-time library and the ``O0`` precompiled header still applies.
TRAP_OVERFLOW = "-fsanitize=signed-integer-overflow -fsanitize-undefined-trap-on-error"
PROGRAM = f"{BUILD} {TRAP_OVERFLOW}"


def precompile() -> str:
    """The shell command, run inside the image as it is built, that precompiles ``<bits/stdc++.h>``
    for each flag set (about 100 MB and 10 s of CPU each)."""
    each = " && ".join(f'g++ {flags} -x c++-header "$h" -o "$h.gch/{name}.gch"' for name, flags in FLAGS.items())
    return f'for h in /usr/include/*-linux-gnu/c++/*/bits/stdc++.h; do mkdir -p "$h.gch" && {each}; done'
