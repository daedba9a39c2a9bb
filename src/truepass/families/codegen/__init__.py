"""The codegen family (docs/codegen-format.md): sample schema, judge, and how a model is asked."""

from truepass.families.codegen.family import CodegenFamily

FAMILY = CodegenFamily
