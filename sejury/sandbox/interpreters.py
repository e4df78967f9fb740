"""The execute-only copies of interpreters the sandbox image provides: a sealed harness's checker
runs from one, so the program (the same user, in another process) cannot read the checker's memory
through ``/proc``.  The image recipe (``docker/image.py``) makes them; the harnesses
(``execution/sealed.py``) run them where the image has them."""

from __future__ import annotations

SEALED_INTERPRETERS = {"node": ("/usr/bin/node", "/usr/local/bin/node-sealed"),
                       "java": ("/usr/lib/jvm/java-17-openjdk-amd64/bin/java",
                                "/usr/lib/jvm/java-17-openjdk-amd64/bin/java-sealed")}
