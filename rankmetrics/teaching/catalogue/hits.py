"""Teaching entries of the set-based metrics (:mod:`rankmetrics.metrics.set_based`)."""

from __future__ import annotations

from ...i18n import N_
from .. import hit_formulas
from .entries import Exercise, Reference, Teaching, teach

teach(
    Teaching(
        "precision",
        symbol="P",
        explain="hits",
        steps=hit_formulas.precision,
        reference=Reference(
            korean="정밀도",
            formula=r"P@k = \frac{\lvert Rec_u^k \cap Rel_u \rvert}{k}",
            conventions="분모는 언제나 $k$입니다. 목록이 $k$보다 짧아도 $k$로 나누며, trec_eval의 `P_k`와 같습니다.",
            papers=("manning2008introduction",),
            chapter="ch-precision_recall",
            trec_files=("m_P.c",),
        ),
        examples=(
            "rankmetrics precision --ranking A B C D E --relevant B D F G --k 5",
            "rankmetrics precision O X O X O --k 3 --explain",
        ),
        worksheet=Exercise(
            N_("{label} = hits {blank} ÷ k {blank} = {blank}"),
            columns=(N_("hits so far"),),
            cutoff=True,
        ),
        page=True,
    )
)
teach(
    Teaching(
        "recall",
        symbol="R",
        explain="hits",
        steps=hit_formulas.recall,
        reference=Reference(
            korean="재현율",
            formula=r"R@k = \frac{\lvert Rec_u^k \cap Rel_u \rvert}{\lvert Rel_u \rvert}",
            conventions="분모는 목록에 들었든 아니든 관련 항목 전체의 수입니다. 등급 목록만 주면 목록 안의 관련 항목만 세므로, 목록 밖의 관련 항목은 `n_relevant`로 알려 줍니다. 관련 항목이 없으면 0입니다.",
            papers=("manning2008introduction",),
            chapter="ch-precision_recall",
            trec_files=("m_recall.c",),
        ),
        examples=(
            "rankmetrics recall --ranking A B C D E --relevant B D F G --k 5",
            "rankmetrics recall O X O X O --k 3 --n-relevant 4",
        ),
        worksheet=Exercise(
            N_("{label} = hits {blank} ÷ all relevant {blank} = {blank}"),
            columns=(N_("hits so far"),),
            cutoff=True,
            unlisted=True,
        ),
        page=True,
    )
)
teach(
    Teaching(
        "f1",
        explain="hits",
        steps=hit_formulas.f1,
        reference=Reference(
            korean="F1 점수",
            formula=r"F1@k = \frac{2 \cdot P@k \cdot R@k}{P@k + R@k}",
            conventions="$P@k$와 $R@k$의 약속을 그대로 따릅니다(분모 $k$, 관련 항목 전체의 수). 둘 다 0이면 0입니다.",
            papers=("vanrijsbergen1979information",),
            chapter="ch-precision_recall",
        ),
        examples=("rankmetrics f1 --ranking A B C D E --relevant B D F G --k 5 --explain",),
        worksheet=Exercise(
            N_("P{at} = {blank}    R{at} = {blank}    {label} = 2 × P × R ÷ (P + R) = {blank}"),
            columns=(N_("hits so far"),),
            cutoff=True,
            unlisted=True,
        ),
        page=True,
    )
)
teach(
    Teaching(
        "hit_rate",
        symbol="HR",
        explain="hits",
        steps=hit_formulas.hit_rate,
        reference=Reference(
            korean="적중률",
            formula=r"HR@k = \mathbf{1}\left(\lvert Rec_u^k \cap Rel_u \rvert > 0\right)",
            conventions="상위 $k$개에 관련 항목이 하나라도 있으면 1입니다. trec_eval의 `success_k`, ir_measures의 `Success@k`와 같습니다.",
            papers=("deshpande2004item",),
            chapter="ch-precision_recall",
            trec_files=("m_success.c",),
        ),
        examples=(
            "rankmetrics hit-rate 0 0 0 1 0 --k 3",
            "rankmetrics hit-rate --ranking A B C --relevant C --k 3",
        ),
        worksheet=Exercise(
            N_("relevant in the top {k} {blank} → {label} = {blank} (1 if any, else 0)"),
            cutoff=True,
            whole=True,
        ),
        page=True,
    )
)
teach(
    Teaching(
        "hits",
        explain="hits",
        steps=hit_formulas.hits,
        reference=Reference(
            korean="적중 수",
            formula=r"Hits@k = \lvert Rec_u^k \cap Rel_u \rvert",
            conventions="정밀도와 재현율의 분자입니다. $k$를 주지 않으면 목록 전체에서 셉니다.",
            papers=("manning2008introduction",),
            chapter="ch-precision_recall",
        ),
    )
)
teach(
    Teaching(
        "r_precision",
        symbol="R-Prec",
        explain="hits",
        steps=hit_formulas.r_precision,
        reference=Reference(
            korean="R-정밀도",
            formula=r"R\text{-}Prec = \frac{\lvert Rec_u^R \cap Rel_u \rvert}{R}, \quad R = \lvert Rel_u \rvert",
            conventions="컷오프는 관련 항목 수 $R$로 정해지므로 $k$를 받지 않습니다. 이 자리에서 정밀도와 재현율이 같습니다. 관련 항목이 없으면 0입니다.",
            papers=("buckley2004retrieval", "manning2008introduction"),
            chapter="ch-many_queries",
            trec_files=("m_Rprec.c",),
        ),
    )
)
