import type { Locale } from '@halyard/protocol';
import { checkTicket } from '@halyard/rules';
import { Button, Dialog, Form, InfiniteScroll, Input, Tabs, Tag, TextArea } from 'antd-mobile';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { passes } from '../../features/identity/checks.ts';
import { type Ticket, useTicketActions, useTickets } from '../../features/support/api.ts';
import { formatDateTime } from '../../shared/format.ts';
import { EmptyState } from '../../shared/ui/EmptyState.tsx';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';

const STATUS_COLOURS = { waiting: 'warning', responded: 'success', closed: 'default' } as const;

function TicketCard({ ticket, onClose }: { ticket: Ticket; onClose(id: number): void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="hy-card" style={{ padding: 14 }} data-testid="ticket">
      <div style={{ display: 'flex', justifyContent: 'space-between', gap: 8 }}>
        <b style={{ wordBreak: 'break-word' }}>{ticket.title}</b>
        <Tag color={STATUS_COLOURS[ticket.status]} fill="outline">
          {t(`help.status.${ticket.status}`)}
        </Tag>
      </div>
      <div className="hy-muted" style={{ fontSize: 12, margin: '4px 0 8px' }}>
        {formatDateTime(ticket.wdate, i18n.language as Locale)}
      </div>
      <p style={{ margin: 0, whiteSpace: 'pre-wrap', lineHeight: 1.5 }}>{ticket.content}</p>
      {ticket.reply ? (
        <p
          style={{
            margin: '10px 0 0',
            padding: 10,
            borderRadius: 8,
            background: 'var(--hy-surface-2)',
            whiteSpace: 'pre-wrap',
          }}
        >
          <span className="hy-muted">{t('help.reply')}: </span>
          {ticket.reply}
        </p>
      ) : null}
      {ticket.status !== 'closed' ? (
        <div style={{ textAlign: 'right', marginTop: 8 }}>
          <Button size="mini" fill="outline" onClick={() => onClose(ticket.id)}>
            {t('help.close')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}

function TicketList() {
  const { t } = useTranslation();
  const query = useTickets();
  const actions = useTicketActions();
  const tickets = query.data?.pages.flatMap((page) => page.list) ?? [];
  const close = async (id: number) => {
    const confirmed = await Dialog.confirm({
      content: t('help.closeConfirm'),
      confirmText: t('common.confirm'),
      cancelText: t('common.cancel'),
    });
    if (confirmed) await actions.close(id).catch(() => null);
  };
  if (tickets.length === 0 && !query.isLoading) return <EmptyState>{t('help.none')}</EmptyState>;
  return (
    <>
      {tickets.map((ticket) => (
        <TicketCard key={ticket.id} ticket={ticket} onClose={(id) => void close(id)} />
      ))}
      <InfiniteScroll loadMore={async () => void (await query.fetchNextPage())} hasMore={query.hasNextPage}>
        {query.hasNextPage ? t('common.loading') : ''}
      </InfiniteScroll>
    </>
  );
}

function TicketForm({ onDone }: { onDone(): void }) {
  const { t } = useTranslation();
  const actions = useTicketActions();
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const submit = async () => {
    if (!passes(() => checkTicket({ title, content }))) return;
    const done = await actions.submit({ title: title.trim(), content: content.trim() }).then(
      () => true,
      () => false,
    );
    if (!done) return;
    toast(t('help.submitted'));
    setTitle('');
    setContent('');
    onDone();
  };
  return (
    <>
      <Form className="hy-form" layout="vertical">
        <Form.Item label={t('help.title')}>
          <Input value={title} onChange={setTitle} maxLength={100} placeholder={t('help.titlePlaceholder')} />
        </Form.Item>
        <Form.Item label={t('help.content')}>
          <TextArea
            value={content}
            onChange={setContent}
            maxLength={200}
            showCount
            rows={5}
            placeholder={t('help.contentPlaceholder')}
          />
        </Form.Item>
      </Form>
      <div className="hy-form-footer">
        <Button block color="primary" size="large" onClick={() => void submit()}>
          {t('common.submit')}
        </Button>
      </div>
    </>
  );
}

/** Help and feedback (spec §2): the user's tickets and a new ticket. */
export function HelpCenterPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState('list');
  return (
    <PageFrame title={t('route.helpCenter')} fallback="/my">
      <Tabs activeKey={tab} onChange={setTab}>
        <Tabs.Tab title={t('help.mine')} key="list">
          <TicketList />
        </Tabs.Tab>
        <Tabs.Tab title={t('help.new')} key="new">
          <TicketForm onDone={() => setTab('list')} />
        </Tabs.Tab>
      </Tabs>
    </PageFrame>
  );
}
