"""The jurors, one module each, named by the strategy's value: ``direct`` (S1, S1-ref), ``rethink``
(S2), ``equivalence`` (S3), ``reference_analysis`` (S4), ``generate_tests`` (S5), ``test_pass``
(S5-exec), ``metrics`` (BLEU, ChrF++, ROUGE-L, CodeBLEU, METEOR) and ``baselines`` (the papers'
RQ1 baselines).  Each registers its ``StrategySpec`` (see ``base``); every public module of this
folder is loaded here, so adding a strategy is adding one module and its prompt files (or, from
another package, an entry point in the ``sejury.strategies`` group: ``sejury.registry``).
"""

from __future__ import annotations

from sejury import roster
from sejury.strategies.base import (
    Kind,
    Outcome,
    Recorder,
    StrategySpec,
    all_specs,
    prompt_version,
    prompts_version,
    register,
    spec,
    unregister,
)

roster.JURORS.load()  # every public module of this folder, then the ``sejury.strategies`` entry points

__all__ = ["Kind", "Outcome", "Recorder", "StrategySpec", "all_specs", "prompt_version", "prompts_version",
           "register", "spec", "unregister"]
