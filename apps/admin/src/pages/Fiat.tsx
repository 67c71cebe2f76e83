import type { FiatAdAdmin, FiatAppeal, FiatMerchantAdmin } from '@halyard/protocol';
import {
  Button,
  Col,
  Descriptions,
  Form,
  Input,
  InputNumber,
  List,
  Radio,
  Row,
  Space,
  Table,
  Tabs,
  Tag,
  Timeline,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../shared/ActionButton.tsx';
import { DocumentImage } from '../shared/DocumentImage.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useCan } from '../shared/session.ts';

/** An image of the appeal (payment screenshot, chat image), fetched only when asked: each view is audited. */
function EvidenceImage({ name }: { name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return open ? (
    <DocumentImage url={name} />
  ) : (
    <Button size="small" onClick={() => setOpen(true)}>
      {t('fiat.showImage')}
    </Button>
  );
}

function Say({ appeal }: { appeal: FiatAppeal }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [form] = Form.useForm<{ text: string }>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const send = async ({ text }: { text: string }) => {
    setRefusal(null);
    try {
      await api.post('/admin/fiat/chat', { id: appeal.id, text: text.trim() });
      form.resetFields();
      await refresh('/admin/fiat/appeals');
    } catch (error) {
      setRefusal(errorText(error));
    }
  };
  return (
    <Form name={`say-${appeal.id}`} form={form} layout="inline" onFinish={send} style={{ marginTop: 12 }}>
      <Form.Item name="text" rules={[{ required: true, whitespace: true }]} style={{ flex: 1 }}>
        <Input maxLength={500} placeholder={t('fiat.sayPlaceholder')} />
      </Form.Item>
      <Button htmlType="submit">{t('fiat.say')}</Button>
      {refusal && <Typography.Text type="danger">{refusal}</Typography.Text>}
    </Form>
  );
}

function AppealDetail({ appeal }: { appeal: FiatAppeal }) {
  const { t } = useTranslation();
  return (
    <Row gutter={24}>
      <Col xs={24} lg={8}>
        <Descriptions size="small" column={1} title={t('fiat.appealTitle')}>
          <Descriptions.Item label={t('fiat.appealBy')}>{appeal.appealBy}</Descriptions.Item>
          <Descriptions.Item label={t('fiat.appealKind')}>{appeal.appealKind}</Descriptions.Item>
          <Descriptions.Item label={t('common.reason')}>{appeal.appealReason}</Descriptions.Item>
        </Descriptions>
        <Typography.Title level={5}>{t('fiat.evidence')}</Typography.Title>
        <List
          size="small"
          dataSource={appeal.evidence}
          renderItem={(item) => <List.Item>{item.text}</List.Item>}
        />
        {appeal.payImg && (
          <>
            <Typography.Title level={5}>{t('fiat.payProof')}</Typography.Title>
            <EvidenceImage name={appeal.payImg} />
          </>
        )}
      </Col>
      <Col xs={24} lg={8}>
        <Typography.Title level={5}>{t('fiat.events')}</Typography.Title>
        <Timeline
          items={appeal.events.map((event) => ({
            children: `${formatTime(event.at)} · ${event.state} · ${event.by}${event.reason ? ` · ${event.reason}` : ''}`,
          }))}
        />
      </Col>
      <Col xs={24} lg={8}>
        <Typography.Title level={5}>{t('fiat.chat')}</Typography.Title>
        <List
          size="small"
          bordered
          dataSource={appeal.messages}
          locale={{ emptyText: t('fiat.noMessages') }}
          renderItem={(message) => (
            <List.Item>
              <Space direction="vertical" size={2}>
                <Typography.Text type="secondary">
                  {t(`fiat.party.${message.by}`)} · {formatTime(message.at)}
                </Typography.Text>
                {message.text && <Typography.Text>{message.text}</Typography.Text>}
                {message.img && <EvidenceImage name={message.img} />}
              </Space>
            </List.Item>
          )}
        />
        <Say appeal={appeal} />
      </Col>
    </Row>
  );
}

function Appeals() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const appeals = useGet<FiatAppeal[]>('/admin/fiat/appeals', { limit: 500 });
  const done = () => void refresh('/admin/fiat/appeals', '/admin/dashboard');
  const resolve = (appeal: FiatAppeal, decision: 'release' | 'refund') => (
    <ActionButton
      danger={decision === 'refund'}
      type={decision === 'release' ? 'primary' : 'default'}
      reason
      money
      label={t(`fiat.${decision}`)}
      run={({ reason, totp }) =>
        api.post('/admin/fiat/resolve', { id: appeal.id, decision, reason }, { totp })
      }
      onDone={done}
    >
      <Typography.Paragraph>
        {t(`fiat.${decision}Hint`, { number: appeal.number, coin: appeal.coin })}
      </Typography.Paragraph>
    </ActionButton>
  );
  return (
    <>
      <LoadError error={appeals.error} />
      <Table<FiatAppeal>
        rowKey="id"
        loading={appeals.isFetching}
        dataSource={appeals.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        expandable={{ expandedRowRender: (appeal) => <AppealDetail appeal={appeal} /> }}
        columns={[
          { title: t('fiat.order'), dataIndex: 'id', width: 80 },
          { title: t('common.user'), dataIndex: 'userId', width: 80 },
          { title: t('fiat.side'), dataIndex: 'side', render: (side: string) => t(`fiat.side.${side}`) },
          { title: t('common.coin'), dataIndex: 'coin' },
          { title: t('fiat.quantity'), dataIndex: 'number', align: 'right' },
          {
            title: t('common.amount'),
            dataIndex: 'amount',
            align: 'right',
            render: (amount: string, appeal) => `${amount} ${appeal.fiat}`,
          },
          {
            title: t('fiat.appealKind'),
            dataIndex: 'appealKind',
            render: (kind: string, appeal) => (
              <Space>
                <Tag>{appeal.appealBy}</Tag>
                {kind}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            width: 200,
            render: (_, appeal) => (
              <Space>
                {resolve(appeal, 'release')}
                {resolve(appeal, 'refund')}
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}

type MerchantStatus = FiatMerchantAdmin['status'];
const MERCHANT_COLOURS: Record<MerchantStatus, string> = {
  review: 'gold',
  approved: 'green',
  rejected: 'default',
};

/** Approve or reject one application through the existing decide route; the reason goes to the audit log. */
function Decide({ merchant, approve }: { merchant: FiatMerchantAdmin; approve: boolean }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const userId = merchant.userId;
  if (userId === null) return null;
  return (
    <ActionButton
      type={approve ? 'primary' : 'default'}
      danger={!approve}
      reason
      label={t(approve ? 'fiat.approveMerchant' : 'fiat.rejectMerchant')}
      run={({ reason }) => api.post('/admin/fiat/merchants/decide', { userId, approve, reason })}
      onDone={() => void refresh('/admin/fiat/merchants', '/admin/fiat/ads')}
    >
      <Typography.Paragraph>
        {approve
          ? t('fiat.approveHint', { user: userId, ...merchant.deposit })
          : t('fiat.rejectHint', { user: userId })}
      </Typography.Paragraph>
    </ActionButton>
  );
}

/** Applications (in review first) and merchants, each decided with a button on its row. */
function Merchants() {
  const { t } = useTranslation();
  const [status, setStatus] = useState<MerchantStatus | 'all'>('review');
  const merchants = useGet<FiatMerchantAdmin[]>('/admin/fiat/merchants', status === 'all' ? {} : { status });
  return (
    <>
      <Typography.Paragraph type="secondary">{t('fiat.merchantHint')}</Typography.Paragraph>
      <Radio.Group
        optionType="button"
        value={status}
        onChange={(event) => setStatus(event.target.value as MerchantStatus | 'all')}
        options={[
          ...(['review', 'approved', 'rejected'] as const).map((value) => ({
            value,
            label: t(`fiat.status.${value}`),
          })),
          { value: 'all', label: t('fiat.status.all') },
        ]}
        style={{ marginBottom: 16 }}
      />
      <LoadError error={merchants.error} />
      <Table<FiatMerchantAdmin>
        rowKey="merchantId"
        loading={merchants.isFetching}
        dataSource={merchants.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('fiat.merchant'), dataIndex: 'merchantId', width: 90 },
          {
            title: t('common.userId'),
            dataIndex: 'userId',
            width: 90,
            render: (id: number | null) => id ?? t('fiat.house'),
          },
          { title: t('fiat.contact'), dataIndex: 'contact' },
          {
            title: t('fiat.kycName'),
            dataIndex: 'kycName',
            render: (name: string | null) =>
              name ?? <Typography.Text type="secondary">{t('fiat.kycNameHidden')}</Typography.Text>,
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: MerchantStatus) => (
              <Tag color={MERCHANT_COLOURS[value]}>{t(`fiat.status.${value}`)}</Tag>
            ),
          },
          {
            title: t('fiat.deposit'),
            dataIndex: 'deposit',
            align: 'right',
            render: (deposit: FiatMerchantAdmin['deposit']) => (
              <Space>
                {`${deposit.amount} ${deposit.coin}`}
                {deposit.held && <Tag color="blue">{t('fiat.depositHeld')}</Tag>}
              </Space>
            ),
          },
          { title: t('fiat.appliedAt'), dataIndex: 'appliedAt', render: (at: number) => formatTime(at) },
          {
            title: t('fiat.decidedAt'),
            dataIndex: 'decidedAt',
            render: (at: number | null) => (at === null ? '—' : formatTime(at)),
          },
          {
            title: t('common.actions'),
            width: 180,
            render: (_, merchant) =>
              merchant.status === 'review' && (
                <Space>
                  <Decide merchant={merchant} approve />
                  <Decide merchant={merchant} approve={false} />
                </Space>
              ),
          },
        ]}
      />
    </>
  );
}

/** Every merchant's ads, filtered by merchant and status; an online ad can be taken offline (audited). */
function Ads() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [status, setStatus] = useState<'online' | 'offline' | 'all'>('online');
  const [merchantId, setMerchantId] = useState<number | null>(null);
  /** The price now, and a floating ad's premium over the index. */
  const price = (ad: FiatAdAdmin) =>
    ad.priceType === 'floating'
      ? `${ad.price} ${ad.fiat} · ${t('fiat.floating', { premium: ad.premium ?? '0' })}`
      : `${ad.price} ${ad.fiat}`;
  const ads = useGet<FiatAdAdmin[]>('/admin/fiat/ads', {
    ...(status === 'all' ? {} : { status }),
    ...(merchantId === null ? {} : { merchantId }),
  });
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Radio.Group
          optionType="button"
          value={status}
          onChange={(event) => setStatus(event.target.value as 'online' | 'offline' | 'all')}
          options={[
            { value: 'online', label: t('fiat.online') },
            { value: 'offline', label: t('fiat.offline') },
            { value: 'all', label: t('fiat.status.all') },
          ]}
        />
        <InputNumber
          min={1}
          precision={0}
          placeholder={t('fiat.merchant')}
          value={merchantId}
          onChange={(value) => setMerchantId(value)}
          style={{ width: 160 }}
        />
      </Space>
      <LoadError error={ads.error} />
      <Table<FiatAdAdmin>
        rowKey="id"
        loading={ads.isFetching}
        dataSource={ads.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          {
            title: t('fiat.merchant'),
            dataIndex: 'merchantId',
            render: (id: number, ad) =>
              `${id} · ${ad.merchantUserId === null ? t('fiat.house') : `${t('common.user')} ${ad.merchantUserId}`}`,
          },
          { title: t('fiat.side'), dataIndex: 'side', render: (side: string) => t(`fiat.side.${side}`) },
          { title: t('common.coin'), dataIndex: 'coin', render: (coin: string, ad) => `${coin}/${ad.fiat}` },
          { title: t('fiat.price'), dataIndex: 'price', align: 'right', render: (_, ad) => price(ad) },
          {
            title: t('fiat.limits'),
            dataIndex: 'min',
            align: 'right',
            render: (min: string, ad) => `${min} – ${ad.max} ${ad.fiat}`,
          },
          {
            title: t('fiat.available'),
            dataIndex: 'available',
            align: 'right',
            render: (available: string, ad) => `${available} ${ad.coin}`,
          },
          {
            title: t('fiat.methods'),
            dataIndex: 'methods',
            render: (methods: FiatAdAdmin['methods']) =>
              methods.map((method) => <Tag key={method}>{t(`fiat.payType.${method}`)}</Tag>),
          },
          {
            title: t('fiat.window'),
            dataIndex: 'payWindowMinutes',
            render: (minutes: number) => t('fiat.minutes', { minutes }),
          },
          {
            title: t('common.status'),
            dataIndex: 'online',
            render: (online: boolean) => (
              <Tag color={online ? 'green' : 'default'}>{t(online ? 'fiat.online' : 'fiat.offline')}</Tag>
            ),
          },
          {
            title: t('common.actions'),
            width: 130,
            render: (_, ad) =>
              ad.online && (
                <ActionButton
                  danger
                  reason
                  label={t('fiat.takeOffline')}
                  run={({ reason }) => api.post(`/admin/fiat/ads/${ad.id}/offline`, { reason })}
                  onDone={() => void refresh('/admin/fiat/ads')}
                >
                  <Typography.Paragraph>{t('fiat.takeOfflineHint', { id: ad.id })}</Typography.Paragraph>
                </ActionButton>
              ),
          },
        ]}
      />
    </>
  );
}

/** Fiat (OTC): appeals ruled release or refund on the chat's evidence, merchant applications, and ads. */
export default function Fiat() {
  const { t } = useTranslation();
  const canAppeals = useCan('fiat.appeals');
  const canMerchants = useCan('fiat.merchants');
  const tabs = [
    ...(canAppeals ? [{ key: 'appeals', label: t('fiat.appeals'), children: <Appeals /> }] : []),
    ...(canMerchants
      ? [
          { key: 'merchants', label: t('fiat.merchants'), children: <Merchants /> },
          { key: 'ads', label: t('fiat.ads'), children: <Ads /> },
        ]
      : []),
  ];
  return (
    <>
      <PageHeader title={t('menu.fiat')} />
      <Tabs items={tabs} />
    </>
  );
}
