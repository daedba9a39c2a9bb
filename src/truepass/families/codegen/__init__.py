"""The codegen family (docs/codegen-format.md): sample schema, judge, and how a model is asked. Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
