import { Alert, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './errors.ts';
import { api } from './http.ts';

/** The upload's name in a stored photo URL (/uploads/<name>): the operator reads it at /admin/uploads/<name>. */
export function uploadName(url: string): string {
  return url.split('/').pop() ?? '';
}

/**
 * A user's uploaded image (an ID photo, a payment screenshot), fetched with the operator's
 * session (an <img src> could not carry it). The server writes each view to the audit log,
 * so it is fetched only when the operator opens it.
 */
export function DocumentImage({ url }: { url: string }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let objectUrl: string | null = null;
    let cancelled = false;
    api
      .blob(`/admin/uploads/${encodeURIComponent(uploadName(url))}`)
      .then((blob) => {
        if (cancelled) return;
        objectUrl = URL.createObjectURL(blob);
        setSrc(objectUrl);
      })
      .catch((error: unknown) => setFailure(errorText(error)));
    return () => {
      cancelled = true;
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [url]);
  if (failure) return <Alert type="error" showIcon title={failure} />;
  if (!src) return <Spin />;
  return <img className="console-document" src={src} alt={t('kyc.document')} />;
}
