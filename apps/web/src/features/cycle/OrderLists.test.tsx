// @vitest-environment happy-dom
import type { CyclePosition } from '@halyard/protocol';
import { cleanup, render } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it } from 'vitest';
import { createI18n, showLocale } from '../../i18n/index.ts';
import { formatDateTime, formatTime } from '../../shared/format.ts';
import { PositionCard, TopOrders } from './OrderLists.tsx';

const OPENED = Date.UTC(2026, 10, 26, 9, 30, 5);

const position: CyclePosition = {
  orderid: '7',
  autoid: 7,
  tradcoin: 'BTC',
  maincoin: 'USDT',
  paycoin: 'USDT',
  type: 'buy',
  price: '60000',
  number: '100',
  wdate: OPENED,
  lever: 30,
  profit_gas: '0.8',
  loss_gas: '1',
  gas: '0.02',
  income: '78.4',
  last_profit: '-100',
  state: 'settled',
  result: 'loss',
  expires_at: OPENED + 30_000,
  open_price: '60000',
  open_ts: OPENED,
  open_source: 'sim',
  close_price: '59990',
  close_ts: OPENED + 30_000,
  close_source: 'sim',
  fee: '0',
  settled_at: OPENED + 30_500,
  void_reason: null,
};

afterEach(cleanup);

describe('cycle order lists', () => {
  it.each(['en', 'cn'] as const)('write dates with the app’s shared formatter (%s)', async (locale) => {
    const i18n = createI18n();
    await showLocale(i18n, locale);
    const view = render(
      <I18nextProvider i18n={i18n}>
        <PositionCard position={position} priceAccuracy={2} />
        <TopOrders rows={[{ wdate: OPENED, type: 'buy', income: '0', last_profit: '-100' }]} />
      </I18nextProvider>,
    );
    const text = view.container.textContent ?? '';
    expect(text).toContain(formatDateTime(OPENED, locale));
    expect(text).toContain(formatDateTime(OPENED, locale, { seconds: true }));
    expect(text).toContain(formatTime(OPENED, locale));
  });

  it('says why a void order was void, with the tolerance, in the history card', async () => {
    const i18n = createI18n();
    await showLocale(i18n, 'en');
    const voided: CyclePosition = {
      ...position,
      result: 'void',
      last_profit: '0',
      close_ts: OPENED + 5_000,
      void_reason: { code: 'no_index_price_at_expiry', tolerance_ms: 2000 },
    };
    const view = render(
      <I18nextProvider i18n={i18n}>
        <PositionCard position={voided} priceAccuracy={2} />
      </I18nextProvider>,
    );
    expect(view.getByTestId('cycle-void').textContent).toBe(
      'Void: no index price within 2 s of expiry; stake returned in full',
    );
  });
});
