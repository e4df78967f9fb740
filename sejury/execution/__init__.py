"""Execution evidence: S5's tests validated on the reference and run on the candidate
(``evidence``), in any language of ``languages/`` (``runner``), with repair patches applied
(``patching``).  The sandbox they run in is ``sejury.sandbox``."""
