import { useTranslation } from 'react-i18next';

/** A merchant's terms: plain text as typed (React escapes it; line breaks kept by CSS), never HTML. */
export function AdTerms({ terms }: { terms: string }) {
  const { t } = useTranslation();
  return (
    <div className="hy-otc-terms" data-testid="otc-terms">
      <div className="hy-muted hy-small">{t('otc.orderTerms')}</div>
      <div className="hy-otc-terms-text">{terms}</div>
    </div>
  );
}
