import type { AdminTicketView, TicketPage, TicketStatus } from '@halyard/protocol';
import { Button, Form, Input, Modal, Segmented, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../shared/ActionButton.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime, shortText } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';

const STATUS_COLOURS: Record<TicketStatus, string> = {
  waiting: 'orange',
  responded: 'blue',
  closed: 'default',
};
const PAGE_SIZE = 20;

function ReplyDialog({ ticket, onClose }: { ticket: AdminTicketView; onClose(): void }) {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [form] = Form.useForm<{ reply: string }>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const send = async () => {
    const { reply } = await form.validateFields();
    setBusy(true);
    try {
      await api.post(`/admin/support/tickets/${ticket.id}/reply`, { reply: reply.trim() });
      await refresh('/admin/support/tickets');
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
      title={t('tickets.replyTo', { id: ticket.id })}
      okText={t('tickets.send')}
      cancelText={t('common.cancel')}
      onOk={send}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
      width={640}
    >
      <Typography.Title level={5}>{ticket.title}</Typography.Title>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{ticket.content}</Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ reply: ticket.reply }}>
        <Form.Item name="reply" label={t('tickets.reply')} rules={[{ required: true, whitespace: true }]}>
          <Input.TextArea rows={5} maxLength={2000} showCount />
        </Form.Item>
      </Form>
      {refusal && <Typography.Text type="danger">{refusal}</Typography.Text>}
    </Modal>
  );
}

/** Support tickets: the queue by status, the operator's reply and closing. */
export default function Tickets() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [status, setStatus] = useState<TicketStatus | 'all'>('waiting');
  const [page, setPage] = useState(1);
  const [replying, setReplying] = useState<AdminTicketView | null>(null);
  const tickets = useGet<TicketPage<AdminTicketView>>('/admin/support/tickets', {
    status: status === 'all' ? undefined : status,
    page,
    limit: PAGE_SIZE,
  });

  return (
    <>
      <PageHeader
        title={t('menu.tickets')}
        extra={
          <Segmented<TicketStatus | 'all'>
            value={status}
            onChange={(value) => {
              setStatus(value);
              setPage(1);
            }}
            options={(['waiting', 'responded', 'closed', 'all'] as const).map((value) => ({
              value,
              label: t(`tickets.status.${value}`),
            }))}
          />
        }
      />
      <LoadError error={tickets.error} />
      <Table<AdminTicketView>
        rowKey="id"
        loading={tickets.isFetching}
        dataSource={tickets.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: tickets.data?.count ?? 0,
          onChange: setPage,
        }}
        expandable={{
          expandedRowRender: (ticket) => (
            <div style={{ whiteSpace: 'pre-wrap' }}>
              <Typography.Paragraph>{ticket.content}</Typography.Paragraph>
              {ticket.reply && <Typography.Paragraph type="secondary">↳ {ticket.reply}</Typography.Paragraph>}
            </div>
          ),
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 80 },
          { title: t('common.user'), dataIndex: 'userId', width: 90 },
          { title: t('tickets.title'), dataIndex: 'title', render: (title: string) => shortText(title, 60) },
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 120,
            render: (value: TicketStatus) => (
              <Tag color={STATUS_COLOURS[value]}>{t(`tickets.status.${value}`)}</Tag>
            ),
          },
          { title: t('tickets.submitted'), dataIndex: 'wdate', width: 180, render: formatTime },
          {
            title: t('common.actions'),
            width: 200,
            render: (_, ticket) =>
              ticket.status === 'closed' ? null : (
                <span style={{ display: 'flex', gap: 8 }}>
                  <Button size="small" type="primary" onClick={() => setReplying(ticket)}>
                    {t('tickets.reply')}
                  </Button>
                  <ActionButton
                    label={t('tickets.close')}
                    run={() => api.post(`/admin/support/tickets/${ticket.id}/close`)}
                    onDone={() => void refresh('/admin/support/tickets')}
                  >
                    {t('tickets.closeConfirm', { id: ticket.id })}
                  </ActionButton>
                </span>
              ),
          },
        ]}
      />
      {replying && <ReplyDialog ticket={replying} onClose={() => setReplying(null)} />}
    </>
  );
}
