import type { AdminDeposit, AdminDepositPage } from '@halyard/protocol';
import { Button, Form, Input, Select, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../shared/format.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet } from '../shared/queries.ts';

const PAGE_SIZE = 50;
const STATE_COLOURS: Record<AdminDeposit['state'], string> = {
  waiting: 'orange',
  completed: 'green',
  rejected: 'red',
};

interface Filters {
  coin?: string;
  status?: AdminDeposit['state'];
}

/** Deposits seen on chain, newest first: waiting for confirmations, credited, or refused. */
export default function Deposits() {
  const { t } = useTranslation();
  const [filters, setFilters] = useState<Filters>({});
  const [page, setPage] = useState(1);
  const deposits = useGet<AdminDepositPage>('/admin/deposits', {
    coin: filters.coin?.trim().toUpperCase() || undefined,
    status: filters.status,
    page,
    limit: PAGE_SIZE,
  });

  return (
    <>
      <PageHeader title={t('menu.deposits')} />
      <Form<Filters>
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(values) => {
          setFilters(values);
          setPage(1);
        }}
      >
        <Form.Item name="coin">
          <Input placeholder={t('common.coin')} allowClear style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="status">
          <Select
            allowClear
            placeholder={t('common.status')}
            style={{ width: 140 }}
            options={(['waiting', 'completed', 'rejected'] as const).map((value) => ({
              value,
              label: t(`deposits.state.${value}`),
            }))}
          />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
        </Form.Item>
      </Form>
      <LoadError error={deposits.error} />
      <Table<AdminDeposit>
        rowKey="id"
        loading={deposits.isFetching}
        dataSource={deposits.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: deposits.data?.total ?? 0,
          onChange: setPage,
        }}
        scroll={{ x: 1100 }}
        columns={[
          { title: t('common.time'), dataIndex: 'createdAt', width: 170, render: formatTime },
          { title: t('common.user'), dataIndex: 'userId', width: 80 },
          { title: t('common.coin'), dataIndex: 'coin', width: 80 },
          { title: t('common.chain'), dataIndex: 'chain', width: 80 },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
          {
            title: t('deposits.txHash'),
            dataIndex: 'txHash',
            ellipsis: true,
            render: (hash: string) => <Typography.Text copyable={{ text: hash }}>{hash}</Typography.Text>,
          },
          { title: t('deposits.block'), dataIndex: 'blockNumber', width: 100 },
          {
            title: t('common.status'),
            dataIndex: 'state',
            width: 110,
            render: (state: AdminDeposit['state']) => (
              <Tag color={STATE_COLOURS[state]}>{t(`deposits.state.${state}`)}</Tag>
            ),
          },
          {
            title: t('common.reason'),
            dataIndex: 'reason',
            render: (reason: string | null) => reason ?? '—',
          },
        ]}
      />
    </>
  );
}
