"""The TREC reader's lower layers: bytes to lines (:mod:`.blocks`); lines to tokens, and tokens to numbers and text (:mod:`.tokens`).

None knows what a qrels or a run file is: :mod:`rankmetrics.trec.files`
declares the formats and reads the fields out of the tokens.
"""
