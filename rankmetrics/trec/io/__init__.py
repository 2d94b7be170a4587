"""The TREC reader's lower layers: bytes to lines (:mod:`.blocks`), lines to tokens (:mod:`.tokens`), ids (:mod:`.texts`).

None knows what a qrels or a run file is: :mod:`rankmetrics.trec.files`
declares the formats and reads the fields out of the tokens.
"""
