"""scripts/deb_src_entries.sh: the deb-src entries `make test` writes for `apt-get source` come
from the machine's own deb entries (one-line and deb822), never from a mirror the project names."""

from __future__ import annotations

import subprocess
from pathlib import Path

SCRIPT = Path(__file__).parents[1] / "scripts" / "deb_src_entries.sh"


def _entries(root: Path) -> str:
    got = subprocess.run(["sh", str(SCRIPT)], env={"APT_ROOT": str(root), "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True)  # fmt: skip
    return got.stdout


def test_one_line_and_deb822_entries_become_deb_src(tmp_path: Path) -> None:
    apt = tmp_path / "etc" / "apt"
    (apt / "sources.list.d").mkdir(parents=True)
    (apt / "sources.list").write_text(
        "deb [arch=amd64 signed-by=/k.gpg] http://mirror.local/debian bookworm main contrib\n"
        "# deb http://commented.out/debian bookworm main\n"
        "deb-src http://already.src/debian bookworm main\n"
    )
    (apt / "sources.list.d" / "local.sources").write_text(
        "Types: deb\nURIs: http://mirror.local/debian-security\nSuites: bookworm-security\n"
        "Components: main\n\n"
        "Types: deb\nURIs: http://disabled.local/debian\nSuites: x\nEnabled: no\n"
    )
    out = _entries(tmp_path)
    stanzas = [s for s in out.split("\n\n") if s.strip()]
    assert stanzas[0].splitlines() == [
        "Types: deb-src", "URIs: http://mirror.local/debian", "Suites: bookworm",
        "Components: main contrib", "Signed-By: /k.gpg",
    ]  # fmt: skip
    assert stanzas[1].splitlines() == [
        "Types: deb-src", "URIs: http://mirror.local/debian-security",
        "Suites: bookworm-security", "Components: main",
    ]  # fmt: skip
    assert len(stanzas) == 2
    assert (
        "commented.out" not in out and "disabled.local" not in out and "deb.debian.org" not in out
    )
