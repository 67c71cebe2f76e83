import {
  ADJUSTMENT_CATEGORIES,
  ADJUSTMENT_DIRECTIONS,
  type ApprovalView,
  type BalanceAdjustmentRequest,
} from '@halyard/protocol';
import { Alert, App, Button, Card, Col, Form, Input, InputNumber, Row, Select, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';

/** The user wallets of the ledger an adjustment may touch (the server's USER_WALLETS checks it). */
const WALLETS = ['spot', 'futures', 'fiat', 'cycle', 'ieo'];

type RequestForm = Omit<BalanceAdjustmentRequest, 'userId'> & { userId: number; totp: string };

function RequestCard() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [form] = Form.useForm<RequestForm>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const submit = async ({ totp, ...values }: RequestForm) => {
    setBusy(true);
    setRefusal(null);
    try {
      const request: BalanceAdjustmentRequest = { ...values, coin: values.coin.trim().toUpperCase() };
      await api.post<ApprovalView>('/admin/adjustments', request, { totp });
      message.success(t('adjustments.requested'));
      form.resetFields();
      await refresh('/admin/approvals');
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('adjustments.new')} style={{ marginBottom: 24 }}>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form<RequestForm>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ wallet: 'spot', direction: 'credit', category: 'compensation' }}
      >
        <Row gutter={16}>
          <Col xs={24} md={8}>
            <Form.Item name="userId" label={t('common.userId')} rules={[{ required: true }]}>
              <InputNumber min={1} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="wallet" label={t('adjustments.wallet')} rules={[{ required: true }]}>
              <Select options={WALLETS.map((wallet) => ({ value: wallet, label: t(`wallet.${wallet}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="coin" label={t('common.coin')} rules={[{ required: true, whitespace: true }]}>
              <Input maxLength={20} placeholder="USDT" />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item name="direction" label={t('adjustments.direction')} rules={[{ required: true }]}>
              <Select
                options={ADJUSTMENT_DIRECTIONS.map((value) => ({
                  value,
                  label: t(`adjustments.direction.${value}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={12} md={8}>
            <Form.Item
              name="amount"
              label={t('common.amount')}
              rules={[{ required: true, pattern: /^\d+(\.\d+)?$/, message: t('common.decimalOnly') }]}
            >
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col xs={24} md={8}>
            <Form.Item name="category" label={t('adjustments.category')} rules={[{ required: true }]}>
              <Select
                options={ADJUSTMENT_CATEGORIES.map((value) => ({
                  value,
                  label: t(`adjustments.category.${value}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} md={16}>
            <Form.Item
              name="reason"
              label={t('common.reason')}
              rules={[{ required: true, whitespace: true }]}
            >
              <Input.TextArea rows={2} maxLength={500} showCount />
            </Form.Item>
          </Col>
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
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('adjustments.submit')}
        </Button>
      </Form>
    </Card>
  );
}

/** Manual credits and debits: requested here, executed only when a second operator approves (Approvals). */
export default function Adjustments() {
  const { t } = useTranslation();
  const requests = useGet<ApprovalView[]>('/admin/approvals', { kind: 'balance_adjustment', limit: 100 });
  return (
    <>
      <PageHeader title={t('menu.adjustments')} />
      <RequestCard />
      <LoadError error={requests.error} />
      <Table<ApprovalView>
        rowKey="id"
        title={() => t('adjustments.recent')}
        loading={requests.isFetching}
        dataSource={requests.data ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          { title: t('approvals.summary'), dataIndex: 'summary' },
          { title: t('common.reason'), dataIndex: 'reason' },
          { title: t('approvals.requestedBy'), dataIndex: ['requestedBy', 'email'] },
          { title: t('approvals.requestedAt'), dataIndex: 'requestedAt', width: 170, render: formatTime },
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 110,
            render: (status: string) => <Tag>{t(`approvals.status.${status}`)}</Tag>,
          },
        ]}
      />
    </>
  );
}
