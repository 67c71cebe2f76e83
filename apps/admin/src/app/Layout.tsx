import { LogoutOutlined } from '@ant-design/icons';
import type { OperatorMe } from '@halyard/protocol';
import { Layout as AntLayout, Button, Menu, Select, Space, Spin, Tag, Typography } from 'antd';
import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useNavigate } from 'react-router';
import { type ConsoleLocale, setLocale } from '../i18n/index.ts';
import { api } from '../shared/http.ts';
import { session } from '../shared/session.ts';
import { SCREENS, type Screen } from './screens.tsx';

export function screensFor(operator: OperatorMe): Screen[] {
  return SCREENS.filter((screen) =>
    screen.anyOf.some((permission) => operator.permissions.includes(permission)),
  );
}

/** The menu entry of a path: the longest screen path it starts with (/users/7 → /users). */
function selectedKey(pathname: string, screens: Screen[]): string {
  const match = screens
    .filter((screen) => pathname === screen.path || pathname.startsWith(`${screen.path}/`))
    .sort((a, b) => b.path.length - a.path.length)[0];
  return match?.path ?? '/';
}

export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <Select<ConsoleLocale>
      size="small"
      value={i18n.language === 'cn' ? 'cn' : 'en'}
      onChange={(locale) => void setLocale(locale)}
      aria-label={t('common.language')}
      options={[
        { value: 'en', label: 'English' },
        { value: 'cn', label: '简体中文' },
      ]}
      style={{ width: 110 }}
    />
  );
}

/** The signed-in console: the side menu (only the screens the role opens), the header and the screen. */
export function ConsoleLayout({ operator }: { operator: OperatorMe }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const screens = screensFor(operator);
  const home = screens[0]?.path ?? '/';

  const signOut = async () => {
    await api.post('/admin/auth/logout').catch(() => undefined);
    session.signOut();
  };

  return (
    <AntLayout style={{ minHeight: '100vh' }}>
      {/* A tablet (1024 wide) gets the icon rail, leaving the tables their room. */}
      <AntLayout.Sider breakpoint="xl" collapsedWidth={64} width={220} theme="dark">
        <div className="console-brand">{t('app.name')}</div>
        <Menu
          theme="dark"
          mode="inline"
          selectedKeys={[selectedKey(pathname, screens)]}
          onClick={({ key }) => navigate(key)}
          items={screens.map((screen) => ({ key: screen.path, icon: screen.icon, label: t(screen.label) }))}
        />
      </AntLayout.Sider>
      <AntLayout>
        <AntLayout.Header className="console-header">
          <Space size="middle">
            <Typography.Text data-testid="operator-email">{operator.email}</Typography.Text>
            <Tag color="blue">{t(`role.${operator.role}`)}</Tag>
            <LanguageSelect />
            <Button icon={<LogoutOutlined />} onClick={() => void signOut()}>
              {t('auth.signOut')}
            </Button>
          </Space>
        </AntLayout.Header>
        <AntLayout.Content className="console-content">
          <Suspense fallback={<Spin />}>
            <Routes>
              {screens.map(({ path, component: Component }) => (
                <Route key={path} path={path === '/' ? '/' : `${path}/*`} element={<Component />} />
              ))}
              <Route path="*" element={<Navigate to={home} replace />} />
            </Routes>
          </Suspense>
        </AntLayout.Content>
      </AntLayout>
    </AntLayout>
  );
}
