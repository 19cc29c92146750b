"""Student's t distribution: its distribution function and its quantile, on `math` alone.

Every `compare` takes many t intervals and t tests (`differences.paired_difference`,
`differences.welch_interval`). scipy.special has both (`stdtr`, `stdtrit`), but importing it (with
numpy) costs a process 0.12-0.19 s on this project's machine, a third of `compare`'s whole time on
two runs of 0.8M rows (`benchmarks/outputs.py`). tests/test_student_t.py holds these two to
scipy.special's and to 40-digit values for df from 0.5 to 10^7 and tails down to 1e-300.

How. With a = df/2, u = t^2/df, x = 1/(1 + u) and y = u/(1 + u), the tail P(T > t) is I_x(a, 1/2)/2
and the central part P(0 < T <= t) is I_y(1/2, a)/2 (I the regularised incomplete beta function).
One of the two is computed directly, the other as 1/2 minus it, so neither loses digits to
cancellation: near the centre, the central part by its hypergeometric series (all terms positive);
beyond, the tail, for df >= 16 and u <= e - 1 by the expansion for large a and b <= 1 in
incomplete gamma functions (DiDonato and Morris 1992, section 9, after Temme), whose leading term
is erfc when b = 1/2, and elsewhere by the continued fraction of I_x written with y itself where
1 - x would lose digits (DiDonato and Morris 1992, BFRAC: the even part of Abramowitz and Stegun
26.5.8). The large factors x^a and (1 + u)^-(a - 1/4) are math.pow of 1 + u carried in two
doubles (Dekker 1971), which keeps the relative accuracy of tails down to 1e-300; the gamma ratio
is Stirling's series with its large parts cancelled by hand. The quantile is Newton's method on
the central part or on the log of the tail, whichever is the smaller, kept inside a bracket.
"""

from __future__ import annotations

import math

_EPS = 2.0**-52
_LARGEST = 1.7976931348623157e308
_SQRT_PI = math.sqrt(math.pi)
_LOG_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
# Stirling's series for log Gamma(z): sum over k of B_2k / (2k (2k - 1) z^(2k - 1))
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)


def _sinhc_coefficients(count: int) -> tuple[float, ...]:
    """d_n with (sinh(h)/h)^(-1/2) = sum d_n h^2n, from sinh(h)/h = sum h^2k / (2k + 1)! by the
    rule for a power p of a series c: n d_n = sum_k (k (p + 1) - n) c_k d_(n-k)."""
    c = [1.0 / math.factorial(2 * k + 1) for k in range(count)]
    d = [1.0]
    for n in range(1, count):
        d.append(sum((0.5 * k - n) * c[k] * d[n - k] for k in range(1, n + 1)) / n)
    return tuple(d)


_D = _sinhc_coefficients(30)


def _rho(a: float) -> float:
    """log(Gamma(a + 1/2) / (Gamma(a) sqrt(a))), small (about -1/(8a) for large a). From 10 up,
    Stirling's series for both gammas with their (z - 1/2) log z - z parts cancelled by hand to
    a log(1 + 1/(2a)) - 1/2 (seven terms leave an error below 1e-17 there); below, the recurrence
    rho(a) = rho(a + 1) + log(1 - 1/(2a + 1)^2) / 2, the log's argument 4a (a + 1)/(2a + 1)^2."""
    shift = 0.0
    if a < 0.25:
        shift, a = 0.5 * math.log(4.0 * a * (a + 1.0)) - math.log1p(2.0 * a), a + 1.0
    while a < 10.0:
        shift += 0.5 * math.log1p(-1.0 / (2.0 * a + 1.0) ** 2)
        a += 1.0
    for z, sign in ((a + 0.5, 1.0), (a, -1.0)):
        power = 1.0 / z
        for c in _STIRLING:
            shift += sign * c * power
            power /= z * z
    return shift + a * math.log1p(0.5 / a) - 0.5


def _log_beta_half(a: float) -> float:
    """log B(a, 1/2) = log Gamma(a) + log Gamma(1/2) - log Gamma(a + 1/2)."""
    return 0.5 * math.log(math.pi / a) - _rho(a)


def _two_product(p: float, q: float) -> tuple[float, float]:
    """p q as hi + lo exactly (Dekker 1971: each factor split into halves of 26 bits)."""
    c = 134217729.0 * p
    p1 = c - (c - p)
    c = 134217729.0 * q
    q1 = c - (c - q)
    hi = p * q
    return hi, (((p1 * q1 - hi) + p1 * (q - q1)) + (p - p1) * q1) + (p - p1) * (q - q1)


def _one_plus_u(t: float, df: float) -> tuple[float, float, float]:
    """u = t^2/df, and w + w_lo = 1 + u to about twice the double precision."""
    square, square_lo = _two_product(t, t)
    u = square / df
    back, back_lo = _two_product(u, df) if df < 1e290 else (square, 0.0)  # (no overflow)
    u_lo = ((square - back) - back_lo + square_lo) / df
    w = 1.0 + u
    w_less_1 = w - 1.0
    return u, w, ((1.0 - (w - w_less_1)) + (u - w_less_1)) + u_lo


def _erfcx(s: float) -> float:
    """exp(s^2) erfc(s) for s >= 0: below 14 the product, s^2 taken exactly as hi + lo; from 14,
    the asymptotic series 1/(s sqrt(pi)) sum (-1)^k (2k - 1)!! / (2s^2)^k (A&S 7.1.23)."""
    if s < 14.0:
        square, square_lo = _two_product(s, s)
        return math.erfc(s) * math.exp(square) * (1.0 + square_lo)
    total, term, k = 1.0, 1.0, 1
    while abs(term) > 1e-17:
        term *= -(2 * k - 1) * 0.5 / (s * s)
        total, k = total + term, k + 1
    return total / (s * _SQRT_PI)


def _expansion_tail(a: float, u: float, w: float, w_lo: float, rho: float) -> float:
    """P(T > t) for a >= 8 and u <= e - 1. With T = a - 1/4 and s = exp(-v/T), I_x(a, 1/2)'s
    integrand becomes T^(-1/2) e^-v v^(-1/2) (sinh(h)/h)^(-1/2), h = v/(2T), over v > z =
    T log(1 + u), whence (DiDonato and Morris 1992, (9.1)-(9.2) with b = 1/2) I_x(a, 1/2) =
    Gamma(a + 1/2)/(Gamma(a) sqrt(T)) sum_n d_n J_n, J_n = Gamma(2n + 1/2, z)/(sqrt(pi) (2T)^2n):
    J_0 = erfc(sqrt(z)), then Gamma(s + 2, z) = s (s + 1) Gamma(s, z) + (s + 1 + z) z^s e^-z. The
    J_n are kept times e^z, which (1 + u)^-T restores. The sum is asymptotic; within these
    bounds it converges in at most 18 terms."""
    big_t = a - 0.25
    z = big_t * math.log1p(u)
    inv = 0.25 / (big_t * big_t)
    j = _erfcx(math.sqrt(z))
    power = math.sqrt(z) / _SQRT_PI * inv  # z^s / (sqrt(pi) (2T)^2n) with s = 2n - 3/2, n = 1
    total, s = j, 0.5
    for d in _D[1:]:
        j = s * (s + 1.0) * inv * j + (s + 1.0 + z) * power
        total += d * j
        if abs(d * j) <= 0.25 * _EPS * total:
            scale = math.exp(rho - 0.5 * math.log1p(-0.25 / a) - big_t * w_lo / w)
            return 0.5 * math.pow(w, -big_t) * scale * total
        power *= z * z * inv
        s += 2.0
    raise ArithmeticError(f"the expansion did not converge (a={a}, u={u})")


def _fraction(a: float, x: float, y: float) -> float:
    """f with I_x(a, 1/2) = x^a y^(1/2) f / B(a, 1/2): f = 1/(b_0 + a_1/(b_1 + a_2/(b_2 + ...)))
    (DiDonato and Morris 1992, BFRAC, with b = 1/2), where 1 + lambda = 1/2 + (a + 1/2) y,
    b_0 = a (1 + lambda)/(a + 1), a_n = n (1/2 - n)(a + n - 1)(a + n - 1/2) x^2 / (a + 2n - 1)^2,
    b_n = n + n (1/2 - n) x/(a + 2n - 1) + (a + n)(1 + lambda + n (1 + y))/(a + 2n + 1). Its
    convergents p_n/q_n follow p_n = b_n p_(n-1) + a_n p_(n-2) (q_n too), rescaled to q_n = 1."""
    one_lambda = 0.5 + (a + 0.5) * y
    p = (a + 1.0) / (a * one_lambda)
    p_old, q_old = 0.0, p  # p_(-1) = 0, q_(-1) = 1 and q_0 = b_0, all divided by b_0
    for n in range(1, 10_000):
        k = a + 2 * n
        num = n * (0.5 - n) * (a + n - 1) * (a + n - 0.5) * x * x / ((k - 1) * (k - 1))
        den = n + n * (0.5 - n) * x / (k - 1) + (a + n) * (one_lambda + n * (1.0 + y)) / (k + 1)
        p_new, q_new = den * p + num * p_old, den + num * q_old
        p_old, q_old, last, p = p / q_new, 1.0 / q_new, p, p_new / q_new
        if abs(p - last) <= 0.5 * _EPS * p:
            return p
    raise ArithmeticError(f"the incomplete beta fraction did not converge (a={a}, x={x})")


def _areas(t: float, df: float, rho: float) -> tuple[float, float]:
    """(P(T > t), P(0 < T <= t)) for t >= 0, with rho = _rho(df/2): the central part directly
    near the centre, the tail beyond, the other as 1/2 minus it (the one computed directly is
    never more than about 3 times the other)."""
    a, r = 0.5 * df, t / math.sqrt(df)
    if r > 1e10 or t > 1e150:  # x = 1/r^2 and y = 1 in double precision; the fraction is 1
        log_r = math.log(t) - 0.5 * math.log(df)  # (r itself may overflow)
        x_a = math.pow(r, -df) if r <= _LARGEST else math.exp(-df * log_r)
        tail = x_a * math.exp(rho) / (2.0 * math.sqrt(math.pi * a))
        return tail, 0.5 - tail
    u, w, w_lo = _one_plus_u(t, df)
    if a >= 8.0 and t >= 0.7 and u <= math.e - 1.0:
        tail = _expansion_tail(a, u, w, w_lo, rho)
        return tail, 0.5 - tail
    # x^a y^(1/2) / B(a, 1/2), as y^(1/2) = t / sqrt(df w) and 1 / B(a, 1/2) = e^rho sqrt(a/pi)
    front = math.pow(w, -a) * math.exp(rho - a * w_lo / w) * t / math.sqrt(2.0 * math.pi * w)
    y = u / w
    # the fraction from 0.6 times its usual switch point y = (b + 1)/(a + b + 2)
    if (t >= 0.7 or y > 0.5) and y >= 0.9 / (a + 2.5):
        tail = 0.5 * front * _fraction(a, 1.0 / w, y)
        return tail, 0.5 - tail
    # I_y(1/2, a) = x^a y^(1/2) F(a + 1/2, 1; 3/2; y) / ((1/2) B(a, 1/2))  (DLMF 8.17(ii))
    total, term, k = 1.0, 1.0, 0
    while term > 0.25 * _EPS * total:
        term *= (a + 0.5 + k) / (1.5 + k) * y
        total, k = total + term, k + 1
    return 0.5 - front * total, front * total


def _check_df(df: float) -> None:
    if not df > 0 or math.isinf(df):
        raise ValueError(f"degrees of freedom must be positive and finite; got {df!r}")


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with `df` degrees of freedom (scipy.special.stdtr(df, t)).

    >>> round(t_cdf(2.0, 10), 6), t_cdf(0.0, 3.5)
    (0.963306, 0.5)
    """
    _check_df(df)
    if math.isnan(t):
        return math.nan
    tail, central = _areas(abs(t), df, _rho(0.5 * df))
    return tail if t < 0 else 0.5 + central if central < tail else 1.0 - tail


def t_quantile(q: float, df: float) -> float:
    """The t with P(T <= t) = q, for Student's t with `df` degrees of freedom
    (scipy.special.stdtrit(df, q)); -inf and inf at q = 0 and 1 and where |t| would pass the
    largest double.

    >>> round(t_quantile(0.975, 10), 6), round(t_quantile(0.025, 499), 6)
    (2.228139, -1.964729)
    """
    _check_df(df)
    if not 0.0 <= q <= 1.0:
        raise ValueError(f"a probability from 0 to 1; got {q!r}")
    sign = 1.0 if q > 0.5 else -1.0
    if q in (0.0, 0.5, 1.0):
        return 0.0 if q == 0.5 else sign * math.inf
    tail, central = (1.0 - q, q - 0.5) if q > 0.5 else (q, 0.5 - q)  # exact where used
    by_centre = central < tail  # solve for the smaller part
    target = central if by_centre else tail
    a, rho = 0.5 * df, _rho(0.5 * df)
    t = _start(tail, df, rho)
    if t > 1e300 and _areas(_LARGEST, df, rho)[0] > tail:
        return sign * math.inf
    lo, hi = 0.0, math.inf  # a bracket: t is too small at lo, too large at hi
    for _ in range(100):
        part = _areas(t, df, rho)[1 if by_centre else 0]
        lo, hi = (t, hi) if (part < target) == by_centre else (lo, t)
        if part == 0.0:  # the tail underflowed: far too large a t
            t = 0.5 * lo + 0.5 * hi
            continue
        # part / density, the density e^rho / sqrt(2 pi) (1 + u)^-(a + 1/2) taken through logs;
        # Newton on the central part, or on the log of the tail (steadier far out); its error
        # after the step is about |g''/2g'| step^2, with g''/g' from the density's log-slope
        log_u = 2.0 * math.log(t) - math.log(df)  # for log_w = log(1 + u): u itself may overflow
        log_w = math.log1p(t * t / df) if log_u < 0 else log_u + math.log1p(math.exp(-log_u))
        log_ratio = math.log(part) - math.log(t) + _LOG_SQRT_2PI - rho + (a + 0.5) * log_w
        ratio = math.exp(min(log_ratio, 700.0))  # part / (density t): t joins last (no overflow)
        slope = -(df + 1.0) / (df / t + t)
        if by_centre:
            step, curvature = t * ((target - part) / part * ratio), slope
        else:
            step, curvature = t * (math.log(part / target) * ratio), slope + 1.0 / t / ratio
        guess = t + step
        if guess == t:
            break
        if not lo < guess < hi:  # Newton would leave the bracket: halve it (or grow it)
            guess = min(2.0 * lo + 1.0, _LARGEST) if math.isinf(hi) else 0.5 * lo + 0.5 * hi
        elif 0.5 * abs(curvature) * step * step <= 0.25 * _EPS * t:  # a quarter ulp of t
            return sign * guess
        # the part is known to a few units in its last place, t no better: stop there
        if abs(guess - t) <= 8.0 * _EPS * t or hi - lo <= 8.0 * _EPS * lo:
            return sign * guess
        t = guess
    return sign * t


def _start(tail: float, df: float, rho: float) -> float:
    """A first t with P(T > t) near `tail`: far out (t^2 > 10 df), from the tail's power law
    (df/t^2)^a e^rho / (2 sqrt(pi a)) (the fraction's first term); else from the normal quantile
    z by Abramowitz and Stegun 26.7.5 in powers of 1/df (four terms from df = 10, within about
    1e-7 of t at the 97.5% point there; one below)."""
    from statistics import NormalDist

    a = 0.5 * df
    log_t = (a * math.log(df) + rho - math.log(2.0 * math.sqrt(math.pi * a)) - math.log(tail)) / df
    if log_t > 709.0:
        return _LARGEST
    if 2.0 * log_t > math.log(10.0 * df):
        return math.exp(log_t)
    z = -NormalDist().inv_cdf(tail)
    z2 = z * z
    terms = [z * (z2 + 1) / 4]
    if df >= 10:
        terms += [
            z * ((5 * z2 + 16) * z2 + 3) / 96,
            z * (((3 * z2 + 19) * z2 + 17) * z2 - 15) / 384,
            z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) / 92160,
        ]
    correction = 0.0
    for g in reversed(terms):
        correction = (correction + g) / df
    return max(z + correction, _EPS)
