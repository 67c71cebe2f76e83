import { badRequest } from './errors.ts';

/** A market named by its two coins, as the spec's spot, futures and cycle paths take it. */
export interface Coins {
  tradcoin: string;
  maincoin: string;
}

export const coin = { type: 'string', pattern: '^[A-Za-z0-9]{1,20}$' } as const;

/** Money travels as a decimal string; a JSON number is accepted and read as its text. */
export const money = (description: string) => ({ type: 'string', maxLength: 40, description }) as const;

export const coinsQuery = {
  type: 'object',
  required: ['tradcoin', 'maincoin'],
  properties: { tradcoin: coin, maincoin: coin },
} as const;

export const optionalCoinsQuery = { type: 'object', properties: { tradcoin: coin, maincoin: coin } } as const;

export function upperCoins(coins: Coins): Coins {
  return { tradcoin: coins.tradcoin.toUpperCase(), maincoin: coins.maincoin.toUpperCase() };
}

/** Both coins, or neither: one alone names no market. */
export function optionalCoins(query: {
  tradcoin?: string | undefined;
  maincoin?: string | undefined;
}): Coins | null {
  if (query.tradcoin === undefined && query.maincoin === undefined) return null;
  if (query.tradcoin === undefined || query.maincoin === undefined) {
    throw badRequest('common.invalidParams', {
      field: query.tradcoin === undefined ? 'tradcoin' : 'maincoin',
    });
  }
  return upperCoins({ tradcoin: query.tradcoin, maincoin: query.maincoin });
}
