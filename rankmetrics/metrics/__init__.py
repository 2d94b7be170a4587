"""The metrics: one module per family, the shared conventions and the input forms.

Importing this package registers every metric (see :mod:`rankmetrics.registry`)
in reading order, the order the command line and ``explain`` list them in:
the DCG family, set-based, rank-based, rating errors, trec_eval's
other measures, then the recommender measures of lists, logs and sampled ranks.
"""

# isort: off
from . import dcg, set_based, rank_based, rating, ordering  # noqa: F401  (registers the metrics)
from . import trec_measures  # noqa: F401  (trec_eval's other measures, after the package's own)
from . import beyond_accuracy, item_attributes, off_policy, sampled  # noqa: F401  (recommender measures)
# isort: on
