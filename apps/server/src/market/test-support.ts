import type { Dec } from '@halyard/money';
import type { IndexPriceSource, IndexTick } from './index.ts';

/** An index whose current prices a test sets by hand (`prices.set(coin, price)`); it records no history. */
export class SetPriceIndex implements IndexPriceSource {
  readonly name = 'test';
  readonly quote = 'USDT';
  readonly tickMs = 1_000;
  readonly prices = new Map<string, Dec>();
  coins(): string[] {
    return [...this.prices.keys()];
  }
  priceAccuracy(): number {
    return 8;
  }
  current(coin: string): IndexTick | null {
    const price = this.prices.get(coin);
    return price === undefined ? null : { coin, price, ts: 0, source: this.name };
  }
  async priceAt(): Promise<IndexTick | null> {
    return null;
  }
  subscribe(): () => void {
    return () => {};
  }
}
