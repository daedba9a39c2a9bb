"""The five-stage repair workflow, ``workflow:MODEL`` (docs/workflow.md): localise (SBFL and stack
traces), static analysis near the suspect lines, N candidate patches from the model, pre-filter
and selection on the visible tests and fuzzed inputs in the sandbox, and an explanation of the
root cause. :mod:`.judging` is the judge's side: every candidate judged, to tell whether a correct
one existed and whether selection took it."""
