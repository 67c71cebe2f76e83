/**
 * Another writer appended to the stream since this journal's view, or this
 * journal's leadership lapsed: the stream holds records that this writer's
 * state has not applied. The journal takes no more appends; the sequencer
 * owning it must stop (it is no longer the leader) and, to write again, open
 * the journal afresh and replay up to its last sequence.
 */
export class JournalFencedError extends Error {
  override readonly name = 'JournalFencedError';
  constructor(reason: string, options?: ErrorOptions) {
    super(`journal fenced: ${reason}; this writer must stop`, options);
  }
}

/**
 * A read or a tail of the stream stopped before its end: its connection
 * closed (closed by its owner, or the server stayed away longer than the
 * client's reconnect attempts), or the server refused the consumer. Every
 * record up to `after` was delivered, none after it: read or follow again
 * from `after` on a working connection.
 */
export class JournalReadInterruptedError extends Error {
  override readonly name = 'JournalReadInterruptedError';
  constructor(
    readonly stream: string,
    readonly after: number,
    reason: string,
    options?: ErrorOptions,
  ) {
    super(`reading stream ${stream} stopped after record ${after}: ${reason}`, options);
  }
}
