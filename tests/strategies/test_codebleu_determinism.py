"""CodeBLEU scores a pair alike in every process: codebleu's data-flow match follows the process's
string hash seed (its variable lists come from sets), so the juror runs it where the seed is fixed."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from sejury.strategies.metrics import _codebleu, _codebleu_scores

# A CoNaLa pair (conala-74) whose data-flow score is 0.625 or 0.5 depending on the hash seed.
REFERENCE = "for fn in os.listdir('.'):\n    if os.path.isfile(fn):\n        pass"
CANDIDATE = ("for dirname,dirnames,filenames in os.walk(`.`):for subdirname in dirnames:"
             "print(os.path.join(dirname,subdirname))")
DIRECT = (
    "import json, logging, sys\n"
    "logging.disable(logging.WARNING)\n"
    "from codebleu import calc_codebleu\n"
    "r = calc_codebleu([sys.argv[1]], [sys.argv[2]], lang='python')\n"
    "print(json.dumps(r['dataflow_match_score']))\n")


def _direct(seed: str) -> float:
    out = subprocess.run([sys.executable, "-c", DIRECT, REFERENCE, CANDIDATE], capture_output=True, text=True,
                         env={**os.environ, "PYTHONHASHSEED": seed}, check=True).stdout
    return float(json.loads(out))


def test_the_premise_codebleu_itself_follows_the_hash_seed() -> None:
    """Without the fixed seed the same pair scores differently (if codebleu ever fixes this, the
    worker is no longer needed and this test says so)."""
    assert len({_direct(str(seed)) for seed in range(8)}) > 1


def test_the_juror_scores_alike_in_every_process() -> None:
    ours = _codebleu_scores(REFERENCE, CANDIDATE, "python")
    assert ours["dataflow_match_score"] == _direct("0")
    again = subprocess.run(
        [sys.executable, "-c", "from sejury.strategies.metrics import _codebleu_scores; import json, sys; "
         "print(json.dumps(_codebleu_scores(sys.argv[1], sys.argv[2], 'python')))", REFERENCE, CANDIDATE],
        capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "7"}, check=True).stdout
    assert json.loads(again) == ours


def test_a_dead_worker_is_replaced() -> None:
    first = _codebleu_scores("x = 1", "x = 1", "python")
    assert _codebleu._proc is not None
    _codebleu._proc.kill()
    _codebleu._proc.wait()
    assert _codebleu_scores("x = 1", "x = 1", "python") == first
