"""The rebuild family: rebuild a program from its executable and documentation
(docs/rebuild-format.md)."""

from truepass.families.rebuild.family import RebuildFamily

FAMILY = RebuildFamily
