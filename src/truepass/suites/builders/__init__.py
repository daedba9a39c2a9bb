"""Suite builders: suites made from material that is not a benchmark (``truepass build-suite``).

An adapter (:mod:`truepass.suites.adapters`) reads a published benchmark as it is; a builder
makes samples out of something else (source code, run directories) and writes them as a suite
directory. ``summarize``: functions and their docstrings from Python source
(docs/summarize-format.md).
"""
