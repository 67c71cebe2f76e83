import type { Listener, Published } from '../core/sequencer/index.ts';
import type { ProjectionSource } from '../projection/projector.ts';

/** What the feed needs of the sequencer: its published batches, and its intake to pause. */
export interface FeedSequencer<Event> {
  subscribe(listener: Listener<Event>): () => void;
  pauseIntake(holder: object): void;
  resumeIntake(holder: object): void;
}

/**
 * The sequencer's published batches for a projector that is not open yet
 * (docs/cluster.md, "Takeover"): a new leader answers commands as soon as
 * its journal is fenced, and its projector, which may wait on the database
 * (a stalled old leader's transaction holding the watermark's row), follows
 * when it is ready. Until then the batches are held, from the takeover's
 * sequence on; past `bound` sequences held, the sequencer's intake waits,
 * as it would for a projector behind. The projector follows the feed
 * (`Projector.follow`) once it has caught up to the takeover's sequence: it
 * gets the held batches at once, then each new one.
 */
export class ProjectionFeed<Event> implements ProjectionSource<Event> {
  private held: { published: Published<Event>[]; through: number }[] = [];
  private listener: Listener<Event> | null = null;
  /** The last sequence handed to the projector (the takeover's, before it follows). */
  private handed: number;
  private pausing = false;

  constructor(
    private readonly sequencer: FeedSequencer<Event>,
    start: number,
    private readonly bound = 4_096,
  ) {
    this.handed = start;
    sequencer.subscribe((published, through) => this.take(published, through));
  }

  private take(published: Published<Event>[], through: number): void {
    if (this.listener) {
      this.handed = through;
      this.listener(published, through);
      return;
    }
    this.held.push({ published, through });
    if (!this.pausing && through - this.handed > this.bound) {
      this.pausing = true;
      this.sequencer.pauseIntake(this);
    }
  }

  /** The projector: handed what is held, then every new batch. One at a time. */
  subscribe(listener: Listener<Event>): () => void {
    if (this.listener) throw new Error('the projection feed has a projector already');
    for (const batch of this.held.splice(0)) {
      this.handed = batch.through;
      listener(batch.published, batch.through);
    }
    this.listener = listener;
    if (this.pausing) {
      this.pausing = false;
      this.sequencer.resumeIntake(this);
    }
    return () => {
      if (this.listener === listener) this.listener = null;
    };
  }

  /** The last sequence handed on: a projector follows from there. */
  lastSequence(): number {
    return this.handed;
  }

  pauseIntake(holder: object): void {
    this.sequencer.pauseIntake(holder);
  }

  resumeIntake(holder: object): void {
    this.sequencer.resumeIntake(holder);
  }
}
