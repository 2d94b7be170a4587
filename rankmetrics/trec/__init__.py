"""Many queries at once: TREC files and dicts, ranking by score, evaluate and compare."""
