"""Which server runs the embedded model: llama.cpp's own llama-server (native) or llama-cpp-python's.
Wiring only (no model is started here; tests/models/test_embedded.py runs both runtimes for real)."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

import pytest

from sejury.errors import ModelSetupError
from sejury.models import ModelSettings, model_label
from sejury.models import embedded as e


@pytest.fixture
def fake_binary(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    binary = tmp_path / "llama-server"
    binary.write_text("#!/bin/sh\nexit 0\n")
    binary.chmod(binary.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("SEJURY_LLAMA_SERVER", str(binary))
    monkeypatch.delenv("SEJURY_EMBEDDED_RUNTIME", raising=False)
    return binary


def test_auto_prefers_the_native_server_when_it_is_installed(fake_binary: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    assert e.native_server_binary() == fake_binary
    assert e.resolve_runtime("auto") == "native"
    assert e.resolve_runtime("python") == "python"
    monkeypatch.setenv("SEJURY_EMBEDDED_RUNTIME", "python")  # the environment decides what auto means
    assert e.resolve_runtime("auto") == "python"
    assert e.resolve_runtime("native") == "native"  # an explicit choice wins


def test_without_the_binary_auto_falls_back_and_native_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SEJURY_LLAMA_SERVER", raising=False)
    monkeypatch.delenv("SEJURY_EMBEDDED_RUNTIME", raising=False)
    monkeypatch.setattr(e, "native_server_binary", lambda: None)
    assert e.resolve_runtime("auto") == "python"
    with pytest.raises(ModelSetupError, match=r"setup\.sh"):
        e.resolve_runtime("native")
    with pytest.raises(ModelSetupError, match="unknown embedded runtime 'fast'"):
        e.resolve_runtime("fast")


def test_a_named_binary_that_cannot_run_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    not_exe = tmp_path / "llama-server"
    not_exe.write_text("")
    monkeypatch.setenv("SEJURY_LLAMA_SERVER", str(not_exe))
    with pytest.raises(ModelSetupError, match="not an executable file"):
        e.native_server_binary()


def test_the_native_command_decodes_as_the_python_server_does(fake_binary: Path) -> None:
    config = e.ServerConfig(model_path=Path("/m.gguf"), n_ctx=4096, n_threads=2, prompt_cache_mb=512, runtime="native")
    cmd = config.command(8123)
    assert cmd[0] == str(fake_binary)
    args = dict(zip(cmd[1::2], cmd[2::2], strict=False))
    assert args["--model"] == "/m.gguf" and args["--port"] == "8123" and args["--host"] == "127.0.0.1"
    assert args["--ctx-size"] == "4096" and args["--threads"] == args["--threads-batch"] == "2"
    assert args["--repeat-penalty"] == "1.1"  # llama-cpp-python's server default, which llama-server lacks
    assert args["--parallel"] == "1" and args["--cache-ram"] == "512" and args["--alias"] == e.MODEL_ALIAS
    off = e.ServerConfig(model_path=Path("/m.gguf"), prompt_cache_mb=0, runtime="native").command(1)
    assert off[off.index("--cache-ram") + 1] == "0"  # llama-server's switch for no prompt cache


def test_the_python_command_and_its_key_are_what_they_were(fake_binary: Path) -> None:
    config = e.ServerConfig(model_path=Path("/m.gguf"), n_threads=2, runtime="python")
    cmd = config.command(8123)
    assert cmd[1:3] == ["-m", "llama_cpp.server"] and "--cache" not in cmd
    assert "--cache" in e.ServerConfig(model_path=Path("/m.gguf"), prompt_cache_mb=8, runtime="python").command(1)
    # an older sejury (a baseline worktree in bench/prompt_cache.py) finds the same server
    old = hashlib.sha256(json.dumps(["/m.gguf", 8192, 2, e.MODEL_ALIAS, 0]).encode()).hexdigest()[:16]
    assert config.key() == old
    assert e.ServerConfig(model_path=Path("/m.gguf"), n_threads=2, runtime="native").key() != old


def test_the_model_label_names_the_native_runtime(fake_binary: Path) -> None:
    """Replies (and so cache keys) of the two runtimes are not interchangeable."""
    native = model_label(ModelSettings(runtime="native"))
    python = model_label(ModelSettings(runtime="python"))
    assert native == python + "/llama-server" and e.MODEL_ALIAS in python
    # nor are those of the AVX-512 build and the portable one
    fake_binary.with_name("llama-server.flags").write_text("-DGGML_NATIVE=OFF -DGGML_AVX512=ON\n")
    assert model_label(ModelSettings(runtime="native")) == python + "/llama-server-avx512"
    assert model_label(ModelSettings(runtime="python")) == python


def test_model_info_says_how_the_native_server_was_built(fake_binary: Path) -> None:
    assert e.native_server_build(None) is None
    assert e.native_server_build(fake_binary) is None  # not setup.sh's build: no flags beside it
    flags = fake_binary.with_name("llama-server.flags")
    flags.write_text("-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_INT8=OFF -DGGML_OPENMP=OFF\n")
    assert e.native_server_build(fake_binary) == "portable"
    flags.write_text("-DGGML_NATIVE=OFF -DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON -DGGML_AMX_INT8=OFF\n")
    assert e.native_server_build(fake_binary) == "avx512"


_AVX512 = ("avx512f", "avx512cd", "avx512vl", "avx512dq", "avx512bw", "avx512vbmi", "avx512_vnni", "avx512_bf16")


def test_setup_built_the_server_for_this_cpu(monkeypatch: pytest.MonkeyPatch) -> None:
    """scripts/setup.sh builds llama-server for AVX-512 where the CPU has it, portably elsewhere: the
    installed binary's recorded build matches this machine's CPU."""
    monkeypatch.delenv("SEJURY_LLAMA_SERVER", raising=False)
    binary = e.native_server_binary()
    if binary is None or e.native_server_build(binary) is None:
        assert os.environ.get("SEJURY_REQUIRE_NATIVE_SERVER") != "1", "required, but setup.sh built no llama-server"
        pytest.skip("llama-server not installed by scripts/setup.sh (SEJURY_NO_NATIVE_SERVER)")
    cpu = Path("/proc/cpuinfo").read_text().split() if Path("/proc/cpuinfo").is_file() else []
    wanted = "avx512" if all(f in cpu for f in _AVX512) and not os.environ.get("SEJURY_PORTABLE_SERVER") else "portable"
    assert e.native_server_build(binary) == wanted
