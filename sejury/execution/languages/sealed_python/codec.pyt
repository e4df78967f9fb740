# Plain data across the sealed harness's process boundary (standard library only), read by both
# sides: ``enc`` writes a value as tagged JSON, by exact type (a subclass of int or list, or any
# object of the program's own, is not plain data and travels as a handle or an opaque name);
# ``dec`` reads it back.  Limits keep a hostile answer from exhausting the checker.
#
# The scientific stack's data travels as data too, when the side that writes it has loaded the
# library (never imported here for that): numpy arrays and scalars, pandas DataFrames, Series,
# indexes and timestamps, and the standard library's dates; the reader rebuilds them from their
# values and a dtype it checks (no pickle, no object dtype's constructors).  Any other object of a
# library (a matplotlib Axes, a fitted model) lives in the program's process as a handle, with its
# classes' names (so ``isinstance`` can be asked).
import collections
import collections.abc
import datetime
import decimal
import fractions
import inspect
import pathlib
import random
import re
import sys
import types

MAX_ITEMS = 1_000_000
MAX_DEPTH = 200
MAX_RECORDS = 10_000  # log records of the program's sent with one answer (server.py), handed on (lending.py)
_PLAIN_DICTS = (dict, collections.OrderedDict, collections.defaultdict, collections.Counter)
_DTYPE = re.compile(r"[<>|=]?[biufcUSMmO]\d{0,3}(\[\w{1,3}\])?")  # '<f8', '|b1', '<U5', '<M8[ns]', '|O'
_EXTENSION = ("category", "string", "Int64", "Int32", "Float64", "boolean")  # pandas dtypes kept by name


def ready(value):
    """A coroutine that gives ``value``: what one side awaits of a call the other side ran to its end
    (the program's ``async def`` run in its process, a test's ``AsyncMock`` run in the checker)."""
    async def awaited():
        return value

    return awaited()


class Opaque:
    """A value that is not plain data (an object of the program's, a function): it equals nothing
    but itself, so no test passes by comparing it."""

    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return f"<{self.kind} (not plain data)>"

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return id(self)


def enc(v, handles=None, _budget=None, _depth=0):
    budget = _budget if _budget is not None else [MAX_ITEMS]
    budget[0] -= 1
    if budget[0] < 0 or _depth > MAX_DEPTH:
        raise ValueError("the value is too large or too deep to compare")
    t = type(v)
    d = _depth + 1
    if v is None:
        return ["N"]
    if t is bool:
        return ["B", v]
    if t is int:
        return ["I", str(v)]
    if t is float:
        return ["F", repr(v)]
    if t is complex:
        return ["C", repr(v.real), repr(v.imag)]
    if t is str:
        return ["S", v]
    if t is bytes:
        return ["Y", v.hex()]
    if t is list:
        return ["L", [enc(x, handles, budget, d) for x in v]]
    if t is tuple:
        return ["T", [enc(x, handles, budget, d) for x in v]]
    if t in _PLAIN_DICTS:
        return ["D", [[enc(k, handles, budget, d), enc(x, handles, budget, d)] for k, x in v.items()]]
    if t is set:
        return ["E", [enc(x, handles, budget, d) for x in v]]
    if t is frozenset:
        return ["Z", [enc(x, handles, budget, d) for x in v]]
    if t is range:
        return ["R", v.start, v.stop, v.step]
    if t is decimal.Decimal:
        return ["X", str(v)]
    if t is fractions.Fraction:
        return ["Q", str(v)]
    if t is collections.deque:
        return ["U", [enc(x, handles, budget, d) for x in v]]
    if t is pathlib.PosixPath or t is pathlib.PurePosixPath:  # a test's ``tmp_path / "data.csv"``
        return ["PA" if t is pathlib.PosixPath else "PP", str(v)]
    lib = _enc_library(v, t, handles, budget, d)
    if lib is not None:
        return lib
    if handles is not None:  # the program's side
        lent = globals().get("Lent")
        if lent is not None and t is lent:  # an object the checker lent, going back to it
            return ["CO", object.__getattribute__(v, "_ref")]
        if isinstance(v, collections.abc.Iterator):
            items = []
            for x in v:
                items.append(enc(x, handles, budget, d))
            return ["G", items]
        module = getattr(t, "__module__", "") or ""
        if module == "solution" and (plain := _scalar_value(v)) is not None:
            return enc(plain, handles, budget, d)
        if module == "solution" and not callable(v):  # (its class by identity, when the program's names hold it)
            return ["H", keep(handles, v), t.__name__, globals().get("CLASS_REFS", {}).get(id(t), -1)]
        if module.split(".")[0] in _LIBRARIES and not callable(v) and not isinstance(v, type):
            return ["H", keep(handles, v), _class_name(t)]
        if module not in ("solution", "builtins", "__main__") and _is_object(v):  # any other library's object
            # (a Flask app, a regex match): asked there, shown by ``render``
            return ["H", keep(handles, v), f"{module}:{t.__qualname__}"]
    elif t.__name__ == "Handle":  # the checker's side: an object of the program's, sent back to it
        return ["H", object.__getattribute__(v, "_ref"), ""]
    elif t.__name__ == "ProgramClass":  # the checker's side: a class of the program's, as itself
        return ["H", type.__getattribute__(v, "_sejury_ref"), ""]
    else:  # the checker's side: a mock or a function of the tests' is lent (``lend``), else it is opaque
        lent = lend(v)
        if lent is not None:
            return lent
    return ["O", t.__name__]


_KEPT = {}  # the program's side: id of an object sent -> its reference


def keep(handles, v):
    """``v``'s reference among ``handles`` (the program's side): the one it already has, so an object
    sent twice is one object in the tests' process too (``Color.RED is Color.RED``, ``!=``)."""
    ref = _KEPT.get(id(v))
    if ref is None or ref >= len(handles) or handles[ref] is not v:
        handles.append(v)
        ref = _KEPT[id(v)] = len(handles) - 1
    return ref


def lend(v):
    """The checker's: ``["CO", ref]`` for an object the program's process may use from afar; here none."""
    return None


def _scalar_value(v):
    """The plain value under an object of a class the program derives from ``str``, ``bytes``,
    ``int`` or ``float`` (not an ``Enum``), taken without calling its methods; else None.  Such an
    object travels as that value: as a handle, the tests' ``startswith``, ``len`` or ``in`` on it
    would be answered by its own methods, which may say anything."""
    if isinstance(v, str):
        return str.__str__(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(memoryview(v))
    if isinstance(v, (int, float)) and not any(c.__name__ == "Enum" and c.__module__ == "enum" for c in type(v).__mro__):
        return int.__int__(v) if isinstance(v, int) else float.__float__(v)
    return None


def _is_object(v):
    """An instance with a state (not a function, method, class or module)."""
    return not (isinstance(v, (type, types.ModuleType)) or inspect.isroutine(v))


# plots are shown by their class only: what a plot draws beyond what the problem states (a title,
# the bins) is the reference's choice, not a duty; the tests ask a plot what they need
_PLOTS = frozenset({"matplotlib", "seaborn"})
MAX_RENDER = 20_000


def render(v, depth=2, _budget=None, _d=0):
    """A plain-data picture of a library's object that is not plain data, for the differential
    record: its class and its public state (the attributes it holds, not its methods; objects in
    it to ``depth`` levels), a mapping or a sequence by its items, plain data as ``enc`` writes it,
    an object with no public state by its repr.  Made in the program's process and sent as data:
    the checker compares pictures, it never asks the object whether it equals another."""
    budget = _budget if _budget is not None else [MAX_RENDER]
    budget[0] -= 1
    if budget[0] < 0 or _d > 50:
        raise ValueError("the value is too large to show")

    def sub(x, dd=depth):
        return render(x, dd, budget, _d + 1)

    if isinstance(v, collections.abc.Mapping):
        return ["D", [[sub(k, 0), sub(x)] for k, x in list(v.items())[:1000]]]
    if isinstance(v, (list, tuple, collections.deque)):
        return ["T" if isinstance(v, tuple) else "L", [sub(x) for x in list(v)[:1000]]]
    if isinstance(v, (set, frozenset)):
        return ["E", [sub(x) for x in list(v)[:1000]]]
    got = enc(v)
    t = type(v)
    module = getattr(t, "__module__", "") or ""
    if got[0] != "O" or depth <= 0 or not _is_object(v) or module.split(".")[0] in _PLOTS:
        return got
    state = getattr(v, "__dict__", None)
    names = sorted(k for k in state if isinstance(k, str) and not k.startswith("_")) if isinstance(state, dict) else []
    plain, nested = [], []  # the attributes holding a scalar first (what a reader looks for), then the others
    for k in names:
        if _is_object(state[k]):
            got = sub(state[k], depth - 1)
            (nested if got[0] in _COMPOUND else plain).append([["S", k], got])
    if not names:
        plain.append([["S", "repr"], ["S", repr(v)[:300]]])
    return ["T", [["S", f"{module}:{t.__qualname__}"], ["D", plain], ["D", nested]]]


_COMPOUND = frozenset({"L", "T", "D", "E", "Z", "U", "G", "A", "P", "W", "K", "J", "O"})


def _random_state():
    """The state every unit and call starts from: 0, or the one the run's ``random_state`` file
    names (the reference run again from another state shows which values depend on it)."""
    try:
        with open("random_state") as f:
            return int(f.read().strip() or 0)
    except (OSError, ValueError):
        return 0


RANDOM_STATE = _random_state()


def seed_random():
    """One random state for both sides of a comparison: Python's, and numpy's when it is loaded."""
    random.seed(RANDOM_STATE)
    if "numpy" in sys.modules:
        sys.modules["numpy"].random.seed(RANDOM_STATE)


def random_states(numpy_too):
    """The global random states, as plain data: Python's, and numpy's (``numpy_too``: numpy was
    loaded when the unit started, so its state is the unit's, seeded or set by the test; else None)."""
    version, internal, gauss = random.getstate()
    mine = [version, list(internal), gauss]
    if not numpy_too or "numpy" not in sys.modules:
        return [mine, None]
    name, keys, pos, has_gauss, cached = sys.modules["numpy"].random.get_state()
    return [mine, [str(name), [int(k) for k in keys], int(pos), int(has_gauss), float(cached)]]


def set_random_states(states):
    """The program's process takes the test's random states (``random_states``) for a call: the
    test seeded them (``random.seed(42)`` before ``task_func()``) or drew from them, as it would
    have in one process.  A state not given (numpy's) starts from the usual one."""
    mine, theirs = states
    random.setstate((int(mine[0]), tuple(int(x) for x in mine[1]), None if mine[2] is None else float(mine[2])))
    if "numpy" in sys.modules:
        np = sys.modules["numpy"]
        if theirs is None:
            np.random.seed(RANDOM_STATE)
        else:
            np.random.set_state((str(theirs[0]), np.array(theirs[1], dtype=np.uint32), int(theirs[2]),
                                 int(theirs[3]), float(theirs[4])))


# libraries whose objects live in the program's process as handles (any other object is opaque)
_LIBRARIES = frozenset({"matplotlib", "seaborn", "sklearn", "scipy", "statsmodels", "numpy", "pandas", "PIL",
                        "nltk", "sympy", "networkx", "bs4", "requests", "openpyxl", "docx", "xlwt", "shapely"})


def _class_name(t):
    """The classes of ``t``'s line that their modules name, as ``module:qualname|...``
    (matplotlib's ``AxesSubplot`` is made by a factory from ``SubplotBase`` and ``Axes``)."""
    named = []
    for cls in t.__mro__:
        found = sys.modules.get(cls.__module__)
        for part in cls.__qualname__.split("."):
            found = getattr(found, part, None)
        if found is cls and cls.__module__.split(".")[0] in _LIBRARIES:
            named.append(f"{cls.__module__}:{cls.__qualname__}")
    return "|".join(named[:8]) or f"{t.__module__}:{t.__qualname__}"


def _enc_library(v, t, handles, budget, d):
    """The tagged form of a date, or of numpy's and pandas' data when that library is loaded here;
    None for anything else."""
    def sub(x):  # a part of the value
        return enc(x, handles, budget, d + 1)

    if t is datetime.datetime:
        return ["DT", v.isoformat()]
    if t is datetime.date:
        return ["DA", v.isoformat()]
    if t is datetime.time:
        return ["TM", v.isoformat()]
    if t is datetime.timedelta:
        return ["TD", v.days, v.seconds, v.microseconds]
    np = sys.modules.get("numpy")
    if np is None:
        return None
    if t is np.ndarray:
        if v.dtype.names or not _DTYPE.fullmatch(v.dtype.str):
            return None
        budget[0] -= v.size
        if budget[0] < 0:
            raise ValueError("the value is too large or too deep to compare")
        flat = v.ravel()
        if v.dtype.kind in "Mm":
            items = [["I", str(x)] for x in flat.view("int64").tolist()]
        else:
            items = [sub(x) for x in flat.tolist()]
        return ["A", v.dtype.str, list(v.shape), items]
    if isinstance(v, np.generic) and t.__module__ == "numpy":
        if v.dtype.names or not _DTYPE.fullmatch(v.dtype.str) or v.dtype.kind == "O":
            return None
        if v.dtype.kind in "Mm":
            return ["a", v.dtype.str, ["I", str(int(v.view("int64")))]]
        x = v.item()
        return None if isinstance(x, np.generic) else ["a", v.dtype.str, sub(x)]
    pd = sys.modules.get("pandas")
    if pd is None:
        return None
    if t is pd.DataFrame:
        columns = [sub(v.iloc[:, j].to_numpy()) for j in range(v.shape[1])]
        return ["P", sub(v.columns), sub(v.index), columns, [str(x) for x in v.dtypes]]
    if t is pd.Series:
        return ["W", sub(v.to_numpy()), sub(v.index), sub(v.name), str(v.dtype)]
    if isinstance(v, pd.MultiIndex):
        return ["K", [sub(x) for x in v.tolist()], sub(list(v.names))]
    if isinstance(v, pd.Index) and t.__module__.startswith("pandas"):
        return ["J", sub(v.to_numpy()), sub(v.name), str(v.dtype)]
    if t is pd.Timestamp:
        return ["TS", v.isoformat()]
    if t is pd.Timedelta:
        return ["TL", str(v.value)]
    if v is pd.NaT:
        return ["NT"]
    if v is pd.NA:
        return ["NA"]
    return None


def data_class(cls):
    """Is ``cls`` one whose values travel as data (above)?  A handle that claims one is refused:
    the checker would otherwise ask the program's process what such a value holds."""
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    kinds = [datetime.date, datetime.time, datetime.timedelta, pathlib.PurePath]
    if np is not None:
        kinds += [np.ndarray, np.generic]
    if pd is not None:
        kinds += [pd.DataFrame, pd.Series, pd.Index, pd.Timestamp, pd.Timedelta]
    return any(issubclass(cls, k) for k in kinds)


def _dtype(np, s):
    if not isinstance(s, str) or not _DTYPE.fullmatch(s):
        raise ValueError("not a plain dtype")
    return np.dtype(s)


def _dec_library(tag, v, handle, d):
    """The value of a library tag (``_enc_library``'s), rebuilt from its values and a checked dtype."""
    if tag == "DT":
        return datetime.datetime.fromisoformat(str(v[1]))
    if tag == "DA":
        return datetime.date.fromisoformat(str(v[1]))
    if tag == "TM":
        return datetime.time.fromisoformat(str(v[1]))
    if tag == "TD":
        return datetime.timedelta(days=int(v[1]), seconds=int(v[2]), microseconds=int(v[3]))
    import numpy as np

    if tag == "A":
        dt, shape = _dtype(np, v[1]), [int(n) for n in v[2]]
        if dt.kind in "Mm":
            flat = np.array([int(dec(x, handle, d)) for x in v[3]], dtype="int64").view(dt)
        elif dt.kind == "O":
            flat = np.empty(len(v[3]), dtype=object)
            for i, x in enumerate(v[3]):
                flat[i] = dec(x, handle, d)
        else:
            flat = np.array([dec(x, handle, d) for x in v[3]], dtype=dt)
        return flat.reshape(shape)
    if tag == "a":
        dt = _dtype(np, v[1])
        if dt.kind in "Mm":
            return np.array(int(dec(v[2], handle, d)), dtype="int64").view(dt)[()]
        return dt.type(dec(v[2], handle, d))
    import pandas as pd

    if tag == "P":
        columns, index = dec(v[1], handle, d), dec(v[2], handle, d)
        data = [dec(c, handle, d) for c in v[3]]
        frame = pd.DataFrame(dict(enumerate(data)), index=index)
        frame.columns = columns
        for j, name in enumerate(v[4] if isinstance(v[4], list) else []):
            if name in _EXTENSION and j < frame.shape[1]:
                frame.isetitem(j, frame.iloc[:, j].astype(name))
        return frame
    if tag == "W":
        s = pd.Series(dec(v[1], handle, d), index=dec(v[2], handle, d), name=dec(v[3], handle, d))
        return s.astype(v[4]) if v[4] in _EXTENSION else s
    if tag == "K":
        return pd.MultiIndex.from_tuples([dec(x, handle, d) for x in v[1]], names=dec(v[2], handle, d))
    if tag == "J":
        index = pd.Index(dec(v[1], handle, d), name=dec(v[2], handle, d))
        return index.astype(v[3]) if v[3] in _EXTENSION else index
    if tag == "TS":
        return pd.Timestamp(str(v[1]))
    if tag == "TL":
        return pd.Timedelta(int(v[1]))
    if tag == "NT":
        return pd.NaT
    if tag == "NA":
        return pd.NA
    raise ValueError("not a tagged value")


_LIBRARY_TAGS = frozenset({"DT", "DA", "TM", "TD", "A", "a", "P", "W", "K", "J", "TS", "TL", "NT", "NA"})


def dec(v, handle=None, _depth=0):
    if not isinstance(v, list) or not v or _depth > MAX_DEPTH:
        raise ValueError("not a tagged value")
    tag, d = v[0], _depth + 1
    if tag == "N":
        return None
    if tag == "B":
        return bool(v[1])
    if tag == "I":
        return int(v[1])
    if tag == "F":
        return float(v[1])
    if tag == "C":
        return complex(float(v[1]), float(v[2]))
    if tag == "S":
        return str(v[1])
    if tag == "Y":
        return bytes.fromhex(v[1])
    if tag == "L":
        return [dec(x, handle, d) for x in v[1]]
    if tag == "T":
        return tuple(dec(x, handle, d) for x in v[1])
    if tag == "D":
        return {dec(k, handle, d): dec(x, handle, d) for k, x in v[1]}
    if tag == "E":
        return {dec(x, handle, d) for x in v[1]}
    if tag == "Z":
        return frozenset(dec(x, handle, d) for x in v[1])
    if tag == "R":
        return range(int(v[1]), int(v[2]), int(v[3]))
    if tag == "X":
        return decimal.Decimal(v[1])
    if tag == "Q":
        return fractions.Fraction(v[1])
    if tag == "U":
        return collections.deque(dec(x, handle, d) for x in v[1])
    if tag == "G":
        return iter([dec(x, handle, d) for x in v[1]])
    if tag == "PA":
        return pathlib.PosixPath(str(v[1]))
    if tag == "PP":
        return pathlib.PurePosixPath(str(v[1]))
    if tag in _LIBRARY_TAGS:
        try:
            return _dec_library(tag, v, handle, d)
        except ImportError:  # a library this side cannot load
            return Opaque(tag)
    if tag == "H" and handle is not None:  # (a program's object: and its class's reference)
        return handle(int(v[1]), str(v[2]), cls=v[3] if len(v) > 3 and type(v[3]) is int else -1)
    if tag == "CO" and handle is not None:  # an object the checker lent (a mock): there, or its stand-in here
        return handle(int(v[1]), "", lent=True)
    if tag == "M" and handle is not None:  # a method (or a class's function), as read then
        return handle(int(v[1]), str(v[2]), method=True)
    return Opaque(str(v[1]) if len(v) > 1 else "object")
