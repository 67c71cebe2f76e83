import { checkIdCard, checkImageSize, checkRequired } from '@halyard/rules';
import { Button, Form, ImageUploader, type ImageUploadItem, Input, Result } from 'antd-mobile';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useVersions } from '../../features/content/api.ts';
import { identityApi, useRefreshUserInfo, useUserInfo } from '../../features/identity/api.ts';
import { passes } from '../../features/identity/checks.ts';
import { canvasEncoder, compressImage } from '../../features/identity/compress-image.ts';
import { PageFrame } from '../../shared/ui/PageFrame.tsx';
import { toast } from '../../shared/ui/toast.ts';
import '../../features/funds/funds.css';

/**
 * Compresses (spec §9) and uploads the ID photo (POST /user/img, field
 * imgurl). The preview shows the local file: the server serves the photo only
 * with the session token, which an <img> does not send. The server's url
 * rides in `extra` for the submission.
 */
async function uploadIdPhoto(file: File): Promise<ImageUploadItem> {
  const compressed = await compressImage(file, canvasEncoder).catch(() => file);
  const [saved] = await identityApi.uploadImage(compressed, file.name.replace(/\.\w+$/, '.jpg'));
  if (!saved) throw new Error('upload answered no url');
  return { url: URL.createObjectURL(compressed), extra: { serverUrl: saved.url } };
}

function serverUrlOf(item: ImageUploadItem | undefined): string {
  const extra: unknown = item?.extra;
  return typeof extra === 'object' &&
    extra !== null &&
    'serverUrl' in extra &&
    typeof extra.serverUrl === 'string'
    ? extra.serverUrl
    : '';
}

/** Demo mode: the submission under review is decided by a demo reviewer in seconds; ask again until then. */
const DEMO_REVIEW_POLL_MS = 2000;

/** Identity verification (spec §2 KYC, §4 states): name, ID number, ID photo. */
export function IdAuthPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const refresh = useRefreshUserInfo();
  const { data: user } = useUserInfo();
  const [name, setName] = useState('');
  const [idNumber, setIdNumber] = useState('');
  const [photos, setPhotos] = useState<ImageUploadItem[]>([]);
  const status = user?.verification ?? 'none';
  const demo = useVersions().data?.demo === true;
  useEffect(() => {
    if (!demo || status !== 'review') return;
    const timer = setInterval(() => void refresh(), DEMO_REVIEW_POLL_MS);
    return () => clearInterval(timer);
  }, [demo, status, refresh]);

  if (status === 'review' || status === 'succeeded') {
    return (
      <PageFrame title={t('route.idAuth')} fallback="/my">
        <Result
          status={status === 'succeeded' ? 'success' : 'waiting'}
          title={t(`kyc.${status}`)}
          description={t(`kyc.${status}Text`)}
          style={{ background: 'transparent' }}
        />
        {demo && status === 'review' ? (
          <p className="hy-demo-note" data-testid="demo-review">
            {t('kyc.demoReview')}
          </p>
        ) : null}
      </PageFrame>
    );
  }

  const submit = async () => {
    const photoUrl = serverUrlOf(photos[0]);
    if (
      !passes(
        () => checkRequired(name, t('kyc.name')),
        () => checkIdCard(idNumber.trim()),
        () => checkRequired(photoUrl, t('kyc.photo')),
      )
    ) {
      return;
    }
    const done = await identityApi.submitKyc({ name: name.trim(), idNumber: idNumber.trim(), photoUrl }).then(
      () => true,
      () => false,
    );
    if (!done) return;
    await refresh();
    toast(t('kyc.submitted'));
    navigate('/my', { replace: true });
  };

  return (
    <PageFrame title={t('route.idAuth')} fallback="/my">
      {status === 'failed' ? (
        <p className="hy-down" style={{ fontSize: 13 }}>
          {t('kyc.failedText', { reason: user?.verificationReason ?? '' })}
        </p>
      ) : null}
      <Form className="hy-form" layout="vertical">
        <Form.Item label={t('kyc.name')}>
          <Input value={name} onChange={setName} placeholder={t('kyc.namePlaceholder')} autoComplete="name" />
        </Form.Item>
        <Form.Item label={t('kyc.idNumber')}>
          <Input
            value={idNumber}
            onChange={setIdNumber}
            placeholder={t('kyc.idNumberPlaceholder')}
            maxLength={18}
          />
        </Form.Item>
        <Form.Item label={t('kyc.photo')} description={t('kyc.photoHint')}>
          <ImageUploader
            value={photos}
            onChange={setPhotos}
            maxCount={1}
            accept="image/jpeg,image/png,image/webp"
            beforeUpload={(file) => {
              const tooBig = checkImageSize(file.size);
              if (tooBig) {
                passes(() => tooBig);
                return null;
              }
              return file;
            }}
            upload={uploadIdPhoto}
          />
        </Form.Item>
      </Form>
      <div className="hy-form-footer">
        <Button block color="primary" size="large" onClick={() => void submit()}>
          {t('common.submit')}
        </Button>
      </div>
    </PageFrame>
  );
}
