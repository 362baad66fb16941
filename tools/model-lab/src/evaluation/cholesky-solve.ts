/**
 * Solves A·x = b for a symmetric positive semi-definite A (a Newton step's Hessian) by Cholesky
 * factorisation, A = L·Lᵀ.
 *
 * A direction along which A is singular (a pivot at or below `1e-12 ×` the largest diagonal entry,
 * e.g. a feature that never varies, or one copied into two columns without a penalty) is dropped:
 * its component of x is 0 and the rest is solved as if it were absent. So the answer is always
 * finite. Neither A nor b is changed.
 */
export function choleskySolve(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const m = b.length;
  const scale = Math.max(0, ...a.map((row, i) => row[i]!));
  const tiny = 1e-12 * scale;
  const l = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  const dropped = new Array<boolean>(m).fill(false);

  for (let j = 0; j < m; j += 1) {
    const lj = l[j]!;
    let diagonal = a[j]![j]!;
    for (let k = 0; k < j; k += 1) diagonal -= lj[k]! * lj[k]!;
    if (!(diagonal > tiny)) {
      dropped[j] = true;
      continue; // column j of L stays 0
    }
    const pivot = Math.sqrt(diagonal);
    lj[j] = pivot;
    for (let i = j + 1; i < m; i += 1) {
      const li = l[i]!;
      let s = a[i]![j]!;
      for (let k = 0; k < j; k += 1) s -= li[k]! * lj[k]!;
      li[j] = s / pivot;
    }
  }

  const y = new Array<number>(m).fill(0);
  for (let j = 0; j < m; j += 1) {
    if (dropped[j]) continue;
    let s = b[j]!;
    for (let k = 0; k < j; k += 1) s -= l[j]![k]! * y[k]!;
    y[j] = s / l[j]![j]!;
  }
  const x = new Array<number>(m).fill(0);
  for (let j = m - 1; j >= 0; j -= 1) {
    if (dropped[j]) continue;
    let s = y[j]!;
    for (let k = j + 1; k < m; k += 1) s -= l[k]![j]! * x[k]!;
    x[j] = s / l[j]![j]!;
  }
  return x;
}
