"""The rebuild family: rebuild a program from its executable and documentation
(docs/rebuild-format.md). Its
class is ``family.py``'s ``FAMILY``, which the registry loads when the family is asked for."""
