import type { Locale } from '@halyard/protocol';
import { checkTransfer, DISPLAY_PRECISION } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { ActionSheet, Button, Input } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSpotAssets, useUsable, type WalletName } from '../../features/funds/api.ts';
import { transferBetween } from '../../features/funds/wallet-api.ts';
import { ruleText } from '../../i18n/index.ts';
import { formatMoney } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';

/** Spec §7: every transfer has the spot wallet at one end; the other is futures or fiat. */
const OTHER_WALLETS: readonly WalletName[] = ['futures', 'fiat'];

/** /coinTransfer: move a coin between your spot and futures or fiat wallets. */
export function CoinTransferPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const [other, setOther] = useState<WalletName>('futures');
  const [outward, setOutward] = useState(true);
  const [coin, setCoin] = useState('USDT');
  const [amount, setAmount] = useState('');
  const [sheet, setSheet] = useState<'coin' | 'wallet' | null>(null);
  const coins = useSpotAssets();
  const from: WalletName = outward ? 'spot' : other;
  const to: WalletName = outward ? other : 'spot';
  const usable = useUsable(from, coin);
  const walletLabel = (wallet: WalletName) => t(`funds.wallet.${wallet}`);

  async function submit() {
    const error = checkTransfer({ amount, usable: usable.data?.usable ?? '0' });
    if (error) {
      toast(ruleText(error));
      return;
    }
    await transferBetween(coin, amount, from, to);
    toast(t('funds.transferDone'));
    setAmount('');
    await client.invalidateQueries({ queryKey: ['funds'] });
  }

  return (
    <PageFrame title={t('route.coinTransfer')} fallback="/balances">
      <div className="hy-funds-page">
        <section className="hy-transfer-box">
          <div className="hy-transfer-ends">
            <div>
              <span className="hy-muted">{t('funds.from')}</span>
              {outward ? (
                <b data-testid="transfer-from">{walletLabel('spot')}</b>
              ) : (
                <button type="button" className="hy-link-button" onClick={() => setSheet('wallet')}>
                  <b data-testid="transfer-from">{walletLabel(other)}</b> <DownFill fontSize={9} />
                </button>
              )}
            </div>
            <div>
              <span className="hy-muted">{t('funds.to')}</span>
              {outward ? (
                <button type="button" className="hy-link-button" onClick={() => setSheet('wallet')}>
                  <b data-testid="transfer-to">{walletLabel(other)}</b> <DownFill fontSize={9} />
                </button>
              ) : (
                <b data-testid="transfer-to">{walletLabel('spot')}</b>
              )}
            </div>
          </div>
          <button
            type="button"
            className="hy-transfer-swap"
            aria-label={t('funds.swap')}
            data-testid="transfer-swap"
            onClick={() => setOutward(!outward)}
          >
            ⇅
          </button>
        </section>
        <div className="hy-field">
          <div className="hy-field-label">{t('funds.coin')}</div>
          <button type="button" className="hy-field-box hy-picker" onClick={() => setSheet('coin')}>
            <b>{coin}</b>
            <DownFill fontSize={10} />
          </button>
        </div>
        <div className="hy-field">
          <div className="hy-field-label">
            <span>{t('funds.amount')}</span>
            <span className="hy-num" data-testid="transfer-usable">
              {t('funds.usable')} {formatMoney(usable.data?.usable, DISPLAY_PRECISION.total, locale)} {coin}
            </span>
          </div>
          <div className="hy-field-box" data-testid="transfer-amount">
            <Input value={amount} onChange={setAmount} inputMode="decimal" placeholder={t('funds.amount')} />
            <button type="button" className="hy-link" onClick={() => setAmount(usable.data?.usable ?? '')}>
              {t('funds.all')}
            </button>
          </div>
        </div>
        <Button
          block
          color="primary"
          data-testid="transfer-submit"
          onClick={() => {
            submit().catch(() => undefined);
          }}
        >
          {t('funds.transfer')}
        </Button>
      </div>
      <ActionSheet
        visible={sheet !== null}
        onClose={() => setSheet(null)}
        cancelText={t('common.cancel')}
        actions={
          sheet === 'coin'
            ? (coins.data ?? []).map((row) => ({
                key: row.coin,
                text: row.coin,
                onClick: () => {
                  setCoin(row.coin);
                  setSheet(null);
                },
              }))
            : OTHER_WALLETS.map((wallet) => ({
                key: wallet,
                text: walletLabel(wallet),
                onClick: () => {
                  setOther(wallet);
                  setSheet(null);
                },
              }))
        }
      />
    </PageFrame>
  );
}
