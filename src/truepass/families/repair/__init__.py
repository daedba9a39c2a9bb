"""The repair family (docs/suite-format.md): its package holds the sample schema, the judge, the
test runners per language, the fake-fix detectors and test selection."""

from truepass.families.repair.family import RepairFamily

FAMILY = RepairFamily
