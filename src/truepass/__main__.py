"""``python -m truepass``: the same command as ``truepass``."""

from truepass.cli import app

if __name__ == "__main__":
    app(prog_name="truepass")
