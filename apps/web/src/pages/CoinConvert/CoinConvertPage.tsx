import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { checkConvert, DISPLAY_PRECISION } from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { ActionSheet, Button, Input, Popup } from 'antd-mobile';
import { DownFill } from 'antd-mobile-icons';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUsable } from '../../features/funds/api.ts';
import { convertFee, secondsLeft } from '../../features/funds/rows.ts';
import {
  convertAtQuote,
  type ExchangeRecord,
  type FlashPair,
  useFlashPairs,
  useFlashRecords,
} from '../../features/funds/wallet-api.ts';
import { ruleText } from '../../i18n/index.ts';
import { formatDateTime, formatMoney } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';
import './convert.css';

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function RecordRow({ record }: { record: ExchangeRecord }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  return (
    <div className="hy-record-row">
      <span>
        <div>
          {t('funds.consumed')} {formatMoney(record.consumed, DISPLAY_PRECISION.total, locale)} {record.from}
        </div>
        <div className="hy-muted hy-small">
          {t('funds.rate')} {record.rate} · {formatDateTime(record.time, locale)}
        </div>
      </span>
      <b className="hy-num hy-up">
        +{formatMoney(record.received, DISPLAY_PRECISION.total, locale)} {record.to}
      </b>
    </div>
  );
}

/** What the confirm step shows: the amounts, the rate and the fee it takes, and the quote's countdown. */
interface ConvertTerms {
  pair: FlashPair;
  amount: string;
  receive: string;
  left: number;
}

/**
 * Convert asks before it exchanges: from and to amounts, rate, fee and the
 * seconds the quote still holds. When the quote runs out the page fetches a
 * new one and the sheet shows its rate; confirming waits for it.
 */
function ConvertConfirm({
  terms,
  onConfirm,
  onClose,
}: {
  terms: ConvertTerms | null;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const rows: [string, string][] = terms
    ? [
        [
          t('funds.youPay'),
          `${formatMoney(terms.amount, DISPLAY_PRECISION.total, locale)} ${terms.pair.from}`,
        ],
        [
          t('funds.youReceive'),
          `≈ ${formatMoney(terms.receive, DISPLAY_PRECISION.total, locale)} ${terms.pair.to}`,
        ],
        [t('funds.rate'), `1 ${terms.pair.from} ≈ ${terms.pair.rate} ${terms.pair.to}`],
        [
          t('funds.fee'),
          t('funds.feeInRate', {
            percent: formatMoney(Dec.parse(terms.pair.feeRate).mul(Dec.fromInt(100)).toString(), 2, locale),
            amount: `${formatMoney(
              convertFee(
                Dec.parse(terms.amount),
                Dec.parse(terms.pair.rate),
                Dec.parse(terms.pair.feeRate),
              ).toString(),
              DISPLAY_PRECISION.total,
              locale,
            )} ${terms.pair.to}`,
          }),
        ],
      ]
    : [];
  return (
    <Popup visible={terms !== null} onMaskClick={onClose} bodyClassName="hy-convert-confirm">
      <div data-testid="convert-confirm">
        <h3>{t('funds.confirmConvert')}</h3>
        {rows.map(([label, value]) => (
          <div className="hy-convert-confirm-row" key={label}>
            <span className="hy-muted">{label}</span>
            <span className="hy-num">{value}</span>
          </div>
        ))}
        <div className="hy-convert-confirm-row">
          <span className="hy-muted">{t('funds.quoteValid')}</span>
          <span className="hy-num" data-testid="confirm-countdown">
            {terms && terms.left > 0
              ? t('funds.seconds', { seconds: terms.left })
              : t('funds.quoteRefreshing')}
          </span>
        </div>
        <div className="hy-convert-confirm-actions">
          <Button block onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            block
            color="primary"
            disabled={!terms || terms.left === 0}
            onClick={onConfirm}
            data-testid="convert-confirm-submit"
          >
            {t('common.confirm')}
          </Button>
        </div>
      </div>
    </Popup>
  );
}

/** /coinConvert (flash exchange): pick from/to, amount, a quote locked for a few seconds, a confirm, records. */
export function CoinConvertPage() {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const pairs = useFlashPairs();
  const records = useFlashRecords();
  const [wanted, setWanted] = useState({ from: 'USDT', to: 'BTC' });
  const [amount, setAmount] = useState('');
  const [sheet, setSheet] = useState<'from' | 'to' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const now = useNow();
  const list = pairs.data ?? [];
  const pair =
    list.find((item) => item.from === wanted.from && item.to === wanted.to) ??
    list.find((item) => item.from === wanted.from) ??
    list[0];
  const usable = useUsable('spot', pair?.from ?? '');
  const left = pair ? secondsLeft(pair.expiresAt, now) : 0;
  const expired = pair !== undefined && left === 0;
  const { refetch } = pairs;

  useEffect(() => {
    // A quote that ran out is replaced by a fresh one (new rate, new countdown).
    if (expired) refetch().catch(() => undefined);
  }, [expired, refetch]);

  const parsed = Dec.tryParse(amount);
  const receive =
    pair && parsed ? parsed.mul(Dec.parse(pair.rate)).floorTo(DISPLAY_PRECISION.total).toString() : '0';
  const fromCoins = [...new Set(list.map((item) => item.from))];
  const toCoins = list.filter((item) => item.from === pair?.from).map((item) => item.to);

  /** The rules first (nothing to confirm when they fail), then the confirm step. */
  function review() {
    if (!pair) return;
    const error = checkConvert({ amount, usable: usable.data?.usable ?? '0', min: pair.min, max: pair.max });
    if (error) {
      toast(ruleText(error));
      return;
    }
    setConfirming(true);
  }

  async function submit() {
    if (!pair) return;
    setConfirming(false);
    const done = await convertAtQuote(pair.quoteId, amount);
    toast(t('funds.convertDone', { received: `${done.received} ${done.to}` }));
    setAmount('');
    await Promise.all([
      client.invalidateQueries({ queryKey: ['flash'] }),
      client.invalidateQueries({ queryKey: ['funds'] }),
    ]);
  }

  return (
    <PageFrame title={t('route.coinConvert')} fallback="/balances">
      <div className="hy-funds-page">
        <div className="hy-field">
          <div className="hy-field-label">
            <span>{t('funds.from')}</span>
            <span className="hy-num">
              {t('funds.usable')} {formatMoney(usable.data?.usable, DISPLAY_PRECISION.total, locale)}
            </span>
          </div>
          <div className="hy-field-box">
            <button
              type="button"
              className="hy-link-button"
              data-testid="convert-from"
              onClick={() => setSheet('from')}
            >
              <b>{pair?.from ?? '--'}</b> <DownFill fontSize={9} />
            </button>
            <Input value={amount} onChange={setAmount} inputMode="decimal" placeholder={t('funds.amount')} />
            <button type="button" className="hy-link" onClick={() => setAmount(usable.data?.usable ?? '')}>
              {t('funds.all')}
            </button>
          </div>
        </div>
        <div className="hy-field">
          <div className="hy-field-label">{t('funds.to')}</div>
          <div className="hy-field-box">
            <button
              type="button"
              className="hy-link-button"
              data-testid="convert-to"
              onClick={() => setSheet('to')}
            >
              <b>{pair?.to ?? '--'}</b> <DownFill fontSize={9} />
            </button>
            <span className="hy-num" data-testid="convert-receive">
              ≈ {formatMoney(receive, DISPLAY_PRECISION.total, locale)}
            </span>
          </div>
        </div>
        {pair ? (
          <section className="hy-quote hy-facts" data-testid="convert-quote">
            <span className="hy-muted">{t('funds.rate')}</span>
            <span className="hy-num">
              1 {pair.from} ≈ {pair.rate} {pair.to}
            </span>
            <span className="hy-muted">{t('funds.limits')}</span>
            <span className="hy-num">
              {pair.min} – {pair.max} {pair.from}
            </span>
            <span className="hy-muted">{t('funds.quoteValid')}</span>
            <span className="hy-num" data-testid="quote-countdown">
              {t('funds.seconds', { seconds: left })}
            </span>
          </section>
        ) : (
          <EmptyState>{pairs.isLoading ? t('common.loading') : t('funds.noPairs')}</EmptyState>
        )}
        <Button
          block
          color="primary"
          disabled={!pair || expired}
          data-testid="convert-submit"
          onClick={review}
        >
          {t('funds.convert')}
        </Button>
        <div className="hy-section-title">{t('funds.convertRecords')}</div>
        {(records.data ?? []).length === 0 ? (
          <EmptyState>{t('funds.noRecords')}</EmptyState>
        ) : (
          records.data?.map((record) => <RecordRow key={record.id} record={record} />)
        )}
      </div>
      <ConvertConfirm
        terms={confirming && pair ? { pair, amount, receive, left } : null}
        onClose={() => setConfirming(false)}
        onConfirm={() => {
          submit().catch(() => undefined);
        }}
      />
      <ActionSheet
        visible={sheet !== null}
        onClose={() => setSheet(null)}
        cancelText={t('common.cancel')}
        actions={(sheet === 'from' ? fromCoins : toCoins).map((coin) => ({
          key: coin,
          text: coin,
          onClick: () => {
            setWanted(
              sheet === 'from'
                ? { from: coin, to: wanted.to }
                : { from: pair?.from ?? wanted.from, to: coin },
            );
            setAmount('');
            setSheet(null);
          },
        }))}
      />
    </PageFrame>
  );
}
