import {
  type CyclePairSettings,
  LISTING_KINDS,
  type ListingKind,
  type MarketCoins,
  type MarketListingRequest,
  type MarketSettingsList,
} from '@halyard/protocol';
import {
  Alert,
  App,
  Button,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Switch,
  Table,
  Tabs,
  Tag,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../shared/errors.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useCan } from '../shared/session.ts';

type SpotRow = MarketSettingsList['spot'][number];
type FuturesRow = MarketSettingsList['futures'][number];
type CycleRow = MarketSettingsList['cycle'][number];

/** One settings field of a kind of market: integers, exact decimals (as text) or a switch. */
interface Field {
  name: string;
  kind: 'int' | 'decimal' | 'bool';
  min?: number;
  max?: number;
}

const SPOT_FIELDS: Field[] = [
  { name: 'priceAccuracy', kind: 'int', min: 0, max: 18 },
  { name: 'amountAccuracy', kind: 'int', min: 0, max: 18 },
  { name: 'minNumber', kind: 'decimal' },
  { name: 'maxNumber', kind: 'decimal' },
  { name: 'makerFee', kind: 'decimal' },
  { name: 'takerFee', kind: 'decimal' },
  { name: 'sort', kind: 'int', min: 0 },
  { name: 'enabled', kind: 'bool' },
];
const FUTURES_FIELDS: Field[] = [
  { name: 'priceAccuracy', kind: 'int', min: 0, max: 18 },
  { name: 'minNumber', kind: 'decimal' },
  { name: 'maxNumber', kind: 'decimal' },
  { name: 'maxLever', kind: 'int', min: 1, max: 125 },
  { name: 'fee', kind: 'decimal' },
  { name: 'maintenanceMarginRate', kind: 'decimal' },
  { name: 'sort', kind: 'int', min: 0 },
  { name: 'enabled', kind: 'bool' },
];
const CYCLE_FIELDS: Field[] = [
  { name: 'priceAccuracy', kind: 'int', min: 0, max: 18 },
  { name: 'sort', kind: 'int', min: 0 },
];
const CYCLE_OPTION_FIELDS: Field[] = [
  { name: 'seconds', kind: 'int', min: 1 },
  { name: 'minNumber', kind: 'decimal' },
  { name: 'maxNumber', kind: 'decimal' },
  { name: 'profitRate', kind: 'decimal' },
  { name: 'lossRate', kind: 'decimal' },
  { name: 'fee', kind: 'decimal' },
];
const FIELDS: Record<ListingKind, Field[]> = {
  spot: SPOT_FIELDS,
  futures: FUTURES_FIELDS,
  cycle: CYCLE_FIELDS,
};

const DECIMAL = /^\d+(\.\d+)?$/;

function FieldInput({ field, path }: { field: Field; path: (string | number)[] }) {
  const { t } = useTranslation();
  const label = t(`markets.field.${field.name}`);
  if (field.kind === 'bool') {
    return (
      <Form.Item name={path} label={label} valuePropName="checked">
        <Switch />
      </Form.Item>
    );
  }
  if (field.kind === 'int') {
    return (
      <Form.Item name={path} label={label} rules={[{ required: true }]}>
        <InputNumber min={field.min} max={field.max} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    );
  }
  return (
    <Form.Item
      name={path}
      label={label}
      rules={[{ required: true, pattern: DECIMAL, message: t('common.decimalOnly') }]}
    >
      <Input inputMode="decimal" />
    </Form.Item>
  );
}

function Fields({ fields }: { fields: Field[] }) {
  return (
    <Row gutter={16}>
      {fields.map((field) => (
        <Col key={field.name} xs={12} md={6}>
          <FieldInput field={field} path={[field.name]} />
        </Col>
      ))}
    </Row>
  );
}

/** A cycle pair's durations, each with its limits and rates. */
function CycleOptions() {
  const { t } = useTranslation();
  return (
    <Form.List name="options">
      {(items, { add, remove }) => (
        <>
          {items.map((item) => (
            <Row key={item.key} gutter={8} align="bottom">
              {CYCLE_OPTION_FIELDS.map((field) => (
                <Col key={field.name} span={3}>
                  <FieldInput field={field} path={[item.name, field.name]} />
                </Col>
              ))}
              <Col span={3}>
                <Form.Item>
                  <Button onClick={() => remove(item.name)}>{t('common.remove')}</Button>
                </Form.Item>
              </Col>
            </Row>
          ))}
          <Button type="dashed" onClick={() => add()} style={{ marginBottom: 16 }}>
            {t('markets.addDuration')}
          </Button>
        </>
      )}
    </Form.List>
  );
}

interface DialogProps {
  kind: ListingKind;
  /** The market edited; null for a new listing. */
  market: (MarketCoins & { id: number } & Record<string, unknown>) | null;
  onClose(): void;
}

/** Picks a kind's settings out of a row (or a form): what PUT /admin/markets/<kind>/:id takes. */
function settingsOf(kind: ListingKind, values: Record<string, unknown>) {
  const names = [
    ...FIELDS[kind].map((field) => field.name),
    ...(kind === 'cycle' ? ['payCoins', 'options'] : []),
  ];
  return Object.fromEntries(names.map((name) => [name, values[name]]));
}

function MarketDialog({ kind, market, onClose }: DialogProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [form] = Form.useForm<Record<string, unknown> & { totp: string; reason?: string }>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = async () => {
    const { totp, reason, tradcoin, maincoin, name, unit, ...values } = await form.validateFields();
    setBusy(true);
    setRefusal(null);
    try {
      const settings = settingsOf(kind, values);
      const answer = market
        ? await api.send('PUT', `/admin/markets/${kind}/${market.id}`, { body: settings, totp })
        : await api.send('POST', '/admin/markets/listings', {
            body: {
              kind,
              reason,
              tradcoin,
              maincoin,
              ...(kind === 'futures' ? { name, unit } : {}),
              ...settings,
            } as MarketListingRequest,
            totp,
          });
      message.success(answer.msg);
      await refresh('/admin/markets', '/admin/approvals');
      onClose();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const initial = market ?? { enabled: true, sort: 0, options: [], payCoins: ['USDT'] };
  return (
    <Modal
      open
      width={920}
      title={
        market
          ? t('markets.editTitle', { market: `${market.tradcoin}/${market.maincoin}` })
          : t(`markets.new.${kind}`)
      }
      okText={market ? t('common.save') : t('markets.requestListing')}
      cancelText={t('common.cancel')}
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      {!market && <Alert type="info" showIcon title={t('markets.fourEyes')} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" initialValues={initial}>
        {!market && (
          <Row gutter={16}>
            <Col xs={12} md={6}>
              <Form.Item name="tradcoin" label={t('markets.tradcoin')} rules={[{ required: true }]}>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            <Col xs={12} md={6}>
              <Form.Item name="maincoin" label={t('markets.maincoin')} rules={[{ required: true }]}>
                <Input maxLength={20} />
              </Form.Item>
            </Col>
            {kind === 'futures' && (
              <>
                <Col xs={12} md={6}>
                  <Form.Item name="name" label={t('markets.contractName')} rules={[{ required: true }]}>
                    <Input maxLength={40} />
                  </Form.Item>
                </Col>
                <Col xs={12} md={6}>
                  <FieldInput field={{ name: 'unit', kind: 'decimal' }} path={['unit']} />
                </Col>
              </>
            )}
          </Row>
        )}
        <Fields fields={FIELDS[kind]} />
        {kind === 'cycle' && (
          <>
            <Form.Item name="payCoins" label={t('markets.field.payCoins')} rules={[{ required: true }]}>
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
            </Form.Item>
            <CycleOptions />
          </>
        )}
        <Row gutter={16}>
          {!market && (
            <Col xs={24} md={16}>
              <Form.Item
                name="reason"
                label={t('common.reason')}
                rules={[{ required: true, whitespace: true }]}
              >
                <Input.TextArea rows={2} maxLength={500} />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} md={8}>
            <Form.Item
              name="totp"
              label={t('common.totpCode')}
              rules={[{ required: true, pattern: /^\d{6}$/, message: t('common.totpSixDigits') }]}
            >
              <Input.OTP length={6} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </Modal>
  );
}

function EnabledTag({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation();
  return (
    <Tag color={enabled ? 'green' : 'default'}>{enabled ? t('markets.enabled') : t('markets.disabled')}</Tag>
  );
}

/** Spot pairs, futures contracts and cycle pairs: settings edited live, new listings through four-eyes. */
export default function Markets() {
  const { t } = useTranslation();
  const canEdit = useCan('markets.edit');
  const canList = useCan('markets.list');
  const [kind, setKind] = useState<ListingKind>('spot');
  const [dialog, setDialog] = useState<Omit<DialogProps, 'onClose'> | null>(null);
  const markets = useGet<MarketSettingsList>('/admin/markets');
  const pair = (row: MarketCoins) => `${row.tradcoin}/${row.maincoin}`;
  const edit = (rowKind: ListingKind, row: DialogProps['market']) =>
    canEdit ? (
      <Button size="small" onClick={() => setDialog({ kind: rowKind, market: row })}>
        {t('common.edit')}
      </Button>
    ) : null;
  const tables: Record<ListingKind, ReactNode> = {
    spot: (
      <Table<SpotRow>
        rowKey="id"
        dataSource={markets.data?.spot ?? []}
        loading={markets.isFetching}
        pagination={false}
        columns={[
          { title: t('markets.pair'), render: (_, row) => pair(row) },
          ...SPOT_FIELDS.filter((field) => field.kind !== 'bool').map((field) => ({
            title: t(`markets.field.${field.name}`),
            dataIndex: field.name,
          })),
          {
            title: t('common.status'),
            dataIndex: 'enabled',
            render: (on: boolean) => <EnabledTag enabled={on} />,
          },
          {
            title: t('common.actions'),
            render: (_, row) => edit('spot', row as unknown as DialogProps['market']),
          },
        ]}
      />
    ),
    futures: (
      <Table<FuturesRow>
        rowKey="id"
        dataSource={markets.data?.futures ?? []}
        loading={markets.isFetching}
        pagination={false}
        columns={[
          { title: t('markets.contractName'), dataIndex: 'name' },
          { title: t('markets.field.unit'), dataIndex: 'unit' },
          ...FUTURES_FIELDS.filter((field) => field.kind !== 'bool').map((field) => ({
            title: t(`markets.field.${field.name}`),
            dataIndex: field.name,
          })),
          {
            title: t('common.status'),
            dataIndex: 'enabled',
            render: (on: boolean) => <EnabledTag enabled={on} />,
          },
          {
            title: t('common.actions'),
            render: (_, row) => edit('futures', row as unknown as DialogProps['market']),
          },
        ]}
      />
    ),
    cycle: (
      <Table<CycleRow>
        rowKey="id"
        dataSource={markets.data?.cycle ?? []}
        loading={markets.isFetching}
        pagination={false}
        columns={[
          { title: t('markets.pair'), render: (_, row) => pair(row) },
          { title: t('markets.field.priceAccuracy'), dataIndex: 'priceAccuracy' },
          {
            title: t('markets.field.payCoins'),
            dataIndex: 'payCoins',
            render: (coins: string[]) => coins.join(', '),
          },
          {
            title: t('markets.durations'),
            dataIndex: 'options',
            render: (options: CyclePairSettings['options']) =>
              options.length === 0 ? (
                <EnabledTag enabled={false} />
              ) : (
                <Space wrap>
                  {options.map((option) => (
                    <Tag key={option.seconds}>
                      {option.seconds} s · {option.profitRate}
                    </Tag>
                  ))}
                </Space>
              ),
          },
          { title: t('markets.field.sort'), dataIndex: 'sort' },
          {
            title: t('common.actions'),
            render: (_, row) => edit('cycle', row as unknown as DialogProps['market']),
          },
        ]}
      />
    ),
  };
  return (
    <>
      <PageHeader
        title={t('menu.markets')}
        extra={
          canList && (
            <Button type="primary" onClick={() => setDialog({ kind, market: null })}>
              {t(`markets.new.${kind}`)}
            </Button>
          )
        }
      />
      <LoadError error={markets.error} />
      <Tabs
        activeKey={kind}
        onChange={(key) => setKind(key as ListingKind)}
        items={LISTING_KINDS.map((key) => ({ key, label: t(`markets.kind.${key}`), children: tables[key] }))}
      />
      {dialog && <MarketDialog {...dialog} onClose={() => setDialog(null)} />}
    </>
  );
}
