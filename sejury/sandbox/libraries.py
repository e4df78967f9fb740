"""Which sandbox image a sample's code needs, and what a missing library looks like.

Two profiles (``sandbox/docker/image.py``): ``base`` (each language's toolchain and standard
library) and ``scientific`` (the base plus Debian's scientific Python stack: numpy, pandas,
matplotlib, scikit-learn, scipy, seaborn, statsmodels, nltk, requests, bs4, ...; five of them at
BigCodeBench's own versions, ``PINNED_WHEELS``).  A sample runs in
the scientific image when its reference or candidate imports one of ``SCIENTIFIC_MODULES``, or when
it says so (``"sandbox": "scientific"``).  A program that imports a library the image lacks gets a
clear "missing library" status: the judge's fault, never the candidate's.
"""

from __future__ import annotations

import ast
import functools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sejury.schema import Sample

PROFILES = ("base", "scientific")
# Seconds a run on a profile's image may take beyond its language's time limit: numpy, pandas,
# OpenCV or matplotlib take seconds to import in a fresh container, and many more on a busy machine
# (the OpenCV test's reference run: 4-6 s alone, over the 20 s limit beside the other Docker tests
# on 2 cores).  A candidate's own limit follows the reference's time anyway.  Added to every run's
# limit by ``SandboxProvider.run``.
START_ALLOWANCE = {"scientific": 40.0}


def start_allowance(profile: str) -> float:
    """``START_ALLOWANCE`` of a profile (0 for the base image)."""
    return START_ALLOWANCE.get(profile, 0.0)
# The scientific image's Debian packages (bookworm's scientific Python stack: the suite pins each
# version), in the order the image installs them (``sandbox/docker/image.py``), each with the import
# names it provides: the one home of the image's package list and of ``SCIENTIFIC_MODULES``
SCIENTIFIC_PACKAGES: dict[str, tuple[str, ...]] = {
    "python3-numpy": ("numpy",), "python3-pandas": ("pandas",), "python3-matplotlib": ("matplotlib", "mpl_toolkits"),
    "python3-scipy": ("scipy",), "python3-sklearn": ("sklearn",), "python3-seaborn": ("seaborn",),
    "python3-statsmodels": ("statsmodels",), "python3-sympy": ("sympy",), "python3-nltk": ("nltk",),
    "python3-requests": ("requests",), "python3-bs4": ("bs4",), "python3-lxml": ("lxml",),
    "python3-dateutil": ("dateutil",), "python3-tz": ("pytz",), "python3-pil": ("PIL",),
    "python3-openpyxl": ("openpyxl",), "python3-xlwt": ("xlwt",), "python3-regex": ("regex",),
    "python3-rsa": ("rsa",), "python3-psutil": ("psutil",), "python3-yaml": ("yaml",),
    "python3-flask": ("flask", "werkzeug", "jinja2"),  # werkzeug and jinja2: flask's dependencies
    "python3-django": ("django",), "python3-natsort": ("natsort",), "python3-texttable": ("texttable",),
    "python3-docx": ("docx",), "python3-chardet": ("chardet",), "python3-xmltodict": ("xmltodict",),
    "python3-levenshtein": ("Levenshtein",),
    # the other libraries BigCodeBench's code imports that Debian packages (33 of the 41 rows of the
    # shared set the stack above cannot run; +0.9 GB, about a minute to build)
    "python3-opencv": ("cv2",), "python3-skimage": ("skimage",), "python3-cryptography": ("cryptography",),
    "python3-pycryptodome": ("Cryptodome",), "python3-flask-mail": ("flask_mail",),
    "python3-flask-restful": ("flask_restful",), "python3-flaskext.wtf": ("flask_wtf",),
    "python3-flask-login": ("flask_login",), "python3-wtforms": ("wtforms",), "python3-folium": ("folium",),
    "python3-geopy": ("geopy",), "python3-geopandas": ("geopandas",), "python3-shapely": ("shapely",),
    "python3-mechanize": ("mechanize",), "python3-pyquery": ("pyquery",), "python3-holidays": ("holidays",),
    "python3-soundfile": ("soundfile",), "python3-fake-factory": ("faker",), "python3-prettytable": ("prettytable",),
}
# The scientific image's second layer: BigCodeBench's own versions (its evaluation environment,
# Requirements/requirements-eval.txt) of the libraries whose APIs its code relies on where Debian's
# are older: seaborn 0.13 (``countplot(..., legend=False)`` raises on 0.12), pandas 2.0, matplotlib
# 3.7, scikit-learn 1.3, statsmodels 0.14.  Wheels from PyPI for CPython 3.11 on x86-64, each checked
# against its sha256 when downloaded; they are installed over Debian's (in /usr/local, which Python
# reads first).  numpy and scipy stay Debian's (1.24, 1.10): BigCodeBench pins 1.21 and 1.7, which
# have no wheels for Python 3.11.  name -> (version, the wheel's sha256)
PINNED_WHEELS: dict[str, tuple[str, str]] = {
    "pandas": ("2.0.3", "d9cd88488cceb7635aebb84809d087468eb33551097d600c6dad13602029c2df"),
    "matplotlib": ("3.7.0", "691ef1f15360e439886186d0db77b5345b24da12cbc4fc57b26c4826db4d6cab"),
    "seaborn": ("0.13.2", "636f8336facf092165e27924f223d3c62ca560b1f2bb5dff7ab7fad265361987"),
    "scikit-learn": ("1.3.1", "c6448c37741145b241eeac617028ba6ec2119e1339b1385c9720dae31367f2be"),
    "statsmodels": ("0.14.0", "0ef7fa4813c7a73b0d8a0c830250f021c102c71c95e9fe0d6877bcfb56d38b8c"),
}
# the import names the scientific image provides (its Debian packages' modules)
SCIENTIFIC_MODULES = frozenset(name for names in SCIENTIFIC_PACKAGES.values() for name in names)
# well-known libraries no image here has: importing one is the image's gap, not the candidate's error
# (not wordcloud: Debian's needs TeX's fonts, 1.4 GB; not tensorflow, keras, librosa, textblob, ...:
# Debian has no package of them)
OTHER_KNOWN = frozenset({
    "torch", "tensorflow", "keras", "transformers", "xgboost", "lightgbm", "gensim", "spacy", "textblob",
    "librosa", "pytesseract", "Crypto", "tabulate", "networkx", "plotly", "bokeh", "sqlalchemy", "pymongo", "redis",
    "boto3", "h5py", "tables", "pyarrow", "python_http_client", "sendgrid", "docx2txt", "camelot", "wikipedia",
    "xlrd", "langdetect", "wordcloud", "wordninja", "blake3"})
KNOWN_LIBRARIES = SCIENTIFIC_MODULES | OTHER_KNOWN
_IMPORT = re.compile(r"^[ \t]*(?:import|from)\s+([A-Za-z_]\w*)", re.M)
_MISSING = re.compile(r"No module named '([A-Za-z_]\w*)")


@functools.lru_cache(maxsize=256)
def imports(program: str) -> frozenset[str]:
    """The top-level modules ``program`` imports (Python); remembered, as every juror of a sample
    asks which image its code needs (``JudgeContext.for_sample``)."""
    try:
        tree = ast.parse(program)
    except (SyntaxError, ValueError, RecursionError, MemoryError):  # as execution's _pysource.UNPARSEABLE
        return frozenset(_IMPORT.findall(program))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            out.add(node.module.split(".")[0])
    return frozenset(out)


def profile_for(language: str, programs: list[str], metadata: dict[str, object]) -> str:
    """The sandbox profile a sample needs: the one it names (``"sandbox"``), else ``scientific``
    for Python code that imports what only that image has, else ``base``."""
    named = metadata.get("sandbox")
    if isinstance(named, str) and named.strip().lower() in PROFILES:
        return named.strip().lower()
    if language != "python":
        return "base"
    return "scientific" if any(imports(p) & SCIENTIFIC_MODULES for p in programs if p) else "base"


def sample_profile(sample: Sample) -> str:
    """``profile_for`` of a sample: its reference's and candidate's code, and its metadata."""
    return profile_for(sample.language, [sample.reference or "", sample.candidate], sample.metadata)


def missing_library(load_error: str) -> str | None:
    """The known library a failed load could not import (``ModuleNotFoundError``), if that is why."""
    m = _MISSING.search(load_error)
    return m.group(1) if m and m.group(1) in KNOWN_LIBRARIES else None


def missing_note(module: str) -> str:
    """What to tell the user about a library the sandbox image lacks."""
    if module in SCIENTIFIC_MODULES:
        return (f"missing library {module}: this sandbox image lacks it; it is in the scientific image "
                "(`sejury sandbox build --profile scientific`)")
    return f"missing library {module}: no sandbox image here has it, so the code cannot run (not the candidate's fault)"
