import { shortAddress } from '@halyard/rules';
import { Button, List } from 'antd-mobile';
import {
  GiftOutline,
  InformationCircleOutline,
  LockOutline,
  QuestionCircleOutline,
  SetOutline,
  TeamOutline,
  UserContactOutline,
} from 'antd-mobile-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useUserInfo } from '../../features/identity/api.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

function Profile() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loggedIn = useAuth((state) => state.isLoggedIn);
  const { data: user } = useUserInfo();
  if (!loggedIn || !user) {
    return (
      <div className="hy-profile">
        <div className="hy-avatar">H</div>
        <div style={{ flex: 1 }}>
          <div style={{ fontSize: 17, fontWeight: 600 }}>{t('my.visitor')}</div>
          <div className="hy-muted" style={{ fontSize: 13 }}>
            {t('my.visitorText')}
          </div>
        </div>
        <Button color="primary" size="small" onClick={() => navigate('/login')}>
          {t('route.login')}
        </Button>
      </div>
    );
  }
  const name =
    user.email ?? user.phone ?? (user.walletAddress ? shortAddress(user.walletAddress) : `#${user.id}`);
  return (
    <div className="hy-profile" data-testid="profile">
      <div className="hy-avatar">{name.slice(0, 1).toUpperCase()}</div>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ fontSize: 17, fontWeight: 600, overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {name}
        </div>
        <div className="hy-muted" style={{ fontSize: 12 }}>
          UID {user.id} · {t('my.invitationCode')} {user.invitationCode}
        </div>
        <span className="hy-tag">{t(`kyc.status.${user.verification}`)}</span>
      </div>
    </div>
  );
}

export function MyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const links = [
    { path: '/securityCenter', icon: <LockOutline />, title: t('route.securityCenter') },
    { path: '/idAuth', icon: <UserContactOutline />, title: t('route.idAuth') },
    { path: '/inviteFriends', icon: <GiftOutline />, title: t('route.inviteFriends') },
    { path: '/myTeam', icon: <TeamOutline />, title: t('route.myTeam') },
    { path: '/helpCenter', icon: <QuestionCircleOutline />, title: t('route.helpCenter') },
    { path: '/aboutUs', icon: <InformationCircleOutline />, title: t('route.aboutUs') },
    { path: '/setting', icon: <SetOutline />, title: t('route.setting') },
  ];
  return (
    <PageFrame title={t('route.my')}>
      <div className="hy-card">
        <Profile />
      </div>
      <div className="hy-card">
        <List>
          {links.map((link) => (
            <List.Item key={link.path} prefix={link.icon} onClick={() => navigate(link.path)} arrowIcon>
              {link.title}
            </List.Item>
          ))}
        </List>
      </div>
    </PageFrame>
  );
}
