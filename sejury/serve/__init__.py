"""``sejury serve``: the judge over HTTP.  A FastAPI app (``create_app``) with the judgment routes by
LangServe behind ``routes.py`` (the one module that imports it), ``/healthz``, OpenAPI, an API key,
a body limit and a bound on judgments in flight.  Needs the ``serve`` extra:
``pip install 'sejury[serve]'``.

>>> app = create_app(Judge(model="openai:gpt-4o-mini"), ServeSettings(max_concurrent=8))
"""

from sejury.config import ServeSettings
from sejury.serve.app import create_app
from sejury.serve.runnable import JudgeEvent, JudgeRunnable

__all__ = ["JudgeEvent", "JudgeRunnable", "ServeSettings", "create_app"]
