import type { ClusterMemberRow, ClusterOverview, ClusterStatus } from '@halyard/protocol';
import { Alert, Card, Descriptions, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatTime } from '../shared/format.ts';
import { LoadError } from '../shared/PageHeader.tsx';
import { useGet } from '../shared/queries.ts';

/** A span of time as `2d 3h 4m 5s`, its largest two units (`4m 5s`, `2d 3h`). */
export function formatSpan(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  const parts = [
    [Math.floor(seconds / 86_400), 'd'],
    [Math.floor(seconds / 3_600) % 24, 'h'],
    [Math.floor(seconds / 60) % 60, 'm'],
    [seconds % 60, 's'],
  ] as const;
  const first = parts.findIndex(([value]) => value > 0);
  if (first === -1) return '0s';
  return parts
    .slice(first, first + 2)
    .map(([value, unit]) => `${value}${unit}`)
    .join(' ');
}

const ROLE_COLORS: Record<ClusterMemberRow['role'], string> = {
  leader: 'green',
  standby: 'blue',
  gateway: 'default',
};

/** How far behind the leader: nothing to see at 0, a warning above. */
function Lag({ lag }: { lag: number | null }) {
  if (lag === null) return <>—</>;
  return <Typography.Text type={lag > 0 ? 'warning' : undefined}>{lag}</Typography.Text>;
}

function Leader({ status }: { status: ClusterStatus }) {
  const { t } = useTranslation();
  const leader = status.leader;
  if (!leader)
    return <Alert type="error" showIcon title={t('cluster.noLeader')} data-testid="cluster-no-leader" />;
  return (
    <Descriptions size="small" column={2} bordered data-testid="cluster-leader">
      <Descriptions.Item label={t('cluster.leader')}>
        <Tag color="green">{leader.id}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('cluster.leadingFor')}>
        {leader.since === null
          ? '—'
          : t('cluster.leadingSince', {
              span: formatSpan(status.at - leader.since),
              at: formatTime(leader.since),
            })}
      </Descriptions.Item>
      <Descriptions.Item label={t('cluster.sequence')}>{leader.seq ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('cluster.leaseRevision')}>{leader.leaseRevision}</Descriptions.Item>
      <Descriptions.Item label={t('cluster.sqlWatermark')}>{leader.projected ?? '—'}</Descriptions.Item>
      <Descriptions.Item label={t('cluster.sqlLag')}>
        <Lag lag={leader.projectionLag} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** The cluster as one gateway reads it: the leader, SQL behind it, and every live process with its lag. */
export function ClusterPanel({ overview }: { overview: ClusterOverview }) {
  const { t } = useTranslation();
  if (overview.mode === 'single')
    return (
      <Card title={t('cluster.title')}>
        <Typography.Text type="secondary" data-testid="cluster-single">
          {t('cluster.single')}
        </Typography.Text>
      </Card>
    );
  return (
    <Card
      title={t('cluster.title')}
      extra={<Typography.Text type="secondary">{t('cluster.name', { name: overview.name })}</Typography.Text>}
    >
      <Leader status={overview} />
      <Table<ClusterMemberRow>
        style={{ marginTop: 16 }}
        size="small"
        rowKey={(member) => `${member.role === 'gateway' ? 'gateway' : 'node'}.${member.id}`}
        pagination={false}
        dataSource={overview.members}
        data-testid="cluster-members"
        columns={[
          { title: t('cluster.member'), dataIndex: 'id' },
          {
            title: t('cluster.role'),
            dataIndex: 'role',
            render: (role: ClusterMemberRow['role'], member: ClusterMemberRow) => (
              <>
                <Tag color={ROLE_COLORS[role]}>{t(`cluster.role.${role}`)}</Tag>
                {member.runsJobs && <Tag color="purple">{t('cluster.runsJobs')}</Tag>}
              </>
            ),
          },
          { title: t('cluster.sequence'), dataIndex: 'seq', align: 'right' },
          {
            title: t('cluster.lag'),
            dataIndex: 'lag',
            align: 'right',
            render: (lag: number | null) => <Lag lag={lag} />,
          },
          { title: t('cluster.host'), dataIndex: 'host' },
          { title: t('cluster.version'), dataIndex: 'version' },
          { title: t('cluster.started'), dataIndex: 'startedAt', render: formatTime },
          { title: t('cluster.seen'), dataIndex: 'seenAt', render: formatTime },
        ]}
      />
    </Card>
  );
}

/** The dashboard's cluster card: GET /admin/cluster. */
export function ClusterCard() {
  const cluster = useGet<ClusterOverview>('/admin/cluster');
  return (
    <>
      <LoadError error={cluster.error} />
      {cluster.data && <ClusterPanel overview={cluster.data} />}
    </>
  );
}
