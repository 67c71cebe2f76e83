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
