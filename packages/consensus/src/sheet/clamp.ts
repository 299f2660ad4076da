/**
 * Python's two-argument `min` and `max`: the first argument wins unless the second is strictly
 * smaller (larger). That decides the sign of zero (`max(0.0, -0.0)` is `0.0`) and makes NaN
 * clamp to the bound (`min(1.0, nan)` is `1.0`), which changes the printed digits. Math.min and
 * Math.max differ on exactly those inputs.
 */
export function pyMin(a: number, b: number): number {
  // biome-ignore lint/complexity/useMathMinMax: Math.min treats -0.0 and NaN differently.
  return b < a ? b : a;
}

export function pyMax(a: number, b: number): number {
  // biome-ignore lint/complexity/useMathMinMax: Math.max treats -0.0 and NaN differently.
  return b > a ? b : a;
}

/** `max(0.0, min(1.0, x))`, the clamp the Python package applies to norms and scores. */
export function clampUnit(x: number): number {
  return pyMax(0.0, pyMin(1.0, x));
}
