import { describe, expect, it } from 'vitest';
import { afterLoginPath, loginPath } from './redirect.ts';

describe('where a login goes', () => {
  it('returns to the screen the guard named, query and all', () => {
    expect(afterLoginPath(new URL(loginPath('/balances?tab=futures'), 'http://x').search)).toBe(
      '/balances?tab=futures',
    );
    expect(afterLoginPath('?redirect=%2FcoinExchange')).toBe('/coinExchange');
  });

  it('goes home without a redirect, and never off the site or back to a login screen', () => {
    for (const search of [
      '',
      '?redirect=',
      '?redirect=https%3A%2F%2Fevil.example',
      '?redirect=%2F%2Fevil.example',
      '?redirect=%2F%5Cevil.example',
      '?redirect=%2Flogin%3Fredirect%3D%252Fmy',
      '?redirect=%2Fregister',
    ]) {
      expect(afterLoginPath(search)).toBe('/');
    }
  });
});
