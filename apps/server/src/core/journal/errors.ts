/**
 * The journal refuses to open (or to go on reading) rather than skip a record:
 * this names the segment file, the byte offset in it and the sequence the
 * record there should have carried.
 */
export class JournalCorruptError extends Error {
  override readonly name = 'JournalCorruptError';
  constructor(
    readonly file: string,
    readonly offset: number,
    readonly seq: number,
    readonly reason: string,
  ) {
    super(`journal corrupt: ${file} at byte ${offset}, record ${seq}: ${reason}`);
  }
}

/** A read asked for records that truncateBefore already dropped. */
export class JournalTruncatedError extends Error {
  override readonly name = 'JournalTruncatedError';
  constructor(
    readonly after: number,
    readonly firstKept: number,
  ) {
    super(`journal records ${after + 1}..${firstKept - 1} were truncated; the oldest kept is ${firstKept}`);
  }
}

/**
 * A write or fsync failed. What reached the disk is then unknown (a failed
 * fsync may have dropped the dirty pages), so the journal takes no more
 * appends; reopening it recovers from what the disk holds.
 */
export class JournalFailedError extends Error {
  override readonly name = 'JournalFailedError';
  constructor(cause: unknown) {
    super(
      `journal write failed, reopen it to recover: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
  }
}

export class JournalClosedError extends Error {
  override readonly name = 'JournalClosedError';
  constructor() {
    super('journal is closed');
  }
}
