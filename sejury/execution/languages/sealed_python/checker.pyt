# The sealed Python harness's checker (runs in the sandbox; standard library only).
#
# It holds the tests; the candidate's program runs in another process (server.py) that sees only
# the calls' arguments.  Every call of a name the program defines goes there as plain data and its
# answer comes back as plain data, decoded here type-strictly, so the tests' asserts compare values
# the checker made: the candidate's objects never decide a test, it cannot read the tests or their
# expected values (read, then deleted, before it starts), patch this process, or read its stack.
# Results leave on stdout, each line authenticated with a key only this process and the host know
# (HMAC-SHA256, numbered), so a line the candidate prints or forges does not count.
import builtins
import ctypes
import hashlib
import hmac
import json
import os
import signal
import subprocess
import sys

try:  # not dumpable: another process of this user cannot read this one's memory, fds or environ
    ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
except Exception:
    pass
with open("seal", "rb") as f:
    KEY = f.read().strip()
os.unlink("seal")
with open("tests.json") as f:
    SUITE = json.load(f)
os.unlink("tests.json")
PER_TEST = int(sys.argv[1]) if len(sys.argv) > 1 else 5
LOAD_SECONDS = 20
MAX_REPLY = 8 << 20
_seq = [0]
_out = sys.stdout


def emit(line):
    line = line.replace("\n", " ").replace("\r", " ")
    mac = hmac.new(KEY, f"{_seq[0]}|{line}".encode(), hashlib.sha256).hexdigest()[:32]
    _out.write(f"@@M {_seq[0]} {mac} {line}\n")
    _out.flush()
    _seq[0] += 1


exec(compile(open("codec.py").read(), "codec.py", "exec"))  # noqa: S102  enc / dec, shared with the server


class CandidateError(Exception):
    """An exception the candidate's code raised that is not one of Python's own."""


class CandidateExited(Exception):
    """The candidate's process ended (exit, crash, kill) or broke the protocol during a call."""


def _alarm(signum, frame):
    raise TimeoutError("test took too long")


signal.signal(signal.SIGALRM, _alarm)


class Remote:
    """The candidate's process; restarted (fresh) after it dies or hangs."""

    def __init__(self):
        self.proc = None
        self.n = 0
        self.load = None

    def start(self):
        log = open("candidate.log", "ab")
        self.proc = subprocess.Popen([sys.executable, "-I", "-B", "server.py"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=log, close_fds=True, pass_fds=())
        log.close()
        old = signal.alarm(LOAD_SECONDS)
        try:
            line = self.proc.stdout.readline(MAX_REPLY)
        except TimeoutError:
            line = b""
        finally:
            signal.alarm(old)
        try:
            self.load = json.loads(line) if line else None
        except ValueError:
            self.load = None
        if not isinstance(self.load, dict) or self.load.get("id") != 0:
            why = "the program's process ended while loading" if not line else "the program broke the protocol"
            self.kill()
            self.load = {"loaded": False, "error": why}
        elif not self.load.get("loaded"):
            self.kill()

    def kill(self):
        if self.proc is not None:
            try:
                self.proc.kill()
                self.proc.wait(2)
            except Exception:
                pass
        self.proc = None

    def call(self, payload):
        if self.proc is None:
            self.start()
            if self.proc is None:
                raise CandidateExited("the program's process could not be started again")
        self.n += 1
        payload["id"] = self.n
        try:
            self.proc.stdin.write((json.dumps(payload) + "\n").encode())
            self.proc.stdin.flush()
            line = self.proc.stdout.readline(MAX_REPLY)
        except BaseException:
            self.kill()
            raise
        if not line.endswith(b"\n"):
            self.kill()
            raise CandidateExited("the program's process ended during the call" if not line
                                  else "the program's answer was too long")
        try:
            reply = json.loads(line)
        except ValueError:
            self.kill()
            raise CandidateExited("the program broke the protocol") from None
        if not isinstance(reply, dict) or reply.get("id") != self.n:
            self.kill()
            raise CandidateExited("the program broke the protocol")
        if "raise" in reply:
            name, msg = str(reply.get("raise")), str(reply.get("msg", ""))[:300]
            kind = getattr(builtins, name, None)
            if name in ("SystemExit", "KeyboardInterrupt", "GeneratorExit"):
                raise CandidateExited(f"the program raised {name} during the call")
            if isinstance(kind, type) and issubclass(kind, Exception):
                try:
                    raise kind(msg)
                except TypeError:  # an exception class that wants other arguments
                    pass
            raise CandidateError(f"{name}: {msg}")
        return dec(reply.get("ok"), handle)


REMOTE = Remote()


class Handle:
    """An object of a class the program defines, living in its process: its attributes are read
    and its methods called there; it equals nothing but itself."""

    def __init__(self, ref, kind):
        object.__setattr__(self, "_ref", ref)
        object.__setattr__(self, "_kind", kind)

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return REMOTE.call({"attr": [self._ref, name]})

    def __repr__(self):
        return f"<{self._kind} object of the program>"

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


def handle(ref, kind, method_=False, **kw):
    if kw.get("method") or method_:
        return method(ref, kind)
    return Handle(ref, kind)


def stub(name):
    def call(*args, **kwargs):
        return REMOTE.call({"call": name, "args": enc(list(args)), "kwargs": enc(kwargs)})

    call.__name__ = call.__qualname__ = name
    return call


def method(ref, name):
    def call(*args, **kwargs):
        return REMOTE.call({"method": [ref, name], "args": enc(list(args)), "kwargs": enc(kwargs)})

    call.__name__ = name
    return call


REMOTE.start()
load = REMOTE.load
if not load.get("loaded"):
    emit("@@LOAD FAIL " + str(load.get("error", ""))[:300])
    emit("@@DONE")
    sys.exit(3)
emit("@@LOAD OK")
base = {"__name__": "solution"}
exec(compile(open("prelude.py").read(), "prelude.py", "exec"), base)  # noqa: S102
for alias, module in load.get("modules", {}).items():
    try:
        base[alias] = __import__(module, fromlist=["_"])
    except BaseException:
        pass
for name in load.get("callables", []):
    base[name] = stub(name)
for name, value in load.get("values", {}).items():
    try:
        base[name] = dec(value, handle)
    except Exception:
        pass


def _show(v):
    if isinstance(v, float):
        return format(v, ".6g")
    if isinstance(v, list):
        return "[" + ", ".join(map(_show, v)) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(map(_show, v)) + ")"
    if isinstance(v, dict):
        return "{" + ", ".join(sorted(_show(a) + ": " + _show(b) for a, b in v.items())) + "}"
    if isinstance(v, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_show, v))) + "}"
    return repr(v)


_unit = [-1, 0]  # the unit running, and its helpers' calls recorded so far


def sejury_rec(i, k, v):  # differential testing: the value of a call, shown, then returned unchanged
    if i < 0:
        i, k = _unit[0], 1000 + _unit[1]
        _unit[1] += 1
    try:
        s = _show(v)
    except BaseException as e:
        s = "<unshowable %s>" % type(e).__name__
    s = s.replace("\n", "\\n")
    emit(f"@@V {i} {k} {s[:1000]}|{len(s)}")
    return v


base["sejury_rec"] = sejury_rec
try:
    exec(compile(SUITE["setup"], "setup", "exec"), base)  # noqa: S102
except BaseException as e:
    emit(f"@@SETUP FAIL {type(e).__name__} {str(e)[:300]}")
for i, src in SUITE["units"]:
    env = dict(base)
    _unit[:] = [i, 0]
    signal.alarm(PER_TEST)
    try:
        exec(compile(src, f"test_{i}", "exec"), env)  # noqa: S102
        signal.alarm(0)
        emit(f"@@T {i} PASS")
    except BaseException as e:
        signal.alarm(0)
        if isinstance(e, TimeoutError):
            REMOTE.kill()  # it may still be computing: the next call starts a fresh one
        emit(f"@@T {i} FAIL {type(e).__name__} {str(e)[:200]}")
REMOTE.kill()
emit("@@DONE")
