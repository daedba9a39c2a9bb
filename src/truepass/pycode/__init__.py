"""Python code as data, for every family and solver that reads or changes it: parsed sources
with their line offsets and edits (``sourcefile``), mutation operators (``mutants``: the repair
baselines' and codegen's hardening's), and typed value generation with invariants (``values``,
``inputs``, ``invariants``: hardening, the workflow's fuzzer and the differential probe, which
ships these three into the sandbox, so they use only the standard library and ``suites``'
literals)."""
