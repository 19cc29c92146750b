"""helpers.stats.student_t against scipy.special (stdtr, stdtrit), closed forms and 40-digit values.

The 40-digit values come from mpmath (the incomplete beta function at 50 digits, checked against
mpmath.betainc); they hold the tails where scipy.special is itself off: stdtr by up to 3e-13 in
tails below 1e-10 for large df, stdtrit by about 1e-10 within 1e-7 of q = 1/2, by 1.2e-14 at
df = 2.5, q = 0.2, and not at all for q = 1e-300 and small df.
"""

from __future__ import annotations

import math

import pytest
from scipy.special import stdtr, stdtrit

from helpers.stats.student_t import _log_beta_half, t_cdf, t_quantile

DFS = (0.5, 0.7, 1.0, 1.5, 2.0, 2.5, 3.0, 4.5, 7.3, 9.7, 10.0, 15.0, 15.9, 16.0, 20.0, 29.5)
DFS += (50.0, 99.0, 123.456, 499.0, 1000.0, 3000.7, 12345.6, 1e5, 1e6, 1e7)
TS = tuple(k / 20 for k in range(201)) + (12.0, 15.0, 20.0, 30.0, 38.0, 50.0, 100.0, 1e3, 1e4)
TS += (1e6, 1e10, 1e20, 1e50, 1e100, 1e200, 1e300)
QS = (1e-10, 1e-5, 1e-3, 0.01, 0.025, 0.05, 0.1, 0.3, 0.4, 0.6, 0.7, 0.9, 0.95, 0.975, 0.99)
QS += (0.999, 1 - 1e-5, 1 - 1e-10)

# (df, t, P(T > t)) to 40 digits: transition region and tails near 1e-300
TAILS = [
    (0.5, 1.3, 0.27030732672256025),
    (0.5, 2.2, 0.213024070631862),
    (0.5, 5.0, 0.1429957015794294),
    (0.5, 1e300, 3.207009754142229e-151),
    (2.5, 1.3, 0.1502433946353541),
    (2.5, 2.2, 0.06645699270983452),
    (2.5, 5.0, 0.011725594985430923),
    (2.5, 8.76544e119, 9.99999396003046e-301),
    (9.7, 1.3, 0.11182101047123327),
    (9.7, 2.2, 0.026622952370427094),
    (9.7, 5.0, 0.00029462667477401795),
    (9.7, 2.12844e31, 9.999950216169837e-301),
    (15.9, 1.3, 0.10606583391034875),
    (15.9, 2.2, 0.02147258805290508),
    (15.9, 5.0, 6.665268451039887e-05),
    (15.9, 2.54281e19, 1.0000078588335711e-300),
    (16.0, 1.3, 0.10600891072551837),
    (16.0, 2.2, 0.02142320019757244),
    (16.0, 5.0, 6.543384904039166e-05),
    (16.0, 1.94565e19, 9.999838535810484e-301),
    (30.0, 1.3, 0.10175047926905845),
    (30.0, 2.2, 0.01782421999841789),
    (30.0, 5.0, 1.1648342733503898e-05),
    (30.0, 50178600000.0, 9.999852690273426e-301),
    (123.456, 1.3, 0.0980114400901626),
    (123.456, 2.2, 0.014834169383452722),
    (123.456, 5.0, 9.591601624846447e-07),
    (123.456, 2911.11, 9.998429127821605e-301),
    (499.0, 1.3, 0.09710056490963304),
    (499.0, 2.2, 0.014132276586525865),
    (499.0, 5.0, 3.975725941064481e-07),
    (499.0, 85.5995, 9.999665433240025e-301),
    (3000.7, 1.3, 0.09685040822774536),
    (3000.7, 2.2, 0.013941433553804835),
    (3000.7, 5.0, 3.031224270300349e-07),
    (3000.7, 41.7203, 1.0001584621089462e-300),
    (12345.6, 1.3, 0.09681261974332944),
    (12345.6, 2.2, 0.01391267786269583),
    (12345.6, 5.0, 2.9058697161696777e-07),
    (12345.6, 38.1018, 1.0002002595908636e-300),
    (1e5, 1.3, 0.09680198277159001),
    (1e5, 2.2, 0.01390458696953037),
    (1e5, 5.0, 2.8713508393208365e-07),
    (1e5, 37.1747, 9.989241647042514e-301),
    (1e7, 1.3, 0.0968004995675091),
    (1e7, 2.2, 0.013903458907939037),
    (1e7, 5.0, 2.8665640375042696e-07),
    (1e7, 37.0484, 9.988303301968344e-301),
]
# (df, q, the t with P(T <= t) = q) to 40 digits; -inf where |t| passes the largest double
QUANTILES = [
    (0.5, 1e-300, -math.inf),
    (0.5, 1e-50, -1.02849115631634e99),
    (0.5, 0.2, -2.5127179536659185),
    (0.5, 0.4999999, -3.708149354709629e-07),
    (0.5, 0.501, 0.0037081748489763517),
    (0.5, 1 - 1e-12, 1.0285366618133392e23),
    (1.0, 1e-300, -3.1830988618379066e299),
    (1.0, 1e-50, -3.1830988618379065e49),
    (1.0, 0.2, -1.3763819204711734),
    (1.0, 0.4999999, -3.141592653680235e-07),
    (1.0, 0.501, 0.003141602989056159),
    (1.0, 1 - 1e-12, 318316927901.77966),
    (2.5, 1e-300, -8.765437882279991e119),
    (2.5, 1e-50, -8.765437882279992e19),
    (2.5, 0.2, -1.0101638747222386),
    (2.5, 0.4999999, -2.7638913426174296e-07),
    (2.5, 0.501, 0.0027638962690653824),
    (2.5, 1 - 1e-12, 55306.663471176085),
    (9.7, 1e-300, -2.128438907606886e31),
    (9.7, 1e-50, -358810.63995663327),
    (9.7, 0.2, -0.8802637637247671),
    (9.7, 0.4999999, -2.5719558488921415e-07),
    (9.7, 0.501, 0.002571958976714412),
    (9.7, 1 - 1e-12, 43.28275643481471),
    (30.0, 1e-300, -50178575360.50508),
    (30.0, 1e-50, -232.84591679865065),
    (30.0, 0.2, -0.8537672614712976),
    (30.0, 0.4999999, -2.5276002261960695e-07),
    (30.0, 0.501, 0.002527603007215139),
    (30.0, 1 - 1e-12, 11.397227795416011),
    (123.456, 1e-300, -2911.1062955189655),
    (123.456, 1e-50, -25.157026969556906),
    (123.456, 0.2, -0.8445424200085437),
    (123.456, 0.4999999, -2.5117093167390474e-07),
    (123.456, 0.501, 0.002511711978994286),
    (123.456, 1 - 1e-12, 7.820505657820953),
    (499.0, 1e-300, -85.59949387065136),
    (499.0, 1e-50, -16.77809261951687),
    (499.0, 0.2, -0.8423421491688051),
    (499.0, 0.4999999, -2.507884414289204e-07),
    (499.0, 0.501, 0.002507887048374415),
    (499.0, 1 - 1e-12, 7.216305415431745),
    (12345.6, 1e-300, -38.10180586933802),
    (12345.6, 1e-50, -15.001335103475046),
    (12345.6, 0.2, -0.8416503494427012),
    (12345.6, 0.4999999, -2.506679034764422e-07),
    (12345.6, 0.501, 0.002506681660005186),
    (12345.6, 1 - 1e-12, 7.041684592253244),
    (1e5, 1e-300, -37.174670665466216),
    (1e5, 1e-50, -14.941704299270516),
    (1e5, 0.2, -0.8416248279969009),
    (1e5, 0.4999999, -2.5066345412816263e-07),
    (1e5, 0.501, 0.0025066371661962225),
    (1e5, 1 - 1e-12, 7.035374828293038),
    (1e7, 1e-300, -37.048368428741476),
    (1e7, 1e-50, -14.933421163577144),
    (1e7, 0.2, -0.8416212695170079),
    (1e7, 0.4999999, -2.506628337368814e-07),
    (1e7, 0.501, 0.002506630962237933),
    (1e7, 1 - 1e-12, 7.034495788284389),
]


def test_the_docstring_values():
    assert round(t_cdf(2.0, 10), 6) == 0.963306 and t_cdf(0.0, 3.5) == 0.5
    assert round(t_quantile(0.975, 10), 6) == 2.228139
    assert round(t_quantile(0.025, 499), 6) == -1.964729


@pytest.mark.parametrize("df", DFS)
def test_cdf_matches_scipy(df):
    """Both sides of the distribution to about 5e-15 of stdtr where stdtr is itself that good
    (tails from 1e-3), and to stdtr's own error (below 3.1e-13) on down to 1e-300."""
    for t in TS:
        if df == 1.0 and t < 0.05:  # stdtr(1, -1e-8) is off by 3e-9: the closed form below
            continue
        tail = float(stdtr(df, -t))
        if tail < 1e-300:
            break
        assert t_cdf(-t, df) == pytest.approx(tail, rel=5e-15 if tail >= 1e-3 else 5e-13), t
        assert t_cdf(t, df) == pytest.approx(float(stdtr(df, t)), rel=1e-15), t


@pytest.mark.parametrize(("df", "t", "tail"), TAILS)
def test_tail_matches_40_digit_values(df, t, tail):
    assert t_cdf(-t, df) == pytest.approx(tail, rel=3e-15)


def test_cdf_matches_the_closed_forms_for_one_and_two_degrees_of_freedom():
    for t in (0.0, 1e-300, 1e-100, 1e-8, 1e-4, 0.01, 0.3, 0.7, 1.0, 1.7, 3.0, 30.0, 1e4, 1e100):
        cauchy = math.atan2(1.0, t) / math.pi  # P(T > t) with one degree of freedom
        assert t_cdf(-t, 1.0) == pytest.approx(cauchy, rel=2e-15)
        assert t_cdf(t, 1.0) == pytest.approx(0.5 + math.atan(t) / math.pi, rel=1e-15)
        root = math.sqrt(2.0 + t * t)  # with two: P(T <= t) = 1/2 + t / (2 sqrt(2 + t^2))
        assert t_cdf(-t, 2.0) == pytest.approx(1.0 / ((2.0 + t * t) * (1.0 + t / root)), rel=2e-15)
        assert t_cdf(t, 2.0) == pytest.approx(0.5 + t / (2.0 * root), rel=1e-15)


@pytest.mark.parametrize("df", DFS)
def test_cdf_is_symmetric(df):
    for t in TS:
        assert abs(t_cdf(-t, df) - (1.0 - t_cdf(t, df))) <= 2.0**-52, t


@pytest.mark.parametrize("df", DFS)
def test_quantile_matches_scipy(df):
    """Off q = 1/2 (where stdtrit loses digits) and q = 0.2 and 0.8 (stdtrit off by 1.2e-14 at
    df = 2.5), to 5e-15 of stdtrit; the rest is in QUANTILES."""
    for q in QS:
        assert t_quantile(q, df) == pytest.approx(float(stdtrit(df, q)), rel=5e-15), q


@pytest.mark.parametrize(("df", "q", "t"), QUANTILES)
def test_quantile_matches_40_digit_values(df, q, t):
    assert t_quantile(q, df) == pytest.approx(t, rel=3e-15)


@pytest.mark.parametrize("df", DFS)
def test_quantile_is_symmetric(df):
    for q in (2.0**-2, 2.0**-5, 2.0**-20, 2.0**-50, 0.5 - 2.0**-30):  # 1 - q exact
        assert t_quantile(q, df) == -t_quantile(1.0 - q, df), q


@pytest.mark.parametrize(
    ("a", "value"),
    [(0.25, 1.6571065161914822), (0.5, 1.1447298858494002), (1.0, 0.6931471805599453)]
    + [(2.5, 0.16390063283767395), (61.728, -1.4869788846189333), (5e6, -7.140109267274487)],
)
def test_log_beta_half(a, value):
    assert _log_beta_half(a) == pytest.approx(value, rel=1e-15)


def test_edges_and_errors():
    assert t_cdf(math.inf, 3.0) == 1.0 and t_cdf(-math.inf, 3.0) == 0.0
    assert math.isnan(t_cdf(math.nan, 3.0))
    assert t_quantile(0.0, 3.0) == -math.inf and t_quantile(1.0, 3.0) == math.inf
    assert t_quantile(0.5, 3.0) == 0.0
    for df in (0.0, -1.0, math.inf, math.nan):
        with pytest.raises(ValueError, match="degrees of freedom"):
            t_cdf(1.0, df)
        with pytest.raises(ValueError, match="degrees of freedom"):
            t_quantile(0.5, df)
    for q in (-0.1, 1.1, math.nan):
        with pytest.raises(ValueError, match="probability"):
            t_quantile(q, 3.0)
