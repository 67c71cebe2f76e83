import { LinkOutline, RightOutline, SearchOutline, SoundOutline, UserOutline } from 'antd-mobile-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { type Notice, useAboutUs, useBanners, useNotices } from '../../features/content/api.ts';
import { NoticePopup } from '../../features/content/NoticePopup.tsx';
import { TipPopups } from '../../features/content/TipPopups.tsx';
import { useFuturesSymbols, useSpotOverview } from '../../features/market/api.ts';
import { MarketList, type MarketRow } from '../../features/market/MarketList.tsx';
import { type TradeMarket, useOpenPair } from '../../features/pairs/trade-pair.ts';
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
      <Link
        to="/coinSearch"
        className="hy-icon-button"
        aria-label={t('home.searchPairs')}
        data-testid="search-link"
      >
        <SearchOutline />
      </Link>
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

function SpotMarkets() {
  return <PickableMarkets list={useSpotOverview()} market="spot" />;
}

function FuturesMarkets() {
  return <PickableMarkets list={useFuturesSymbols()} market="futures" />;
}

/** A market list whose rows open the market's trade screen on the picked pair. */
function PickableMarkets({
  list,
  market,
}: {
  list: { data: MarketRow[] | undefined; isLoading: boolean };
  market: TradeMarket;
}) {
  const openPair = useOpenPair();
  return <MarketList rows={list.data} loading={list.isLoading} onPick={(row) => openPair(market, row)} />;
}

type MarketKind = 'spot' | 'futures';
const MARKET_PANEL_ID = 'hy-market-panel';
const marketTabId = (kind: MarketKind) => `hy-market-tab-${kind}`;

/**
 * Spot and futures pairs under two tabs; a list is fetched when its tab is shown.
 * Plain tabs rather than antd-mobile's Tabs, which measures its titles and
 * animates its ink bar as it mounts: a forced layout in home's first commit.
 */
function Markets() {
  const { t } = useTranslation();
  const [shown, setShown] = useState<MarketKind>('spot');
  const tabs: { kind: MarketKind; title: string }[] = [
    { kind: 'spot', title: t('home.spotMarket') },
    { kind: 'futures', title: t('home.contractMarket') },
  ];
  return (
    <section className="hy-section hy-card hy-markets">
      <div role="tablist" className="hy-market-tabs">
        {tabs.map(({ kind, title }) => (
          <button
            key={kind}
            type="button"
            role="tab"
            id={marketTabId(kind)}
            aria-selected={shown === kind}
            aria-controls={MARKET_PANEL_ID}
            className="hy-market-tab"
            onClick={() => setShown(kind)}
          >
            <span>{title}</span>
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={MARKET_PANEL_ID}
        aria-labelledby={marketTabId(shown)}
        className="hy-market-panel"
      >
        {shown === 'spot' ? <SpotMarkets /> : <FuturesMarkets />}
      </div>
    </section>
  );
}

export function HomePage() {
  const [notice, setNotice] = useState<Notice | null>(null);
  // The notice popup is mounted once a notice is first opened, not with the page.
  const [noticeOpened, setNoticeOpened] = useState(false);
  const openNotice = (opened: Notice) => {
    setNotice(opened);
    setNoticeOpened(true);
  };
  return (
    <>
      <TopBar />
      <Banners />
      <NoticeTicker onOpen={openNotice} />
      <InviteBanner />
      <Markets />
      {noticeOpened ? <NoticePopup notice={notice} onClose={() => setNotice(null)} /> : null}
      <TipPopups />
    </>
  );
}
