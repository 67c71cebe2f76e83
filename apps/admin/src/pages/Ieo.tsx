import {
  IEO_KYC_LEVELS,
  IEO_MODES,
  type IeoKycLevel,
  type IeoMode,
  type IeoProject,
  type IeoProjectInput,
  type IeoState,
  type IeoVestingKind,
} from '@halyard/protocol';
import {
  Alert,
  App,
  Button,
  Col,
  DatePicker,
  Form,
  Input,
  InputNumber,
  Modal,
  Row,
  Select,
  Space,
  Table,
  Tabs,
  Tag,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CONSOLE_LOCALES } from '../i18n/index.ts';
import { ActionButton } from '../shared/ActionButton.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { fractionOf, percentOf } from '../shared/percent.ts';
import { useGet, useRefresh } from '../shared/queries.ts';

const STATE_COLOURS: Record<IeoState, string> = {
  not_open: 'blue',
  open: 'green',
  calculating: 'orange',
  distributing: 'orange',
  ended: 'default',
  cancelled: 'red',
};

/** The form's shape: the wire input with dates as pickers and the vesting's two kinds side by side. */
interface ProjectForm {
  coin: string;
  name: string;
  mode: IeoMode;
  window: [Dayjs, Dayjs];
  total: string;
  tokenDecimals: number;
  payCoins: { paycoin: string; price: string }[];
  minNumber: string;
  maxNumber: string;
  vestingKind: IeoVestingKind;
  cliffDays: number;
  tranches: number;
  intervalDays: number;
  durationDays: number;
  giftPercent: string;
  rebatePercent: string;
  kycLevel: IeoKycLevel;
  refusedAreaCodes: string[];
  intro: Record<string, string>;
  announcement: Record<string, string>;
}

const decimal = /^\d+(\.\d+)?$/;

function toInput(form: ProjectForm): IeoProjectInput {
  const vesting =
    form.vestingKind === 'linear'
      ? { kind: 'linear' as const, cliffDays: form.cliffDays, durationDays: form.durationDays }
      : {
          kind: 'tranches' as const,
          cliffDays: form.cliffDays,
          tranches: form.tranches,
          intervalDays: form.intervalDays,
        };
  return {
    coin: form.coin.trim().toUpperCase(),
    name: form.name.trim(),
    mode: form.mode,
    startTime: form.window[0].valueOf(),
    endTime: form.window[1].valueOf(),
    total: form.total.trim(),
    tokenDecimals: form.tokenDecimals,
    payCoins: form.payCoins.map((pay) => ({
      paycoin: pay.paycoin.trim().toUpperCase(),
      price: pay.price.trim(),
    })),
    minNumber: form.minNumber.trim(),
    maxNumber: form.maxNumber.trim(),
    vesting,
    gift: fractionOf(form.giftPercent),
    rebate: fractionOf(form.rebatePercent),
    kycLevel: form.kycLevel,
    refusedAreaCodes: form.refusedAreaCodes,
    intro: form.intro,
    announcement: form.announcement,
  };
}

/** The form of a listed project; its texts are those of the language the list was read in. */
function toForm(project: IeoProject, locale: string): ProjectForm {
  const vesting = project.vesting;
  return {
    coin: project.coin,
    name: project.name,
    mode: project.mode,
    window: [dayjs(project.startTime), dayjs(project.endTime)],
    total: project.total,
    tokenDecimals: project.tokenDecimals,
    payCoins: project.payCoins,
    minNumber: project.minNumber,
    maxNumber: project.maxNumber,
    vestingKind: vesting.kind,
    cliffDays: vesting.cliffDays,
    tranches: vesting.kind === 'tranches' ? vesting.tranches : 1,
    intervalDays: vesting.kind === 'tranches' ? vesting.intervalDays : 0,
    durationDays: vesting.kind === 'linear' ? vesting.durationDays : 30,
    giftPercent: percentOf(project.gift),
    rebatePercent: percentOf(project.rebate),
    kycLevel: project.kycLevel,
    refusedAreaCodes: project.refusedAreaCodes,
    intro: { [locale]: project.intro },
    announcement: { [locale]: project.announcement },
  };
}

const NEW_PROJECT: Partial<ProjectForm> = {
  mode: 'fcfs',
  tokenDecimals: 8,
  payCoins: [{ paycoin: 'USDT', price: '' }],
  vestingKind: 'tranches',
  cliffDays: 0,
  tranches: 1,
  intervalDays: 0,
  durationDays: 30,
  giftPercent: '0',
  rebatePercent: '0',
  kycLevel: 'identity',
  refusedAreaCodes: [],
};

function ProjectDialog({ project, onClose }: { project: IeoProject | null; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [form] = Form.useForm<ProjectForm>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const vestingKind = Form.useWatch('vestingKind', form);
  const save = async () => {
    const values = await form.validateFields();
    setBusy(true);
    setRefusal(null);
    try {
      const url = project ? `/admin/ieo/projects/${project.id}` : '/admin/ieo/projects';
      const answer = await api.send('POST', url, { body: toInput(values) });
      message.success(answer.msg);
      await refresh('/ieo/getIeoList');
      onClose();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  const required = [{ required: true }];
  const decimalRule = [{ required: true, pattern: decimal, message: t('common.decimalOnly') }];
  return (
    <Modal
      open
      width={880}
      title={project ? t('ieo.editTitle', { name: project.name }) : t('ieo.new')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={save}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      {project && project.state !== 'not_open' && (
        <Alert type="warning" showIcon title={t('ieo.editOpenWarning')} style={{ marginBottom: 16 }} />
      )}
      <Form
        form={form}
        layout="vertical"
        initialValues={project ? toForm(project, i18n.language) : NEW_PROJECT}
      >
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="coin" label={t('common.coin')} rules={required}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          <Col span={10}>
            <Form.Item name="name" label={t('ieo.name')} rules={required}>
              <Input maxLength={100} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="mode" label={t('ieo.mode')} rules={required}>
              <Select options={IEO_MODES.map((mode) => ({ value: mode, label: t(`ieo.mode.${mode}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="window" label={t('ieo.window')} rules={required}>
              <DatePicker.RangePicker showTime style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="total" label={t('ieo.total')} rules={decimalRule}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={4}>
            <Form.Item name="tokenDecimals" label={t('ieo.decimals')} rules={required}>
              <InputNumber min={0} max={18} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.List name="payCoins">
          {(fields, { add, remove }) => (
            <>
              {fields.map((field) => (
                <Space key={field.key} align="baseline">
                  <Form.Item name={[field.name, 'paycoin']} label={t('ieo.payCoin')} rules={required}>
                    <Input maxLength={20} style={{ width: 120 }} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'price']} label={t('ieo.price')} rules={decimalRule}>
                    <Input inputMode="decimal" style={{ width: 160 }} />
                  </Form.Item>
                  {fields.length > 1 && (
                    <Button onClick={() => remove(field.name)}>{t('common.remove')}</Button>
                  )}
                </Space>
              ))}
              <Button
                type="dashed"
                onClick={() => add({ paycoin: '', price: '' })}
                style={{ marginBottom: 16 }}
              >
                {t('ieo.addPayCoin')}
              </Button>
            </>
          )}
        </Form.List>
        <Row gutter={16}>
          <Col span={6}>
            <Form.Item name="minNumber" label={t('ieo.minNumber')} rules={decimalRule}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="maxNumber" label={t('ieo.maxNumber')} rules={decimalRule}>
              <Input inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="giftPercent" label={t('ieo.gift')} rules={decimalRule}>
              <Input suffix="%" inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="rebatePercent" label={t('ieo.rebate')} rules={decimalRule}>
              <Input suffix="%" inputMode="decimal" />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="vestingKind" label={t('ieo.vesting')} rules={required}>
              <Select
                options={(['tranches', 'linear'] as const).map((kind) => ({
                  value: kind,
                  label: t(`ieo.vesting.${kind}`),
                }))}
              />
            </Form.Item>
          </Col>
          <Col span={6}>
            <Form.Item name="cliffDays" label={t('ieo.cliffDays')} rules={required}>
              <InputNumber min={0} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          {vestingKind === 'linear' ? (
            <Col span={6}>
              <Form.Item name="durationDays" label={t('ieo.durationDays')} rules={required}>
                <InputNumber min={1} precision={0} style={{ width: '100%' }} />
              </Form.Item>
            </Col>
          ) : (
            <>
              <Col span={6}>
                <Form.Item name="tranches" label={t('ieo.tranches')} rules={required}>
                  <InputNumber min={1} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
              <Col span={6}>
                <Form.Item name="intervalDays" label={t('ieo.intervalDays')} rules={required}>
                  <InputNumber min={0} precision={0} style={{ width: '100%' }} />
                </Form.Item>
              </Col>
            </>
          )}
          <Col span={8}>
            <Form.Item name="kycLevel" label={t('ieo.kycLevel')} rules={required}>
              <Select
                options={IEO_KYC_LEVELS.map((level) => ({ value: level, label: t(`ieo.kyc.${level}`) }))}
              />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item name="refusedAreaCodes" label={t('ieo.refusedAreaCodes')}>
              <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
            </Form.Item>
          </Col>
        </Row>
        <Tabs
          size="small"
          items={CONSOLE_LOCALES.map((locale) => ({
            key: locale,
            label: t(`locale.${locale}`),
            forceRender: true,
            children: (
              <>
                <Form.Item name={['intro', locale]} label={t('ieo.intro')}>
                  <Input.TextArea rows={3} />
                </Form.Item>
                <Form.Item name={['announcement', locale]} label={t('ieo.announcement')}>
                  <Input.TextArea rows={2} />
                </Form.Item>
              </>
            ),
          }))}
        />
      </Form>
    </Modal>
  );
}

/** Token launches: create, edit before opening, cancel (everyone refunded). */
export default function Ieo() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const [editing, setEditing] = useState<IeoProject | 'new' | null>(null);
  const projects = useGet<IeoProject[]>('/ieo/getIeoList');
  return (
    <>
      <PageHeader
        title={t('menu.ieo')}
        extra={
          <Button type="primary" onClick={() => setEditing('new')}>
            {t('ieo.new')}
          </Button>
        }
      />
      <LoadError error={projects.error} />
      <Table<IeoProject>
        rowKey="id"
        loading={projects.isFetching}
        dataSource={projects.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 60 },
          { title: t('common.coin'), dataIndex: 'coin', width: 80 },
          { title: t('ieo.name'), dataIndex: 'name' },
          { title: t('ieo.mode'), dataIndex: 'mode', render: (mode: IeoMode) => t(`ieo.mode.${mode}`) },
          {
            title: t('common.status'),
            dataIndex: 'state',
            render: (state: IeoState) => <Tag color={STATE_COLOURS[state]}>{t(`ieo.state.${state}`)}</Tag>,
          },
          { title: t('ieo.start'), dataIndex: 'startTime', render: formatTime },
          { title: t('ieo.end'), dataIndex: 'endTime', render: formatTime },
          { title: t('ieo.total'), dataIndex: 'total', align: 'right' },
          { title: t('ieo.remaining'), dataIndex: 'remaining', align: 'right' },
          {
            title: t('common.actions'),
            width: 170,
            render: (_, project) =>
              project.state === 'ended' || project.state === 'cancelled' ? null : (
                <Space>
                  <Button size="small" onClick={() => setEditing(project)}>
                    {t('common.edit')}
                  </Button>
                  <ActionButton
                    danger
                    label={t('ieo.cancel')}
                    run={() => api.post(`/admin/ieo/projects/${project.id}/cancel`)}
                    onDone={() => void refresh('/ieo/getIeoList')}
                  >
                    {t('ieo.cancelConfirm', { name: project.name })}
                  </ActionButton>
                </Space>
              ),
          },
        ]}
      />
      {editing && (
        <ProjectDialog project={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
