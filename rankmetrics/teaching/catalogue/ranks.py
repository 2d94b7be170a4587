"""Teaching entries of the rank-based metrics (:mod:`rankmetrics.metrics.rank_based`)."""

from __future__ import annotations

from ...i18n import N_
from .. import hit_formulas
from .entries import Exercise, Reference, Teaching, teach

teach(
    Teaching(
        "reciprocal_rank",
        explain="hits",
        steps=hit_formulas.reciprocal_rank,
        reference=Reference(
            korean="역순위",
            formula=r"RR = \frac{1}{r_u}",
            conventions="$r_u$는 첫 관련 항목의 순위입니다. $k$ 안에 관련 항목이 없으면 0입니다.",
            papers=("voorhees1999trec8qa",),
            chapter="ch-rank_position",
            trec_files=("m_recip_rank.c",),
        ),
        examples=("rankmetrics rr --ranking X Y Z W --relevant Z", "rankmetrics rr 0 1 0 1 0 --explain"),
        worksheet=Exercise(
            N_("rank of the first relevant item {blank} → {label} = 1 ÷ {blank} = {blank}"),
        ),
        page=True,
    )
)
teach(
    Teaching(
        "mean_rank",
        explain="hits",
        steps=hit_formulas.mean_rank,
        reference=Reference(
            korean="평균 순위",
            formula=r"MR = \frac{1}{m} \sum_{j=1}^{m} r_j",
            conventions="목록(또는 상위 $k$개)에 든 관련 항목 $m$개의 순위를 평균합니다. 낮을수록 좋고, 관련 항목이 하나도 없으면 nan입니다.",
            papers=("bordes2013translating",),
            chapter="ch-rank_position",
        ),
        examples=("rankmetrics mr --ranking A B C D E --relevant B D",),
        worksheet=Exercise(
            N_(
                "ranks of the relevant items {blank}{blank} → {label} = sum of ranks {blank} ÷ relevant {blank} = {blank}"
            ),
        ),
        page=True,
    )
)
teach(
    Teaching(
        "average_precision",
        precision_at_hits=True,
        explain="hits",
        steps=hit_formulas.average_precision,
        reference=Reference(
            korean="평균 정밀도",
            formula=r"AP = \frac{1}{R} \sum_{i} P@i \cdot rel(i)",
            conventions='분모 $R$는 관련 항목 전체의 수입니다(`denominator="all_relevant"`, trec_eval의 `map`). `denominator="retrieved_relevant"`이면 목록에서 찾은 관련 항목 수로 나눕니다. 관련 항목이 없으면 0입니다.',
            papers=("buckley2000evaluating", "manning2008introduction"),
            chapter="ch-map",
            trec_files=("m_map.c", "m_map_cut.c"),
        ),
        examples=(
            "rankmetrics ap O X O X O",
            "rankmetrics ap O X O X O --n-relevant 4 --explain --decimals 2",
        ),
        worksheet=Exercise(
            N_("{label} = sum of precisions {blank} ÷ all relevant {blank} = {blank}"),
            columns=(N_("hits so far"), N_("precision at a relevant rank")),
            unlisted=True,
            note=N_("AP's denominator is the number of all relevant items, {relevant}."),
        ),
        page=True,
    )
)
teach(
    Teaching(
        "expected_reciprocal_rank",
        explain="err",
        reference=Reference(
            korean="기대 역순위",
            formula=r"ERR@k = \sum_{i=1}^{k} \frac{1}{i} \, \theta_i \prod_{j<i} (1 - \theta_j), \quad \theta_i = \frac{2^{rel_i} - 1}{2^{g_{max}}}",
            conventions=r"등급마다 사용자가 만족해 멈출 확률 $\theta_i$를 두고, 멈추는 순위의 역수를 기댓값으로 냅니다. 최고 등급 $g_{max}$는 4가 기본입니다(`max_grade`, gdeval.pl과 ir_measures의 `ERR`).",
            papers=("chapelle2009expected", "gdeval"),
            chapter="ch-ndcg_variants",
        ),
    )
)
teach(
    Teaching(
        "mean_reciprocal_rank",
        explain="mean",
        reference=Reference(
            korean="평균 역순위",
            formula=r"MRR = \frac{1}{\lvert Q \rvert} \sum_{u \in Q} \frac{1}{r_u}",
            conventions="질의마다의 역순위를 평균합니다. 관련 항목이 없는 질의도 0으로 평균에 들어갑니다.",
            papers=("voorhees1999trec8qa",),
            chapter="ch-rank_position",
        ),
        examples=(
            "rankmetrics mrr --query 1 0 0 0 --query 0 0 1 0 --query 0 1 0 0",
            "rankmetrics mrr --query A B C --relevant B --query X Y Z --relevant Z --explain",
        ),
        worksheet=Exercise(
            N_("{label} = sum of RR {blank} ÷ queries {queries} = {blank}"),
            columns=(N_("rank of the first relevant item"), "RR"),
            note=N_(
                "The results of three queries (O relevant, X not). For each query find the reciprocal "
                "of the first relevant rank, then average."
            ),
        ),
    )
)
teach(
    Teaching(
        "mean_average_precision",
        precision_at_hits=True,
        explain="mean",
        reference=Reference(
            korean="평균 정밀도의 평균",
            formula=r"MAP = \frac{1}{\lvert Q \rvert} \sum_{u \in Q} AP_u",
            conventions="질의마다의 AP를 평균합니다. AP의 분모는 질의마다 관련 항목 전체의 수가 기본입니다(`n_relevant`, `denominator`).",
            papers=("manning2008introduction", "voorhees2005trec"),
            chapter="ch-map",
        ),
        examples=(
            "rankmetrics map --query O X O X O --query X O X O X --query O O X X X",
            "rankmetrics map --query O X O X O --query O O X --n-relevant 4 2",
        ),
        worksheet=Exercise(
            N_("{label} = sum of AP {blank} ÷ queries {queries} = {blank}"),
            columns=(N_("precisions at relevant ranks"), N_("number relevant"), "AP"),
            note=N_(
                "The results of three queries (O relevant, X not). For each query find the average "
                "precision (every relevant item is in the list, so the denominator is the query's "
                "number of O), then average."
            ),
        ),
    )
)
