/**
 * Python's `repr(float)`: the shortest digits that read back to the same double, in fixed notation
 * when the decimal exponent is in [-4, 16) and scientific otherwise (`1e-05`, `1e+16`).
 * JavaScript's shortest-digit algorithm picks the same digits (both choose the candidate closest
 * to the exact value), so only the layout differs.
 */

/** `repr(x)` for a finite double. Throws a RangeError for inf and NaN, which JSON cannot carry. */
export function formatPyFloat(x: number): string {
  if (!Number.isFinite(x)) {
    throw new RangeError(`${x} is not a JSON number (Python prints inf/nan)`);
  }
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const a = Math.abs(x);
  // The exponent is in [-4, 16) exactly when 1e-4 <= |x| < 1e16; there JavaScript prints the
  // same digits in fixed notation too, only without Python's ".0" on whole numbers.
  if (a >= 1e-4 && a < 1e16) {
    const text = String(x);
    return Number.isInteger(x) ? `${text}.0` : text;
  }
  const [mantissa = '', exponentText = '0'] = a.toExponential().split('e');
  const exponent = Number(exponentText);
  const expSign = exponent < 0 ? '-' : '+';
  const sign = x < 0 ? '-' : '';
  return `${sign}${mantissa}e${expSign}${String(Math.abs(exponent)).padStart(2, '0')}`;
}
