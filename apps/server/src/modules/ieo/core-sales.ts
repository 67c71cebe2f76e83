import { randomUUID } from 'node:crypto';
import { CODE } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import { ieoAdvanceDue, ieoRebatesDue, ieoReleasesDue } from '../../core/state/ieo-clock.ts';
import type { IeoSaleTerms } from '../../core/state/ieo-rules.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';

/** The HTTP codes of the state's IEO refusals, as IeoService throws them (the rules' are 400). */
const IEO_CODES: ReadonlyMap<string, number> = new Map([
  ['ieo.projectNotFound', CODE.notFound],
  ['ieo.termsFrozen', CODE.conflict],
  ['ieo.projectCancelled', CODE.conflict],
  ['ieo.notOpen', CODE.conflict],
  ['ieo.ended', CODE.conflict],
]);

/**
 * Token launches on the sequenced core (issue 19's cut-over): what
 * IeoService does with money, as the money state's commands (core/state
 * ieo*.ts), each stamped with the clock, its refusal thrown as the SQL
 * path's AppError, answered once SQL holds it. IeoService keeps the edge's
 * part: the checks of the terms and of the user, and the project rows
 * (terms, texts: no money): a new sale's written before its terms are
 * sent, an edit's once the state took them.
 */
export class CoreSales {
  /** The edit in flight, which the next one waits for. */
  private edits: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly core: MoneyCoreHandle,
    private readonly clock: Clock,
  ) {}

  /**
   * A new sale's terms or an edit's (`ieoSale`): the state funds the
   * project, or replaces its funding, and advances it. Answers whether the
   * state cancelled it instead (an open sale's terms are frozen).
   */
  async sale(
    sale: { projectId: number; terms: IeoSaleTerms; salt: string },
    why: { fundWhy: string; defundWhy: string },
  ): Promise<{ cancelled: boolean }> {
    const result = await this.submit({ kind: 'ieoSale', ...sale, ...why, at: this.clock.now() });
    if (result.ieoDistributing) await this.advance(sale.projectId);
    return { cancelled: result.ieoCancelled === true };
  }

  /**
   * An operator's edit of a sale not open yet: its new terms (`ieoSale`, with
   * fresh funding ids), then `writeRow` (the row's terms) unless the state
   * cancelled the sale instead. Edits run one at a time, so the row ends with
   * the terms the state took last.
   */
  edit(sale: { projectId: number; terms: IeoSaleTerms; salt: string }, writeRow: () => Promise<void>) {
    const run = async () => {
      const outcome = await this.sale(sale, { fundWhy: randomUUID(), defundWhy: randomUUID() });
      if (!outcome.cancelled) await writeRow();
      return outcome;
    };
    const next = this.edits.then(run, run);
    this.edits = next.catch(() => undefined);
    return next;
  }

  /** The clock on one sale (`ieoAdvance`), sent again while the state says it is left distributing (a batch a command). */
  async advance(projectId: number): Promise<void> {
    for (;;) {
      const result = await this.submit({ kind: 'ieoAdvance', projectId, at: this.clock.now() });
      if (!result.ieoDistributing) return;
    }
  }

  async cancel(projectId: number): Promise<void> {
    await this.submit({ kind: 'ieoCancelSale', projectId, at: this.clock.now() });
  }

  /** A subscription the edge found eligible: the id of the order it made or added to. */
  async subscribe(
    userId: number,
    input: { projectId: number; paycoin: string; amount: string },
  ): Promise<number> {
    const result = await this.submit({ kind: 'ieoSubscribe', userId, ...input, at: this.clock.now() });
    return result.ieoOrderId!;
  }

  /**
   * The module's tick: every sale the clock has passed advanced, then the
   * rebates that became payable, then the tranches that are due. Each
   * command is sent only when the state has something for it to do, so an
   * idle tick journals nothing.
   */
  async tick(): Promise<void> {
    const sales = [...this.core.state.ieo.sales.values()];
    for (const sale of sales) if (ieoAdvanceDue(sale, this.clock.now())) await this.advance(sale.projectId);
    if (ieoRebatesDue(this.core.state)) await this.submit({ kind: 'ieoPayRebates', at: this.clock.now() });
    const now = this.clock.now();
    if (ieoReleasesDue(this.core.state, now)) await this.submit({ kind: 'ieoRelease', at: now });
  }

  private submit(command: Parameters<typeof submitProjected>[1]) {
    return submitProjected(this.core, command, IEO_CODES);
  }
}
