import type {
  BooksCheck,
  CoinSolvency,
  CoreStatus,
  Dashboard as DashboardData,
  DayFlow,
  HotWalletBalance,
} from '@halyard/protocol';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Descriptions,
  Row,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { ClusterCard } from './ClusterPanel.tsx';

/** Per-coin sums of a day's flow, one line each ("3 · USDT 1,200"). */
function FlowLines({ flow }: { flow: DayFlow }) {
  return (
    <Typography.Text type="secondary" style={{ fontSize: 13 }}>
      {flow.byCoin.map((coin) => `${coin.coin} ${coin.amount} (${coin.count})`).join(' · ') || '—'}
    </Typography.Text>
  );
}

function LedgerAudit({ books }: { books: BooksCheck | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    try {
      await api.post<BooksCheck>('/admin/dashboard/audit');
      await refresh('/admin/dashboard');
    } catch (error) {
      message.error(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const ledger = books?.ledger;
  return (
    <Card
      title={t('dashboard.ledgerAudit')}
      extra={
        <Button size="small" loading={busy} onClick={run}>
          {t('dashboard.runAudit')}
        </Button>
      }
    >
      {!ledger ? (
        <Typography.Text type="secondary">{t('dashboard.auditNotRun')}</Typography.Text>
      ) : (
        <>
          <Space style={{ marginBottom: 12 }}>
            <Tag color={ledger.ok ? 'green' : 'red'} data-testid="ledger-audit-status">
              {ledger.ok ? t('dashboard.auditOk') : t('dashboard.auditBroken')}
            </Tag>
            <Typography.Text type="secondary">
              {t('dashboard.auditChecked', { at: formatTime(ledger.checkedAt), ms: ledger.tookMs })}
            </Typography.Text>
          </Space>
          {ledger.projectionSeq !== null && (
            <Typography.Paragraph type="secondary" data-testid="projection-audit">
              {t('dashboard.auditAgainstCore', { seq: ledger.projectionSeq })}
            </Typography.Paragraph>
          )}
          <Descriptions size="small" column={3}>
            <Descriptions.Item label={t('dashboard.accounts')}>{ledger.accounts}</Descriptions.Item>
            <Descriptions.Item label={t('dashboard.transfers')}>{ledger.transfers}</Descriptions.Item>
            <Descriptions.Item label={t('dashboard.holds')}>{ledger.holds}</Descriptions.Item>
          </Descriptions>
          {ledger.breaches.map((breach) => (
            <Alert key={breach.rule} type="error" showIcon title={breach.rule} description={breach.detail} />
          ))}
        </>
      )}
    </Card>
  );
}

function hotText(hot: HotWalletBalance, t: (key: string) => string): string {
  return hot.balance === null
    ? `${hot.chain}: ${t(`dashboard.hot.${hot.unavailable ?? 'nodeError'}`)}`
    : `${hot.chain}: ${hot.balance}`;
}

function Solvency({ rows }: { rows: CoinSolvency[] }) {
  const { t } = useTranslation();
  return (
    <Card title={t('dashboard.solvency')}>
      <Table<CoinSolvency>
        size="small"
        rowKey="coin"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('common.coin'), dataIndex: 'coin' },
          { title: t('dashboard.liabilities'), dataIndex: 'liabilities', align: 'right' },
          { title: t('dashboard.custody'), dataIndex: 'custody', align: 'right' },
          {
            title: t('dashboard.hotWallet'),
            dataIndex: 'hot',
            render: (hot: HotWalletBalance[]) => hot.map((entry) => hotText(entry, t)).join(' · ') || '—',
          },
          {
            title: t('dashboard.coverage'),
            dataIndex: 'hotCoverage',
            align: 'right',
            render: (coverage: string) => (
              <Typography.Text type={coverage.startsWith('-') ? 'danger' : 'success'}>
                {coverage}
              </Typography.Text>
            ),
          },
        ]}
      />
    </Card>
  );
}

/** The sequenced core: what it has journaled, how far SQL follows, its latest snapshot and this start's recovery. */
function MoneyCore({ core }: { core: CoreStatus }) {
  const { t } = useTranslation();
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      title={t('dashboard.core')}
      style={{ marginTop: 16 }}
      data-testid="money-core"
    >
      <Descriptions.Item label={t('dashboard.coreSequence')}>{core.sequence}</Descriptions.Item>
      <Descriptions.Item label={t('dashboard.coreLag')}>{core.sequence - core.projected}</Descriptions.Item>
      <Descriptions.Item label={t('dashboard.coreSnapshot')}>
        {core.snapshot
          ? t('dashboard.coreSnapshotAt', { seq: core.snapshot.seq, at: formatTime(core.snapshot.at) })
          : t('dashboard.coreNoSnapshot')}
      </Descriptions.Item>
      <Descriptions.Item label={t('dashboard.coreRecovered')}>
        {t('dashboard.coreRecoveredFrom', core.recovered)}
      </Descriptions.Item>
    </Descriptions>
  );
}

function ChainsAndEngines({ data }: { data: DashboardData }) {
  const { t } = useTranslation();
  const spotQueued = data.engines.spot.reduce((sum, pair) => sum + pair.queued, 0);
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card title={t('dashboard.chains')}>
          <Table
            size="small"
            rowKey="chainId"
            pagination={false}
            dataSource={data.chains}
            columns={[
              { title: t('common.chain'), dataIndex: 'chain' },
              {
                title: t('dashboard.watcher'),
                dataIndex: 'connected',
                render: (connected: boolean) => (
                  <Tag color={connected ? 'green' : 'default'}>
                    {connected ? t('dashboard.connected') : t('dashboard.notConnected')}
                  </Tag>
                ),
              },
              {
                title: t('dashboard.height'),
                dataIndex: 'head',
                render: (head: number | null) => head ?? '—',
              },
              {
                title: t('dashboard.lag'),
                dataIndex: 'lagBlocks',
                render: (lag: number | null) => lag ?? '—',
              },
              { title: t('dashboard.polledAt'), dataIndex: 'polledAt', render: formatTime },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('dashboard.engines')}>
          <Descriptions size="small" column={2} bordered>
            <Descriptions.Item label={t('dashboard.spotQueued')}>{spotQueued}</Descriptions.Item>
            <Descriptions.Item label={t('dashboard.spotOpen')}>
              {data.engines.spot.reduce((sum, pair) => sum + pair.openOrders, 0)}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.futuresQueued')}>
              {data.engines.futures.queued}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.futuresPositions')}>
              {data.engines.futures.openPositions}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.cycleOpen')}>
              {data.engines.cycle.openOrders}
            </Descriptions.Item>
            <Descriptions.Item label={t('dashboard.ledgerQueued')}>
              {data.engines.ledger.queued}
            </Descriptions.Item>
          </Descriptions>
          {data.engines.core && <MoneyCore core={data.engines.core} />}
        </Card>
      </Col>
    </Row>
  );
}

/** The exchange at a glance: people, money in and out today, queues waiting for operators, and the books. */
export default function Dashboard() {
  const { t } = useTranslation();
  const dashboard = useGet<DashboardData>('/admin/dashboard');
  const data = dashboard.data;
  return (
    <>
      <PageHeader
        title={t('menu.dashboard')}
        extra={
          data && (
            <Typography.Text type="secondary">
              {t('dashboard.asOf', { at: formatTime(data.at) })}
            </Typography.Text>
          )
        }
      />
      <LoadError error={dashboard.error} />
      {data && (
        <Space direction="vertical" size={16} style={{ width: '100%' }}>
          <Row gutter={[16, 16]} className="console-stats">
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.users')} value={data.users.total} />
                <Typography.Text type="secondary">
                  {t('dashboard.newToday', { count: data.users.newToday })}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.depositsToday')} value={data.depositsToday.count} />
                <FlowLines flow={data.depositsToday} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.withdrawalsToday')} value={data.withdrawalsToday.count} />
                <FlowLines flow={data.withdrawalsToday} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.withdrawalsWaiting')} value={data.withdrawals.review} />
                <Typography.Text type="secondary">
                  {t('dashboard.flagged', { count: data.withdrawals.flagged })}
                </Typography.Text>
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.kycQueue')} value={data.kycQueue} />
              </Card>
            </Col>
            <Col xs={12} lg={4}>
              <Card>
                <Statistic title={t('dashboard.openAppeals')} value={data.openAppeals} />
              </Card>
            </Col>
          </Row>
          <Row gutter={[16, 16]}>
            <Col xs={24} lg={10}>
              <LedgerAudit books={data.books} />
            </Col>
            <Col xs={24} lg={14}>
              <Solvency rows={data.books?.solvency ?? []} />
            </Col>
          </Row>
          <ChainsAndEngines data={data} />
          <ClusterCard />
        </Space>
      )}
    </>
  );
}
