"""Seconds per sample on the embedded model: this checkout's data-first prompts against a baseline
revision's prompts, llama.cpp's RAM prompt cache on and off, and the two embedded runtimes
(llama-cpp-python's server, llama.cpp's own llama-server, and its builds), on the same samples in one run.

    .venv/bin/python bench/prompt_cache.py [--data ../shared/data/conala.jsonl] [--n 8] [--seed 7]
        [--baseline-rev b551daa] [--teams default,S1-ref+S2] [--concurrency 4] [--cache-mb 1024]
        [--configs base:0,base:on,head:0,head:on,head:on:native]

For each team it runs, one after the other (never two model jobs at once), each configuration on
the same draw of samples, as the user's `sejury batch` would (samples in flight = --concurrency,
result cache off).  A configuration is ``PROMPTS:CACHE[:RUNTIME]``: the baseline revision's prompts
(``base``) or this checkout's (``head``); the prompt cache off (``0``) or on; llama-cpp-python's
server (``python``, the default: the runtime the baseline had) or llama.cpp's ``native`` one (``native@PATH``:
that llama-server binary, e.g. the portable build beside the AVX-512 one setup.sh installed).  The
first row is the figure before this work (``base:0``).  A fresh model server serves each run (so
no run reuses another's cache); its start is not timed.  From the server's own log it counts the
prompt tokens the model really read; the rest of the prompt tokens were reused (prefix match, in
the context or from the RAM cache).  ~25 min with the defaults on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
LOGS = Path(os.environ.get("SEJURY_CACHE_DIR", Path.home() / ".cache" / "sejury")) / "logs"
_PREFIX = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
_NATIVE_READ = re.compile(r"prompt eval time =\s+[\d.]+ ms /\s+(\d+) tokens")


def _log_sizes() -> dict[Path, int]:
    return {p: p.stat().st_size for p in LOGS.glob("llama-server-*.log")} if LOGS.is_dir() else {}


def _log_since(sizes: dict[Path, int]) -> str:
    out = []
    for p in LOGS.glob("llama-server-*.log"):
        with p.open("rb") as f:
            f.seek(sizes.get(p, 0))
            out.append(f.read().decode(errors="replace"))
    return "".join(out)


def run(label: str, data: Path, team: str, cache_mb: int, concurrency: int, tree: Path | None,
        runtime: str = "python", binary: str | None = None) -> dict[str, object]:
    env = dict(os.environ, SEJURY_EMBEDDED_RUNTIME=runtime)
    if binary:  # another llama-server build than the installed one (e.g. the portable one, to compare)
        env["SEJURY_LLAMA_SERVER"] = binary
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    cmd = [sys.executable, str(ROOT / "bench" / "_timed_run.py"), str(data), "--team", "" if team == "default" else
           team.replace("+", ","), "--prompt-cache-mb", str(cache_mb), "--concurrency", str(concurrency)]
    sizes = _log_sizes()
    # this checkout starts the run's model server and the run joins it: both revisions' prompts are
    # then served by the same server code (this checkout's lean prompt cache), and it is fresh
    from sejury.models import ModelSettings
    from sejury.models.backends.llama_server import gguf_path as _embedded_path
    from sejury.models.embedded import EmbeddedServer, ServerConfig

    s = ModelSettings(prompt_cache_mb=cache_mb)
    server = EmbeddedServer(ServerConfig(model_path=_embedded_path(s), n_ctx=s.n_ctx, n_threads=s.n_threads,
                                         prompt_cache_mb=cache_mb, runtime=runtime))  # type: ignore[arg-type]
    with mock.patch.dict(os.environ, {"SEJURY_LLAMA_SERVER": binary} if binary else {}):
        server.start()  # the server runs the binary SEJURY_LLAMA_SERVER names, as in the run's env
    try:
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=tree or ROOT, check=False)
    finally:
        server.stop()
    if proc.returncode != 0:
        raise SystemExit(f"{label}: the run failed:\n{proc.stderr[-3000:]}")
    got: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    log = _log_since(sizes)
    if runtime == "native":
        read = [int(n) for n in _NATIVE_READ.findall(log)]
        got.update(read=sum(read), reused=int(got["prompt_tokens"]) - sum(read), calls_logged=len(read))  # type: ignore[call-overload]
    else:
        hits = [(int(a), int(b)) for a, b in _PREFIX.findall(log)]
        got.update(reused=sum(a for a, _ in hits), read=sum(b for _, b in hits), calls_logged=len(hits))
    got.update(label=label, team=team)
    print(f"  {label}: {got['wall']:.1f} s for {got['samples']} samples; prompt tokens read {got['read']}, "
          f"reused {got['reused']}", file=sys.stderr, flush=True)
    return got


def _build(binary: str) -> str:
    """Which llama-server build a run used: setup.sh's record of it, else the binary's path."""
    from sejury.models.embedded import native_server_binary, native_server_build

    path = Path(binary) if binary else native_server_binary()
    return native_server_build(path) or str(path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", default=str(ROOT.parent / "shared" / "data" / "conala.jsonl"))
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--baseline-rev", default="b551daa", help="the revision whose prompts are 'before' ('' to skip)")
    ap.add_argument("--teams", default="default,S1-ref+S2")
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--cache-mb", type=int, default=1024)
    ap.add_argument("--configs", default="base:0,base:on,head:0,head:on,head:on:native",
                    help="which runs: base|head (baseline revision's prompts or this checkout's) : 0|on (cache) "
                         "[: python|native|native@PATH (the embedded runtime, default python; native@PATH: "
                         "that llama-server binary instead of the installed one)]")
    ap.add_argument("--json", help="also write every run's figures here")
    args = ap.parse_args()

    rows = [line for line in Path(args.data).read_text().splitlines() if line.strip()]
    draw = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "draw.jsonl"
        data.write_text("\n".join(draw) + "\n")
        tree = None
        if args.baseline_rev:
            tree = Path(tmp) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.baseline_rev],
                           check=True, capture_output=True)
        results = []
        try:
            for team in args.teams.split(","):
                print(f"team {team}, {len(draw)} samples (seed {args.seed}), concurrency {args.concurrency}:",
                      file=sys.stderr)
                for config in args.configs.split(","):
                    which, cache, *rest = config.split(":")
                    runtime, _, binary = (rest[0] if rest else "python").partition("@")
                    if which == "base" and tree is None:
                        continue
                    mb = args.cache_mb if cache == "on" else 0
                    label = (f"{args.baseline_rev} prompts" if which == "base" else "this checkout's prompts") + \
                        (f", cache {mb} MiB" if mb else ", cache off") + \
                        (f", llama-server {_build(binary)}" if runtime == "native" else ", llama-cpp-python")
                    results.append(run(label, data, team, mb, args.concurrency, tree if which == "base" else None,
                                       runtime, binary or None))
        finally:
            if tree is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    print("| team | prompts, cache, runtime | s/sample | vs first row | calls/sample | prompt tokens read/sample "
          "| reused/sample | generated/sample | unscored jurors |\n" + "| --- " * 9 + "|")
    base: dict[str, float] = {}
    for r in results:
        n = int(r["samples"])  # type: ignore[call-overload]
        per = float(r["wall"]) / n  # type: ignore[arg-type]
        first = base.setdefault(str(r["team"]), per)
        print(f"| {r['team']} | {r['label']} | {per:.1f} | {per / first:.2f} | {int(r['llm_calls']) / n:.1f} | "  # type: ignore[call-overload]
              f"{int(r['read']) / n:.0f} | {int(r['reused']) / n:.0f} | "  # type: ignore[call-overload]
              f"{int(r['completion_tokens']) / n:.0f} | {r['unscored_jurors']} |")  # type: ignore[call-overload]


if __name__ == "__main__":
    main()
