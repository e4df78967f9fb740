"""Statistics against values computed by hand (the arithmetic is in the comments)."""

import math

import pytest

from sejury.stats import bootstrap_ci, cohen_kappa, correlate, wilcoxon


def test_correlation_without_ties() -> None:
    # pred 1..5, gold [2,1,4,3,5]: of 10 pairs, 8 concordant and 2 discordant -> tau = 6/10;
    # rank differences [-1,1,-1,1,0], sum d^2 = 4 -> rho = 1 - 6*4/(5*24) = 0.8
    c = correlate([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])
    assert c.tau == pytest.approx(0.6)
    assert c.rho == pytest.approx(0.8)
    assert c.mean == pytest.approx(0.7)


def test_correlation_with_ties_uses_tau_b_and_average_ranks() -> None:
    # pred [1,1,2,3], gold [1,2,2,3]: C = 4, D = 0, one pair tied in pred only, one in gold only
    # tau-b = 4 / sqrt((6-1)(6-1)) = 0.8
    # average ranks pred [1.5,1.5,3,4], gold [1,2.5,2.5,4]: Pearson on them = 3.75 / 4.5
    c = correlate([1, 1, 2, 3], [1, 2, 2, 3])
    assert c.tau == pytest.approx(0.8)
    assert c.rho == pytest.approx(3.75 / 4.5)


def test_constant_input_is_undefined_not_zero() -> None:
    c = correlate([50, 50, 50], [1, 2, 3])
    assert math.isnan(c.tau) and math.isnan(c.rho) and math.isnan(c.mean)
    with pytest.raises(ValueError):
        correlate([1, 2], [1])


def test_cohen_kappa() -> None:
    # observed agreement 4/5; chance 0.6*0.4 + 0.4*0.6 = 0.48 -> (0.8 - 0.48) / 0.52
    assert cohen_kappa([0, 1, 1, 0, 1], [0, 1, 0, 0, 1]) == pytest.approx(0.32 / 0.52)
    assert cohen_kappa([1, 2, 3], [1, 2, 3]) == pytest.approx(1.0)
    assert math.isnan(cohen_kappa([2, 2], [2, 2]))


def test_cohen_kappa_linear_weights_for_ordinal_scales() -> None:
    # weights |i-j|; a=[0,1,2], b=[0,2,2]: observed weighted disagreement 1 (the pair 1-2);
    # expected counts row*col/3 with rows [1,1,1], cols [1,0,2]: weighted sum 4/3+1/3+2/3+2/3 = 3
    # kappa = 1 - 1/3
    assert cohen_kappa([0, 1, 2], [0, 2, 2], weights="linear") == pytest.approx(2 / 3)


def test_wilcoxon_signed_rank_with_bonferroni() -> None:
    # d = x - y = [-1,-2,2,-4,-5,-6]; |d| ranks 1, 2.5, 2.5, 4, 5, 6 -> W+ = 2.5, W- = 18.5
    res = wilcoxon([1, 2, 3, 4, 5, 6], [2, 4, 1, 8, 10, 12], comparisons=3)
    assert res.statistic == pytest.approx(2.5)
    assert 0 < res.p < 1 and res.p_bonferroni == pytest.approx(min(1.0, 3 * res.p))
    assert wilcoxon([1, 2], [1, 2]).p == 1.0


def test_bootstrap_interval_brackets_the_estimate_and_is_repeatable() -> None:
    pred = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]
    gold = [2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11]
    point = correlate(pred, gold).tau
    ci = bootstrap_ci(pred, gold, lambda c: c.tau, resamples=300, seed=1)
    assert ci.low <= point <= ci.high <= 1
    assert ci == bootstrap_ci(pred, gold, lambda c: c.tau, resamples=300, seed=1)
