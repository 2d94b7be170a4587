"""The metrics: one module per family, the shared conventions and the input forms.

Importing this package registers every metric (see :mod:`rankmetrics.registry`)
in reading order, the order the command line and ``explain`` list them in:
the DCG family, set-based, rank-based, rating errors.
"""

# isort: off
from . import dcg, set_based, rank_based, rating, ordering  # noqa: F401  (registers the metrics)
# isort: on
