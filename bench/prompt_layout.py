"""Prompt tokens the model must read per sample under a prefix cache, for this checkout's prompts and
a baseline revision's, on every shared dataset: no model call, only the model's tokenizer.

    .venv/bin/python bench/prompt_layout.py [--baseline-rev b551daa] [--n 40] [--seed 7]

Each revision renders the default team's prompts for a random draw of each dataset (values that
come from an earlier reply, such as S1's reasons, left empty in both), in the Qwen2.5 chat
template; then each call's tokens are matched against every earlier call's (an unbounded prefix
cache: what llama.cpp's RAM cache approaches) and what is left is what the model reads.  Printed
per dataset: tokens per sample in all, read with no cache but the last prompt (the server's own
context, calls of one sample back to back), and read with the prefix cache.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT.parent / "shared" / "data"
SETS = ["conala", "card2code", "humaneval_python", "humaneval_js", "humaneval_java", "humaneval_cpp",
        "apr_assess", "summary_assess"]


def dump(n: int, seed: int) -> None:
    """Runs under the revision being measured: every default-team prompt of each draw, as JSON."""
    from sejury import prompts
    from sejury.estimate import _sample_values
    from sejury.schema import Sample
    from sejury.strategies import all_specs

    out: dict[str, list[list[list[str]]]] = {}
    for name in SETS:
        rows = [x for x in (DATA / f"{name}.jsonl").read_text().splitlines() if x.strip()]
        samples = [Sample.model_validate_json(r) for r in random.Random(seed).sample(rows, min(n, len(rows)))]
        per = []
        for sample in samples:
            values = _sample_values(sample)  # what the strategies pass (as the dry run renders them)
            calls = []
            for s in all_specs():
                if not s.default_member or not s.steps or s.skip_reason(sample, execute=False) is not None:
                    continue
                for step in s.steps:
                    later = prompts.placeholders(s.value, sample.task, step, s.prompt_root) - values.keys()
                    calls.append([prompts.system_prompt(), s.render(sample.task, step, **values,
                                                                     **dict.fromkeys(later, ""))])
            per.append(calls)
        out[name] = per
    print(json.dumps(out))


def _common(a: list[int], b: list[int]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class _Trie:
    """Every earlier prompt's tokens: the longest prefix any of them shares with a new one."""

    def __init__(self) -> None:
        self.root: dict[int, dict] = {}  # type: ignore[type-arg]

    def longest(self, ids: list[int]) -> int:
        node, n = self.root, 0
        for x in ids:
            if x not in node:
                break
            node, n = node[x], n + 1
        return n

    def add(self, ids: list[int]) -> None:
        node = self.root
        for x in ids:
            node = node.setdefault(x, {})


def measure(prompts_by_set: dict[str, list[list[list[str]]]],
            tok: Callable[[str], list[int]]) -> dict[str, tuple[float, float, float]]:
    res = {}
    for name, samples in prompts_by_set.items():
        total = last_only = cached = 0
        seen = _Trie()
        for calls in samples:
            last: list[int] = []
            for system, user in calls:
                ids = tok(f"<|im_start|>system\n{system}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n"
                          "<|im_start|>assistant\n")
                total += len(ids)
                last_only += len(ids) - _common(last, ids)
                cached += len(ids) - seen.longest(ids)
                seen.add(ids)
                last = ids
        k = max(1, len(samples))
        res[name] = (total / k, last_only / k, cached / k)
    return res


def _tokenizer() -> Callable[[str], list[int]]:
    """The model's tokenizer: llama-cpp-python's vocabulary where that optional runtime is installed,
    else the embedded ``llama-server``'s ``/tokenize`` (the machine's shared server, joined or
    started with the judge's own settings: no reply is generated)."""
    try:
        import llama_cpp
    except ImportError:
        import httpx

        from sejury.config import JudgeConfig
        from sejury.models.backends.llama_server import shared_server
        from sejury.models.base import ModelSettings

        server = shared_server(ModelSettings.of(JudgeConfig()))
        client = httpx.Client(base_url=server.base_url.removesuffix("/v1"), timeout=60)

        def by_server(text: str) -> list[int]:
            r = client.post("/tokenize", json={"content": text, "add_special": False, "parse_special": True})
            r.raise_for_status()
            return [int(t) for t in r.json()["tokens"]]
        return by_server

    from sejury.models.embedded import ensure_model

    vocab = llama_cpp.Llama(str(ensure_model()), vocab_only=True, verbose=False)

    def by_vocab(text: str) -> list[int]:
        return list(vocab.tokenize(text.encode(), add_bos=False, special=True))
    return by_vocab


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-rev", default="b551daa")
    ap.add_argument("--n", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        dump(args.n, args.seed)
        return
    tokenize = _tokenizer()

    def rendered(tree: Path | None) -> dict[str, list[list[list[str]]]]:
        env = dict(os.environ, PYTHONPATH=str(tree)) if tree else dict(os.environ)
        cmd = [sys.executable, __file__, "--dump", "--n", str(args.n), "--seed", str(args.seed)]
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True, cwd=tree or ROOT)
        got: dict[str, list[list[list[str]]]] = json.loads(proc.stdout)
        return got

    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "baseline"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), args.baseline_rev],
                       check=True, capture_output=True)
        try:
            before = measure(rendered(tree), tokenize)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=False)
    after = measure(rendered(None), tokenize)
    print(f"Default team, {args.n} random samples per set (seed {args.seed}); prompt tokens per sample:\n")
    print(f"| dataset | {args.baseline_rev}: all | read, no cache | read, prefix cache | this checkout: all "
          "| read, no cache | read, prefix cache | read vs baseline's no-cache |\n" + "| --- " * 8 + "|")
    for name in SETS:
        b, a = before[name], after[name]
        print(f"| {name} | {b[0]:.0f} | {b[1]:.0f} | {b[2]:.0f} | {a[0]:.0f} | {a[1]:.0f} | {a[2]:.0f} "
              f"| {a[2] / b[1]:.2f} |")


if __name__ == "__main__":
    main()
