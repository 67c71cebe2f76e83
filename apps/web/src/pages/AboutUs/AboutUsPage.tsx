import { List } from 'antd-mobile';
import { useTranslation } from 'react-i18next';
import { useAboutUs } from '../../features/content/api.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';

function External({ href, children }: { href: string; children: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  );
}

/** About us (spec §2): customer-service phone, social links, company email. */
export function AboutUsPage() {
  const { t } = useTranslation();
  const { data } = useAboutUs();
  const hasContact = Boolean(
    data && (data.phone || data.email || data.onlineChatUrl || data.LINEURL || data.socials.length > 0),
  );
  return (
    <PageFrame title={t('route.aboutUs')} fallback="/my">
      <div className="hy-card" style={{ padding: 16 }}>
        <h2 style={{ margin: '0 0 8px' }}>Halyard</h2>
        <p className="hy-muted" style={{ margin: 0, lineHeight: 1.6, whiteSpace: 'pre-wrap' }}>
          {data?.intro || t('about.defaultIntro')}
        </p>
      </div>
      {/* Only what the operator configured: an unset link is left out, so the list may be empty. */}
      <div className="hy-card" hidden={!hasContact}>
        <List>
          {data?.phone ? (
            <List.Item extra={<a href={`tel:${data.phone}`}>{data.phone}</a>}>{t('about.phone')}</List.Item>
          ) : null}
          {data?.email ? (
            <List.Item extra={<a href={`mailto:${data.email}`}>{data.email}</a>}>
              {t('about.email')}
            </List.Item>
          ) : null}
          {data?.onlineChatUrl ? (
            <List.Item extra={<External href={data.onlineChatUrl}>{t('about.open')}</External>}>
              {t('about.chat')}
            </List.Item>
          ) : null}
          {data?.LINEURL ? (
            <List.Item extra={<External href={data.LINEURL}>{t('about.open')}</External>}>LINE</List.Item>
          ) : null}
          {data?.socials.map((social) => (
            <List.Item key={social.url} extra={<External href={social.url}>{t('about.open')}</External>}>
              {social.name}
            </List.Item>
          ))}
        </List>
      </div>
    </PageFrame>
  );
}
