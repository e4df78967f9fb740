"""CodeBLEU in a process of its own whose string hashing is fixed (``PYTHONHASHSEED=0``).

codebleu's data-flow match builds its variable lists from Python sets of names (``list(set(...))``
in its DFG extractors), so their order, and with it the data-flow score, follows the process's hash
seed: the same reference and candidate scored 0.3156 or 0.2844 from one interpreter to the next
(measured on a CoNaLa sample; a 20-sample calibration's CodeBLEU correlation moved from 0.63 to
0.46 between two runs).  Run here, every process, run and machine scores alike.

Protocol (``workers.serve``, within the memory limit it is given): one JSON object per line on stdin
(``{"references": [...], "predictions": [...], "lang": "python"}``), one JSON object per line on
stdout (codebleu's result, or ``{"error": ...}``).
"""

from __future__ import annotations

import logging
from typing import Any

from sejury import workers


def score(req: dict[str, Any]) -> dict[str, Any]:
    from codebleu import calc_codebleu

    res = calc_codebleu(req["references"], req["predictions"], lang=req["lang"])
    return {k: float(v) for k, v in res.items()}


def main() -> None:
    logging.disable(logging.WARNING)  # "no reference data-flows ..." on every one-line snippet
    workers.serve(score)


if __name__ == "__main__":
    main()
