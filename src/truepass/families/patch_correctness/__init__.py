"""The patch-correctness family (docs/patch-correctness-format.md): a buggy file, a patch that
passes its visible tests, and whether the hidden tests found it correct or overfitting. Answers
are labels; demonstrations mix correct and overfitting patches. Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
