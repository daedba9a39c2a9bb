"""The code-review family (docs/review-format.md): sample schema, label judge with the
classification metrics the field reports, and how a model is asked, with demonstrations of
whole review dialogues from the same project."""

from truepass.families.review.family import ReviewFamily

FAMILY = ReviewFamily
