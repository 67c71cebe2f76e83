import { createHash } from 'node:crypto';
import { OrderBook } from '@halyard/matching';
import { Dec } from '@halyard/money';
import { type AccountRef, accountMapKey } from '../../ledger/accounts.ts';
import type { AccountState, HoldEntry, PlannedTransfer } from '../../ledger/plan.ts';
import type { MapCapture, StateCapture } from '../sequencer/index.ts';
import type { MoneyResult, PairConfig } from './commands.ts';
import { createMoneyState, type MoneyState, type OpenOrder } from './money-state.ts';
import type { RetentionPolicy } from './retention.ts';

/**
 * The money state as text, one JSON array a line: a header (format, next
 * order id, retention, pairs), then accounts, holds, open orders, the
 * transfers of the retry window and the remembered answers, each window in
 * the order of its epochs. Amounts are written as their units (the Dec ×
 * 10^18 integer), so reading them back is exact and cheap. The books are not
 * written: they are rebuilt from the open orders.
 *
 * The state hash is sha256 over these lines sorted: maps may list their
 * entries in another order after a load, and nothing the state decides
 * depends on that order.
 */

const FORMAT = 1;
/** Lines read per `next()`: a few milliseconds of work. */
const SLICE_LINES = 2048;

interface Header {
  format: number;
  nextOrderId: number;
  retention: RetentionPolicy;
  pairs: { config: PairConfig; lastPrice: string | null }[];
}

/** A window's epochs as they were at the capture: arrays only grow, so the length then bounds them. */
type EpochView = { epoch: number; ids: string[]; length: number }[];

function epochView(epochs: Map<number, string[]>): EpochView {
  return [...epochs].map(([epoch, ids]) => ({ epoch, ids, length: ids.length }));
}

/** Reads the state's lines, a slice at a time, as they were when it was made. */
class LineReader {
  private readonly accounts: MapCapture<string, AccountState>;
  private readonly holds: MapCapture<string, HoldEntry>;
  private readonly orders: MapCapture<number, OpenOrder>;
  private readonly transfers: MapCapture<string, PlannedTransfer>;
  private readonly answers: MapCapture<string, MoneyResult>;
  private readonly transferEpochs: EpochView;
  private readonly answerEpochs: EpochView;
  private header: string | null;
  private stage = 0;
  private epochIndex = 0;
  private idIndex = 0;

  constructor(state: MoneyState) {
    this.header = JSON.stringify({
      format: FORMAT,
      nextOrderId: state.nextOrderId,
      retention: state.transferIds.policy,
      pairs: [...state.pairs.values()].map((pair) => ({
        config: pair.config,
        lastPrice: pair.lastPrice?.toString() ?? null,
      })),
    } satisfies Header);
    this.accounts = state.ledger.accounts.capture();
    this.holds = state.ledger.holds.capture();
    this.orders = state.orders.capture();
    this.transfers = state.ledger.transfers.capture();
    this.answers = state.answers.capture();
    this.transferEpochs = epochView(state.transferIds.epochs);
    this.answerEpochs = epochView(state.answerIds.epochs);
  }

  /** The next lines, or null once every line was given (the captures are then closed). */
  next(limit: number): string[] | null {
    if (this.header !== null) {
      const header = this.header;
      this.header = null;
      return [header];
    }
    while (this.stage < 5) {
      const lines = this.stageLines(limit);
      if (lines.length > 0) return lines;
      this.stage += 1;
      this.epochIndex = 0;
      this.idIndex = 0;
    }
    this.close();
    return null;
  }

  close(): void {
    for (const capture of [this.accounts, this.holds, this.orders, this.transfers, this.answers])
      capture.close();
  }

  private stageLines(limit: number): string[] {
    switch (this.stage) {
      case 0:
        return this.accounts.slice(limit).map(([, account]) => accountLine(account));
      case 1:
        return this.holds.slice(limit).map(([id, hold]) => holdLine(id, hold));
      case 2:
        return this.orders.slice(limit).map(([, order]) => orderLine(order));
      case 3:
        return this.windowLines(this.transferEpochs, limit, (epoch, id) =>
          transferLine(epoch, this.transfers.valueAt(id)!),
        );
      default:
        return this.windowLines(this.answerEpochs, limit, (epoch, id) =>
          JSON.stringify(['r', epoch, id, this.answers.valueAt(id)]),
        );
    }
  }

  private windowLines(view: EpochView, limit: number, line: (epoch: number, id: string) => string): string[] {
    const lines: string[] = [];
    while (lines.length < limit && this.epochIndex < view.length) {
      const { epoch, ids, length } = view[this.epochIndex]!;
      if (this.idIndex >= length) {
        this.epochIndex += 1;
        this.idIndex = 0;
        continue;
      }
      lines.push(line(epoch, ids[this.idIndex++]!));
    }
    return lines;
  }
}

const units = (value: Dec): string => value.units.toString();
const dec = (text: string): Dec => Dec.fromUnits(BigInt(text));

function accountLine(a: AccountState): string {
  const { owner, wallet, asset } = a.key;
  return JSON.stringify([
    'a',
    owner,
    wallet,
    asset,
    a.mayGoNegative,
    units(a.debitsPosted),
    units(a.creditsPosted),
    units(a.debitsPending),
    units(a.creditsPending),
    a.createdAt,
  ]);
}

function holdLine(id: string, h: HoldEntry): string {
  return JSON.stringify(['h', id, units(h.remaining), h.state, h.debit, h.credit, h.asset]);
}

function orderLine(o: OpenOrder): string {
  return JSON.stringify([
    'o',
    o.id,
    o.pair,
    o.owner,
    o.account,
    o.side,
    units(o.price),
    units(o.amount),
    units(o.remaining),
    units(o.held),
    units(o.holdSpent),
  ]);
}

function transferLine(epoch: number, t: PlannedTransfer): string {
  return JSON.stringify([
    't',
    epoch,
    t.id,
    t.type,
    t.debit,
    t.credit,
    t.asset,
    units(t.amount),
    t.code,
    t.reference,
    t.pendingId,
    t.timestamp,
  ]);
}

/** The state as it is now, read a slice per `next()` while commands go on changing it. */
export function captureMoneyState(state: MoneyState): StateCapture {
  const reader = new LineReader(state);
  return {
    next() {
      const lines = reader.next(SLICE_LINES);
      return lines === null ? null : Buffer.from(`${lines.join('\n')}\n`);
    },
    abandon: () => reader.close(),
  };
}

/** sha256 of the state's lines, sorted: equal for equal states, whatever order their maps hold. */
export function moneyStateHash(state: MoneyState): string {
  const reader = new LineReader(state);
  const lines: string[] = [];
  for (let slice = reader.next(SLICE_LINES); slice !== null; slice = reader.next(SLICE_LINES)) {
    for (const line of slice) lines.push(line);
  }
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line).update('\n');
  return hash.digest('hex');
}

type Line = [string, ...unknown[]];

export function decodeMoneyState(bytes: Uint8Array): MoneyState {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  const lines = text.split('\n');
  const header = JSON.parse(lines[0]!) as Header;
  if (header.format !== FORMAT) throw new Error(`money state format ${header.format}, expected ${FORMAT}`);
  const state = createMoneyState(header.retention);
  state.nextOrderId = header.nextOrderId;
  for (let index = 1; index < lines.length; index++) {
    if (lines[index] === '') continue;
    loadLine(state, JSON.parse(lines[index]!) as Line);
  }
  for (const { config, lastPrice } of header.pairs) {
    const precision = {
      priceAccuracy: config.priceAccuracy,
      amountAccuracy: config.amountAccuracy,
      minNumber: Dec.parse(config.minNumber),
    };
    state.pairs.set(config.symbol, {
      config,
      precision,
      makerFee: Dec.parse(config.makerFee),
      takerFee: Dec.parse(config.takerFee),
      lastPrice: lastPrice === null ? null : Dec.parse(lastPrice),
    });
    const resting = [...state.orders.values()]
      .filter((order) => order.pair === config.symbol)
      .map((order) => ({
        orderId: String(order.id),
        userId: order.owner,
        side: order.side,
        price: order.price,
        amount: order.amount,
        remaining: order.remaining,
        sequence: order.id,
      }));
    state.books.set(config.symbol, OrderBook.restore(precision, resting));
  }
  return state;
}

function loadLine(state: MoneyState, line: Line): void {
  const [kind, ...f] = line;
  switch (kind) {
    case 'a': {
      const key = { owner: f[0], wallet: f[1], asset: f[2] } as AccountRef & { asset: string };
      const mapKey = accountMapKey(key);
      state.ledger.accounts.set(mapKey, {
        key,
        mapKey,
        id: null,
        mayGoNegative: f[3] as boolean,
        debitsPosted: dec(f[4] as string),
        creditsPosted: dec(f[5] as string),
        debitsPending: dec(f[6] as string),
        creditsPending: dec(f[7] as string),
        createdAt: f[8] as number,
      });
      return;
    }
    case 'h':
      state.ledger.holds.set(f[0] as string, {
        remaining: dec(f[1] as string),
        state: f[2] as HoldEntry['state'],
        debit: f[3] as AccountRef,
        credit: f[4] as AccountRef,
        asset: f[5] as string,
      });
      return;
    case 'o':
      state.orders.set(f[0] as number, {
        id: f[0] as number,
        pair: f[1] as string,
        owner: f[2] as string,
        account: f[3] as AccountRef,
        side: f[4] as OpenOrder['side'],
        price: dec(f[5] as string),
        amount: dec(f[6] as string),
        remaining: dec(f[7] as string),
        held: dec(f[8] as string),
        holdSpent: dec(f[9] as string),
      });
      return;
    case 't': {
      const id = f[1] as string;
      state.ledger.transfers.set(id, {
        id,
        type: f[2] as PlannedTransfer['type'],
        debit: f[3] as AccountRef,
        credit: f[4] as AccountRef,
        asset: f[5] as string,
        amount: dec(f[6] as string),
        code: f[7] as string,
        reference: f[8] as string | null,
        pendingId: f[9] as string | null,
        timestamp: f[10] as number,
      });
      state.transferIds.addToEpoch(f[0] as number, id);
      return;
    }
    case 'r':
      state.answers.set(f[1] as string, f[2] as MoneyResult);
      state.answerIds.addToEpoch(f[0] as number, f[1] as string);
      return;
    default:
      throw new Error(`money state: unknown line kind ${String(kind)}`);
  }
}
