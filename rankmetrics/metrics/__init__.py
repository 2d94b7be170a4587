"""The metrics: one module per family, the shared conventions and the input forms.

Importing this package registers every metric (see :mod:`rankmetrics.registry`)
in reading order, the order the command line and ``explain`` list them in:
the DCG family, set-based, rank-based, rating errors, then trec_eval's
other measures.
"""

# isort: off
from . import dcg, set_based, rank_based, rating, ordering  # noqa: F401  (registers the metrics)
from . import trec_measures  # noqa: F401  (trec_eval's other measures, after the package's own)
# isort: on
