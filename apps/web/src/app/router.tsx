import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { AboutUsPage } from '../pages/AboutUs/AboutUsPage.tsx';
import { BalanceRecordPage } from '../pages/BalanceRecord/BalanceRecordPage.tsx';
import { BalancesPage } from '../pages/Balances/BalancesPage.tsx';
import { BindEmailPage, BindPhonePage } from '../pages/BindAccount/BindAccountPage.tsx';
import { CoinConvertPage } from '../pages/CoinConvert/CoinConvertPage.tsx';
import { CoinExchangePage } from '../pages/CoinExchange/CoinExchangePage.tsx';
import { CoinRechargePage } from '../pages/CoinRecharge/CoinRechargePage.tsx';
import { CoinSearchPage } from '../pages/CoinSearch/CoinSearchPage.tsx';
import { CoinTransferPage } from '../pages/CoinTransfer/CoinTransferPage.tsx';
import { CoinWithdrawPage } from '../pages/CoinWithdraw/CoinWithdrawPage.tsx';
import { CyclePage } from '../pages/Cycle/CyclePage.tsx';
import { CycleHistoryPage } from '../pages/CycleHistory/CycleHistoryPage.tsx';
import { ExchangeRecordPage } from '../pages/ExchangeRecord/ExchangeRecordPage.tsx';
import { FuturesPage } from '../pages/Futures/FuturesPage.tsx';
import { FuturesRecordPage } from '../pages/FuturesRecord/FuturesRecordPage.tsx';
import { HelpCenterPage } from '../pages/HelpCenter/HelpCenterPage.tsx';
import { HomePage } from '../pages/Home/HomePage.tsx';
import { IdAuthPage } from '../pages/IdAuth/IdAuthPage.tsx';
import { LoginPage } from '../pages/Login/LoginPage.tsx';
import { MarketDetailsPage } from '../pages/MarketDetails/MarketDetailsPage.tsx';
import { ModifyLoginPassPage } from '../pages/ModifyLoginPass/ModifyLoginPassPage.tsx';
import { ModifyPayPassPage } from '../pages/ModifyPayPass/ModifyPayPassPage.tsx';
import { MyPage } from '../pages/My/MyPage.tsx';
import { NoticePage } from '../pages/Notice/NoticePage.tsx';
import { PendingScreen } from '../pages/Pending/PendingScreen.tsx';
import { RegisterPage } from '../pages/Register/RegisterPage.tsx';
import { ResetPassPage } from '../pages/ResetPass/ResetPassPage.tsx';
import { SecurityCenterPage } from '../pages/SecurityCenter/SecurityCenterPage.tsx';
import { SettingPage } from '../pages/Setting/SettingPage.tsx';
import { StopPlPage } from '../pages/StopPl/StopPlPage.tsx';
import { Guarded } from './Guarded.tsx';
import { Layout } from './Layout.tsx';
import { ROUTES, type RouteName } from './routes.ts';

/** The screens built so far; every other route of spec §2 shows its frame until its screen lands. */
const SCREENS: Partial<Record<RouteName, ComponentType>> = {
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
};

/** Every route of spec §2 under the layout; unknown paths go home. */
export function appRoutes(): RouteObject[] {
  return [
    {
      element: <Layout />,
      children: [
        ...ROUTES.map((route) => {
          const Screen = SCREENS[route.name];
          return {
            path: route.path,
            element: <Guarded route={route}>{Screen ? <Screen /> : <PendingScreen route={route} />}</Guarded>,
          };
        }),
        // Spec §2: unknown paths go home.
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export function createRouter() {
  return createBrowserRouter(appRoutes());
}
