"""The code-review family (docs/review-format.md): sample schema, label judge with the
classification metrics the field reports, and how a model is asked, with demonstrations of
whole review dialogues from the same project. Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
