"""The summarisation family (docs/summarize-format.md): sample schema, metric judge, and how a
model is asked, with demonstrations from the same project. Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
