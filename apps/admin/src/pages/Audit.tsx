import type { OperatorAuditPage, OperatorAuditQuery, OperatorAuditRow } from '@halyard/protocol';
import { Button, DatePicker, Form, Input, InputNumber, Table, Tag, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../shared/errors.ts';
import { formatTime, shortText } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet } from '../shared/queries.ts';

const PAGE_SIZE = 50;

interface Filters {
  action?: string;
  subject?: string;
  userId?: number;
  operatorId?: number;
  range?: [Dayjs | null, Dayjs | null] | null;
}

function toQuery(filters: Filters): Omit<OperatorAuditQuery, 'page' | 'limit'> {
  return {
    action: filters.action?.trim() || undefined,
    subject: filters.subject?.trim() || undefined,
    userId: filters.userId ?? undefined,
    operatorId: filters.operatorId ?? undefined,
    from: filters.range?.[0]?.startOf('day').valueOf(),
    to: filters.range?.[1]?.endOf('day').valueOf(),
  };
}

/** Saves the audit CSV of the current search (fetched with the session, then handed to the browser). */
async function downloadCsv(query: Omit<OperatorAuditQuery, 'page' | 'limit'>): Promise<void> {
  const blob = await api.blob('/admin/audit.csv', { ...query });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = 'halyard-audit.csv';
  link.click();
  URL.revokeObjectURL(url);
}

/** The append-only audit trail: every operator write and every view of personal data, searchable and exportable. */
export default function Audit() {
  const { t } = useTranslation();
  const [query, setQuery] = useState<Omit<OperatorAuditQuery, 'page' | 'limit'>>({});
  const [page, setPage] = useState(1);
  const [exportFailure, setExportFailure] = useState<string | null>(null);
  const entries = useGet<OperatorAuditPage>('/admin/audit', { ...query, page, limit: PAGE_SIZE });

  return (
    <>
      <PageHeader
        title={t('menu.audit')}
        extra={
          <Button
            onClick={() =>
              downloadCsv(query).then(
                () => setExportFailure(null),
                (error: unknown) => setExportFailure(errorText(error)),
              )
            }
          >
            {t('audit.exportCsv')}
          </Button>
        }
      />
      <Form<Filters>
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(filters) => {
          setQuery(toQuery(filters));
          setPage(1);
        }}
      >
        <Form.Item name="action">
          <Input placeholder={t('audit.action')} allowClear style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="subject">
          <Input placeholder={t('audit.subject')} allowClear style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="userId">
          <InputNumber placeholder={t('common.userId')} min={1} precision={0} style={{ width: 110 }} />
        </Form.Item>
        <Form.Item name="operatorId">
          <InputNumber placeholder={t('audit.operatorId')} min={1} precision={0} style={{ width: 120 }} />
        </Form.Item>
        <Form.Item name="range">
          <DatePicker.RangePicker />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('common.search')}
          </Button>
        </Form.Item>
      </Form>
      <LoadError error={entries.error ?? (exportFailure ? new Error(exportFailure) : null)} />
      <Table<OperatorAuditRow>
        rowKey="id"
        loading={entries.isFetching}
        dataSource={entries.data?.items ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: entries.data?.total ?? 0,
          onChange: setPage,
        }}
        expandable={{
          expandedRowRender: (row) => (
            <Typography.Text code style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {row.details}
            </Typography.Text>
          ),
        }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'at',
            width: 180,
            render: (at: number) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(at)}</span>,
          },
          { title: t('audit.operator'), dataIndex: 'operator', width: 200 },
          {
            title: t('audit.action'),
            dataIndex: 'action',
            // Writes name their method and route ("POST /admin/..."); views of personal data do not ("upload.view").
            render: (action: string) => (
              <Tag color={/^[A-Z]+ \//.test(action) ? 'blue' : 'purple'}>{action}</Tag>
            ),
          },
          {
            title: t('audit.subject'),
            dataIndex: 'subject',
            render: (subject: string | null) => subject ?? '—',
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 80,
            render: (id: number | null) => id ?? '—',
          },
          {
            title: t('audit.status'),
            dataIndex: 'status',
            width: 80,
            render: (status: number | null) => status ?? '—',
          },
          { title: t('audit.ip'), dataIndex: 'ip', width: 130, render: (ip: string | null) => ip ?? '—' },
          {
            title: t('audit.details'),
            dataIndex: 'details',
            render: (details: string) => shortText(details, 60),
          },
        ]}
      />
    </>
  );
}
