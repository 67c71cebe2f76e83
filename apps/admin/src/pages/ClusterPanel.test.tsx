// @vitest-environment happy-dom
import type { ClusterMemberRow, ClusterStatus } from '@halyard/protocol';
import { cleanup, render, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { i18n, setLocale } from '../i18n/index.ts';
import { formatTime } from '../shared/format.ts';
import { ClusterPanel, formatSpan } from './ClusterPanel.tsx';

const AT = Date.UTC(2026, 10, 27, 10, 0, 0);

const member = (row: Partial<ClusterMemberRow> & Pick<ClusterMemberRow, 'id' | 'role' | 'seq'>) => ({
  projected: null,
  leadingSince: null,
  runsJobs: false,
  startedAt: AT - 3_600_000,
  version: '0.1.0',
  host: `host-${row.id}`,
  seenAt: AT,
  lag: null,
  ...row,
});

const cluster: ClusterStatus = {
  mode: 'cluster',
  name: 'halyard',
  at: AT,
  leader: { id: 'a', leaseRevision: 42, since: AT - 125_000, seq: 1_000, projected: 990, projectionLag: 10 },
  members: [
    member({ id: 'a', role: 'leader', seq: 1_000, projected: 990, leadingSince: AT - 125_000, lag: 0 }),
    member({ id: 'b', role: 'standby', seq: 998, lag: 2 }),
    member({ id: 'g1', role: 'gateway', seq: 988, lag: 12, runsJobs: true }),
    member({ id: 'g2', role: 'gateway', seq: 990, lag: 10 }),
  ],
};

/** The text of each row of the members' table, cell by cell. */
function rows(container: HTMLElement): string[][] {
  const table = within(container).getByTestId('cluster-members');
  return [...table.querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? ''),
  );
}

afterEach(cleanup);

describe('the cluster panel', () => {
  beforeAll(async () => {
    await setLocale('en');
  });

  const show = (overview: Parameters<typeof ClusterPanel>[0]['overview']) =>
    render(
      <I18nextProvider i18n={i18n}>
        <ClusterPanel overview={overview} />
      </I18nextProvider>,
    );

  it('says plainly when one process runs everything', () => {
    const view = show({ mode: 'single' });
    expect(view.getByTestId('cluster-single').textContent).toContain('One process runs everything');
    expect(view.queryByTestId('cluster-members')).toBeNull();
  });

  it("shows the leader, how long it has held the lease, SQL's lag, and each process's lag behind the leader", () => {
    const view = show(cluster);
    const leader = view.getByTestId('cluster-leader').textContent ?? '';
    expect(leader).toContain('a');
    expect(leader).toContain(`2m 5s (since ${formatTime(AT - 125_000)})`);
    expect(leader).toContain('SQL behind (commands)10');
    expect(rows(view.container).map((cells) => cells.slice(0, 4))).toEqual([
      ['a', 'Leader', '1000', '0'],
      ['b', 'Standby', '998', '2'],
      // The gateway that holds the jobs lease says so: exactly one should.
      ['g1', 'GatewayRuns the jobs', '988', '12'],
      ['g2', 'Gateway', '990', '10'],
    ]);
  });

  it('warns when no node holds the lease, and leaves the lags unknown', () => {
    const view = show({
      ...cluster,
      leader: null,
      members: [member({ id: 'g1', role: 'gateway', seq: 988 })],
    });
    expect(view.getByTestId('cluster-no-leader').textContent).toContain('No node holds the lease');
    expect(rows(view.container)).toEqual([
      ['g1', 'Gateway', '988', '—', 'host-g1', '0.1.0', formatTime(AT - 3_600_000), formatTime(AT)],
    ]);
  });

  it('speaks Chinese too', async () => {
    await setLocale('cn');
    try {
      const view = show(cluster);
      expect(rows(view.container).map((cells) => cells[1])).toEqual([
        '主节点',
        '备用节点',
        '网关运行定时任务',
        '网关',
      ]);
    } finally {
      await setLocale('en');
    }
  });
});

describe('a span of time', () => {
  it('is its largest two units', () => {
    expect(
      [0, 999, 5_000, 125_000, 3_725_000, 2 * 86_400_000 + 3_600_000 * 3 + 60_000].map(formatSpan),
    ).toEqual(['0s', '0s', '5s', '2m 5s', '1h 2m', '2d 3h']);
  });
});
