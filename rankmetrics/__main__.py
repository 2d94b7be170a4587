"""``python -m rankmetrics ...``: the command-line calculator (see :mod:`rankmetrics.cli`)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
