import type { FiatAppeal } from '@halyard/protocol';
import {
  Alert,
  App,
  Button,
  Card,
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

interface MerchantDecision {
  userId: number;
  approve: boolean;
  reason: string;
}

function Merchants() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<MerchantDecision>();
  const [refusal, setRefusal] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const decide = async (values: MerchantDecision) => {
    setBusy(true);
    setRefusal(null);
    try {
      await api.post('/admin/fiat/merchants/decide', {
        ...values,
        reason: values.reason.trim(),
      });
      message.success(t('fiat.decided', { user: values.userId }));
      form.resetFields();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('fiat.merchantDecision')} style={{ maxWidth: 640 }}>
      <Typography.Paragraph type="secondary">{t('fiat.merchantHint')}</Typography.Paragraph>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" onFinish={decide} initialValues={{ approve: true }}>
        <Form.Item name="userId" label={t('common.userId')} rules={[{ required: true }]}>
          <InputNumber min={1} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="approve" label={t('fiat.decision')}>
          <Radio.Group
            options={[
              { value: true, label: t('fiat.approveMerchant') },
              { value: false, label: t('fiat.rejectMerchant') },
            ]}
          />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={[{ required: true, whitespace: true }]}>
          <Input.TextArea rows={2} maxLength={500} showCount />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('common.confirm')}
        </Button>
      </Form>
    </Card>
  );
}

/** Fiat (OTC): appeals ruled release or refund on the chat's evidence, and merchant applications. */
export default function Fiat() {
  const { t } = useTranslation();
  const canAppeals = useCan('fiat.appeals');
  const canMerchants = useCan('fiat.merchants');
  const tabs = [
    ...(canAppeals ? [{ key: 'appeals', label: t('fiat.appeals'), children: <Appeals /> }] : []),
    ...(canMerchants ? [{ key: 'merchants', label: t('fiat.merchants'), children: <Merchants /> }] : []),
  ];
  return (
    <>
      <PageHeader title={t('menu.fiat')} />
      <Tabs items={tabs} />
    </>
  );
}
