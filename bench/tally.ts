// What the counting worker counts for one kind of work (bench/counting-entry.ts), shared by the
// worker and the bench's Node side.

export interface Tally {
  d1: number;
  rowsRead: number;
  rowsWritten: number;
  kvReads: number;
  kvWrites: number;
  kvDeletes: number;
  kvLists: number;
  queueMessages: number;
}

export const emptyTally = (): Tally => ({
  d1: 0,
  rowsRead: 0,
  rowsWritten: 0,
  kvReads: 0,
  kvWrites: 0,
  kvDeletes: 0,
  kvLists: 0,
  queueMessages: 0,
});
