import { Dec } from '@halyard/money';
import type { IeoProject, Locale } from '@halyard/protocol';
import { checkIeoSubscription, ieoExpectedAllocation, ieoTokensFor } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Popup } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ruleText } from '../../i18n/index.ts';
import { formatMoney } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import { addIeoOrder, usePayCoins } from './api.ts';

/** A fresh idempotency key per confirmed subscription: a network retry of it pays once. */
function newClientOid(): string {
  return `ieo-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

/**
 * The subscribe sheet (issue 15): pay-coin chips, the balance, the amount,
 * what it buys (FCFS) or the expected allocation, ratio and refund (commit
 * mode), then confirm. The shared rules run first: bad input moves nothing.
 */
export function SubscribeSheet({
  project,
  visible,
  onClose,
}: {
  project: IeoProject;
  visible: boolean;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const payCoins = usePayCoins(project.coin, true);
  const [paycoin, setPaycoin] = useState(project.payCoins[0]?.paycoin ?? '');
  const [amount, setAmount] = useState('');
  const [sending, setSending] = useState(false);
  useEffect(() => {
    if (!visible) setAmount('');
  }, [visible]);
  const pay = payCoins.data?.find((entry) => entry.paycoin === paycoin) ?? payCoins.data?.[0];
  const parsed = Dec.tryParse(amount);
  const price = Dec.parse(pay?.price ?? project.payCoins[0]?.price ?? '1');
  const tokens = parsed?.isPositive() ? ieoTokensFor(parsed, price, project.tokenDecimals) : Dec.ZERO;
  const expected =
    project.mode === 'commit' && parsed?.isPositive()
      ? ieoExpectedAllocation({
          amount: parsed,
          totalCommitted: Dec.parse(project.committed).add(parsed),
          supply: Dec.parse(project.total),
          price,
          cap: Dec.parse(project.maxNumber),
          tokenDecimals: project.tokenDecimals,
        })
      : null;

  async function confirm() {
    if (!pay) return;
    const error = checkIeoSubscription({
      amount,
      price: pay.price,
      tokenDecimals: project.tokenDecimals,
      usable: pay.balance,
      minNumber: project.minNumber,
      maxNumber: project.maxNumber,
      remaining: project.mode === 'fcfs' ? project.remaining : null,
      bought: '0',
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    setSending(true);
    try {
      await addIeoOrder({ id: project.id, paycoin: pay.paycoin, number: amount, clientOid: newClientOid() });
      toast(t(project.mode === 'commit' ? 'ieo.committed' : 'ieo.subscribed'));
      onClose();
      await client.invalidateQueries({ queryKey: ['ieo'] });
      await client.invalidateQueries({ queryKey: ['funds'] });
    } catch {
      // The API client has shown the server's message.
    } finally {
      setSending(false);
    }
  }

  const row = (label: string, value: string, testId?: string) => (
    <div className="hy-ieo-card-row" key={label}>
      <span className="hy-muted">{label}</span>
      <span className="hy-num" data-testid={testId}>
        {value}
      </span>
    </div>
  );
  return (
    <Popup visible={visible} onMaskClick={onClose} bodyClassName="hy-ieo-sheet">
      <div data-testid="ieo-subscribe-sheet">
        <h3>
          {t(project.mode === 'commit' ? 'ieoPage.commit' : 'ieoPage.subscribe')} {project.coin}
        </h3>
        <div className="hy-ieo-chips">
          {(payCoins.data ?? []).map((entry) => (
            <button
              type="button"
              key={entry.paycoin}
              className={entry.paycoin === pay?.paycoin ? 'hy-ieo-chip hy-ieo-chip-on' : 'hy-ieo-chip'}
              onClick={() => setPaycoin(entry.paycoin)}
            >
              {entry.paycoin}
            </button>
          ))}
        </div>
        {row(t('ieoPage.balance'), `${formatMoney(pay?.balance ?? '0', 8, locale)} ${pay?.paycoin ?? ''}`)}
        {row(t('ieoPage.price'), `${pay?.price ?? ''} ${pay?.paycoin ?? ''}`)}
        <Input
          className="hy-ieo-amount"
          placeholder={`${t('ieoPage.amount')} (${pay?.paycoin ?? ''})`}
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          data-testid="ieo-amount"
        />
        {expected
          ? [
              row(t('ieoPage.ratio', { ratio: expected.ratio.floorTo(4).toString() }), ''),
              row(
                t('ieoPage.expectedAllocation'),
                `${formatMoney(expected.tokens.toString(), project.tokenDecimals, locale)} ${project.coin}`,
                'ieo-expected',
              ),
              row(
                t('ieoPage.expectedRefund'),
                `${formatMoney(expected.refund.toString(), 8, locale)} ${pay?.paycoin ?? ''}`,
              ),
            ]
          : row(
              t('ieoPage.expectedTokens'),
              `${formatMoney(tokens.toString(), project.tokenDecimals, locale)} ${project.coin}`,
              'ieo-expected',
            )}
        {expected ? <p className="hy-muted hy-small">{t('ieoPage.allocationNote')}</p> : null}
        <Button block color="primary" loading={sending} onClick={confirm} data-testid="ieo-confirm">
          {t('common.confirm')}
        </Button>
      </div>
    </Popup>
  );
}
