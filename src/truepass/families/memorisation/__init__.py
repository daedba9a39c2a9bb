"""The memorisation probe (docs/memorisation-format.md): the first part of a suite's source files
in, the next lines out, compared with the file's own next lines; target files (a public benchmark)
against control files the model cannot have seen (the bundled private suites). Its class is
``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
