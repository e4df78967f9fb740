"""The command line: thin over the Python API, one module per command group.

    sejury judge examples/code_generation.json          # readable verdict
    sejury judge --task code_generation --problem ... --candidate ... --json
    sejury batch data.jsonl -o run.jsonl                 # resumable, with a progress bar
    sejury rank attempts.jsonl                          # best of N attempts per problem
    sejury compare pairs.jsonl                          # the better of two attempts per problem
    sejury calibrate data.jsonl -o team.json            # choose the team on a few labels
    sejury evaluate run.jsonl --team team.json          # the papers' tables
    sejury strategies                                    # the jurors a team can name
    sejury trace ID [--html out.html] | --list           # a judgment's full trace
    sejury serve [--host 127.0.0.1] [--port 8321]        # the judge over HTTP (FastAPI + LangServe)
    sejury model fetch | serve | info
    sejury sandbox build | check | reap
    sejury tests check data.jsonl                        # can the samples' tests tell right from wrong?
    sejury probe data.jsonl --team S1 -o probe/         # robustness: equivalents, mutants, injections
"""

from __future__ import annotations

import gc

import typer

from sejury.cli import common
from sejury.cli.experiments import calibrate, evaluate
from sejury.cli.judging import batch, judge
from sejury.cli.model import model_app
from sejury.cli.probe import probe
from sejury.cli.ranking import compare, rank
from sejury.cli.render import print_verdict
from sejury.cli.roster import strategies
from sejury.cli.sandbox import sandbox_app
from sejury.cli.serve import serve
from sejury.cli.tests import tests_app
from sejury.cli.trace import trace

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Judge generated code, patches and summaries with a jury of LLM strategies.")
app.command()(judge)
app.command()(batch)
app.command()(rank)
app.command()(compare)
app.command()(calibrate)
app.command()(evaluate)
app.command()(strategies)
app.command()(trace)
app.command()(serve)
app.command()(probe)
app.add_typer(model_app, name="model")
app.add_typer(sandbox_app, name="sandbox")
app.add_typer(tests_app, name="tests")


def main() -> None:
    """The ``sejury`` command.  When it ends, so does the process: Python's last garbage collections
    would walk every object LangChain and LangGraph made (~0.3-0.5 s at exit, ``bench/startup.py``);
    frozen, they are skipped and left to the OS (``atexit`` handlers still run: the model's server,
    the sandbox, the model client's sessions)."""
    common.FREEZE_LOADED = True  # this process ends with the command: ``loading`` freezes what it loads
    try:
        app()
    finally:
        gc.freeze()


__all__ = ["app", "main", "print_verdict"]
