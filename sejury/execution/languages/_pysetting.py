"""What a Python program runs with: the imports the tests and a reference get (``PRELUDE``), and
the imports a sample's tests give every program (``given_by_tests``)."""

from __future__ import annotations

import ast
import re
import sys

from sejury.execution.languages._pysource import UNPARSEABLE

PRELUDE = ("import math, re, sys, string, itertools, collections, heapq, functools, bisect\n"
           "from typing import *\n")
# The tests run after ``PRELUDE`` (the model's tests use ``math`` or ``List`` unimported), and so does
# a reference (``reference_setting``: what HumanEval's solutions were written against).  A candidate
# runs as written: one that calls ``math.sqrt`` without importing ``math`` raises ``NameError`` in the
# benchmark's harness, and must here too.  Of the shared HumanEval Python set's 3,220 candidates, 122
# use one of these names unbound, every one of them wrong by the benchmark's tests.


def reference_setting(program: str) -> str:
    """A reference after ``PRELUDE``: its benchmark's harness gave it what it uses unimported."""
    return PRELUDE + program


# The usual aliases of the scientific libraries.  BigCodeBench's harness runs the code and its tests
# as one module, and where its reference uses ``pd`` or ``os`` without importing it the tests import
# it: so does every program of that sample here (``given_by_tests``).  A candidate that forgets an
# import the reference makes fails, as it does there.
ALIASES = {"np": "numpy", "pd": "pandas", "plt": "matplotlib.pyplot", "sns": "seaborn"}


def given_by_tests(reference: str) -> str:
    """Imports of the modules the reference uses without binding them (``pd.merge`` with no
    ``import pandas as pd``, ``os.path.join`` with no ``import os``): the usual aliases and the
    standard library's modules, for every program of the sample; "" for the usual reference."""
    try:
        tree = ast.parse(reference)
    except UNPARSEABLE:
        return ""
    bound = {a.asname or a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))
             for a in n.names} | defined_names(reference)
    bound |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    bound |= {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    used = {n.value.id for n in ast.walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)}
    missing = sorted(used - bound)
    return "".join(f"import {ALIASES[m]} as {m}\n" if m in ALIASES else f"import {m}\n" for m in missing
                   if m in ALIASES or m in sys.stdlib_module_names)


def defined_names(program: str) -> set[str]:
    try:
        tree = ast.parse(program)
    except UNPARSEABLE:
        return set(re.findall(r"^(?:def|class)\s+(\w+)", program, flags=re.M))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names
