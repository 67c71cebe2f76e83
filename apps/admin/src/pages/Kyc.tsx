import type { KycQueueEntry, KycState } from '@halyard/protocol';
import { Button, Descriptions, Modal, Segmented, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../shared/ActionButton.tsx';
import { DocumentImage } from '../shared/DocumentImage.tsx';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';

const STATE_COLOURS: Record<KycState, string> = { review: 'orange', failed: 'red', succeeded: 'green' };

function Decision({ entry, onDone }: { entry: KycQueueEntry; onDone(): void }) {
  const { t } = useTranslation();
  return (
    <Space>
      <ActionButton
        type="primary"
        label={t('kyc.approve')}
        run={() => api.post(`/admin/identity/kyc/${entry.id}/approve`)}
        onDone={onDone}
      >
        {t('kyc.approveConfirm', { name: entry.name, user: entry.userId })}
      </ActionButton>
      <ActionButton
        danger
        reason
        label={t('kyc.reject')}
        run={({ reason }) => api.post(`/admin/identity/kyc/${entry.id}/reject`, { reason })}
        onDone={onDone}
      >
        {t('kyc.rejectHint')}
      </ActionButton>
    </Space>
  );
}

/** The document viewer: the submission's fields and its photo (the view is audited by the server). */
function Viewer({ entry, onClose, onDecided }: { entry: KycQueueEntry; onClose(): void; onDecided(): void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      width={760}
      title={t('kyc.viewerTitle', { id: entry.id })}
      onCancel={onClose}
      footer={entry.state === 'review' ? <Decision entry={entry} onDone={onDecided} /> : null}
    >
      <Descriptions size="small" column={2} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('common.user')}>{entry.userId}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.name')}>{entry.name}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.idNumber')}>{entry.idNumber}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.submitted')}>{formatTime(entry.submittedAt)}</Descriptions.Item>
      </Descriptions>
      <DocumentImage url={entry.photoUrl} />
    </Modal>
  );
}

/** Identity verification: the queue by state, the document viewer, approve or reject with a reason. */
export default function Kyc() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [state, setState] = useState<KycState>('review');
  const [viewing, setViewing] = useState<KycQueueEntry | null>(null);
  const queue = useGet<KycQueueEntry[]>('/admin/identity/kyc', { state, limit: 500 });
  const decided = () => {
    setViewing(null);
    void refresh('/admin/identity/kyc', '/admin/dashboard');
  };

  return (
    <>
      <PageHeader
        title={t('menu.kyc')}
        extra={
          <Segmented<KycState>
            value={state}
            onChange={setState}
            options={(['review', 'failed', 'succeeded'] as const).map((value) => ({
              value,
              label: t(`kyc.state.${value}`),
            }))}
          />
        }
      />
      <LoadError error={queue.error} />
      <Table<KycQueueEntry>
        rowKey="id"
        loading={queue.isFetching}
        dataSource={queue.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 80 },
          { title: t('common.user'), dataIndex: 'userId', width: 90 },
          { title: t('kyc.name'), dataIndex: 'name' },
          { title: t('kyc.idNumber'), dataIndex: 'idNumber' },
          {
            title: t('common.status'),
            dataIndex: 'state',
            width: 120,
            render: (value: KycState) => <Tag color={STATE_COLOURS[value]}>{t(`kyc.state.${value}`)}</Tag>,
          },
          { title: t('kyc.submitted'), dataIndex: 'submittedAt', width: 180, render: formatTime },
          { title: t('kyc.decidedBy'), dataIndex: 'decidedBy', render: (by: string | null) => by ?? '—' },
          {
            title: t('common.reason'),
            dataIndex: 'reason',
            render: (reason: string | null) => reason ?? '—',
          },
          {
            title: t('common.actions'),
            width: 130,
            render: (_, entry) => (
              <Button size="small" onClick={() => setViewing(entry)}>
                {t('kyc.open')}
              </Button>
            ),
          },
        ]}
      />
      {viewing && <Viewer entry={viewing} onClose={() => setViewing(null)} onDecided={decided} />}
    </>
  );
}
