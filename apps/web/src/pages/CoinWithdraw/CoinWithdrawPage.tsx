import type { Locale } from '@halyard/protocol';
import { checkWithdrawAddress, checkWithdrawal, DISPLAY_PRECISION } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Dialog, Input } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUsable } from '../../features/funds/api.ts';
import { ChainRecords } from '../../features/funds/ChainRecords.tsx';
import { CoinChainPicker, useCoinChain } from '../../features/funds/CoinChainPicker.tsx';
import { withdrawalDebit, withdrawnSince } from '../../features/funds/rows.ts';
import {
  addAddress,
  deleteAddress,
  type SavedAddress,
  sendWithdrawal,
  useAddressBook,
  useWalletCoins,
  useWithdrawRecords,
} from '../../features/funds/wallet-api.ts';
import { ruleText } from '../../i18n/index.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';

/** The daily limit counts from midnight UTC, as the server's day does. */
function startOfUtcDay(now: number): number {
  const date = new Date(now);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** Spec §5 prerequisites, each with where to fix it: identity, fund password, the 24 h lock. */
function Prerequisites() {
  const { t, i18n } = useTranslation();
  const user = useAuth((state) => state.userInfo);
  if (!user) return null;
  const locked = user.lockedUntil !== null && user.lockedUntil > Date.now();
  return (
    <>
      {user.verification !== 'succeeded' ? (
        <div className="hy-notice" data-testid="kyc-prompt">
          <span>{t('funds.kycNeeded')}</span>
          <Link to="/idAuth">{t('funds.verifyNow')}</Link>
        </div>
      ) : null}
      {user.hasFundPassword ? null : (
        <div className="hy-notice">
          <span>{t('funds.fundPasswordNeeded')}</span>
          <Link to="/modifyPayPass">{t('funds.setNow')}</Link>
        </div>
      )}
      {locked && user.lockedUntil !== null ? (
        <div className="hy-notice" data-testid="lock-prompt">
          <span>
            {t('funds.lockedUntil', { time: formatDateTime(user.lockedUntil, i18n.language as Locale) })}
          </span>
          <Link to="/securityCenter">{t('route.securityCenter')}</Link>
        </div>
      ) : null}
    </>
  );
}

function AddressBook({
  coin,
  chain,
  chosen,
  onChoose,
}: {
  coin: string;
  chain: number | null;
  chosen: string;
  onChoose(address: string): void;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const book = useAddressBook(coin);
  const [adding, setAdding] = useState(false);
  const [address, setAddress] = useState('');
  const [remark, setRemark] = useState('');
  const entries = (book.data ?? []).filter((entry) => entry.chain === chain);
  const refresh = () => client.invalidateQueries({ queryKey: ['wallet', 'addressBook'] });

  async function save() {
    const error = checkWithdrawAddress({ address, remark });
    if (error) {
      toast(ruleText(error));
      return;
    }
    if (chain === null) return;
    const saved = await addAddress({ coin, chain, address: address.trim(), remark: remark.trim() });
    toast(t('funds.addressSaved'));
    setAdding(false);
    setAddress('');
    setRemark('');
    onChoose(saved.address);
    await refresh();
  }
  async function remove(entry: SavedAddress) {
    const confirmed = await Dialog.confirm({
      content: t('funds.deleteAddressConfirm', { remark: entry.remark }),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (!confirmed) return;
    await deleteAddress(entry.id);
    if (entry.address === chosen) onChoose('');
    await refresh();
  }

  return (
    <div className="hy-field" data-testid="address-book">
      <div className="hy-field-label">
        <span>{t('funds.withdrawAddress')}</span>
        <button
          type="button"
          className="hy-link-button"
          data-testid="add-address"
          onClick={() => setAdding(!adding)}
        >
          {adding ? t('common.cancel') : t('funds.addAddress')}
        </button>
      </div>
      {adding ? (
        <div className="hy-quote">
          <div className="hy-field-box hy-field">
            <Input
              value={address}
              onChange={setAddress}
              placeholder={t('funds.addressPlaceholder')}
              data-testid="new-address"
            />
          </div>
          <div className="hy-field-box hy-field">
            <Input
              value={remark}
              onChange={setRemark}
              placeholder={t('funds.remarkPlaceholder')}
              data-testid="new-remark"
            />
          </div>
          <Button
            block
            size="small"
            color="primary"
            data-testid="save-address"
            onClick={() => {
              save().catch(() => undefined);
            }}
          >
            {t('funds.saveAddress')}
          </Button>
        </div>
      ) : null}
      {entries.length === 0 && !adding ? (
        <div className="hy-muted hy-small">{t('funds.noAddresses')}</div>
      ) : null}
      {entries.map((entry) => (
        <div
          key={entry.id}
          className={entry.address === chosen ? 'hy-address-option active' : 'hy-address-option'}
        >
          <button
            type="button"
            aria-pressed={entry.address === chosen}
            onClick={() => onChoose(entry.address)}
          >
            <b>{entry.remark}</b>
            <div className="hy-address-text">{entry.address}</div>
          </button>
          <button
            type="button"
            className="hy-delete"
            onClick={() => {
              remove(entry).catch(() => undefined);
            }}
          >
            {t('funds.delete')}
          </button>
        </div>
      ))}
    </div>
  );
}

/** Withdraw (spec §2/§5): coin and chain, a saved address, amount with fee, fund password, limits. */
export function CoinWithdrawPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const user = useAuth((state) => state.userInfo);
  const coins = useWalletCoins();
  const pick = useCoinChain(coins.data, 'isout');
  const usable = useUsable('spot', pick.coin);
  const records = useWithdrawRecords(pick.coin);
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [payPassword, setPayPassword] = useState('');
  const entry = pick.entry;
  const fee = entry?.withdrawFee ?? '0';
  const debit = withdrawalDebit(amount, fee);

  async function submit() {
    if (!entry || pick.chain === null) return;
    const error = checkWithdrawal({
      amount,
      address,
      fundPassword: payPassword,
      min: entry.withdrawMin,
      max: entry.withdrawMax,
      dailyMax: entry.withdrawDailyMax,
      withdrawnToday: withdrawnSince(records.data ?? [], startOfUtcDay(Date.now())),
      usable: usable.data?.usable ?? '0',
      kycVerified: user?.verification === 'succeeded',
      fundPasswordSet: user?.hasFundPassword === true,
    });
    if (error) {
      toast(ruleText(error));
      return;
    }
    await sendWithdrawal({ coin: pick.coin, chain: pick.chain, address, number: amount, payPassword });
    toast(t('funds.withdrawSubmitted'));
    setAmount('');
    setPayPassword('');
    await client.invalidateQueries({ queryKey: ['wallet', 'withdrawals'] });
    await client.invalidateQueries({ queryKey: ['funds'] });
  }

  return (
    <PageFrame title={t('route.coinWithdraw')} fallback="/balances">
      <div className="hy-funds-page">
        <Prerequisites />
        <CoinChainPicker
          coins={coins.data ?? []}
          coin={pick.coin}
          chain={pick.chain}
          direction="isout"
          onCoin={(coin) => {
            pick.setCoin(coin);
            setAddress('');
          }}
          onChain={(chain) => {
            pick.setChain(chain);
            setAddress('');
          }}
        />
        <AddressBook coin={pick.coin} chain={pick.chain} chosen={address} onChoose={setAddress} />
        <div className="hy-field">
          <div className="hy-field-label">
            <span>{t('funds.amount')}</span>
            <span className="hy-num">
              {t('funds.usable')} {formatMoney(usable.data?.usable, DISPLAY_PRECISION.total, locale)}{' '}
              {pick.coin}
            </span>
          </div>
          <div className="hy-field-box" data-testid="withdraw-amount">
            <Input value={amount} onChange={setAmount} inputMode="decimal" placeholder={t('funds.amount')} />
          </div>
        </div>
        <div className="hy-facts hy-field">
          <span className="hy-muted">{t('funds.fee')}</span>
          <span className="hy-num">
            {formatMoney(fee, DISPLAY_PRECISION.fee, locale)} {pick.coin}
          </span>
          <span className="hy-muted">{t('funds.receive')}</span>
          <span className="hy-num">
            {debit === null ? '--' : formatMoney(amount, DISPLAY_PRECISION.total, locale)} {pick.coin}
          </span>
          <span className="hy-muted">{t('funds.debit')}</span>
          <span className="hy-num">
            {debit === null ? '--' : formatMoney(debit, DISPLAY_PRECISION.total, locale)} {pick.coin}
          </span>
          {entry ? (
            <>
              <span className="hy-muted">{t('funds.limits')}</span>
              <span className="hy-num">
                {entry.withdrawMin} – {entry.withdrawMax}
              </span>
              <span className="hy-muted">{t('funds.dailyMax')}</span>
              <span className="hy-num">{entry.withdrawDailyMax}</span>
            </>
          ) : null}
        </div>
        <div className="hy-field">
          <div className="hy-field-label">{t('funds.fundPassword')}</div>
          <div className="hy-field-box">
            <Input type="password" value={payPassword} onChange={setPayPassword} maxLength={20} />
          </div>
        </div>
        <Button
          block
          color="primary"
          data-testid="withdraw-submit"
          onClick={() => {
            submit().catch(() => undefined);
          }}
        >
          {t('funds.withdraw')}
        </Button>
        <div className="hy-section-title">{t('funds.withdrawRecords')}</div>
        <ChainRecords records={records.data} testId="withdraw-records" />
      </div>
    </PageFrame>
  );
}
