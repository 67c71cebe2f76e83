import type { FiatAppealKind, FiatOrder, FiatPayee, Locale } from '@halyard/protocol';
import {
  checkPayScreenshot,
  FIAT_APPEAL_BEFORE_EXPIRY_MS,
  FIAT_APPEAL_KINDS,
  fiatAppealEvidence,
} from '@halyard/rules';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Selector, Tag } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  clockText,
  fiatApi,
  OPEN_STATES,
  secondsUntil,
  useFiatChat,
  useFiatOrder,
} from '../../features/fiat/api.ts';
import { identityApi } from '../../features/identity/api.ts';
import { canvasEncoder, compressImage } from '../../features/identity/compress-image.ts';
import { ruleText } from '../../i18n/index.ts';
import { copyText } from '../../shared/clipboard.ts';
import { formatDateTime } from '../../shared/format.ts';
import { toast } from '../../shared/ui/toast.ts';
import { AdTerms } from './AdTerms.tsx';

/** The payee fields shown, in the spec's order (§3 "Fiat order"), when the order has them. */
const PAYEE_ROWS: (keyof FiatPayee)[] = [
  'payeeName',
  'cardNumber',
  'iban',
  'bank',
  'branch',
  'accountType',
  'bankAddress',
  'swift',
  'wechatAccount',
  'remark',
];

function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

function CopyRow({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  const copy = () => copyText(value, t('funds.copied'));
  return (
    <div className="hy-otc-row">
      <span className="hy-muted">{label}</span>
      <span className="hy-otc-copy">
        <b className="hy-num">{value}</b>
        <button type="button" className="hy-link" onClick={copy} aria-label={`${t('otc.copy')} ${label}`}>
          {t('otc.copy')}
        </button>
      </span>
    </div>
  );
}

/** Screenshot, "I have paid", cancel: the buyer's steps while the order waits for payment. */
function PayStep({ order, onDone }: { order: FiatOrder; onDone(): void }) {
  const { t } = useTranslation();
  const [img, setImg] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  async function pick(file: File | undefined) {
    if (!file) return;
    const saved = await uploadPicked(file);
    if (!saved) return;
    setImg(saved.url);
    setPreview(saved.preview);
  }
  async function paid() {
    const error = checkPayScreenshot(img);
    if (error || !img) {
      toast(error ? ruleText(error) : '');
      return;
    }
    await fiatApi.markPaid(order.id, img);
    toast(t('otc.markedPaid'));
    onDone();
  }
  return (
    <section className="hy-otc-card">
      <label className="hy-otc-upload">
        <span>{t('otc.screenshot')}</span>
        <input
          type="file"
          accept="image/*"
          data-testid="otc-screenshot"
          onChange={(event) => {
            pick(event.target.files?.[0]).catch(() => undefined);
          }}
        />
        {preview ? (
          <img src={preview} alt={t('otc.screenshot')} />
        ) : (
          <em className="hy-muted">{t('otc.screenshotHint')}</em>
        )}
      </label>
      <Button
        block
        color="primary"
        data-testid="otc-paid"
        onClick={() => {
          paid().catch(() => undefined);
        }}
      >
        {t('otc.iHavePaid')}
      </Button>
      <Button
        block
        fill="outline"
        data-testid="otc-cancel"
        onClick={() => {
          fiatApi
            .cancel(order.id)
            .then(() => {
              toast(t('otc.cancelled'));
              onDone();
            })
            .catch(() => undefined);
        }}
      >
        {t('otc.cancelOrder')}
      </Button>
    </section>
  );
}

/** The evidence an appeal of `kind` needs (rules FIAT_APPEAL_EVIDENCE): to send in the chat. */
function EvidenceChecklist({ kind }: { kind: FiatAppealKind }) {
  const { t } = useTranslation();
  return (
    <div className="hy-small" data-testid="otc-evidence">
      <div className="hy-muted">{t('otc.evidenceTitle')}</div>
      <ul>
        {fiatAppealEvidence(kind).map((item) => (
          <li key={item}>{t(`fiat.evidence.${item}`, { ns: 'server' })}</li>
        ))}
      </ul>
    </div>
  );
}

function AppealStep({ order, onDone }: { order: FiatOrder; onDone(): void }) {
  const { t } = useTranslation();
  const kinds = FIAT_APPEAL_KINDS[order.role];
  const [kind, setKind] = useState<FiatAppealKind>(kinds[0]!);
  const [reason, setReason] = useState('');
  return (
    <section className="hy-otc-card">
      <div className="hy-muted hy-small">{t('otc.appealHint')}</div>
      <Selector
        columns={1}
        options={kinds.map((value) => ({ label: t(`fiat.appealKind.${value}`, { ns: 'server' }), value }))}
        value={[kind]}
        onChange={(values) => values[0] && setKind(values[0])}
        data-testid="otc-appeal-kind"
      />
      <EvidenceChecklist kind={kind} />
      <Input
        value={reason}
        onChange={setReason}
        placeholder={t('otc.appealReason')}
        data-testid="otc-appeal-reason"
      />
      <Button
        block
        fill="outline"
        color="danger"
        data-testid="otc-appeal"
        onClick={() => {
          fiatApi
            .appeal(order.id, kind, reason)
            .then(() => {
              toast(t('otc.appealed'));
              onDone();
            })
            .catch(() => undefined);
        }}
      >
        {t('otc.appeal')}
      </Button>
    </section>
  );
}

/** Uploads an image the way the identity screens do: shrunk, then /user/img; answers its url. */
async function uploadPicked(file: File): Promise<{ url: string; preview: string } | null> {
  const compressed = await compressImage(file, canvasEncoder).catch(() => file);
  const [saved] = await identityApi.uploadImage(compressed, file.name.replace(/\.\w+$/, '.jpg'));
  return saved ? { url: saved.url, preview: URL.createObjectURL(compressed) } : null;
}

/** The order's chat: both parties, and support during an appeal; text and images (evidence). */
function Chat({ order }: { order: FiatOrder }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const open = OPEN_STATES.includes(order.state);
  const chat = useFiatChat(order.id, open);
  const client = useQueryClient();
  const [text, setText] = useState('');
  const [img, setImg] = useState<string | null>(null);
  const who = (by: string) =>
    by === 'operator' ? t('otc.by.operator') : by === order.role ? t('otc.by.you') : t('otc.by.other');
  async function send() {
    await fiatApi.say(order.id, text, img ?? undefined);
    setText('');
    setImg(null);
    await client.invalidateQueries({ queryKey: ['fiat', 'chat', order.id] });
  }
  if (!open && (chat.data ?? []).length === 0) return null;
  return (
    <section className="hy-otc-card" data-testid="otc-chat">
      <div className="hy-section-title">{t('otc.chat')}</div>
      {(chat.data ?? []).map((message) => (
        <div className="hy-otc-message" key={message.id}>
          <span className="hy-muted hy-small">
            {who(message.by)} · {formatDateTime(message.at, locale)}
          </span>
          <span>
            {message.text}
            {message.hasImg ? ` 📎 ${t('otc.imageAttached')}` : ''}
          </span>
        </div>
      ))}
      {open ? (
        <div className="hy-otc-chat-input">
          <Input
            value={text}
            onChange={setText}
            placeholder={t('otc.chatPlaceholder')}
            data-testid="otc-chat-text"
          />
          <label className="hy-link">
            📎{img ? ' ✓' : ''}
            <input
              type="file"
              accept="image/*"
              hidden
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file)
                  uploadPicked(file).then(
                    (saved) => setImg(saved?.url ?? null),
                    () => undefined,
                  );
              }}
            />
          </label>
          <Button
            size="small"
            color="primary"
            data-testid="otc-chat-send"
            onClick={() => {
              send().catch(() => undefined);
            }}
          >
            {t('otc.send')}
          </Button>
        </div>
      ) : null}
    </section>
  );
}

/** One order: state, countdown, merchant, amounts, payee details with copy buttons, the party's next step, the history. */
export function OtcOrderPanel({ id }: { id: number }) {
  const { t, i18n } = useTranslation();
  const locale = i18n.language as Locale;
  const client = useQueryClient();
  const query = useFiatOrder(id);
  const now = useNow();
  const order = query.data;
  if (!order) return <div className="hy-muted">{t('common.loading')}</div>;
  const refresh = () => {
    client.invalidateQueries({ queryKey: ['fiat'] }).catch(() => undefined);
  };
  const left = secondsUntil(order.expiresAt, now);
  const payer = order.role === 'buyer';
  return (
    <div className="hy-otc-order" data-testid="otc-order">
      <section className="hy-otc-card">
        <div className="hy-otc-row">
          <b data-testid="otc-order-state">{t(`otc.state.${order.state}`)}</b>
          {order.state === 'to_pay' ? (
            <span className="hy-num hy-otc-countdown" data-testid="otc-countdown">
              {clockText(left)}
            </span>
          ) : null}
        </div>
        {/* Cancelled by the clock, not by a party: the spec's words for an overdue payment (§4). */}
        {order.state === 'cancelled' && order.events.some((event) => event.by === 'system') ? (
          <div className="hy-muted hy-small" data-testid="otc-expired">
            {t('fiat.expired', { ns: 'server', minutes: order.payWindowMinutes })}
          </div>
        ) : null}
        {order.state === 'to_pay' ? (
          <div className="hy-muted hy-small">
            {payer ? t('otc.payWithin', { minutes: order.payWindowMinutes }) : t('otc.waitForPayment')}
          </div>
        ) : null}
        <div className="hy-otc-row">
          <span className="hy-muted">{t('otc.merchant')}</span>
          <span>
            {order.merchant.name} {order.merchant.demo ? <Tag color="warning">DEMO</Tag> : null}
          </span>
        </div>
        <div className="hy-otc-row">
          <span className="hy-muted">{t('otc.price')}</span>
          <span className="hy-num">
            {order.price} {order.fiat}
          </span>
        </div>
        <div className="hy-otc-row">
          <span className="hy-muted">{order.side === 'buy' ? t('otc.youPay') : t('otc.youReceive')}</span>
          <b className="hy-num">
            {order.amount} {order.fiat}
          </b>
        </div>
        <div className="hy-otc-row">
          <span className="hy-muted">{order.side === 'buy' ? t('otc.youGet') : t('otc.youSell')}</span>
          <b className="hy-num">
            {order.number} {order.coin}
          </b>
        </div>
      </section>
      <section className="hy-otc-card" data-testid="otc-payee">
        <div className="hy-section-title">
          {t('otc.payeeDetails')} · {t(`otc.method.${order.payType}`)}
        </div>
        <div className="hy-otc-row" data-testid="otc-payer-name">
          <span className="hy-muted">{t('otc.payerName')}</span>
          <b>{order.payerName}</b>
        </div>
        {PAYEE_ROWS.filter((field) => order.payee[field] !== '').map((field) => (
          <CopyRow key={field} label={t(`otc.field.${field}`)} value={order.payee[field]} />
        ))}
      </section>
      {order.terms !== '' ? (
        <section className="hy-otc-card">
          <AdTerms terms={order.terms} />
        </section>
      ) : null}
      {order.state === 'to_pay' && payer ? <PayStep order={order} onDone={refresh} /> : null}
      {order.state === 'paid' && !payer ? (
        <Button
          block
          color="primary"
          data-testid="otc-release"
          onClick={() => {
            fiatApi
              .release(order.id)
              .then(() => {
                toast(t('otc.released'));
                refresh();
              })
              .catch(() => undefined);
          }}
        >
          {t('otc.release')}
        </Button>
      ) : null}
      {order.state === 'paid' && payer ? <div className="hy-muted">{t('otc.waitForRelease')}</div> : null}
      {order.state === 'paid' ||
      (order.state === 'to_pay' && left > 0 && left * 1000 <= FIAT_APPEAL_BEFORE_EXPIRY_MS) ? (
        <AppealStep order={order} onDone={refresh} />
      ) : null}
      {order.state === 'appeal' ? (
        <section className="hy-otc-card">
          <div className="hy-muted">{t('otc.underAppeal')}</div>
          {order.appealKind ? <EvidenceChecklist kind={order.appealKind} /> : null}
        </section>
      ) : null}
      {!OPEN_STATES.includes(order.state) ? null : (
        <div className="hy-muted hy-small">{t('otc.escrowNote')}</div>
      )}
      <Chat order={order} />
      <section className="hy-otc-card">
        <div className="hy-section-title">{t('otc.history')}</div>
        {order.events.map((event) => (
          <div className="hy-otc-row hy-small" key={`${event.at}-${event.state}`}>
            <span>
              {t(`otc.state.${event.state}`)}
              {/* An operator's ruling carries the reason the operator wrote; the other steps speak for themselves. */}
              {event.by.startsWith('operator:') ? ` · ${event.reason}` : ''}
            </span>
            <span className="hy-muted">{formatDateTime(event.at, locale, { seconds: true })}</span>
          </div>
        ))}
      </section>
    </div>
  );
}
