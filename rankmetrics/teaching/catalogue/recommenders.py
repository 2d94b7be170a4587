"""Teaching entries of the recommender measures: lists (:mod:`rankmetrics.metrics.beyond_accuracy`,
:mod:`rankmetrics.metrics.item_attributes`), off-policy logs (:mod:`rankmetrics.metrics.off_policy`)
and sampled ranks (:mod:`rankmetrics.metrics.sampled`)."""

from __future__ import annotations

from .entries import Reference, Teaching, teach

BEYOND = "ch-beyond_accuracy"
ONLINE = "ch-recsys_libraries_online"
SAMPLED = "ch-sampled_evaluation"

for name, family, korean, formula, conventions, papers, chapter in (
    (
        "coverage",
        "lists",
        "커버리지",
        r"\mathrm{Coverage} = \frac{\lvert \bigcup_u L_u \rvert}{\lvert I \rvert}",
        "한 번이라도 추천된 항목 수를 카탈로그 크기로 나눕니다. count=True이면 나누지 않고 개수를 돌려줍니다.",
        ("ge2010beyond",),
        BEYOND,
    ),
    (
        "novelty",
        "lists",
        "새로움",
        r"\mathrm{Novelty} = \frac{1}{\lvert U \rvert} \sum_u \frac{1}{\lvert L_u \rvert}"
        r" \sum_{i \in L_u} -\log_2 \frac{\mathrm{count}(i)}{\sum_j \mathrm{count}(j)}",
        "항목의 상호작용 비율에 −log2를 씌운 값을 목록마다 평균하고, 다시 사용자 평균을 냅니다.",
        ("castells2011novelty",),
        BEYOND,
    ),
    (
        "average_popularity",
        "lists",
        "평균 인기도",
        r"\mathrm{ARP} = \frac{1}{\lvert U \rvert} \sum_u \frac{1}{\lvert L_u \rvert} \sum_{i \in L_u} \mathrm{count}(i)",
        "추천된 항목의 상호작용 수를 목록마다 평균하고, 다시 사용자 평균을 냅니다.",
        ("abdollahpouri2019managing",),
        BEYOND,
    ),
    (
        "long_tail_share",
        "lists",
        "롱테일 비율",
        r"\mathrm{APLT} = \frac{1}{\lvert U \rvert} \sum_u \frac{\lvert L_u \setminus H \rvert}{\lvert L_u \rvert}",
        "많이 본 항목부터 모아 전체 상호작용의 head_share(기본 0.8)에 이를 때까지를 머리로 보고, "
        "목록에서 머리 밖 항목의 비율을 사용자마다 평균합니다.",
        ("abdollahpouri2019managing",),
        BEYOND,
    ),
    (
        "gini_index",
        "lists",
        "지니 계수",
        r"G = \frac{\sum_{j=1}^{n} (2j - n - 1)\, x_{(j)}}{n \sum_j x_j}",
        "카탈로그의 모든 항목이 추천된 횟수를 작은 것부터 늘어놓고 계산합니다. 한 번도 추천되지 않은 항목도 0으로 셉니다.",
        ("fleder2009blockbuster",),
        BEYOND,
    ),
    (
        "entropy",
        "lists",
        "엔트로피",
        r"H = -\sum_i p_i \ln p_i",
        "p는 항목이 전체 추천에서 차지하는 몫입니다. 기본은 자연로그이고 base=2이면 비트로 잽니다.",
        ("shannon1948mathematical",),
        BEYOND,
    ),
    (
        "intra_list_diversity",
        "lists",
        "목록 내 다양성",
        r"\mathrm{ILD} = \frac{1}{\lvert U \rvert} \sum_u \frac{2}{n_u (n_u - 1)} \sum_{i < j} d(i, j)",
        "목록 안의 항목 쌍마다 특성 집합의 거리(기본 Jaccard 거리)를 구해 평균하고, 다시 사용자 평균을 냅니다.",
        ("ziegler2005improving",),
        BEYOND,
    ),
    (
        "calibration_kl",
        "lists",
        "캘리브레이션 KL",
        r"C_{KL} = \sum_g p(g) \ln \frac{p(g)}{(1 - \alpha)\, q(g) + \alpha\, p(g)}",
        "p는 사용자의 이력, q는 추천 목록의 장르 비율입니다. 장르가 여럿인 항목은 장르마다 1/장르 수만큼 셉니다. "
        "α(기본 0.01)만큼 p를 섞어 목록에 없는 장르도 유한한 값이 됩니다.",
        ("steck2018calibrated",),
        BEYOND,
    ),
    (
        "ips",
        "estimate",
        "역성향 가중",
        r"\mathrm{IPS} = \frac{1}{n} \sum_{t=1}^{n} \frac{\pi(a_t)}{\pi_0(a_t)}\, r_t",
        "보상마다 목표 정책과 기록 정책의 확률 비를 곱해 평균합니다. clip을 주면 무게를 그 값에서 자릅니다.",
        ("li2011unbiased",),
        ONLINE,
    ),
    (
        "snips",
        "estimate",
        "자기 정규화 추정",
        r"\mathrm{SNIPS} = \frac{\sum_t w_t r_t}{\sum_t w_t}, \quad w_t = \frac{\pi(a_t)}{\pi_0(a_t)}",
        "IPS와 같은 무게를 쓰되 기록 수 대신 무게의 합으로 나눕니다.",
        ("swaminathan2015self",),
        ONLINE,
    ),
    (
        "sampled_expectation",
        "estimate",
        "샘플링 지표의 기댓값",
        r"\mathbb{E}[M] = \sum_{r=1}^{m+1} P(r \mid R)\, M(r)",
        "전체 순위 R인 보류 항목을 자기와 네거티브 m개 사이에서 다시 매긴 표본 속 순위 r의 분포(초기하 분포)로 지표의 "
        "기댓값을 정확히 구합니다. 사용자마다 값 하나를 돌려줍니다.",
        ("krichene2020sampled",),
        SAMPLED,
    ),
):
    teach(
        Teaching(
            name,
            explain=family,
            reference=Reference(korean, formula, conventions, papers, chapter),
        )
    )
