"""The repair family (docs/suite-format.md): its package holds the sample schema, the judge, the
test runners per language, the fake-fix detectors and test selection. Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
