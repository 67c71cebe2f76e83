import type { ReferralSettings } from '@halyard/protocol';
import {
  REFERRAL_BIND_WINDOW_DAYS,
  REFERRAL_HAL_DISCOUNT_MAX,
  REFERRAL_LEVEL_TWO_RATE,
  REFERRAL_TIER_TABLE,
  REFERRAL_TOKEN,
} from '@halyard/rules';
import { Alert, App, Button, Card, Col, Descriptions, Form, Input, Row, Select, Spin, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../shared/errors.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { fractionOf, percentOf } from '../shared/percent.ts';
import { useGet, useRefresh } from '../shared/queries.ts';

interface SettingsForm {
  halDiscountPercent: string;
  marketMakers: string[];
}

function SettingsCard({ settings }: { settings: ReferralSettings }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const save = async (values: SettingsForm) => {
    setBusy(true);
    setRefusal(null);
    try {
      await api.post<ReferralSettings>('/admin/referral/settings', {
        halDiscount: fractionOf(values.halDiscountPercent),
        marketMakers: values.marketMakers.map(Number),
      });
      message.success(t('common.saved'));
      await refresh('/admin/referral/settings');
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card title={t('referral.settings')}>
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form<SettingsForm>
        layout="vertical"
        onFinish={save}
        initialValues={{
          halDiscountPercent: percentOf(settings.halDiscount),
          marketMakers: settings.marketMakers.map(String),
        }}
      >
        <Form.Item
          name="halDiscountPercent"
          label={t('referral.halDiscount', { token: REFERRAL_TOKEN })}
          extra={t('referral.halDiscountHint', { max: percentOf(REFERRAL_HAL_DISCOUNT_MAX) })}
          rules={[{ required: true, pattern: /^\d+(\.\d+)?$/, message: t('common.decimalOnly') }]}
        >
          <Input suffix="%" inputMode="decimal" style={{ maxWidth: 200 }} />
        </Form.Item>
        <Form.Item
          name="marketMakers"
          label={t('referral.marketMakers')}
          extra={t('referral.marketMakersHint')}
          rules={[{ type: 'array', defaultField: { pattern: /^\d+$/, message: t('common.userId') } }]}
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} open={false} />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy}>
          {t('common.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** Referral: the operator settings (HAL fee discount, market makers) beside the reward rules they sit in. */
export default function Referral() {
  const { t } = useTranslation();
  const settings = useGet<ReferralSettings>('/admin/referral/settings');
  return (
    <>
      <PageHeader title={t('menu.referral')} />
      <LoadError error={settings.error} />
      <Row gutter={24}>
        <Col xs={24} lg={12}>
          {settings.data ? <SettingsCard settings={settings.data} /> : <Spin />}
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('referral.rules')}>
            <Table
              size="small"
              rowKey="tier"
              pagination={false}
              dataSource={[...REFERRAL_TIER_TABLE]}
              columns={[
                { title: t('referral.tier'), dataIndex: 'tier' },
                {
                  title: t('referral.minHoldings', { token: REFERRAL_TOKEN }),
                  dataIndex: 'minHoldings',
                },
                {
                  title: t('referral.rate'),
                  dataIndex: 'rate',
                  render: (rate: string) => `${percentOf(rate)} %`,
                },
              ]}
            />
            <Descriptions size="small" column={1} style={{ marginTop: 16 }}>
              <Descriptions.Item label={t('referral.levelTwo')}>
                {percentOf(REFERRAL_LEVEL_TWO_RATE)} %
              </Descriptions.Item>
              <Descriptions.Item label={t('referral.bindWindow')}>
                {t('referral.days', { days: REFERRAL_BIND_WINDOW_DAYS })}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
      </Row>
    </>
  );
}
