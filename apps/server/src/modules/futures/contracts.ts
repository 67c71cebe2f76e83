import { Dec } from '@halyard/money';
import type { Insertable } from 'kysely';
import { systemAccount, type TransferInput } from '../../ledger/index.ts';
import type { FuturesContractsTable } from './store.ts';

/** The leverage choices of a contract: the usual ladder up to its maximum. */
const LEVER_LADDER = [1, 2, 3, 5, 10, 20, 25, 50, 75, 100, 125] as const;

interface DemoContract {
  coin: string;
  chinaname: string;
  /** Coins per lot. */
  unit: string;
  maxnumber: string;
  maxLever: number;
  priceAccuracy: number;
  /** Maintenance margin rate; must stay below 1 / maxLever (the initial rate). */
  maintenance: string;
}

/**
 * The demo perpetuals (issue 5 item 1): USDT-margined, fee 0.05 % of the
 * notional on every fill, initial margin 1 / max lever, price accuracy that of
 * the index so the mark and the book share one tick.
 */
const DEMO_CONTRACTS: readonly DemoContract[] = [
  {
    coin: 'BTC',
    chinaname: 'BTC永续',
    unit: '0.001',
    maxnumber: '10000',
    maxLever: 100,
    priceAccuracy: 2,
    maintenance: '0.005',
  },
  {
    coin: 'ETH',
    chinaname: 'ETH永续',
    unit: '0.01',
    maxnumber: '10000',
    maxLever: 100,
    priceAccuracy: 2,
    maintenance: '0.005',
  },
  {
    coin: 'SOL',
    chinaname: 'SOL永续',
    unit: '0.1',
    maxnumber: '10000',
    maxLever: 50,
    priceAccuracy: 3,
    maintenance: '0.01',
  },
  {
    coin: 'BNB',
    chinaname: 'BNB永续',
    unit: '0.01',
    maxnumber: '10000',
    maxLever: 50,
    priceAccuracy: 2,
    maintenance: '0.01',
  },
];

export const DEMO_GAS = '0.0005';

export function demoContractRows(quote: string): Insertable<FuturesContractsTable>[] {
  return DEMO_CONTRACTS.map((contract, index) => ({
    tradcoin: contract.coin,
    maincoin: quote,
    chinaname: contract.chinaname,
    symbol: `${contract.coin}/${quote}`,
    unit: contract.unit,
    minnumber: '1',
    maxnumber: contract.maxnumber,
    max_lever: contract.maxLever,
    levers: JSON.stringify(LEVER_LADDER.filter((lever) => lever <= contract.maxLever)),
    gas: DEMO_GAS,
    price_accuracy: contract.priceAccuracy,
    initial_margin_rate: Dec.ONE.div(Dec.fromInt(contract.maxLever)).toString(),
    maintenance_margin_rate: contract.maintenance,
    state: 1,
    plate: 0,
    sort: index,
  }));
}

/** What the treasury gives the house and the insurance fund at the demo seed (play money). */
const HOUSE_FUNDING = Dec.parse('5000000');
const INSURANCE_FUNDING = Dec.parse('1000000');

/** The demo seed's funding of the house and the insurance fund, in the quote coin (fixed ids: idempotent). */
export function demoFundingTransfers(quote: string): TransferInput[] {
  const treasury = systemAccount('treasury');
  return [
    {
      id: `futures:house-funding:${quote}`,
      debit: treasury,
      credit: systemAccount('market_maker'),
      asset: quote,
      amount: HOUSE_FUNDING,
      code: 'demo_funding',
    },
    {
      id: `futures:insurance-funding:${quote}`,
      debit: treasury,
      credit: systemAccount('insurance'),
      asset: quote,
      amount: INSURANCE_FUNDING,
      code: 'demo_funding',
    },
  ];
}
