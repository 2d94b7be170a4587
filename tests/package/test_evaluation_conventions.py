"""The conventions object shared by evaluate and compare: checked once, overridable, with a card.

The expected values are worked by hand in the comments.
"""

from __future__ import annotations

import pytest

import rankmetrics as rm
from rankmetrics.trec import presets
from rankmetrics.trec.conventions import UNSET, Conventions, Preset

QRELS = {"q1": {"a": 1, "b": 1, "c": 0}, "q2": {"d": 2}}
# q1 by score: b (0.9), c (0.7), a (0.5); q2: e (0.6), d (0.4).
RUN = {"q1": {"a": 0.5, "b": 0.9, "c": 0.7}, "q2": {"d": 0.4, "e": 0.6}}


@pytest.fixture
def preset():
    """A throwaway preset, removed again after the test."""
    made = presets.register_preset(
        Preset(
            "test-cut", "the first document only, input order", {"max_documents": 1, "ties": "input_order"}
        )
    )
    yield made
    del presets.PRESETS[made.name]


def test_default_preset_and_argument_each_say_where_they_came_from(preset):
    c = Conventions.resolve(presets.find("test-cut"), ties="docno_descending")
    assert c["max_documents"] == 1 and c.source("max_documents") == "preset test-cut"
    assert c["ties"] == "docno_descending" and c.source("ties") == "argument"  # the argument wins
    assert c["gain"] == "linear" and c.source("gain") == "default"
    assert c.preset == "test-cut"
    card = c.card().splitlines()
    assert card[0].split() == ["setting", "value", "from"]
    rows = {line.split()[0]: line.split()[1:] for line in card[2:]}
    assert (
        list(rows)
        == list(c)
        == [
            "reference",
            "relevance_level",
            "missing",
            "unjudged",
            "ties",
            "score_precision",
            "gain",
            "ideal",
            "denominator",
            "precision_denominator",
            "recall_denominator",
            "discount",
            "averaging",
            "fractional_grades",
            "judged_only",
            "max_documents",
        ]
    )
    assert rows["max_documents"] == ["1", "preset", "test-cut"]
    assert rows["ties"] == ["docno_descending", "argument"]


def test_a_preset_reaches_evaluate_and_compare(preset):
    # max_documents=1: q1 keeps b (relevant) -> P@1 = 1; q2 keeps e (unjudged) -> 0.
    by_preset = rm.evaluate(QRELS, RUN, "P_1", like="test-cut")
    assert by_preset.per_query["P_1"].tolist() == [1.0, 0.0]
    assert by_preset.conventions.source("max_documents") == "preset test-cut"
    # num_ret counts what is kept: 1 per query under the preset, 3 and 2 without it.
    assert rm.evaluate(QRELS, RUN, "num_ret", like="test-cut").summary["num_ret"] == 2
    assert rm.evaluate(QRELS, RUN, "num_ret", like="test-cut", max_documents=2).summary["num_ret"] == 4
    assert rm.evaluate(QRELS, RUN, "num_ret").summary["num_ret"] == 5
    pytest.importorskip("scipy")
    both = rm.compare(RUN, RUN, QRELS, "num_ret", like="test-cut", n_resamples=99)
    assert both.a.per_query["num_ret"].tolist() == [1.0, 1.0]
    assert both.a.conventions.source("max_documents") == "preset test-cut"


def test_compare_passes_every_convention_through_once():
    pytest.importorskip("scipy")
    # judged_only drops e from q2, so d moves to rank 1: RR 1 (without it, RR 1/2).
    result = rm.compare(RUN, RUN, QRELS, "recip_rank", judged_only=True, n_resamples=99)
    assert result.a.per_query["recip_rank"].tolist() == [1.0, 1.0]
    assert dict(result.a.conventions) == dict(Conventions.resolve(judged_only=True))
    with pytest.raises(ValueError, match="unknown convention 'tie'"):
        rm.compare(RUN, RUN, QRELS, "recip_rank", tie="average")
    with pytest.raises(ValueError, match="max_documents must be a positive integer"):
        rm.compare(RUN, RUN, QRELS, "recip_rank", max_documents=0)


def test_an_earlier_conventions_object_is_reused_and_overridden():
    base = Conventions.resolve(relevance_level=2)
    # relevance_level 2: only q2's d (grade 2) is relevant; q1 has none, so AP 0; q2: d at rank 2, AP 1/2.
    result = rm.evaluate(QRELS, RUN, "map", conventions=base)
    assert result.per_query["map"].tolist() == [0.0, 0.5]
    assert result.conventions.source("relevance_level") == "argument"  # kept from base
    lowered = rm.evaluate(QRELS, RUN, "map", conventions=base, relevance_level=1)
    # level 1: q1 relevant a, b at ranks 3 and 1: (1/1 + 2/3) / 2 = 5/6; q2 unchanged 1/2.
    assert lowered.per_query["map"].tolist() == [pytest.approx(5 / 6), 0.5]
    with pytest.raises(ValueError, match="not both"):
        rm.evaluate(QRELS, RUN, "map", conventions=base, like="ranx")  # a preset by name, and one inside base
    with pytest.raises(ValueError, match="conventions must be a Conventions object"):
        rm.evaluate(QRELS, RUN, "map", conventions={"ties": "average"})


def test_bad_settings_are_refused_by_name_and_value():
    with pytest.raises(ValueError, match=r"like must be one of .*; got 'trec_eval-11'"):
        rm.evaluate(QRELS, RUN, "map", like="trec_eval-11")
    with pytest.raises(ValueError, match="unknown convention 'gains'"):
        Conventions.resolve(gains="linear")
    with pytest.raises(ValueError, match="ties must be one of"):
        Conventions(ties="random")
    with pytest.raises(ValueError, match="preset 'bad' sets unknown conventions"):
        presets.register_preset(Preset("bad", "", {"gains": "linear"}))
    with pytest.raises(ValueError, match="gain must be one of"):
        presets.register_preset(Preset("bad", "", {"gain": "cubic"}))
    assert "bad" not in presets.PRESETS


def test_unset_means_not_given_and_the_settings_read_as_a_dict():
    assert Conventions.resolve(ties=UNSET) == Conventions()
    assert Conventions.resolve(ties=UNSET).source("ties") == "default"
    assert dict(Conventions(judged_only=True))["judged_only"] is True
    assert repr(UNSET) == "<default>"


def test_the_reference_version_sets_score_precision_unless_it_is_given():
    ten, nine = Conventions.resolve(), Conventions.resolve(presets.find("trec_eval-9"))
    assert (ten["reference"], ten["score_precision"], ten.recall_rank) == (
        "trec_eval-10",
        "float64",
        "lround",
    )
    assert (nine["reference"], nine["score_precision"], nine.recall_rank) == (
        "trec_eval-9",
        "float32",
        "plus_0.9",
    )
    assert nine.source("reference") == "preset trec_eval-9"
    assert nine.source("score_precision") == "reference trec_eval-9"
    # Changing the reference of an earlier object derives score_precision again ...
    again = Conventions.resolve(base=nine, reference="trec_eval-10")
    assert (
        again["score_precision"] == "float64" and again.source("score_precision") == "reference trec_eval-10"
    )
    # ... but a score_precision that was given stays.
    kept = Conventions.resolve(base=Conventions.resolve(score_precision="float32"), reference="trec_eval-9")
    assert kept["score_precision"] == "float32" and kept.source("score_precision") == "argument"
    with pytest.raises(
        ValueError, match="reference must be one of 'trec_eval-10', 'trec_eval-9'; got '9.0.8'"
    ):
        Conventions(reference="9.0.8")


def test_recall_levels_become_ranks_by_the_reference_versions_rule():
    # R = 4 (d is judged relevant but not retrieved); ranked grades 1 1 0 1: precision 1, 1, -, 3/4
    # at the relevant ranks 1, 2 and 4. Recall 0.6 asks for lround(0.6 * 4) = lround(2.4) = 2
    # relevant documents in trec_eval 10.0 (best precision from rank 2 on: 1.0), and for
    # int(2.4 + 0.9) = 3 in 9.x (best from rank 4 on: 0.75).
    qrels = {"q": {"a": 1, "b": 1, "c": 0, "e": 1, "d": 1}}
    run = {"q": {"a": 0.9, "b": 0.8, "c": 0.7, "e": 0.6}}
    ten = rm.evaluate(qrels, run, "iprec_at_recall_0.60")
    nine = rm.evaluate(qrels, run, "iprec_at_recall_0.60", like="trec_eval-9")
    assert (ten.value("iprec_at_recall_0.60", "q"), nine.value("iprec_at_recall_0.60", "q")) == (1.0, 0.75)
    # 11pt_avg: level r asks for lround(4r) (10.0) or int(4r + 0.9) (9.x) relevant documents.
    # 10.0: r = 0..0.1 -> 0, 0.2..0.3 -> 1, 0.4..0.6 -> 2 (all 1.0), 0.7..0.8 -> 3 (0.75), 0.9..1 -> 4 (0)
    #       = (7 * 1 + 2 * 0.75) / 11.  9.x: r = 0 -> 0, 0.1..0.2 -> 1, 0.3..0.5 -> 2 (1.0),
    #       0.6..0.7 -> 3 (0.75), 0.8..1 -> 4 (0) = (6 * 1 + 2 * 0.75) / 11.
    assert rm.evaluate(qrels, run, "11pt_avg").summary["11pt_avg"] == pytest.approx(8.5 / 11, abs=1e-15)
    nine_avg = rm.evaluate(qrels, run, "11pt_avg", like="trec_eval-9").summary["11pt_avg"]
    assert nine_avg == pytest.approx(7.5 / 11, abs=1e-15)
