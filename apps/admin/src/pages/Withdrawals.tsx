import {
  WITHDRAWAL_STATES,
  type WithdrawalApproveAnswer,
  type WithdrawalQueueRow,
  type WithdrawalState,
} from '@halyard/protocol';
import { App, Segmented, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton, type ActionInput } from '../shared/ActionButton.tsx';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useCan } from '../shared/session.ts';

const STEP_COLOURS: Record<WithdrawalState, string> = {
  review: 'orange',
  approved: 'blue',
  broadcast: 'cyan',
  flagged: 'red',
  completed: 'green',
  rejected: 'default',
};

/** What an operator can do with a withdrawal at each step (the server decides again). */
const STUCK_ACTIONS = ['resend', 'cancel', 'refund'] as const;

function Actions({ row, onDone }: { row: WithdrawalQueueRow; onDone(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const money =
    (action: string) =>
    ({ reason, totp }: ActionInput) =>
      api.post(`/admin/wallet/withdrawals/${row.id}/${action}`, { reason }, { totp });
  const approve = async ({ totp }: ActionInput) => {
    const answer = await api.post<WithdrawalApproveAnswer>(
      `/admin/wallet/withdrawals/${row.id}/approve`,
      {},
      { totp },
    );
    if (answer.released) message.success(t('withdrawals.released', { id: row.id }));
    else message.info(t('withdrawals.awaitsSecond', { id: row.id, approval: answer.approval?.id ?? '—' }));
  };
  if (row.step === 'review') {
    return (
      <Space>
        {row.hold ? (
          <ActionButton
            reason
            money
            label={t('withdrawals.releaseHold')}
            run={money('release-hold')}
            onDone={onDone}
          >
            <Typography.Paragraph type="secondary">{t('withdrawals.releaseHoldHint')}</Typography.Paragraph>
          </ActionButton>
        ) : (
          <>
            <ActionButton type="primary" money label={t('withdrawals.approve')} run={approve} onDone={onDone}>
              <Typography.Paragraph>
                {t('withdrawals.approveHint', { amount: row.amount, coin: row.coin })}
              </Typography.Paragraph>
            </ActionButton>
            <ActionButton reason money label={t('withdrawals.hold')} run={money('hold')} onDone={onDone}>
              <Typography.Paragraph type="secondary">{t('withdrawals.holdHint')}</Typography.Paragraph>
            </ActionButton>
          </>
        )}
        <ActionButton
          danger
          reason
          money
          label={t('withdrawals.reject')}
          run={money('reject')}
          onDone={onDone}
        />
      </Space>
    );
  }
  if (row.step === 'flagged' || row.step === 'broadcast' || row.step === 'approved') {
    return (
      <Space>
        {STUCK_ACTIONS.map((action) => (
          <ActionButton
            key={action}
            danger={action !== 'resend'}
            reason
            money
            label={t(`withdrawals.${action}`)}
            run={money(action)}
            onDone={onDone}
          >
            <Typography.Paragraph type="secondary">{t(`withdrawals.${action}Hint`)}</Typography.Paragraph>
          </ActionButton>
        ))}
      </Space>
    );
  }
  return null;
}

/**
 * Withdrawals by step: those above the threshold wait for approval (a large one for a second,
 * different operator) and may be held with a reason until released, stuck or flagged ones are sent again, cancelled or refunded. Every action
 * asks for a fresh TOTP code.
 */
export default function Withdrawals() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const canReview = useCan('withdrawals.review');
  const [step, setStep] = useState<WithdrawalState>('review');
  const rows = useGet<WithdrawalQueueRow[]>('/admin/wallet/withdrawals', { state: step, limit: 500 });
  const done = () => void refresh('/admin/wallet/withdrawals', '/admin/approvals', '/admin/dashboard');

  return (
    <>
      <PageHeader
        title={t('menu.withdrawals')}
        extra={
          <Segmented<WithdrawalState>
            value={step}
            onChange={setStep}
            options={WITHDRAWAL_STATES.map((value) => ({ value, label: t(`withdrawals.step.${value}`) }))}
          />
        }
      />
      <LoadError error={rows.error} />
      <Table<WithdrawalQueueRow>
        rowKey="id"
        loading={rows.isFetching}
        dataSource={rows.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        scroll={{ x: 1560 }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          { title: t('common.user'), dataIndex: 'userId', width: 80 },
          { title: t('common.coin'), dataIndex: 'coin', width: 80 },
          { title: t('common.chain'), dataIndex: 'blockname', width: 80 },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right', width: 130 },
          { title: t('withdrawals.fee'), dataIndex: 'fee', align: 'right', width: 110 },
          {
            title: t('withdrawals.address'),
            dataIndex: 'address',
            width: 240,
            ellipsis: true,
            render: (address: string) => <Typography.Text copyable>{address}</Typography.Text>,
          },
          {
            title: t('common.status'),
            dataIndex: 'step',
            width: 110,
            render: (value: WithdrawalState, row: WithdrawalQueueRow) => (
              <Space size={0}>
                <Tag color={STEP_COLOURS[value]}>{t(`withdrawals.step.${value}`)}</Tag>
                {row.hold && <Tag color="volcano">{t('withdrawals.held')}</Tag>}
              </Space>
            ),
          },
          { title: t('common.time'), dataIndex: 'time', width: 170, render: formatTime },
          {
            title: t('common.reason'),
            dataIndex: 'reason',
            ellipsis: true,
            // A hold says why, by whom and since when; the user sees none of it.
            render: (reason: string | null, row: WithdrawalQueueRow) =>
              row.hold
                ? t('withdrawals.heldBy', {
                    reason: row.hold.reason,
                    by: row.hold.by,
                    time: formatTime(row.hold.at),
                  })
                : (reason ?? '—'),
          },
          ...(canReview
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  width: 300,
                  render: (_: unknown, row: WithdrawalQueueRow) => <Actions row={row} onDone={done} />,
                },
              ]
            : []),
        ]}
      />
    </>
  );
}
