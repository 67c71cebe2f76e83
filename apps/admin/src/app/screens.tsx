import {
  AuditOutlined,
  CheckSquareOutlined,
  CustomerServiceOutlined,
  DashboardOutlined,
  DollarOutlined,
  FileTextOutlined,
  IdcardOutlined,
  LineChartOutlined,
  RocketOutlined,
  SafetyOutlined,
  ShareAltOutlined,
  SwapOutlined,
  TeamOutlined,
  UploadOutlined,
  WalletOutlined,
} from '@ant-design/icons';
import type { Permission } from '@halyard/protocol';
import { type ComponentType, lazy, type ReactNode } from 'react';

/** One screen of the console: its hash path, menu label, icon and the permissions that open it. */
export interface Screen {
  path: string;
  label: string;
  icon: ReactNode;
  /** Any one of these shows the screen in the menu (the server checks each call again). */
  anyOf: Permission[];
  component: ComponentType;
}

const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

/** The side menu, in this order; each screen is its own chunk. */
export const SCREENS: Screen[] = [
  {
    path: '/',
    label: 'menu.dashboard',
    icon: <DashboardOutlined />,
    anyOf: ['dashboard.read'],
    component: page(() => import('../pages/Dashboard.tsx')),
  },
  {
    path: '/users',
    label: 'menu.users',
    icon: <TeamOutlined />,
    anyOf: ['users.read'],
    component: page(() => import('../pages/Users.tsx')),
  },
  {
    path: '/kyc',
    label: 'menu.kyc',
    icon: <IdcardOutlined />,
    anyOf: ['kyc.review'],
    component: page(() => import('../pages/Kyc.tsx')),
  },
  {
    path: '/deposits',
    label: 'menu.deposits',
    icon: <UploadOutlined />,
    anyOf: ['deposits.read'],
    component: page(() => import('../pages/Deposits.tsx')),
  },
  {
    path: '/withdrawals',
    label: 'menu.withdrawals',
    icon: <WalletOutlined />,
    anyOf: ['withdrawals.read'],
    component: page(() => import('../pages/Withdrawals.tsx')),
  },
  {
    path: '/approvals',
    label: 'menu.approvals',
    icon: <CheckSquareOutlined />,
    anyOf: ['adjustments.approve', 'withdrawals.review', 'markets.list', 'operators.manage'],
    component: page(() => import('../pages/Approvals.tsx')),
  },
  {
    path: '/adjustments',
    label: 'menu.adjustments',
    icon: <DollarOutlined />,
    anyOf: ['adjustments.request'],
    component: page(() => import('../pages/Adjustments.tsx')),
  },
  {
    path: '/markets',
    label: 'menu.markets',
    icon: <LineChartOutlined />,
    anyOf: ['markets.read'],
    component: page(() => import('../pages/Markets.tsx')),
  },
  {
    path: '/ieo',
    label: 'menu.ieo',
    icon: <RocketOutlined />,
    anyOf: ['ieo.manage'],
    component: page(() => import('../pages/Ieo.tsx')),
  },
  {
    path: '/fiat',
    label: 'menu.fiat',
    icon: <SwapOutlined />,
    anyOf: ['fiat.merchants', 'fiat.appeals'],
    component: page(() => import('../pages/Fiat.tsx')),
  },
  {
    path: '/referral',
    label: 'menu.referral',
    icon: <ShareAltOutlined />,
    anyOf: ['referral.settings'],
    component: page(() => import('../pages/Referral.tsx')),
  },
  {
    path: '/content',
    label: 'menu.content',
    icon: <FileTextOutlined />,
    anyOf: ['content.manage'],
    component: page(() => import('../pages/Content.tsx')),
  },
  {
    path: '/tickets',
    label: 'menu.tickets',
    icon: <CustomerServiceOutlined />,
    anyOf: ['tickets.manage'],
    component: page(() => import('../pages/Tickets.tsx')),
  },
  {
    path: '/operators',
    label: 'menu.operators',
    icon: <SafetyOutlined />,
    anyOf: ['operators.manage'],
    component: page(() => import('../pages/Operators.tsx')),
  },
  {
    path: '/audit',
    label: 'menu.audit',
    icon: <AuditOutlined />,
    anyOf: ['audit.read'],
    component: page(() => import('../pages/Audit.tsx')),
  },
];
