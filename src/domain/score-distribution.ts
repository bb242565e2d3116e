/**
 * Scores (percentages, 0–100) are counted in ten buckets of ten: [0,10), [10,20), …, [90,100],
 * the last one taking 100 too. (The stored default of quiz_stats.buckets is ten zeros.)
 */
export const SCORE_BUCKET_COUNT = 10;
const SCORE_BUCKET_WIDTH = 100 / SCORE_BUCKET_COUNT;

/** The index of the bucket that counts a score. */
export const bucketOf = (score: number) => Math.min(Math.floor(score / SCORE_BUCKET_WIDTH), SCORE_BUCKET_COUNT - 1);

/** The scores bucket `index` counts, as shown: from (included) to (excluded, but for the last). */
export const bucketBounds = (index: number) => ({ from: index * SCORE_BUCKET_WIDTH, to: (index + 1) * SCORE_BUCKET_WIDTH });
