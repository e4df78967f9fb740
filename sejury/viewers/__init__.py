"""A stored judgment, shown: ``tree`` for the terminal (``sejury trace``), ``html`` for one
standalone page (``sejury trace --html``), and what both read of a verdict (``common``).  They sit
above the strategies and the merge; the store they read is ``sejury.traces``."""
