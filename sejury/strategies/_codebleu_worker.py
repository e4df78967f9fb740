"""CodeBLEU in a process of its own whose string hashing is fixed (``PYTHONHASHSEED=0``).

codebleu's data-flow match builds its variable lists from Python sets of names (``list(set(...))``
in its DFG extractors), so their order, and with it the data-flow score, follows the process's hash
seed: the same reference and candidate scored 0.3156 or 0.2844 from one interpreter to the next
(measured on a CoNaLa sample; a 20-sample calibration's CodeBLEU correlation moved from 0.63 to
0.46 between two runs).  Run here, every process, run and machine scores alike.

Protocol: one JSON object per line on stdin (``{"references": [...], "predictions": [...],
"lang": "python"}``), one JSON object per line on stdout (codebleu's result, or ``{"error": ...}``).
"""

from __future__ import annotations

import json
import logging
import sys


def main() -> None:
    logging.disable(logging.WARNING)  # "no reference data-flows ..." on every one-line snippet
    from codebleu import calc_codebleu

    for line in sys.stdin:
        out: dict[str, float | str]
        try:
            req = json.loads(line)
            res = calc_codebleu(req["references"], req["predictions"], lang=req["lang"])
            out = {k: float(v) for k, v in res.items()}
        except Exception as exc:  # a bad request or a parser failure: the caller raises it
            out = {"error": f"{type(exc).__name__}: {exc}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
