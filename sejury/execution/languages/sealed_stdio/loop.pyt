# The sealed loop of a program reading stdin (sejury/execution/stdio.py): it runs the built program
# once per input, each in a session of its own killed at its time limit, and writes one
# authenticated line per input (@@M <n> <mac> <line>, HMAC-SHA256 under the run's key, which it
# reads and deletes before the program first starts).  It is not dumpable, so the program can
# read neither its memory nor its key; the program's stdout is a file, never this loop's output.
import base64
import ctypes
import hashlib
import hmac
import json
import os
import re
import signal
import subprocess
import sys
import time

try:
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE = 0
except Exception:
    pass
with open("seal") as f:
    KEY = f.read().strip().encode()
os.remove("seal")
with open("plan.json") as f:
    PLAN = json.load(f)
os.remove("plan.json")
N = 0


def emit(line):
    global N
    tag = hmac.new(KEY, f"{N}|{line}".encode(), hashlib.sha256).hexdigest()[:32]
    sys.stdout.write(f"@@M {N} {tag} {line}\n")
    sys.stdout.flush()
    N += 1


def b64(data):
    return base64.b64encode(data).decode() or "-"


start = time.monotonic()
over = 0  # inputs that took longer than their soft limit (ranking gives up after PLAN["give_up"] of them)
for i, limit in enumerate(PLAN["limits"]):
    if time.monotonic() - start > PLAN["budget"] or (PLAN.get("give_up") and over >= PLAN["give_up"]):
        break
    with open(f"in/{i}", "rb") as stdin, open(".out", "wb") as out, open(".err", "wb") as err:
        began = time.monotonic()
        proc = subprocess.Popen(PLAN["run"], shell=True, stdin=stdin, stdout=out, stderr=err,
                                start_new_session=True)
        try:
            rc = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            rc = 137
        took = time.monotonic() - began
        if PLAN.get("give_up") and took > PLAN["soft"][i]:
            over += 1
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # what it left running dies with it
        except OSError:
            pass
        proc.wait()
    if rc < 0:
        rc = 128 - rc
    with open(".out", "rb") as f:
        data = f.read(PLAN["shown"] + 1)
        size = len(data) + len(f.read())
    with open(".out", "rb") as f:
        words = re.split(rb"[ \t\n]+", f.read().replace(b"\r", b""))
    digest = hashlib.sha256(b"".join(w + b"\n" for w in words if w)).hexdigest()
    with open(".err", "rb") as f:
        tail = f.read()[-300:]
    emit(f"@@IO {i} {rc} {int(took * 1000)} {size} {digest} {b64(data[:PLAN['shown']])} {b64(tail)}")
emit("@@DONE")
