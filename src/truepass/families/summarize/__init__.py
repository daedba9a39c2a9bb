"""The summarisation family (docs/summarize-format.md): sample schema, metric judge, and how a
model is asked, with demonstrations from the same project."""

from truepass.families.summarize.family import SummarizeFamily

FAMILY = SummarizeFamily
