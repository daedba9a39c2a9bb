"""Shared by every test: no test reads or writes the user's machine-wide sample-check cache
(tests of the cache give it their own file)."""

from __future__ import annotations

import os

os.environ["TRUEPASS_CHECK_CACHE"] = "off"
