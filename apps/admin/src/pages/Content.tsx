import {
  type AboutUsSettings,
  type AdminBanner,
  type AdminNotice,
  type AdminNoticePage,
  BANNER_KINDS,
  LOCALES,
  type LocaleTexts,
  type NoticeText,
  type TipText,
  type VersionsSettings,
} from '@halyard/protocol';
import {
  Alert,
  App,
  Button,
  Card,
  Col,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Spin,
  Table,
  Tabs,
} from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../shared/ActionButton.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime, shortText } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LocaleTabs, writtenLocales } from '../shared/LocaleTabs.tsx';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';

const PAGE_SIZE = 20;
const blankText = (text: string | undefined) => !text?.trim();

/** A save that reports the server's answer (its message on success, its refusal in place). */
function useSave() {
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = async (run: () => Promise<{ msg: string }>, after?: () => void) => {
    setBusy(true);
    setRefusal(null);
    try {
      message.success((await run()).msg);
      await refresh('/admin/content');
      after?.();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return { busy, refusal, save };
}

function Refusal({ text }: { text: string | null }) {
  return text ? <Alert type="error" showIcon title={text} style={{ marginBottom: 16 }} /> : null;
}

function NoticeDialog({ notice, onClose }: { notice: AdminNotice | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ texts: LocaleTexts<NoticeText> }>();
  const { busy, refusal, save } = useSave();
  const submit = async () => {
    const { texts } = await form.validateFields();
    const body = { texts: writtenLocales(texts, (text) => blankText(text.title) && blankText(text.reply)) };
    await save(
      () =>
        notice
          ? api.send('PUT', `/admin/content/notices/${notice.id}`, { body })
          : api.send('POST', '/admin/content/notices', { body }),
      onClose,
    );
  };
  return (
    <Modal
      open
      width={860}
      title={notice ? t('content.editNotice', { id: notice.id }) : t('content.newNotice')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
    >
      <Refusal text={refusal} />
      <Form form={form} layout="vertical" initialValues={{ texts: notice?.texts ?? {} }}>
        <LocaleTabs>
          {(locale) => (
            <>
              <Form.Item
                name={['texts', locale, 'title']}
                label={t('content.title')}
                rules={locale === 'en' ? [{ required: true, whitespace: true }] : []}
              >
                <Input maxLength={200} />
              </Form.Item>
              <Form.Item
                name={['texts', locale, 'reply']}
                label={t('content.body')}
                extra={t('content.htmlHint')}
                rules={locale === 'en' ? [{ required: true, whitespace: true }] : []}
              >
                <Input.TextArea rows={8} />
              </Form.Item>
            </>
          )}
        </LocaleTabs>
      </Form>
    </Modal>
  );
}

function Notices() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminNotice | 'new' | null>(null);
  const notices = useGet<AdminNoticePage>('/admin/content/notices', { page, limit: PAGE_SIZE });
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('content.newNotice')}
        </Button>
      </Space>
      <LoadError error={notices.error} />
      <Table<AdminNotice>
        rowKey="id"
        loading={notices.isFetching}
        dataSource={notices.data?.list ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: notices.data?.count ?? 0,
          onChange: setPage,
        }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          { title: t('common.time'), dataIndex: 'wdate', width: 180, render: formatTime },
          {
            title: t('content.title'),
            dataIndex: 'texts',
            render: (texts: AdminNotice['texts']) => shortText(texts.en?.title ?? '—', 80),
          },
          {
            title: t('content.languages'),
            dataIndex: 'texts',
            key: 'languages',
            width: 120,
            render: (texts: AdminNotice['texts']) => `${Object.keys(texts).length} / ${LOCALES.length}`,
          },
          {
            title: t('common.actions'),
            width: 170,
            render: (_, notice) => (
              <Space>
                <Button size="small" onClick={() => setEditing(notice)}>
                  {t('common.edit')}
                </Button>
                <ActionButton
                  danger
                  label={t('content.delete')}
                  run={() => api.delete(`/admin/content/notices/${notice.id}`)}
                  onDone={() => void refresh('/admin/content')}
                >
                  {t('content.deleteConfirm', { title: notice.texts.en?.title ?? notice.id })}
                </ActionButton>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <NoticeDialog notice={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}

type BannerForm = Omit<AdminBanner, 'id' | 'locale'> & { locale: AdminBanner['locale'] | 'all' };

function BannerDialog({ banner, onClose }: { banner: AdminBanner | null; onClose(): void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BannerForm>();
  const { busy, refusal, save } = useSave();
  const submit = async () => {
    const values = await form.validateFields();
    const body = { ...values, locale: values.locale === 'all' ? null : values.locale };
    await save(
      () =>
        banner
          ? api.send('PUT', `/admin/content/banners/${banner.id}`, { body })
          : api.send('POST', '/admin/content/banners', { body }),
      onClose,
    );
  };
  const initial: BannerForm = banner
    ? { ...banner, locale: banner.locale ?? 'all' }
    : { type: 'app', locale: 'all', image: '', link: '', sort: 0 };
  return (
    <Modal
      open
      title={banner ? t('content.editBanner', { id: banner.id }) : t('content.newBanner')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
    >
      <Refusal text={refusal} />
      <Form form={form} layout="vertical" initialValues={initial}>
        <Row gutter={16}>
          <Col span={12}>
            <Form.Item name="type" label={t('content.bannerType')}>
              <Select
                options={BANNER_KINDS.map((kind) => ({
                  value: kind,
                  label: t(`content.bannerType.${kind}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="locale" label={t('common.language')}>
              <Select
                options={[
                  { value: 'all', label: t('content.everyLanguage') },
                  ...LOCALES.map((locale) => ({ value: locale, label: t(`locale.${locale}`) })),
                ]}
              />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="image"
          label={t('content.image')}
          extra={t('content.imageHint')}
          rules={[{ required: true }]}
        >
          <Input maxLength={1000} />
        </Form.Item>
        <Form.Item name="link" label={t('content.link')} extra={t('content.linkHint')}>
          <Input maxLength={1000} />
        </Form.Item>
        <Form.Item name="sort" label={t('markets.field.sort')}>
          <InputNumber min={0} precision={0} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function Banners() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [editing, setEditing] = useState<AdminBanner | 'new' | null>(null);
  const banners = useGet<AdminBanner[]>('/admin/content/banners');
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('content.newBanner')}
        </Button>
      </Space>
      <LoadError error={banners.error} />
      <Table<AdminBanner>
        rowKey="id"
        loading={banners.isFetching}
        dataSource={banners.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          {
            title: t('content.bannerType'),
            dataIndex: 'type',
            render: (kind: string) => t(`content.bannerType.${kind}`),
          },
          {
            title: t('common.language'),
            dataIndex: 'locale',
            render: (locale: string | null) => (locale ? t(`locale.${locale}`) : t('content.everyLanguage')),
          },
          { title: t('content.image'), dataIndex: 'image', ellipsis: true },
          { title: t('content.link'), dataIndex: 'link', ellipsis: true },
          { title: t('markets.field.sort'), dataIndex: 'sort', width: 80 },
          {
            title: t('common.actions'),
            width: 170,
            render: (_, banner) => (
              <Space>
                <Button size="small" onClick={() => setEditing(banner)}>
                  {t('common.edit')}
                </Button>
                <ActionButton
                  danger
                  label={t('content.delete')}
                  run={() => api.delete(`/admin/content/banners/${banner.id}`)}
                  onDone={() => void refresh('/admin/content')}
                >
                  {t('content.deleteBannerConfirm', { id: banner.id })}
                </ActionButton>
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <BannerDialog banner={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}

/** A settings document read once, then edited in a form and put back whole. */
function SettingsForm<T extends object>({
  url,
  children,
  toBody,
}: {
  url: string;
  children: ReactNode;
  toBody(values: T): unknown;
}) {
  const { t } = useTranslation();
  const current = useGet<T>(url);
  const { busy, refusal, save } = useSave();
  if (current.error) return <LoadError error={current.error} />;
  if (!current.data) return <Spin />;
  return (
    <Card style={{ maxWidth: 960 }}>
      <Refusal text={refusal} />
      <Form<T>
        layout="vertical"
        initialValues={current.data}
        onFinish={(values) => save(() => api.send('PUT', url, { body: toBody(values) }))}
      >
        {children}
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function TipFields() {
  const { t } = useTranslation();
  return (
    <LocaleTabs>
      {(locale) => (
        <>
          <Form.Item name={['texts', locale, 'title']} label={t('content.title')}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name={['texts', locale, 'content']} label={t('content.tipText')}>
            <Input.TextArea rows={3} maxLength={5000} />
          </Form.Item>
        </>
      )}
    </LocaleTabs>
  );
}

/** GET answers the texts alone; the form keeps them under `texts` as the PUT takes them. */
function Tip() {
  const { t } = useTranslation();
  const tips = useGet<LocaleTexts<TipText>>('/admin/content/tips');
  const { busy, refusal, save } = useSave();
  if (tips.error) return <LoadError error={tips.error} />;
  if (!tips.data) return <Spin />;
  return (
    <Card style={{ maxWidth: 960 }}>
      <Alert type="info" showIcon title={t('content.tipHint')} style={{ marginBottom: 16 }} />
      <Refusal text={refusal} />
      <Form<{ texts: LocaleTexts<TipText> }>
        layout="vertical"
        initialValues={{ texts: tips.data }}
        onFinish={({ texts }) =>
          save(() =>
            api.send('PUT', '/admin/content/tips', {
              body: { texts: writtenLocales(texts, (tip) => blankText(tip.content)) },
            }),
          )
        }
      >
        <TipFields />
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

function AboutUs() {
  const { t } = useTranslation();
  const link = (name: keyof AboutUsSettings, label: string) => (
    <Col xs={24} md={12}>
      <Form.Item name={name} label={label}>
        <Input maxLength={1000} />
      </Form.Item>
    </Col>
  );
  return (
    <SettingsForm<AboutUsSettings>
      url="/admin/content/aboutUs"
      toBody={(values) => ({ ...values, intro: writtenLocales(values.intro, blankText) })}
    >
      <Row gutter={16}>
        {link('phone', t('users.phone'))}
        {link('email', t('users.email'))}
        {link('LINEURL', t('content.lineUrl'))}
        {link('onlineChatUrl', t('content.chatUrl'))}
        {link('externalUrl', t('content.externalUrl'))}
      </Row>
      <Form.List name="socials">
        {(items, { add, remove }) => (
          <>
            {items.map((item) => (
              <Space key={item.key} align="baseline">
                <Form.Item
                  name={[item.name, 'name']}
                  label={t('content.socialName')}
                  rules={[{ required: true }]}
                >
                  <Input maxLength={50} />
                </Form.Item>
                <Form.Item name={[item.name, 'url']} label={t('content.link')} rules={[{ required: true }]}>
                  <Input maxLength={1000} style={{ width: 360 }} />
                </Form.Item>
                <Button onClick={() => remove(item.name)}>{t('common.remove')}</Button>
              </Space>
            ))}
            <div>
              <Button type="dashed" onClick={() => add({ name: '', url: '' })} style={{ marginBottom: 16 }}>
                {t('content.addSocial')}
              </Button>
            </div>
          </>
        )}
      </Form.List>
      <LocaleTabs>
        {(locale) => (
          <Form.Item name={['intro', locale]} label={t('content.intro')}>
            <Input.TextArea rows={4} maxLength={5000} />
          </Form.Item>
        )}
      </LocaleTabs>
    </SettingsForm>
  );
}

function Versions() {
  const { t } = useTranslation();
  return (
    <SettingsForm<VersionsSettings>
      url="/admin/content/versions"
      toBody={(values) => ({ ...values, notes: writtenLocales(values.notes, blankText) })}
    >
      <Row gutter={16}>
        <Col xs={24} md={8}>
          <Form.Item
            name="code"
            label={t('content.versionCode')}
            rules={[{ required: true, pattern: /^\d+(\.\d+)*$/ }]}
          >
            <Input maxLength={30} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="androidUrl" label={t('content.androidUrl')}>
            <Input maxLength={1000} />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="iosUrl" label={t('content.iosUrl')}>
            <Input maxLength={1000} />
          </Form.Item>
        </Col>
      </Row>
      <LocaleTabs>
        {(locale) => (
          <Form.Item name={['notes', locale]} label={t('content.releaseNotes')}>
            <Input.TextArea rows={4} maxLength={5000} />
          </Form.Item>
        )}
      </LocaleTabs>
    </SettingsForm>
  );
}

/** What users read, in the exchange's nine languages: notices, banners, the tip, about us, versions. */
export default function Content() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('menu.content')} />
      <Tabs
        destroyOnHidden
        items={[
          { key: 'notices', label: t('content.notices'), children: <Notices /> },
          { key: 'banners', label: t('content.banners'), children: <Banners /> },
          { key: 'tip', label: t('content.tip'), children: <Tip /> },
          { key: 'aboutUs', label: t('content.aboutUs'), children: <AboutUs /> },
          { key: 'versions', label: t('content.versions'), children: <Versions /> },
        ]}
      />
    </>
  );
}
