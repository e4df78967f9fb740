"""Start-up as a user sees it: the whole process's wall time of the commands run most, the clock
started before the process is, min / median / max over ``--runs`` runs (and the median CPU).

    .venv/bin/python bench/startup.py [--runs 10] [--before DIR]

The commands: ``sejury --help``, ``sejury strategies``, ``sejury judge --help``,
``python -c "import sejury"``, ``python -c "from sejury import Judge"``, and, against the fake
OpenAI-compatible server of ``bench/throughput.py`` (``Fake``, at zero latency), ``sejury judge`` on
one sample and ``sejury batch`` on 8 (default team, fresh cache and trace store each run): for
these also the start-up, from before the process starts to the server's first request.  ``sejury
judge`` runs twice: with ``--base-url`` (the fake named) and as most users run it, on the embedded
model with its server already running (the fake registered as the machine's embedded server, in a
run folder of its own: the command joins it as it joins a warm ``llama-server``).

``--before DIR``: run every command on another checkout too (a git worktree of an older commit,
``git worktree add /tmp/startup-before COMMIT``), with ``PYTHONPATH=DIR`` first on the path (it wins
over the editable install; the module each variant imports is printed and checked).  ``--after DIR``:
time that checkout the same way instead of the installed sejury, so that neither variant pays the
editable install's import hook and the other does not.  The variants
alternate run by run, so load from other jobs falls on both alike.
"""

from __future__ import annotations

import argparse
import compileall
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from throughput import Fake, batch, sample

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = Path(sys.executable).parent
SEJURY = str(VENV_BIN / "sejury")  # the console script, as a user runs it


@dataclass
class Variant:
    name: str
    env: dict[str, str]  # added to the environment of every run
    root: Path  # the checkout whose sejury it imports


@dataclass
class Timing:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    first: list[float] = field(default_factory=list)  # to the fake server's first request


def timed(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of one process, the clock started before it is; it must succeed."""
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd,
                            env={**os.environ, "COLUMNS": "100", **env})
    assert proc.stderr is not None
    error = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{error.decode(errors='replace')}")
    return wall, usage.ru_utime + usage.ru_stime


def judge_one(fake: Fake, variant: Variant, work: Path, *, embedded: bool = False) -> tuple[float, float, float]:
    """``sejury judge`` on one sample against the fake server: (wall, CPU, start-up to the first request);
    ``embedded``: as the embedded model's warm server (``register_embedded``), not by ``--base-url``."""
    folder = Path(tempfile.mkdtemp(dir=work))
    data = folder / "sample.json"
    data.write_text(json.dumps(sample(0, folder.name)))
    model = [] if embedded else ["--model", "fake", "--base-url", fake.base_url]
    cmd = [SEJURY, "judge", str(data), "--json", *model,
           "--cache-path", str(folder / "results.sqlite"), "--trace-path", str(folder / "traces.sqlite")]
    env = {**variant.env, "SEJURY_RUN_DIR": str(work / "run")} if embedded else variant.env
    fake.reset()
    t0 = time.monotonic()
    wall, cpu = timed(cmd, env, work)
    first = fake.stats()["first_request"]
    if first is None:
        raise SystemExit("sejury judge made no model call")
    return wall, cpu, first - t0


# the key under which a checkout's `sejury judge` looks its embedded server up (as `llama_server.shared_server`)
_SERVER_KEY = """
from sejury.config import JudgeConfig
from sejury.models.backends.llama_server import gguf_path
from sejury.models.base import ModelSettings
from sejury.models.embedded import ServerConfig, resolve_runtime
s = ModelSettings.of(JudgeConfig.build())
print(ServerConfig(model_path=gguf_path(s), n_ctx=s.n_ctx, n_threads=s.n_threads, prompt_cache_mb=s.prompt_cache_mb,
                   runtime=resolve_runtime(s.runtime)).key())
"""


def register_embedded(fake: Fake, variant: Variant, work: Path) -> None:
    """Register the fake as the machine's running embedded server in ``work/run`` (the registry
    ``sejury.models._shared_server`` keeps): its pid and port, and this process as a user, so that a
    judge leaving is never the last user, which would stop the server."""
    key = subprocess.run([sys.executable, "-c", _SERVER_KEY], capture_output=True, text=True, check=True, cwd=work,
                         env={**os.environ, **variant.env}).stdout.strip()
    home = work / "run" / f"embedded-{key}"
    (home / "users").mkdir(parents=True, exist_ok=True)
    (home / "users" / str(os.getpid())).touch()
    port = int(fake.root.rsplit(":", 1)[1])
    (home / "server.json").write_text(json.dumps({"pid": fake.proc.pid, "port": port}))


def which(variant: Variant, cwd: Path) -> Path:
    """The sejury package the variant's processes import, run where they run (``python -c`` puts the
    working directory first on the path), checked against the variant's checkout."""
    out = subprocess.run([sys.executable, "-c", "import sejury; print(sejury.__file__)"], capture_output=True,
                         text=True, check=True, cwd=cwd, env={**os.environ, **variant.env}).stdout.strip()
    path = Path(out).resolve()
    if not path.is_relative_to(variant.root.resolve()):
        raise SystemExit(f"{variant.name}: imports {path}, not the checkout {variant.root}")
    return path


def commit(root: Path) -> str:
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "sejury"], capture_output=True,
                           text=True).stdout.strip()
    return head.stdout.strip() + (" + uncommitted changes" if dirty else "")


COMMANDS: dict[str, list[str]] = {
    "sejury --help": [SEJURY, "--help"],
    "sejury strategies": [SEJURY, "strategies"],
    "sejury judge --help": [SEJURY, "judge", "--help"],
    'python -c "import sejury"': [sys.executable, "-c", "import sejury"],
    'python -c "from sejury import Judge"': [sys.executable, "-c", "from sejury import Judge"],
}
JUDGE, BATCH = "sejury judge (1 sample, fake server)", "sejury batch (8 samples, fake server)"
EMBEDDED = "sejury judge (1 sample, embedded model, server warm)"


def run_all(variants: list[Variant], runs: int, work: Path) -> dict[tuple[str, str], Timing]:
    found: dict[tuple[str, str], Timing] = {}
    fake = Fake(0.0)
    try:
        for v in variants:
            register_embedded(fake, v, work)
        for i in range(runs + 1):  # run 0 warms the disk cache and writes each checkout's .pyc files
            for v in variants:
                for name, cmd in COMMANDS.items():
                    wall, cpu = timed(cmd, v.env, work)
                    if i:
                        t = found.setdefault((name, v.name), Timing())
                        t.wall.append(wall)
                        t.cpu.append(cpu)
                judged = judge_one(fake, v, work)
                warm = judge_one(fake, v, work, embedded=True)
                r = batch(fake, 8, 4, work, env=v.env)
                if i:
                    batched = (r.process, r.cpu, r.first_request)
                    for name, (w, c, f) in ((JUDGE, judged), (EMBEDDED, warm), (BATCH, batched)):
                        t = found.setdefault((name, v.name), Timing())
                        t.wall.append(w)
                        t.cpu.append(c)
                        t.first.append(f)
            print(f"run {i}/{runs} done (load {os.getloadavg()[0]:.2f})", file=sys.stderr)
    finally:
        fake.close()
    return found


def spread(xs: list[float]) -> str:
    return f"{min(xs):.2f} / **{statistics.median(xs):.2f}** / {max(xs):.2f}"


def checkout(name: str, root: Path) -> Variant:
    """A checkout timed by ``PYTHONPATH=root`` (it wins over the editable install)."""
    root = root.resolve()
    # byte-compiled as an install is: with PYTHONDONTWRITEBYTECODE set it would compile in every run
    compileall.compile_dir(root / "sejury", quiet=1)
    return Variant(name, {"PYTHONPATH": str(root)}, root)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=10, help="timed runs of each command per variant (default 10)")
    ap.add_argument("--before", type=Path, default=None,
                    help="another checkout (a git worktree of an older commit) to time too, by PYTHONPATH")
    ap.add_argument("--after", type=Path, default=None,
                    help="time this checkout by PYTHONPATH too, instead of the installed sejury: both variants "
                         "then import the same way (the editable install's import hook costs its own time)")
    args = ap.parse_args()
    variants = [checkout("before", args.before)] if args.before is not None else []
    variants.append(checkout("after", args.after) if args.after is not None else Variant("after", {}, ROOT))
    print(f"## sejury start-up ({os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start, "
          f"{args.runs} runs)\n")
    with tempfile.TemporaryDirectory(prefix="sejury-startup-") as tmp:
        for v in variants:
            print(f"- {v.name}: {commit(v.root)}, imports {which(v, Path(tmp))}")
        found = run_all(variants, args.runs, Path(tmp))
    print("\nWhole-process wall seconds, min / **median** / max; CPU = user + system of the process, median; "
          "start-up = from before the process starts to the fake server's first request.\n")
    print("| command | variant | wall s | CPU s | start-up s |")
    print("| --- | --- | --- | --- | --- |")
    for name in [*COMMANDS, JUDGE, EMBEDDED, BATCH]:
        for v in variants:
            t = found[(name, v.name)]
            first = spread(t.first) if t.first else "—"
            print(f"| {name} | {v.name} | {spread(t.wall)} | {statistics.median(t.cpu):.2f} | {first} |")
    print(f"\nload {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
