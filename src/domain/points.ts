/**
 * Points are summed in integer micro-points (1 point = 1 000 000). Points have at most 6
 * decimals, so the conversion is exact and totals never drift (0.1 + 0.2 is 0.3, not
 * 0.30000000000000004). Numbers are produced only for output, as micro / 1e6, which is the
 * double nearest the exact decimal. Analytics keep sums of points in the same unit.
 */
export const POINT_DECIMALS = 6;
export const MICRO_POINTS_PER_POINT = 10 ** POINT_DECIMALS;

export const toMicro = (points: number): number => Math.round(points * MICRO_POINTS_PER_POINT);
export const fromMicro = (micro: number): number => micro / MICRO_POINTS_PER_POINT;

/**
 * Round-half-up division of non-negative integers. BigInt because numerators
 * such as earned micro-points × 10 000 can exceed 2^53, and float division
 * near a .5 boundary could round the wrong way.
 */
export function divRoundHalfUp(num: bigint, den: bigint): bigint {
  return (2n * num + den) / (2n * den);
}
