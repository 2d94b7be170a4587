"""Teaching entries of the rating errors (:mod:`rankmetrics.metrics.rating`)."""

from __future__ import annotations

from .entries import Reference, Teaching, teach

teach(
    Teaching(
        "mse",
        explain="rating",
        reference=Reference(
            korean="평균 제곱 오차",
            formula=r"MSE = \frac{1}{N} \sum_{i=1}^{N} (\hat r_i - r_i)^2",
            conventions="순서가 아니라 평점 값을 봅니다. 값은 평점 단위의 제곱입니다.",
            papers=("herlocker2004evaluating",),
            chapter="ch-rating_errors",
        ),
        examples=("rankmetrics mse --true 5 4 3 2 1 --pred 4 5 2 1 5",),
    )
)
teach(
    Teaching(
        "mae",
        explain="rating",
        reference=Reference(
            korean="평균 절대 오차",
            formula=r"MAE = \frac{1}{N} \sum_{i=1}^{N} \lvert \hat r_i - r_i \rvert",
            conventions="순서가 아니라 평점 값을 봅니다. 큰 오차를 MSE보다 덜 무겁게 봅니다.",
            papers=("herlocker2004evaluating",),
            chapter="ch-rating_errors",
        ),
        examples=("rankmetrics mae --true 5 4 3 2 1 --pred 4 5 2 1 5",),
    )
)
teach(
    Teaching(
        "rmse",
        explain="rating",
        reference=Reference(
            korean="평균 제곱근 오차",
            formula=r"RMSE = \sqrt{\frac{1}{N} \sum_{i=1}^{N} (\hat r_i - r_i)^2}",
            conventions="MSE의 제곱근이라 평점과 같은 단위입니다.",
            papers=("herlocker2004evaluating",),
            chapter="ch-rating_errors",
        ),
        examples=("rankmetrics rmse --true 5 4 3 2 1 --pred 4 5 2 1 5 --explain",),
    )
)
