"""Sandboxes for running generated tests.  The Docker backend is its own module (not yet here);
until then S5 predicts pass/fail with the LLM only, and says so in its result."""

from sejury.sandbox.base import ExecResult, ExecStatus, Sandbox

__all__ = ["ExecResult", "ExecStatus", "Sandbox"]
