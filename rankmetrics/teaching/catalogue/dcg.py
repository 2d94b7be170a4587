"""Teaching entries of the DCG family (:mod:`rankmetrics.metrics.dcg`)."""

from __future__ import annotations

from ...i18n import N_
from .entries import Exercise, Reference, Teaching, teach

teach(
    Teaching(
        "ndcg",
        explain="dcg",
        reference=Reference(
            korean="정규화 할인 누적 이득",
            formula=r"nDCG@k = \frac{DCG@k}{IDCG@k}, \quad DCG@k = \sum_{i=1}^{k} \frac{g(rel_i)}{\log_2(i+1)}",
            conventions='이득은 선형 $g(rel) = rel$이 기본이고(`gain="exponential"`이면 $2^{rel} - 1$), 이상적 순서는 등급 목록을 주면 그 목록에서, 항목 이름과 판정을 주면 판정된 항목 전체에서 만듭니다(`ideal`). $IDCG@k = 0$이면 0입니다.',
            papers=("jarvelin2002cumulated", "burges2005learning"),
            chapter="ch-dcg_ndcg",
            trec_files=("m_ndcg.c", "m_ndcg_cut.c"),
        ),
        examples=(
            "rankmetrics ndcg 3 0 3 2 0 --k 5",
            "rankmetrics ndcg 3 0 3 2 0 --k 5 --gain exponential --ideal 3 3 2 1",
            "rankmetrics ndcg 1 0 1 0 1 --explain --decimals 2 --discount-decimals 1",
            "rankmetrics ndcg --ranking d1 d2 d3 d4 d5 --relevant d1:3 d3:3 d4:2 d6:1 --k 5",
        ),
        worksheet=Exercise(
            N_(
                "DCG{at} = {blank}    IDCG{at} = {blank}    nDCG{at} = DCG ÷ IDCG = {blank} ÷ {blank} = {blank}"
            ),
            columns=(N_("gain"), N_("discount"), N_("gain÷discount"), N_("running sum")),
            cutoff=True,
            unlisted=True,
        ),
        page=True,
    )
)
teach(
    Teaching(
        "dcg",
        explain="dcg",
        reference=Reference(
            korean="할인 누적 이득",
            formula=r"DCG@k = \sum_{i=1}^{k} \frac{g(rel_i)}{\log_2(i+1)}",
            conventions=r'이득은 선형 $g(rel) = rel$이 기본이고 `gain="exponential"`이면 $2^{rel} - 1$, `gain="binary"`이면 $\mathbf{1}(rel > 0)$입니다. 할인은 Burges 등의 $\log_2(i+1)$이며, $k$를 주지 않으면 목록 전체를 봅니다.',
            papers=("jarvelin2000ir", "jarvelin2002cumulated"),
            chapter="ch-dcg_ndcg",
        ),
        examples=("rankmetrics dcg 3 0 3 2 0", "rankmetrics dcg 3 2 3 0 1 --gain exponential --explain"),
        worksheet=Exercise(
            N_("DCG{at} = the last running sum = {blank}"),
            columns=(N_("gain"), N_("discount"), N_("gain÷discount"), N_("running sum")),
            cutoff=True,
        ),
        page=True,
    )
)
