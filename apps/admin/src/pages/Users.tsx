import type {
  AdminBalance,
  AdminLoginEntry,
  AdminOrder,
  AdminPosition,
  AdminSession,
  AdminUserDetail,
  AdminUserPage,
  AdminUserRow,
} from '@halyard/protocol';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Descriptions,
  Form,
  Input,
  Modal,
  Space,
  Spin,
  Table,
  Tabs,
  Tag,
} from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useNavigate, useParams } from 'react-router';
import { ActionButton } from '../shared/ActionButton.tsx';
import { DocumentImage } from '../shared/DocumentImage.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useCan } from '../shared/session.ts';

const PAGE_SIZE = 20;

function UserSearch() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const users = useGet<AdminUserPage>('/admin/users', { q, page, limit: PAGE_SIZE });
  return (
    <>
      <PageHeader
        title={t('menu.users')}
        extra={
          <Input.Search
            allowClear
            placeholder={t('users.searchHint')}
            onSearch={(value) => {
              setQ(value.trim());
              setPage(1);
            }}
            style={{ width: 340 }}
            enterButton
          />
        }
      />
      <LoadError error={users.error} />
      {users.data && !users.data.unmasked && (
        <Alert type="info" showIcon title={t('users.masked')} style={{ marginBottom: 16 }} />
      )}
      <Table<AdminUserRow>
        rowKey="id"
        loading={users.isFetching}
        dataSource={users.data?.items ?? []}
        pagination={{ current: page, pageSize: PAGE_SIZE, total: users.data?.total ?? 0, onChange: setPage }}
        onRow={(row) => ({ onClick: () => navigate(`/users/${row.id}`), style: { cursor: 'pointer' } })}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 80 },
          { title: t('users.email'), dataIndex: 'email', render: (email: string | null) => email ?? '—' },
          {
            title: t('users.phone'),
            dataIndex: 'phone',
            render: (phone: string | null, row) => (phone ? `+${row.areaCode ?? ''} ${phone}` : '—'),
          },
          {
            title: t('users.wallet'),
            dataIndex: 'walletAddress',
            ellipsis: true,
            render: (address: string | null) => address ?? '—',
          },
          { title: t('users.invitationCode'), dataIndex: 'invitationCode', width: 130 },
          { title: t('users.registered'), dataIndex: 'createdAt', width: 170, render: formatTime },
        ]}
      />
    </>
  );
}

interface FreezeForm {
  rule: string;
  reason: string;
  range: [Dayjs, Dayjs];
}

function FreezeDialog({ userId, onClose }: { userId: number; onClose(): void }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [form] = Form.useForm<FreezeForm>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const freeze = async () => {
    const values = await form.validateFields();
    setBusy(true);
    setRefusal(null);
    try {
      await api.post('/admin/identity/freeze', {
        userId,
        setBy: values.rule.trim(),
        reason: values.reason.trim(),
        startsAt: values.range[0].valueOf(),
        endsAt: values.range[1].valueOf(),
      });
      await refresh(`/admin/users/${userId}`);
      onClose();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('users.freezeTitle', { id: userId })}
      okText={t('users.freeze')}
      okButtonProps={{ danger: true, loading: busy }}
      cancelText={t('common.cancel')}
      onOk={freeze}
      onCancel={onClose}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical">
        <Form.Item
          name="rule"
          label={t('users.freezeRule')}
          extra={t('users.freezeRuleHint')}
          rules={[{ required: true }]}
        >
          <Input maxLength={64} />
        </Form.Item>
        <Form.Item
          name="reason"
          label={t('common.reason')}
          extra={t('users.reasonShown')}
          rules={[{ required: true, whitespace: true }]}
        >
          <Input.TextArea rows={3} maxLength={500} showCount />
        </Form.Item>
        <Form.Item name="range" label={t('users.freezePeriod')} rules={[{ required: true }]}>
          <DatePicker.RangePicker showTime />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Profile({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const { profile } = detail;
  return (
    <Descriptions bordered size="small" column={2}>
      <Descriptions.Item label={t('common.id')}>{profile.id}</Descriptions.Item>
      <Descriptions.Item label={t('users.registered')}>{formatTime(profile.createdAt)}</Descriptions.Item>
      <Descriptions.Item label={t('users.email')}>{profile.email ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('users.phone')}>
        {profile.phone ? `+${profile.areaCode ?? ''} ${profile.phone}` : '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('users.wallet')}>{profile.walletAddress ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('users.invitationCode')}>{profile.invitationCode}</Descriptions.Item>
      <Descriptions.Item label={t('users.inviter')}>{profile.parentId ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('users.kyc')}>{t(`users.kycState.${detail.kyc}`)}</Descriptions.Item>
      <Descriptions.Item label={t('users.loginPassword')}>
        {profile.hasLoginPassword ? t('common.yes') : t('common.no')}
      </Descriptions.Item>
      <Descriptions.Item label={t('users.fundPassword')}>
        {profile.hasFundPassword ? t('common.yes') : t('common.no')}
      </Descriptions.Item>
      <Descriptions.Item label={t('users.lockedUntil')}>{formatTime(profile.lockedUntil)}</Descriptions.Item>
      <Descriptions.Item label={t('users.freezeState')}>
        {profile.freeze ? (
          <Tag color="red">
            {t('users.frozenUntil', { until: formatTime(profile.freeze.endsAt), by: profile.freeze.setBy })}:{' '}
            {profile.freeze.reason}
          </Tag>
        ) : (
          t('users.notFrozen')
        )}
      </Descriptions.Item>
    </Descriptions>
  );
}

function KycTab({ detail }: { detail: AdminUserDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const submission = detail.kycSubmission;
  if (!submission) return <Alert type="info" showIcon title={t(`users.kycState.${detail.kyc}`)} />;
  return (
    <>
      <Descriptions bordered size="small" column={2} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('kyc.name')}>{submission.name}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.idNumber')}>{submission.idNumber}</Descriptions.Item>
        <Descriptions.Item label={t('common.status')}>{t(`kyc.state.${submission.state}`)}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.submitted')}>{formatTime(submission.submittedAt)}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.decidedBy')}>{submission.decidedBy ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('common.reason')}>{submission.reason ?? '—'}</Descriptions.Item>
      </Descriptions>
      {open ? (
        <DocumentImage url={submission.photoUrl} />
      ) : (
        <Button onClick={() => setOpen(true)}>{t('kyc.showDocument')}</Button>
      )}
    </>
  );
}

function orderColumns(t: (key: string) => string) {
  return [
    { title: t('users.market'), dataIndex: 'market', width: 90 },
    { title: t('common.id'), dataIndex: 'id', width: 80 },
    { title: t('users.symbol'), dataIndex: 'symbol' },
    { title: t('users.side'), dataIndex: 'side' },
    { title: t('users.style'), dataIndex: 'style' },
    { title: t('users.price'), dataIndex: 'price', align: 'right' as const },
    { title: t('common.amount'), dataIndex: 'amount', align: 'right' as const },
    { title: t('users.filled'), dataIndex: 'filled', align: 'right' as const },
    { title: t('common.status'), dataIndex: 'state' },
    { title: t('common.time'), dataIndex: 'time', render: formatTime },
  ];
}

function Sessions({ userId, sessions }: { userId: number; sessions: AdminSession[] }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const canRevoke = useCan('users.sessions');
  return (
    <Table<AdminSession>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={sessions}
      columns={[
        { title: t('users.device'), dataIndex: 'device' },
        { title: t('users.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
        { title: t('users.userAgent'), dataIndex: 'userAgent', ellipsis: true },
        { title: t('users.signedInAt'), dataIndex: 'createdAt', render: formatTime },
        { title: t('users.expiresAt'), dataIndex: 'expiresAt', render: formatTime },
        {
          title: t('common.actions'),
          render: (_, session) =>
            canRevoke && (
              <ActionButton
                danger
                label={t('users.revoke')}
                run={() => api.post(`/admin/users/${userId}/sessions/${session.id}/revoke`)}
                onDone={() => void refresh(`/admin/users/${userId}`)}
              >
                {t('users.revokeConfirm', { device: session.device })}
              </ActionButton>
            ),
        },
      ]}
    />
  );
}

function UserDetail() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefresh();
  const userId = Number(useParams().id);
  const canFreeze = useCan('users.freeze');
  const [freezing, setFreezing] = useState(false);
  const detail = useGet<AdminUserDetail>(`/admin/users/${userId}`);
  const data = detail.data;
  return (
    <>
      <PageHeader
        title={t('users.detailTitle', { id: userId })}
        extra={
          <>
            <Button onClick={() => navigate('/users')}>{t('common.back')}</Button>
            {canFreeze && data && !data.profile.freeze && (
              <Button danger onClick={() => setFreezing(true)}>
                {t('users.freeze')}
              </Button>
            )}
            {canFreeze && data?.profile.freeze && (
              <ActionButton
                reason
                size="middle"
                label={t('users.unfreeze')}
                run={({ reason }) => api.post('/admin/identity/unfreeze', { userId, reason })}
                onDone={() => void refresh(`/admin/users/${userId}`)}
              />
            )}
          </>
        }
      />
      <LoadError error={detail.error} />
      {!data && !detail.error && <Spin />}
      {data && (
        <Card>
          {!data.unmasked && (
            <Alert type="info" showIcon title={t('users.masked')} style={{ marginBottom: 16 }} />
          )}
          <Tabs
            items={[
              { key: 'profile', label: t('users.tab.profile'), children: <Profile detail={data} /> },
              { key: 'kyc', label: t('users.tab.kyc'), children: <KycTab detail={data} /> },
              {
                key: 'balances',
                label: t('users.tab.balances'),
                children: (
                  <Table<AdminBalance>
                    size="small"
                    rowKey={(row) => `${row.wallet}:${row.coin}`}
                    pagination={false}
                    dataSource={data.balances}
                    columns={[
                      {
                        title: t('adjustments.wallet'),
                        dataIndex: 'wallet',
                        render: (w: string) => t(`wallet.${w}`, { defaultValue: w }),
                      },
                      { title: t('common.coin'), dataIndex: 'coin' },
                      { title: t('users.available'), dataIndex: 'available', align: 'right' },
                      { title: t('users.locked'), dataIndex: 'locked', align: 'right' },
                      { title: t('users.total'), dataIndex: 'total', align: 'right' },
                    ]}
                  />
                ),
              },
              {
                key: 'orders',
                label: t('users.tab.orders'),
                children: (
                  <Space direction="vertical" style={{ width: '100%' }}>
                    <Table<AdminOrder>
                      size="small"
                      title={() => t('users.openOrders')}
                      rowKey={(row) => `${row.market}:${row.id}`}
                      pagination={false}
                      dataSource={data.openOrders}
                      columns={orderColumns(t)}
                    />
                    <Table<AdminOrder>
                      size="small"
                      title={() => t('users.recentOrders')}
                      rowKey={(row) => `${row.market}:${row.id}`}
                      pagination={{ pageSize: 10, hideOnSinglePage: true }}
                      dataSource={data.recentOrders}
                      columns={orderColumns(t)}
                    />
                  </Space>
                ),
              },
              {
                key: 'positions',
                label: t('users.tab.positions'),
                children: (
                  <Table<AdminPosition>
                    size="small"
                    rowKey={(row) => `${row.product}:${row.id}`}
                    pagination={false}
                    dataSource={data.positions}
                    columns={[
                      { title: t('users.product'), dataIndex: 'product' },
                      { title: t('users.symbol'), dataIndex: 'symbol' },
                      { title: t('users.side'), dataIndex: 'side' },
                      { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
                      { title: t('users.price'), dataIndex: 'price', align: 'right' },
                      { title: t('users.margin'), dataIndex: 'margin', align: 'right' },
                      { title: t('users.openedAt'), dataIndex: 'openedAt', render: formatTime },
                      { title: t('users.endsAt'), dataIndex: 'endsAt', render: formatTime },
                    ]}
                  />
                ),
              },
              {
                key: 'logins',
                label: t('users.tab.logins'),
                children: (
                  <Table<AdminLoginEntry>
                    size="small"
                    rowKey="id"
                    pagination={{ pageSize: 20, hideOnSinglePage: true }}
                    dataSource={data.logins}
                    columns={[
                      { title: t('common.time'), dataIndex: 'at', render: formatTime },
                      { title: t('users.account'), dataIndex: 'account' },
                      { title: t('users.method'), dataIndex: 'method' },
                      {
                        title: t('users.result'),
                        dataIndex: 'result',
                        render: (result: string) => (
                          <Tag color={result === 'success' ? 'green' : 'red'}>{result}</Tag>
                        ),
                      },
                      { title: t('users.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
                      { title: t('users.device'), dataIndex: 'device' },
                    ]}
                  />
                ),
              },
              {
                key: 'sessions',
                label: t('users.tab.sessions'),
                children: <Sessions userId={userId} sessions={data.sessions} />,
              },
            ]}
          />
        </Card>
      )}
      {freezing && <FreezeDialog userId={userId} onClose={() => setFreezing(false)} />}
    </>
  );
}

/** Users: search, then one user's page (profile, KYC, balances, orders, positions, logins, sessions). */
export default function Users() {
  return (
    <Routes>
      <Route index element={<UserSearch />} />
      <Route path=":id" element={<UserDetail />} />
    </Routes>
  );
}
