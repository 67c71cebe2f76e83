import { type ComponentType, lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, type RouteObject, useRoutes } from 'react-router';
import { HomePage } from '../pages/Home/HomePage.tsx';
import { Guarded } from './Guarded.tsx';
import { Layout } from './Layout.tsx';
import { ROUTES, type RouteName } from './routes.ts';

/**
 * A screen loaded on its first visit. Home is in the entry bundle; every
 * other screen (with what only it uses: klinecharts, the trading forms) is
 * its own chunk, so a phone's first paint waits for home alone.
 */
function lazyScreen<Name extends string>(
  load: () => Promise<Record<Name, ComponentType>>,
  name: Name,
): ComponentType {
  return lazy(async (): Promise<{ default: ComponentType }> => ({ default: (await load())[name] }));
}

const AboutUsPage = lazyScreen(() => import('../pages/AboutUs/AboutUsPage.tsx'), 'AboutUsPage');
const BalanceRecordPage = lazyScreen(
  () => import('../pages/BalanceRecord/BalanceRecordPage.tsx'),
  'BalanceRecordPage',
);
const BalancesPage = lazyScreen(() => import('../pages/Balances/BalancesPage.tsx'), 'BalancesPage');
const BindEmailPage = lazyScreen(() => import('../pages/BindAccount/BindAccountPage.tsx'), 'BindEmailPage');
const BindPhonePage = lazyScreen(() => import('../pages/BindAccount/BindAccountPage.tsx'), 'BindPhonePage');
const CoinConvertPage = lazyScreen(
  () => import('../pages/CoinConvert/CoinConvertPage.tsx'),
  'CoinConvertPage',
);
const CoinExchangePage = lazyScreen(
  () => import('../pages/CoinExchange/CoinExchangePage.tsx'),
  'CoinExchangePage',
);
const CoinRechargePage = lazyScreen(
  () => import('../pages/CoinRecharge/CoinRechargePage.tsx'),
  'CoinRechargePage',
);
const CoinSearchPage = lazyScreen(() => import('../pages/CoinSearch/CoinSearchPage.tsx'), 'CoinSearchPage');
const CoinTransferPage = lazyScreen(
  () => import('../pages/CoinTransfer/CoinTransferPage.tsx'),
  'CoinTransferPage',
);
const CoinWithdrawPage = lazyScreen(
  () => import('../pages/CoinWithdraw/CoinWithdrawPage.tsx'),
  'CoinWithdrawPage',
);
const CyclePage = lazyScreen(() => import('../pages/Cycle/CyclePage.tsx'), 'CyclePage');
const CycleHistoryPage = lazyScreen(
  () => import('../pages/CycleHistory/CycleHistoryPage.tsx'),
  'CycleHistoryPage',
);
const ExchangeRecordPage = lazyScreen(
  () => import('../pages/ExchangeRecord/ExchangeRecordPage.tsx'),
  'ExchangeRecordPage',
);
const FuturesPage = lazyScreen(() => import('../pages/Futures/FuturesPage.tsx'), 'FuturesPage');
const FuturesRecordPage = lazyScreen(
  () => import('../pages/FuturesRecord/FuturesRecordPage.tsx'),
  'FuturesRecordPage',
);
const HelpCenterPage = lazyScreen(() => import('../pages/HelpCenter/HelpCenterPage.tsx'), 'HelpCenterPage');
const IeoPage = lazyScreen(() => import('../pages/Ieo/IeoPage.tsx'), 'IeoPage');
const IeoDetailPage = lazyScreen(() => import('../pages/IeoDetail/IeoDetailPage.tsx'), 'IeoDetailPage');
const IeoOrdersPage = lazyScreen(() => import('../pages/IeoOrders/IeoOrdersPage.tsx'), 'IeoOrdersPage');
const InviteFriendsPage = lazyScreen(
  () => import('../pages/InviteFriends/InviteFriendsPage.tsx'),
  'InviteFriendsPage',
);
const IdAuthPage = lazyScreen(() => import('../pages/IdAuth/IdAuthPage.tsx'), 'IdAuthPage');
const LoginPage = lazyScreen(() => import('../pages/Login/LoginPage.tsx'), 'LoginPage');
const OtcPage = lazyScreen(() => import('../pages/Otc/OtcPage.tsx'), 'OtcPage');
const MarketDetailsPage = lazyScreen(
  () => import('../pages/MarketDetails/MarketDetailsPage.tsx'),
  'MarketDetailsPage',
);
const ModifyLoginPassPage = lazyScreen(
  () => import('../pages/ModifyLoginPass/ModifyLoginPassPage.tsx'),
  'ModifyLoginPassPage',
);
const ModifyPayPassPage = lazyScreen(
  () => import('../pages/ModifyPayPass/ModifyPayPassPage.tsx'),
  'ModifyPayPassPage',
);
const MyPage = lazyScreen(() => import('../pages/My/MyPage.tsx'), 'MyPage');
const MyTeamPage = lazyScreen(() => import('../pages/MyTeam/MyTeamPage.tsx'), 'MyTeamPage');
const NoticePage = lazyScreen(() => import('../pages/Notice/NoticePage.tsx'), 'NoticePage');
const RegisterPage = lazyScreen(() => import('../pages/Register/RegisterPage.tsx'), 'RegisterPage');
const ResetPassPage = lazyScreen(() => import('../pages/ResetPass/ResetPassPage.tsx'), 'ResetPassPage');
const SecurityCenterPage = lazyScreen(
  () => import('../pages/SecurityCenter/SecurityCenterPage.tsx'),
  'SecurityCenterPage',
);
const SettingPage = lazyScreen(() => import('../pages/Setting/SettingPage.tsx'), 'SettingPage');
const DownloadAppPage = lazyScreen(
  () => import('../pages/DownloadApp/DownloadAppPage.tsx'),
  'DownloadAppPage',
);
const StopPlPage = lazyScreen(() => import('../pages/StopPl/StopPlPage.tsx'), 'StopPlPage');

/** The screen of every route of spec §2. */
const SCREENS: Record<RouteName, ComponentType> = {
  home: HomePage,
  login: LoginPage,
  register: RegisterPage,
  resetPass: ResetPassPage,
  my: MyPage,
  securityCenter: SecurityCenterPage,
  bindPhone: BindPhonePage,
  bindEmail: BindEmailPage,
  modifyLoginPass: ModifyLoginPassPage,
  modifyPayPass: ModifyPayPassPage,
  idAuth: IdAuthPage,
  setting: SettingPage,
  downloadApp: DownloadAppPage,
  notice: NoticePage,
  aboutUs: AboutUsPage,
  helpCenter: HelpCenterPage,
  coinSearch: CoinSearchPage,
  cycle: CyclePage,
  cycleHistory: CycleHistoryPage,
  futures: FuturesPage,
  futuresRecord: FuturesRecordPage,
  stopPl: StopPlPage,
  coinExchange: CoinExchangePage,
  exchangeRecord: ExchangeRecordPage,
  balances: BalancesPage,
  balanceRecord: BalanceRecordPage,
  marketDetails: MarketDetailsPage,
  coinRecharge: CoinRechargePage,
  coinWithdraw: CoinWithdrawPage,
  coinTransfer: CoinTransferPage,
  coinConvert: CoinConvertPage,
  otc: OtcPage,
  ieo: IeoPage,
  ieoDetail: IeoDetailPage,
  ieoOrders: IeoOrdersPage,
  inviteFriends: InviteFriendsPage,
  myTeam: MyTeamPage,
};

/** Every route of spec §2 under the layout; unknown paths go home. */
function appRoutes(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        ...ROUTES.map((route) => {
          const Screen = SCREENS[route.name];
          return {
            path: route.path,
            element: (
              <Guarded route={route}>
                <Suspense fallback={null}>
                  <Screen />
                </Suspense>
              </Guarded>
            ),
          };
        }),
        // Spec §2: unknown paths go home.
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

const APP_ROUTES = appRoutes();

/** The route table rendered at the current location (inside a router: BrowserRouter, or MemoryRouter in tests). */
export function AppRoutes() {
  return useRoutes(APP_ROUTES);
}

/**
 * The app's router. Declarative (BrowserRouter), not a data router: no screen
 * uses loaders or actions, and the data router is some 18 KB more of the first bundle.
 */
export function AppRouter() {
  return (
    <BrowserRouter>
      <AppRoutes />
    </BrowserRouter>
  );
}
