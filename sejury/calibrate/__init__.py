"""Team selection on a few human-labelled samples (SE-Jury's calibration).

- ``_records``: the run file's judged samples, read.
- ``_select``: from recorded scores (a ``sejury batch`` run file), every candidate team scored,
  the best chosen, evaluated on the rest: no LLM call.
- ``_workflow.run``: the whole workflow from a labelled dataset (judges, then chooses).
- ``_report.report``: the markdown report.
"""

from sejury.calibrate._records import Record, read_run
from sejury.calibrate._report import report
from sejury.calibrate._select import (
    Calibration,
    TeamScore,
    best_threshold,
    calibrate,
    candidate_teams,
    labelled_indices,
    score_team,
    team_scores,
)
from sejury.calibrate._workflow import run

__all__ = ["Calibration", "Record", "TeamScore", "best_threshold", "calibrate", "candidate_teams", "labelled_indices",
           "read_run", "report", "run", "score_team", "team_scores"]
