"""The execute-only copies of interpreters the sandbox image provides: a sealed harness's checker
runs from one, so the program (the same user, in another process) cannot read the checker's memory
through ``/proc``.  The image recipe (``docker/image.py``) makes them; the harnesses
(``execution/sealed.py``) run them where the image has them.

The table is the image's, not a language's: it is keyed by interpreter (a JVM language other than
Java would use the same copy), and its paths are where the image's packages (``PACKAGES``) put the
interpreters.  It stays here rather than in ``Language``: the execution package imports the sandbox
(``sealed.py``, ``stdio.py``, the languages' ``_stdio.py``), and the sandbox imports no execution
module, so the image recipe cannot read the registered languages without a cycle.  A language names
the interpreter its checker runs on in its harness (``sealed.interpreter("node")``)."""

from __future__ import annotations

SEALED_INTERPRETERS = {"node": ("/usr/bin/node", "/usr/local/bin/node-sealed"),
                       "java": ("/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
                                "/usr/lib/jvm/java-17-openjdk-amd64/bin/java-sealed")}
