/** n / d rounded to the nearest integer, halves away from zero (2.5 → 3, -2.5 → -3); d > 0. */
export function divideHalfAwayFromZero(n: bigint, d: bigint): bigint {
  if (d <= 0n) throw new RangeError('the divisor must be positive');
  const quotient = n / d; // truncated toward zero
  const remainder = n % d;
  if (2n * (remainder < 0n ? -remainder : remainder) < d) return quotient;
  return n < 0n ? quotient - 1n : quotient + 1n;
}

/**
 * `total` (≥ 0) split in proportion to `weights` (all ≥ 0) by largest remainder: each share is the floor
 * of its exact part, and the units left over go one each to the largest remainders. Equal
 * remainders are ordered by `tieOrder`, which must not depend on the weights' positions if the
 * result is to follow the items rather than their order. The shares sum to `total` exactly.
 */
export function largestRemainderShares(total: bigint, weights: readonly bigint[], tieOrder: (a: number, b: number) => number): bigint[] {
  const sum = weights.reduce((s, w) => s + w, 0n);
  if (sum === 0n) {
    if (total !== 0n) throw new RangeError('a non-zero total cannot be shared among zero weights');
    return weights.map(() => 0n);
  }
  const shares = weights.map((w) => (total * w) / sum);
  const remainders = weights.map((w) => (total * w) % sum);
  let left = total - shares.reduce((s, x) => s + x, 0n);
  const byRemainder = weights
    .map((_, i) => i)
    .sort((a, b) => {
      const ra = remainders[a] as bigint;
      const rb = remainders[b] as bigint;
      return ra === rb ? tieOrder(a, b) : ra > rb ? -1 : 1;
    });
  for (const i of byRemainder) {
    if (left === 0n) break;
    shares[i] = (shares[i] as bigint) + 1n;
    left -= 1n;
  }
  return shares;
}
