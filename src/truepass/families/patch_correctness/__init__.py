"""The patch-correctness family (docs/patch-correctness-format.md): a buggy file, a patch that
passes its visible tests, and whether the hidden tests found it correct or overfitting. Answers
are labels; demonstrations mix correct and overfitting patches."""

from truepass.families.patch_correctness.family import PatchCorrectnessFamily

FAMILY = PatchCorrectnessFamily
