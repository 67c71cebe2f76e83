import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input } from 'antd-mobile';
import { QRCodeSVG } from 'qrcode.react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useVersions } from '../../features/content/api.ts';
import { ChainRecords } from '../../features/funds/ChainRecords.tsx';
import { CoinChainPicker, useCoinChain } from '../../features/funds/CoinChainPicker.tsx';
import { DepositSteps, depositRefusal } from '../../features/funds/DepositSteps.tsx';
import {
  type DepositAddress,
  demoDeposit,
  useDepositAddress,
  useDepositRecords,
  useTokenContracts,
  useWalletCoins,
} from '../../features/funds/wallet-api.ts';
import { useUserInfo } from '../../features/identity/api.ts';
import {
  errorCode,
  errorMessage,
  injectedProvider,
  PROVIDER_ERRORS,
} from '../../features/wallet/provider.ts';
import { copyText } from '../../shared/clipboard.ts';
import { formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';
import { tokenUnits } from './token-units.ts';

const DEMO_AMOUNT = '100';
/** How long to look for a sent demo transfer before the chain watcher has recorded it. */
const WATCH_MS = 60_000;

/**
 * Deposit (spec §2 coinRecharge): coin and chain, the address with its QR
 * code, the minimum and confirmations, the records. The chain is the proof:
 * no approval (AMENDMENTS A1) and no screenshot (A4).
 */
export function CoinRechargePage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const coins = useWalletCoins();
  const pick = useCoinChain(coins.data, 'isin');
  const { data: user } = useUserInfo();
  const mayDeposit = user !== undefined && depositRefusal(user) === null;
  const address = useDepositAddress(pick.coin, pick.chain, mayDeposit);
  const [watchUntil, setWatchUntil] = useState(0);
  const records = useDepositRecords(pick.coin, watchUntil);
  const demo = useVersions().data?.demo === true;
  const [amount, setAmount] = useState(DEMO_AMOUNT);

  const watchForDeposit = async () => {
    toast(t('funds.demoDepositSent'));
    setWatchUntil(Date.now() + WATCH_MS);
    await client.invalidateQueries({ queryKey: ['wallet', 'deposits'] });
  };

  const copy = () => {
    if (address.data) copyText(address.data.address, t('funds.copied'));
  };
  async function sendPlayTokens() {
    if (pick.chain === null) return;
    await demoDeposit(pick.coin, pick.chain, amount);
    await watchForDeposit();
  }

  return (
    <PageFrame title={t('route.coinRecharge')} fallback="/balances">
      <div className="hy-funds-page">
        <CoinChainPicker
          coins={coins.data ?? []}
          coin={pick.coin}
          chain={pick.chain}
          direction="isin"
          onCoin={pick.setCoin}
          onChain={pick.setChain}
        />
        {user && !mayDeposit ? <DepositSteps user={user} /> : null}
        {address.data ? (
          <section className="hy-address-card" data-testid="deposit-address">
            <div className="hy-qr" data-testid="deposit-qr">
              <QRCodeSVG value={address.data.uri} size={168} />
            </div>
            <div className="hy-address-text" data-testid="address-text">
              {address.data.address}
            </div>
            <Button size="small" color="primary" fill="outline" onClick={copy}>
              {t('funds.copyAddress')}
            </Button>
          </section>
        ) : mayDeposit ? (
          <EmptyState>{address.isLoading ? t('common.loading') : t('funds.noAddress')}</EmptyState>
        ) : null}
        {address.data ? (
          <div className="hy-facts">
            <span className="hy-muted">{t('funds.minDeposit')}</span>
            <span className="hy-num">
              {formatMoney(address.data.min, 8, locale)} {address.data.coin}
            </span>
            <span className="hy-muted">{t('funds.confirmations')}</span>
            <span className="hy-num">{address.data.confirmations}</span>
            <span className="hy-muted">{t('funds.chain')}</span>
            <span>{address.data.blockname}</span>
          </div>
        ) : null}
        <p className="hy-muted hy-small">{t('funds.depositHint', { coin: pick.coin })}</p>
        {address.data ? <WalletDeposit deposit={address.data} onSent={watchForDeposit} /> : null}
        {demo && address.data ? (
          <section className="hy-demo-note" data-testid="demo-deposit">
            <span>{t('funds.demoDepositHint')}</span>
            <Input value={amount} onChange={setAmount} inputMode="decimal" style={{ width: 70 }} />
            <Button
              size="small"
              color="primary"
              data-testid="demo-deposit-send"
              onClick={() => {
                sendPlayTokens().catch(() => undefined);
              }}
            >
              {t('funds.demoDepositSend')}
            </Button>
          </section>
        ) : null}
        <div className="hy-section-title">{t('funds.depositRecords')}</div>
        <ChainRecords records={records.data} testId="deposit-records" />
      </div>
    </PageFrame>
  );
}

/**
 * "Send from my wallet": the connected (or injected) wallet pays the deposit
 * address by a plain token transfer of exactly the typed amount.
 */
function WalletDeposit({ deposit, onSent }: { deposit: DepositAddress; onSent: () => Promise<void> }) {
  const { t } = useTranslation();
  const tokens = useTokenContracts();
  const [amount, setAmount] = useState('');
  const [sending, setSending] = useState(false);
  const token = tokens.data?.tokens.find(
    (entry) => entry.coin === deposit.coin && entry.chain === deposit.chain,
  );

  async function send() {
    const provider = injectedProvider();
    if (!provider) {
      toast(t('wallet.install'));
      return;
    }
    if (!token) return;
    const units = tokenUnits(amount, token.decimals);
    const typed = Dec.tryParse(amount);
    if (units === null || typed === null || typed.lt(Dec.parse(deposit.min))) {
      toast(t('funds.walletDepositAmount', { min: deposit.min, decimals: token.decimals }));
      return;
    }
    setSending(true);
    try {
      // viem comes with the first send, not with the page.
      const { sendFromWallet } = await import('./wallet-deposit.ts');
      await sendFromWallet({
        provider,
        chain: deposit.chain,
        token: deposit.contract,
        to: deposit.address as `0x${string}`,
        units,
      });
      setAmount('');
      await onSent();
    } catch (error) {
      toast(
        errorCode(error) === PROVIDER_ERRORS.userRejected
          ? t('wallet.rejected')
          : t('funds.walletDepositFailed', { reason: errorMessage(error) }),
      );
    } finally {
      setSending(false);
    }
  }

  return (
    <section className="hy-wallet-deposit" data-testid="wallet-deposit">
      <div className="hy-section-title">{t('funds.walletDepositTitle')}</div>
      <div className="hy-wallet-deposit-row">
        <Input
          data-testid="wallet-deposit-amount"
          value={amount}
          onChange={setAmount}
          inputMode="decimal"
          placeholder={t('funds.walletDepositPlaceholder', { coin: deposit.coin })}
        />
        <Button
          size="small"
          color="primary"
          loading={sending}
          disabled={!token}
          data-testid="wallet-deposit-send"
          onClick={() => {
            void send();
          }}
        >
          {t('funds.walletDepositSend')}
        </Button>
      </div>
    </section>
  );
}
