/**
 * What the sequencer runs: a deterministic state machine. The sequencer knows
 * nothing of what a command means; the machine knows nothing of journals,
 * queues or replies.
 *
 * The determinism rules: `apply` reads only the state, the command and the
 * sequence — never a clock, a random source, the environment or I/O. A time
 * the command needs was stamped into it at the edge, before it was
 * journaled. Applying the same commands in the same order to the same state
 * therefore always gives the same results, events and state: that is what
 * makes replay rebuild the state.
 */
export interface Applied<Result, Event> {
  result: Result;
  events: Event[];
}

/** A snapshot being read: `next()` gives the encoded state a piece at a time, then null. */
export interface StateCapture {
  next(): Uint8Array | null;
  /** Ends the capture early (the sequencer stopped). */
  abandon(): void;
}

export interface Machine<State, Command, Result, Event> {
  /**
   * Applies one command. A refusal is a result like any other (the command
   * stays journaled and replay refuses it again); a throw is a bug, and it
   * stops the sequencer for good. With `emit` false nobody reads the events
   * (a replay below every projector's watermark): the machine may leave them
   * out, but the result and the state must be the same as with it true.
   */
  apply(state: State, command: Command, seq: number, emit: boolean): Applied<Result, Event>;
  /** The command's idempotency id, or null when it carries none. */
  idOf(command: Command): string | null;
  /** The result first given for an id the state still remembers. */
  recall(state: State, id: string): Result | undefined;
  /** Keeps the result of a command with an id, as part of the state (so replay agrees). */
  remember(state: State, id: string, result: Result, seq: number): void;
  encodeCommand(command: Command): Uint8Array;
  decodeCommand(payload: Uint8Array): Command;
  /** Starts reading the state as it is now, to be read in slices while commands go on. */
  capture(state: State): StateCapture;
  decodeState(bytes: Uint8Array): State;
  /** The state before any command. */
  initialState(): State;
}

/**
 * One command through the machine, the same way live and in replay: a repeated
 * idempotency id answers the first result and changes nothing. `emit`: see
 * `Machine.apply`.
 */
export function step<State, Command, Result, Event>(
  machine: Machine<State, Command, Result, Event>,
  state: State,
  command: Command,
  seq: number,
  emit = true,
): Applied<Result, Event> {
  const id = machine.idOf(command);
  if (id !== null) {
    const first = machine.recall(state, id);
    if (first !== undefined) return { result: first, events: [] };
  }
  const applied = machine.apply(state, command, seq, emit);
  if (id !== null) machine.remember(state, id, applied.result, seq);
  return applied;
}
