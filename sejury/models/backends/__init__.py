"""The model backends, one module each holding a ``BACKEND`` (``sejury.models.base.Backend``),
registered in ``sejury.models.BACKENDS`` when first read: ``llama_server`` (the bundled model behind
a managed llama.cpp server, the default), ``llama_inprocess`` (the same model in this process),
``openai_compatible`` (any server speaking OpenAI's chat completions, with ``--base-url``) and
``langchain_provider`` (``provider:name``, LangChain's ``init_chat_model``).  Adding a backend is
adding one module here, or an entry point in the ``sejury.backends`` group from another package.
"""
