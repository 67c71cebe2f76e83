import { APPROVAL_STATUSES, type ApprovalStatus, type ApprovalView } from '@halyard/protocol';
import { App, Descriptions, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton, type ActionInput } from '../shared/ActionButton.tsx';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useSession } from '../shared/session.ts';

const STATUS_COLOURS: Record<ApprovalStatus, string> = {
  pending: 'orange',
  approved: 'blue',
  rejected: 'default',
  executed: 'green',
  failed: 'red',
};

const PAGE_SIZE = 20;

function Decide({ approval, onDone }: { approval: ApprovalView; onDone(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  // Approving executes the action (money moves, a market lists): always with a fresh TOTP code.
  const approve = async ({ totp }: ActionInput) => {
    const answer = await api.send<ApprovalView>('POST', `/admin/approvals/${approval.id}/approve`, {
      totp,
      body: {},
    });
    if (answer.data.status === 'failed') message.error(answer.msg);
    else message.success(answer.msg);
  };
  return (
    <Space>
      <ActionButton type="primary" money label={t('approvals.approve')} run={approve} onDone={onDone}>
        <Typography.Paragraph>{approval.summary}</Typography.Paragraph>
      </ActionButton>
      <ActionButton
        danger
        reason
        label={t('approvals.reject')}
        run={({ reason }) => api.post(`/admin/approvals/${approval.id}/reject`, { reason })}
        onDone={onDone}
      />
    </Space>
  );
}

/** The request in full: who asked, why, what it carries, and how it ended. */
function Detail({ approval }: { approval: ApprovalView }) {
  const { t } = useTranslation();
  return (
    <Descriptions size="small" column={2} bordered>
      <Descriptions.Item label={t('approvals.reason')} span={2}>
        {approval.reason}
      </Descriptions.Item>
      <Descriptions.Item label={t('approvals.payload')} span={2}>
        <Typography.Text code style={{ whiteSpace: 'pre-wrap' }}>
          {JSON.stringify(approval.payload, null, 2)}
        </Typography.Text>
      </Descriptions.Item>
      <Descriptions.Item label={t('approvals.decidedBy')}>
        {approval.decidedBy?.email ?? '—'}
      </Descriptions.Item>
      <Descriptions.Item label={t('approvals.decidedAt')}>{formatTime(approval.decidedAt)}</Descriptions.Item>
      {approval.decisionReason && (
        <Descriptions.Item label={t('approvals.decisionReason')} span={2}>
          {approval.decisionReason}
        </Descriptions.Item>
      )}
      {approval.error && (
        <Descriptions.Item label={t('approvals.error')} span={2}>
          {approval.error.key}
        </Descriptions.Item>
      )}
    </Descriptions>
  );
}

/**
 * Four-eyes requests: a second, different operator approves or rejects each one. The console
 * does not hide the requester's own requests: the server refuses their approval and says why.
 */
export default function Approvals() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const { operator } = useSession();
  const [status, setStatus] = useState<ApprovalStatus>('pending');
  const approvals = useGet<ApprovalView[]>('/admin/approvals', { status, limit: 500 });
  const done = () => void refresh('/admin/approvals', '/admin/wallet/withdrawals', '/admin/dashboard');

  return (
    <>
      <PageHeader
        title={t('menu.approvals')}
        extra={
          <Segmented<ApprovalStatus>
            value={status}
            onChange={setStatus}
            options={APPROVAL_STATUSES.map((value) => ({ value, label: t(`approvals.status.${value}`) }))}
          />
        }
      />
      <LoadError error={approvals.error} />
      <Table<ApprovalView>
        rowKey="id"
        loading={approvals.isFetching}
        dataSource={approvals.data ?? []}
        pagination={{ pageSize: PAGE_SIZE, hideOnSinglePage: true }}
        expandable={{ expandedRowRender: (approval) => <Detail approval={approval} /> }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          {
            title: t('approvals.kind'),
            dataIndex: 'kind',
            width: 170,
            render: (kind: string) => t(`approvals.kind.${kind}`, { defaultValue: kind }),
          },
          { title: t('approvals.summary'), dataIndex: 'summary' },
          {
            title: t('approvals.requestedBy'),
            dataIndex: ['requestedBy', 'email'],
            render: (email: string, approval) =>
              approval.requestedBy.id === operator?.id ? (
                <Space>
                  {email}
                  <Tag>{t('approvals.you')}</Tag>
                </Space>
              ) : (
                email
              ),
          },
          { title: t('approvals.requestedAt'), dataIndex: 'requestedAt', width: 170, render: formatTime },
          ...(status === 'pending'
            ? []
            : [
                {
                  title: t('approvals.decidedBy'),
                  key: 'decidedBy',
                  render: (_: unknown, approval: ApprovalView) => approval.decidedBy?.email ?? '—',
                },
              ]),
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 110,
            render: (value: ApprovalStatus) => (
              <Tag color={STATUS_COLOURS[value]}>{t(`approvals.status.${value}`)}</Tag>
            ),
          },
          {
            title: t('common.actions'),
            width: 200,
            render: (_, approval) =>
              approval.status === 'pending' ? <Decide approval={approval} onDone={done} /> : null,
          },
        ]}
      />
    </>
  );
}
