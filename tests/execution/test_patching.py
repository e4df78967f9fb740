import pytest

from sejury.execution.patching import PatchError, apply_patch

BUGGY = "def clamp(v, lo, hi):\n    if v < lo:\n        return lo\n    return v\n"
FIX = ("--- a/clamp.py\n+++ b/clamp.py\n@@ -1,4 +1,6 @@\n def clamp(v, lo, hi):\n     if v < lo:\n"
       "         return lo\n+    if v > hi:\n+        return hi\n     return v\n")


def test_applies_a_fitting_diff() -> None:
    fixed = BUGGY.replace("    return v\n", "    if v > hi:\n        return hi\n    return v\n")
    assert apply_patch(BUGGY, FIX) == fixed


def test_relocates_a_hunk_whose_line_numbers_come_from_a_larger_file() -> None:
    shifted = FIX.replace("@@ -1,4 +1,6 @@", "@@ -40,4 +40,6 @@")
    assert apply_patch(BUGGY, shifted) == apply_patch(BUGGY, FIX)


def test_a_patch_that_does_not_fit_is_an_error() -> None:
    with pytest.raises(PatchError, match="does not match"):
        apply_patch(BUGGY, FIX.replace("if v < lo:", "if v <= lo:").replace("@@ -1,4", "@@ -9,4"))
    with pytest.raises(PatchError, match="no unified diff"):
        apply_patch(BUGGY, "just prose, no diff")
