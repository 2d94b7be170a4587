"""Teaching entries of trec_eval's other measures (:mod:`rankmetrics.metrics.trec_measures`).

These have no step table; the book's metric reference (지표 사전) lists them.
"""

from __future__ import annotations

from ...i18n import N_
from .entries import Reference, Teaching, teach

teach(
    Teaching(
        "runid",
        reference=Reference(
            korean="시스템 이름",
            formula=r"\text{runid} = \text{결과 파일 마지막 줄의 시스템 이름}",
            conventions="숫자가 아니라 글자이며, 결과 파일 마지막 줄의 여섯째 칸(시스템 이름)을 씁니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_runid.c",),
        ),
    )
)
teach(
    Teaching(
        "num_q",
        reference=Reference(
            korean="질의 수",
            formula=r"num\_q = \lvert Q \rvert",
            conventions="평가한 질의의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_q.c",),
        ),
    )
)
teach(
    Teaching(
        "num_nonrel_judged_ret",
        reference=Reference(
            korean="검색된 판정된 무관 문서 수",
            formula=r"num\_nonrel\_judged\_ret = \lvert Ret \cap NonRel \rvert",
            conventions="판정 파일에 등급 0 이상, 판정 수준 미만으로 적힌 문서 가운데 검색된 것의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_num_nonrel_judged_ret.c",),
        ),
    )
)
teach(
    Teaching(
        "unjudged_fraction",
        reference=Reference(
            korean="미판정률",
            formula=r"unj@k = \frac{\lvert \{ i \le k : i\text{위가 미판정} \} \rvert}{k}",
            conventions="판정 파일에 없거나 등급이 음수인 문서를 미판정으로 셉니다. 목록 끝 너머는 판정된 문서로 보고 분모는 언제나 $k$입니다.",
            papers=("trec_eval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_unjudged.c",),
        ),
    )
)
teach(
    Teaching(
        "judged_fraction",
        reference=Reference(
            korean="판정률",
            formula=r"judged@k = \frac{\lvert \{ i \le k : i\text{위가 판정 파일에 있음} \} \rvert}{\min(k, \lvert Ret \rvert)}",
            conventions="등급이 무엇이든 판정 파일에 있으면 판정된 문서로 셉니다(ir_measures의 `Judged`). 목록이 $k$보다 짧으면 목록 길이로 나눕니다.",
            papers=("macavaney2022irmeasures",),
            chapter="ch-incomplete_judgements",
        ),
    )
)
teach(
    Teaching(
        "relevance_string",
        reference=Reference(
            korean="등급 문자열",
            formula=r"relstring = c_1 c_2 \cdots c_k",
            conventions="상위 문서마다 한 글자입니다: 등급 0–9는 숫자, 9보다 크면 `>`, 판정 파일에 없으면 `-`, 풀에 있으나 판정하지 않았으면 `.`입니다. 길이는 10이 기본입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_relstring.c",),
        ),
    )
)
teach(
    Teaching(
        "num_ret",
        reference=Reference(
            korean=N_("the number of documents retrieved"),
            formula=r"num\_ret = \lvert Ret \rvert",
            conventions="질의마다 런이 내놓은 문서 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_ret.c",),
        ),
    )
)
teach(
    Teaching(
        "num_rel",
        reference=Reference(
            korean="관련 문서 수",
            formula=r"num\_rel = R = \lvert Rel \rvert",
            conventions="판정 파일에서 등급이 판정 수준 이상인 문서 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_rel.c",),
        ),
    )
)
teach(
    Teaching(
        "num_rel_ret",
        reference=Reference(
            korean=N_("the number of relevant documents retrieved"),
            formula=r"num\_rel\_ret = \lvert Ret \cap Rel \rvert",
            conventions="검색된 문서 가운데 등급이 판정 수준 이상인 것의 수입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_num_rel_ret.c",),
        ),
    )
)
teach(
    Teaching(
        "gm_map",
        reference=Reference(
            korean="AP의 기하평균",
            formula=r"GM\text{-}MAP = \exp\left(\frac{1}{\lvert Q \rvert} \sum_{u \in Q} \ln \max(AP_u, 10^{-5})\right)",
            conventions="AP가 낮은 질의를 MAP보다 무겁게 봅니다. 질의마다의 AP를 $10^{-5}$ 아래로 내리지 않습니다.",
            papers=("voorhees2005trec", "trec_eval"),
            chapter="ch-many_queries",
            trec_files=("m_gm_map.c",),
        ),
    )
)
teach(
    Teaching(
        "binary_g",
        reference=Reference(
            korean="binG",
            formula=r"binG = \frac{1}{R} \sum_{r} \frac{1}{\log_2(2 + n_r)}",
            conventions="$n_r$은 관련 문서 $r$보다 위에 놓인 무관(또는 미판정) 문서 수입니다. 검색되지 않은 관련 문서는 0을 더합니다. trec_eval의 실험용 측정입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_binG.c",),
        ),
    )
)
teach(
    Teaching(
        "normalized_gain",
        reference=Reference(
            korean="G",
            formula=r"G = \frac{1}{\sum_i g^*_i} \sum_{i} \frac{g_i}{\log_2(2 + C_i - S_i)}",
            conventions=r"$S_i$는 $i$위까지 런이 얻은 이득의 합, $C_i$는 $i$위까지 $\max(g^*_j, 1)$의 합입니다($g^*$는 이상적 순서의 이득). trec_eval의 실험용 측정이며, 이득은 등급 그대로가 기본입니다(`G_1=3,2=9`처럼 바꿀 수 있습니다).",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_G.c",),
        ),
    )
)
teach(
    Teaching(
        "ndcg_over_relevant",
        reference=Reference(
            korean="관련 문서 위치의 평균 nDCG",
            formula=r"ndcg\_rel = \frac{1}{R} \sum_{r} nDCG@i_r",
            conventions="$i_r$은 관련 문서 $r$의 순위이고, 검색되지 않은 관련 문서는 목록 끝의 nDCG를 더합니다. 이상적 순서는 판정 전체에서 만듭니다.",
            papers=("jarvelin2002cumulated", "trec_eval"),
            chapter="ch-many_queries",
            trec_files=("m_ndcg_rel.c",),
        ),
    )
)
teach(
    Teaching(
        "ndcg_at_r_levels",
        reference=Reference(
            korean="이상적 이득 단계의 평균 nDCG",
            formula=r"Rndcg = \frac{1}{\lvert L \rvert} \sum_{\ell \in L} nDCG@\ell",
            conventions="$L$은 이상적 순서의 이득이 바뀌는 순위들입니다(등급 3 문서 5개, 등급 2 문서 3개면 5위와 8위). 관련 문서가 없으면 0입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_Rndcg.c",),
        ),
    )
)
teach(
    Teaching(
        "trec_dcg",
        reference=Reference(
            korean="할인 누적 이득",
            formula=r"DCG = \sum_{i=1}^{n} \frac{g_i}{\log_2(i + 1)}",
            conventions="trec_eval 10.0의 `dcg`: 검색된 목록 전체의 DCG이며 정규화하지 않습니다. 이득은 등급 그대로이고 `dcg.1=3,2=9`처럼 등급마다 바꿀 수 있습니다. `all_trec`에는 들지 않습니다.",
            papers=("jarvelin2002cumulated",),
            chapter="ch-dcg_ndcg",
            trec_files=("m_ndcg.c",),
        ),
    )
)
teach(
    Teaching(
        "ideal_dcg",
        reference=Reference(
            korean="이상적 DCG",
            formula=r"IDCG = \sum_{i=1}^{R_g} \frac{g^{*}_i}{\log_2(i + 1)}",
            conventions="trec_eval 10.0의 `ideal_dcg`: 판정된 모든 문서를 이득이 큰 순서로 놓은 목록의 DCG입니다(nDCG의 분모). `all_trec`에는 들지 않습니다.",
            papers=("jarvelin2002cumulated",),
            chapter="ch-dcg_ndcg",
            trec_files=("m_ndcg.c",),
        ),
    )
)
teach(
    Teaching(
        "bpref",
        reference=Reference(
            korean="bpref",
            formula=r"bpref = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(N, R)}\right)",
            conventions="$R$는 관련 문서 수, $N$은 판정된 무관 문서 수, $n_r$은 관련 문서 $r$보다 위에 놓인 판정된 무관 문서 수입니다. 판정되지 않은 문서는 세지 않습니다.",
            papers=("buckley2004retrieval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_bpref.c",),
        ),
    )
)
teach(
    Teaching(
        "gm_bpref",
        reference=Reference(
            korean="bpref의 기하평균",
            formula=r"GM\text{-}bpref = \exp\left(\frac{1}{\lvert Q \rvert} \sum_{u \in Q} \ln \max(bpref_u, 10^{-5})\right)",
            conventions="질의마다의 bpref를 $10^{-5}$ 아래로 내리지 않고 기하평균합니다.",
            papers=("buckley2004retrieval",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_gm_bpref.c",),
        ),
    )
)
teach(
    Teaching(
        "inferred_ap",
        reference=Reference(
            korean="infAP",
            formula=r"infAP = \frac{1}{R} \sum_{r} E[P@k_r], \quad E[P@k] = \frac{1}{k} + \frac{k-1}{k} \cdot \frac{pooled_{<k}}{k-1} \cdot \frac{rel_{<k} + \varepsilon}{judged_{<k} + 2\varepsilon}",
            conventions=r"풀에 있으나 판정하지 않은 문서는 등급 −1로 적습니다. $\varepsilon = 10^{-5}$이고, 1위의 관련 문서는 1을 더합니다. 등급 −1이 없으면 AP와 같습니다.",
            papers=("yilmaz2006estimating",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_infap.c",),
        ),
    )
)
teach(
    Teaching(
        "interpolated_precision",
        reference=Reference(
            korean="보간 정밀도",
            formula=r"iprec(r) = \max_{i \ge i_c} P@i, \quad c = \mathrm{round}(r \cdot R)",
            conventions='재현율 수준 $r$을 관련 문서 수 $c$로 바꾸고, $c$번째 관련 문서가 나온 순위 $i_c$부터 끝까지의 가장 높은 정밀도를 씁니다. 반올림은 trec_eval 10.0의 `lround`가 기본입니다(9.x는 `recall_rank="plus_0.9"`).',
            papers=("manning2008introduction",),
            chapter="ch-many_queries",
            trec_files=("m_iprec_at_recall.c",),
        ),
    )
)
teach(
    Teaching(
        "eleven_point_average",
        reference=Reference(
            korean="11점 평균 보간 정밀도",
            formula=r"11pt = \frac{1}{11} \sum_{r \in \{0, 0.1, \dots, 1\}} iprec(r)",
            conventions="재현율 수준은 0.0부터 1.0까지 11개가 기본이고, `11pt_avg_0.2,0.5,0.8`처럼 다른 수준을 줄 수 있습니다.",
            papers=("salton1983introduction",),
            chapter="ch-many_queries",
            trec_files=("m_11pt_avg.c",),
        ),
    )
)
teach(
    Teaching(
        "r_precision_multiple",
        reference=Reference(
            korean="R 배수 정밀도",
            formula=r"Rprec\_mult(m) = P@c, \quad c = \lfloor m \cdot R + 0.9 \rfloor",
            conventions="$m = 1$이면 R-정밀도입니다. 목록 끝 너머의 순위는 무관 문서로 셉니다. 배수 $m$은 반드시 적어야 합니다(`Rprec_mult_0.20`).",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_Rprec_mult.c",),
        ),
    )
)
teach(
    Teaching(
        "relative_precision",
        reference=Reference(
            korean="상대 정밀도",
            formula=r"relative\_P@k = \frac{Hits@k}{\min(k, R)}",
            conventions="$R$위까지는 정밀도, 그 뒤로는 재현율과 같습니다. 컷오프 $k$를 반드시 적어야 하고, 관련 문서가 없으면 0입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_rel_P.c",),
        ),
    )
)
teach(
    Teaching(
        "rank_biased_precision",
        reference=Reference(
            korean="순위 편향 정밀도",
            formula=r"RBP = (1 - p) \sum_{i} g_i \, p^{\,i-1}",
            conventions="사용자가 다음 문서로 넘어갈 확률 $p$는 0.9가 기본입니다(ir_measures의 `RBP`는 0.8). 이득은 0과 1 사이로, 등급이 그 밖이면 질의마다 최고 등급으로 나눕니다.",
            papers=("moffat2008rank",),
            chapter="ch-many_queries",
            trec_files=("m_rbp.c",),
        ),
    )
)
teach(
    Teaching(
        "rbp_residual",
        reference=Reference(
            korean="RBP 잔차",
            formula=r"rbp\_resid = p^{\,n} + (1 - p) \sum_{i \in Unj} p^{\,i-1}",
            conventions="$n$은 검색된 문서 수, $Unj$는 판정되지 않은 검색 문서의 순위입니다. 판정되지 않은 문서가 모두 관련이었다면 RBP가 더 오를 수 있는 몫이며, 그런 문서가 없으면 0입니다.",
            papers=("moffat2008rank",),
            chapter="ch-incomplete_judgements",
            trec_files=("m_rbp_resid.c",),
        ),
    )
)
teach(
    Teaching(
        "utility",
        reference=Reference(
            korean="효용",
            formula="utility = p_1 a + p_2 b + p_3 c + p_4 d",
            conventions="$a$는 검색된 관련 문서, $b$는 검색된 무관 문서, $c$는 검색되지 않은 관련 문서, $d$는 검색되지 않은 무관 문서의 수입니다. 계수는 $(1, -1, 0, 0)$이 기본이라 $a - b$입니다.",
            papers=("lewis1996trec4",),
            chapter="ch-many_queries",
            trec_files=("m_utility.c",),
        ),
    )
)
teach(
    Teaching(
        "set_precision",
        reference=Reference(
            korean="집합 정밀도",
            formula=r"set\_P = \frac{\lvert Ret \cap Rel \rvert}{\lvert Ret \rvert}",
            conventions="순위를 보지 않고 검색된 문서 전체 $Ret$를 한 집합으로 봅니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_set_P.c",),
        ),
    )
)
teach(
    Teaching(
        "set_relative_precision",
        reference=Reference(
            korean="집합 상대 정밀도",
            formula=r"set\_relative\_P = \frac{\lvert Ret \cap Rel \rvert}{\min(\lvert Ret \rvert, R)}",
            conventions="검색된 문서 수가 $R$보다 적으면 집합 정밀도, 많으면 집합 재현율과 같습니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_set_rel_P.c",),
        ),
    )
)
teach(
    Teaching(
        "set_recall",
        reference=Reference(
            korean="집합 재현율",
            formula=r"set\_recall = \frac{\lvert Ret \cap Rel \rvert}{R}",
            conventions="검색된 문서 전체에서 센 재현율입니다. 관련 문서가 없으면 0입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_set_recall.c",),
        ),
    )
)
teach(
    Teaching(
        "set_map",
        reference=Reference(
            korean="집합 AP",
            formula=r"set\_map = set\_P \cdot set\_recall = \frac{\lvert Ret \cap Rel \rvert^2}{\lvert Ret \rvert \cdot R}",
            conventions="검색된 문서가 모두 집합 정밀도만큼의 정밀도를 가진다고 본 순위 없는 AP입니다.",
            papers=("trec_eval",),
            chapter="ch-many_queries",
            trec_files=("m_set_map.c",),
        ),
    )
)
teach(
    Teaching(
        "set_f",
        reference=Reference(
            korean="집합 F",
            formula=r"set\_F = \frac{(\beta + 1) \, P \, R_s}{\beta P + R_s}, \quad P = set\_P, \; R_s = set\_recall",
            conventions=r"$\beta$는 1이 기본이라 검색된 집합의 F1입니다(`set_F_0.5`처럼 바꿀 수 있습니다). 검색된 관련 문서가 없으면 0입니다.",
            papers=("vanrijsbergen1979information",),
            chapter="ch-many_queries",
            trec_files=("m_set_F.c",),
        ),
    )
)
