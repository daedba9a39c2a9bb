"""stockroom: a small order, inventory and billing service for a shop (standard library only).

Modules, from the bottom up: ``money`` and ``dates`` (values), ``csvfile`` and ``rules``
(parsers), ``models`` and ``storage`` (records in SQLite), ``inventory``, ``pricing``, ``tax``,
``orders`` and ``billing`` (business rules), ``reports`` and ``importer`` (in and out).
"""

from stockroom.errors import StockroomError
from stockroom.money import Money

__version__ = "1.0.0"
__all__ = ["Money", "StockroomError", "__version__"]
