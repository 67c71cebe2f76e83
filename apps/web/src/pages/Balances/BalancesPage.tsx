import type { Locale } from '@halyard/protocol';
import { DISPLAY_PRECISION } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Checkbox, SearchBar, Tabs } from 'antd-mobile';
import {
  ArrowsAltOutline,
  EyeInvisibleOutline,
  EyeOutline,
  LoopOutline,
  ReceivePaymentOutline,
  SendOutline,
} from 'antd-mobile-icons';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useVersions } from '../../features/content/api.ts';
import { requestFaucet, useFuturesAssets, useSpotAssets, useTotals } from '../../features/funds/api.ts';
import { filterAssetRows } from '../../features/funds/rows.ts';
import { formatMoney } from '../../shared/format.ts';
import { useLocalValue } from '../../shared/local-currency.ts';
import { LOCAL_KEYS, local } from '../../shared/storage.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';

const MASK = '******';
type Tab = 'exchange' | 'futures';

function useMasked() {
  const [hidden, setHidden] = useState(() => local.get(LOCAL_KEYS.hideAmounts) === 'true');
  const toggle = () => {
    local.set(LOCAL_KEYS.hideAmounts, hidden ? null : 'true');
    setHidden(!hidden);
  };
  return { hidden, toggle };
}

function Shortcut({
  to,
  icon,
  label,
  testId,
}: {
  to: string;
  icon: ReactNode;
  label: string;
  testId: string;
}) {
  return (
    <Link to={to} className="hy-shortcut" data-testid={testId}>
      <span className="hy-shortcut-icon">{icon}</span>
      <span>{label}</span>
    </Link>
  );
}

/** Balances (spec §2, tab 4): totals, shortcuts, and the exchange and futures wallets. */
export function BalancesPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const navigate = useNavigate();
  const client = useQueryClient();
  const totals = useTotals();
  const spot = useSpotAssets();
  const futures = useFuturesAssets();
  const localValue = useLocalValue(locale);
  const demo = useVersions().data?.demo === true;
  const { hidden, toggle } = useMasked();
  const [tab, setTab] = useState<Tab>('exchange');
  const [hideZero, setHideZero] = useState(false);
  const [search, setSearch] = useState('');
  const money = (value: string | undefined, digits: number) =>
    hidden ? MASK : formatMoney(value ?? '0', digits, locale);

  async function faucet() {
    await requestFaucet();
    toast(t('funds.faucetDone'));
    await client.invalidateQueries({ queryKey: ['funds'] });
  }

  const spotRows = filterAssetRows(spot.data ?? [], search, hideZero, (row) => [row.usable, row.disable]);
  const futuresRows = filterAssetRows(futures.data ?? [], search, hideZero, (row) => [
    row.usable,
    row.orders,
    row.entrust,
  ]);

  return (
    <div className="hy-funds">
      <header className="hy-funds-title">{t('route.balances')}</header>
      <section className="hy-total-card">
        <div className="hy-total-label">
          <span>{t('funds.totalAssets')} (USDT)</span>
          <button
            type="button"
            aria-label={t(hidden ? 'funds.showAmounts' : 'funds.hideAmounts')}
            data-testid="mask-toggle"
            onClick={toggle}
          >
            {hidden ? <EyeInvisibleOutline /> : <EyeOutline />}
          </button>
        </div>
        <div className="hy-total-value hy-num" data-testid="total-usdt">
          {money(totals.data?.usdt, DISPLAY_PRECISION.balance)}
        </div>
        <div className="hy-muted hy-num" data-testid="total-local">
          {hidden ? `≈ ${MASK}` : localValue(totals.data?.usdt)}
        </div>
        {demo ? (
          <div className="hy-demo-note" data-testid="demo-note">
            <span>{t('funds.demoNotice')}</span>
            <Button
              size="small"
              color="primary"
              data-testid="faucet"
              onClick={() => {
                faucet().catch(() => undefined);
              }}
            >
              {t('funds.getPlayMoney')}
            </Button>
          </div>
        ) : null}
      </section>
      <nav className="hy-shortcuts">
        <Shortcut
          to="/coinRecharge"
          icon={<ReceivePaymentOutline />}
          label={t('funds.deposit')}
          testId="go-deposit"
        />
        <Shortcut
          to="/coinWithdraw"
          icon={<SendOutline />}
          label={t('funds.withdraw')}
          testId="go-withdraw"
        />
        <Shortcut
          to="/coinTransfer"
          icon={<ArrowsAltOutline />}
          label={t('funds.transfer')}
          testId="go-transfer"
        />
        <Shortcut to="/coinConvert" icon={<LoopOutline />} label={t('funds.convert')} testId="go-convert" />
      </nav>
      <Tabs activeKey={tab} onChange={(key) => setTab(key === 'futures' ? 'futures' : 'exchange')}>
        <Tabs.Tab key="exchange" title={t('funds.exchangeWallet')} />
        <Tabs.Tab key="futures" title={t('funds.futuresWallet')} />
      </Tabs>
      <div className="hy-wallet-total">
        <span className="hy-muted">{t('funds.walletTotal')} (USDT)</span>
        <b className="hy-num" data-testid="wallet-total">
          {money(
            tab === 'exchange' ? totals.data?.assets_amount : totals.data?.contract_assets_amount,
            DISPLAY_PRECISION.balance,
          )}
        </b>
      </div>
      <div className="hy-asset-tools">
        <Checkbox checked={hideZero} onChange={setHideZero} data-testid="hide-zero">
          {t('funds.hideZero')}
        </Checkbox>
        <SearchBar placeholder={t('exchange.searchCoin')} value={search} onChange={setSearch} />
      </div>
      {tab === 'exchange' ? (
        spotRows.length === 0 ? (
          <EmptyState>{spot.isLoading ? t('common.loading') : t('funds.noAssets')}</EmptyState>
        ) : (
          spotRows.map((row) => (
            <button
              type="button"
              key={row.coin}
              className="hy-asset-row"
              data-testid={`asset-${row.coin}`}
              onClick={() => navigate(`/balanceRecord?coin=${row.coin}&wallet=spot`)}
            >
              <b className="hy-asset-coin">{row.coin}</b>
              <span className="hy-asset-cols">
                <span className="hy-muted">{t('funds.usable')}</span>
                <span className="hy-muted">{t('funds.frozen')}</span>
                <span className="hy-muted">≈ USDT</span>
                <span className="hy-num">{money(row.usable, DISPLAY_PRECISION.total)}</span>
                <span className="hy-num">{money(row.disable, DISPLAY_PRECISION.total)}</span>
                <span className="hy-num">{money(row.usdt, DISPLAY_PRECISION.balance)}</span>
              </span>
            </button>
          ))
        )
      ) : futuresRows.length === 0 ? (
        <EmptyState>{futures.isLoading ? t('common.loading') : t('funds.noAssets')}</EmptyState>
      ) : (
        futuresRows.map((row) => (
          <button
            type="button"
            key={row.coin}
            className="hy-asset-row"
            onClick={() => navigate(`/balanceRecord?coin=${row.coin}&wallet=futures`)}
          >
            <b className="hy-asset-coin">{row.coin}</b>
            <span className="hy-asset-cols">
              <span className="hy-muted">{t('funds.usable')}</span>
              <span className="hy-muted">{t('funds.inOrders')}</span>
              <span className="hy-muted">{t('funds.unrealised')}</span>
              <span className="hy-num">{money(row.usable, DISPLAY_PRECISION.total)}</span>
              <span className="hy-num">{money(row.orders, DISPLAY_PRECISION.total)}</span>
              <span className="hy-num">{money(row.profit, DISPLAY_PRECISION.profit)}</span>
            </span>
          </button>
        ))
      )}
    </div>
  );
}
