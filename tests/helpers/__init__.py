"""What the tests share: fake chat models and an OpenAI-compatible fake server, the repository's
paths, process trees from /proc, the trace and ranking pages' readers.  Imported as
``tests.helpers.<module>`` (``tests`` is a package; pytest puts the repository on the path)."""
