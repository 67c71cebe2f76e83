import { Tabs } from 'antd-mobile';
import { LinkOutline, RightOutline, SoundOutline, UserOutline } from 'antd-mobile-icons';
import { type CSSProperties, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Notice, useAboutUs, useBanners, useNotices } from '../../features/content/api.ts';
import { NoticePopup } from '../../features/content/NoticePopup.tsx';
import { TipPopups } from '../../features/content/TipPopups.tsx';
import { useFuturesSymbols, useSpotOverview } from '../../features/market/api.ts';
import { MarketList } from '../../features/market/MarketList.tsx';
import { rememberViewed } from '../../features/market/pair-lists.ts';
import { WalletButton } from '../../features/wallet/WalletButton.tsx';
import { AutoCarousel } from '../../shared/ui/AutoCarousel.tsx';

const TICKER_HEIGHT_PX = 36;

function TopBar() {
  const { t } = useTranslation();
  const { data: about } = useAboutUs();
  return (
    <header className="hy-topbar">
      <Link to="/my" className="hy-icon-button" aria-label={t('route.my')}>
        <UserOutline />
      </Link>
      <span className="hy-brand">Halyard</span>
      <WalletButton />
      {about?.externalUrl ? (
        <a
          href={about.externalUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="hy-icon-button"
          aria-label={t('home.externalLink')}
        >
          <LinkOutline />
        </a>
      ) : null}
    </header>
  );
}

function Banners() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useBanners('app');
  // While loading, the empty frame keeps its height so the page below does not jump.
  if (!data) return <div className="hy-banner" aria-hidden="true" />;
  if (data.length === 0) return null;
  const open = (link: string) => {
    if (link.startsWith('/')) navigate(link);
    else if (link) window.open(link, '_blank', 'noopener');
  };
  return (
    <div className="hy-banner" data-testid="banners">
      <AutoCarousel
        label={t('home.banners')}
        direction="horizontal"
        dots
        items={data.map((banner, position) => (
          <button
            key={banner.id}
            type="button"
            aria-label={`${t('home.banners')} ${position + 1}`}
            onClick={() => open(banner.link)}
            style={{ display: 'block', width: '100%', padding: 0, border: 0, background: 'none' }}
          >
            <img src={banner.image} alt="" />
          </button>
        ))}
      />
    </div>
  );
}

function NoticeTicker({ onOpen }: { onOpen(notice: Notice): void }) {
  const { t } = useTranslation();
  const { data } = useNotices(10);
  const notices = data?.list ?? [];
  return (
    <div className="hy-ticker" data-testid="notice-ticker">
      <SoundOutline color="var(--hy-accent)" />
      {notices.length === 0 ? (
        <span className="hy-muted" style={{ flex: 1 }}>
          {t('home.noNotices')}
        </span>
      ) : (
        <div style={{ flex: 1, minWidth: 0 }}>
          <AutoCarousel
            label={t('route.notice')}
            direction="vertical"
            height={TICKER_HEIGHT_PX}
            items={notices.map((notice) => (
              <button
                key={notice.id}
                type="button"
                className="hy-ticker-item"
                onClick={() => onOpen(notice)}
                style={{
                  width: '100%',
                  padding: 0,
                  border: 0,
                  background: 'none',
                  color: 'inherit',
                  textAlign: 'left',
                  font: 'inherit',
                }}
              >
                {notice.title}
              </button>
            ))}
          />
        </div>
      )}
      <Link
        to="/notice"
        aria-label={t('home.allNotices')}
        style={{ color: 'var(--hy-muted)', display: 'flex' }}
      >
        <RightOutline />
      </Link>
    </div>
  );
}

function InviteBanner() {
  const { t } = useTranslation();
  const { data } = useBanners('invite');
  const image = data?.[0]?.image;
  return (
    <Link to="/inviteFriends" className="hy-invite" data-testid="invite-banner">
      {data === undefined ? (
        <div className="hy-invite-loading" />
      ) : image ? (
        // The server's invite banners are 750×300: the box is reserved before the image arrives.
        <img src={image} alt={t('home.inviteTitle')} width={750} height={300} />
      ) : (
        <div className="hy-invite-fallback">
          <b className="hy-invite-title">{t('home.inviteTitle')}</b>
          <span className="hy-muted">{t('home.inviteText')}</span>
        </div>
      )}
    </Link>
  );
}

function Markets() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const spot = useSpotOverview();
  const futures = useFuturesSymbols();
  return (
    <section className="hy-section hy-card" style={{ padding: '0 12px' }}>
      <Tabs defaultActiveKey="spot" style={{ '--title-font-size': '15px' } as CSSProperties}>
        <Tabs.Tab title={t('home.spotMarket')} key="spot">
          <MarketList
            rows={spot.data}
            loading={spot.isLoading}
            onPick={(row) => {
              rememberViewed(row);
              navigate('/coinExchange');
            }}
          />
        </Tabs.Tab>
        <Tabs.Tab title={t('home.contractMarket')} key="contract">
          <MarketList
            rows={futures.data}
            loading={futures.isLoading}
            onPick={(row) => {
              rememberViewed(row);
              navigate('/futures');
            }}
          />
        </Tabs.Tab>
      </Tabs>
    </section>
  );
}

export function HomePage() {
  const [notice, setNotice] = useState<Notice | null>(null);
  return (
    <>
      <TopBar />
      <Banners />
      <NoticeTicker onOpen={setNotice} />
      <InviteBanner />
      <Markets />
      <NoticePopup notice={notice} onClose={() => setNotice(null)} />
      <TipPopups />
    </>
  );
}
