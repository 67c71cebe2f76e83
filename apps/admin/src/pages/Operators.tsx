import { OPERATOR_ROLES, type OperatorCreateRequest, type OperatorRow } from '@halyard/protocol';
import { Alert, App, Button, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from '../shared/ActionButton.tsx';
import { errorText } from '../shared/errors.ts';
import { formatTime } from '../shared/format.ts';
import { api } from '../shared/http.ts';
import { LoadError, PageHeader } from '../shared/PageHeader.tsx';
import { useGet, useRefresh } from '../shared/queries.ts';
import { useSession } from '../shared/session.ts';

function CreateDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const refresh = useRefresh();
  const [form] = Form.useForm<OperatorCreateRequest>();
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const create = async () => {
    const values = await form.validateFields();
    setBusy(true);
    setRefusal(null);
    try {
      await api.post<OperatorRow>('/admin/operators', { ...values, email: values.email.trim() });
      message.success(t('operators.created', { email: values.email }));
      await refresh('/admin/operators');
      onClose();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('operators.new')}
      okText={t('operators.create')}
      cancelText={t('common.cancel')}
      onOk={create}
      onCancel={onClose}
      okButtonProps={{ loading: busy }}
    >
      {refusal && <Alert type="error" showIcon title={refusal} style={{ marginBottom: 16 }} />}
      <Form form={form} layout="vertical" initialValues={{ role: 'support' }}>
        <Form.Item name="email" label={t('auth.email')} rules={[{ required: true, type: 'email' }]}>
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="role" label={t('operators.role')} rules={[{ required: true }]}>
          <Select options={OPERATOR_ROLES.map((role) => ({ value: role, label: t(`role.${role}`) }))} />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('operators.firstPassword')}
          extra={t('operators.firstPasswordHint')}
          rules={[{ required: true, min: 12 }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Operator accounts: create one with a role (they enrol TOTP at first sign-in), disable or enable. */
export default function Operators() {
  const { t } = useTranslation();
  const refresh = useRefresh();
  const { operator: me } = useSession();
  const [creating, setCreating] = useState(false);
  const operators = useGet<OperatorRow[]>('/admin/operators');
  const done = () => void refresh('/admin/operators');

  return (
    <>
      <PageHeader
        title={t('menu.operators')}
        extra={
          <Button type="primary" onClick={() => setCreating(true)}>
            {t('operators.new')}
          </Button>
        }
      />
      <LoadError error={operators.error} />
      <Table<OperatorRow>
        rowKey="id"
        loading={operators.isFetching}
        dataSource={operators.data ?? []}
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          { title: t('auth.email'), dataIndex: 'email' },
          { title: t('operators.role'), dataIndex: 'role', render: (role: string) => t(`role.${role}`) },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (status: OperatorRow['status'], row) => (
              <Space>
                <Tag color={status === 'active' ? 'green' : 'default'}>{t(`operators.status.${status}`)}</Tag>
                {!row.totpEnrolled && <Tag color="orange">{t('operators.noTotp')}</Tag>}
                {row.lockedUntil && <Tag color="red">{t('operators.locked')}</Tag>}
              </Space>
            ),
          },
          { title: t('operators.createdAt'), dataIndex: 'createdAt', width: 170, render: formatTime },
          { title: t('operators.lastLogin'), dataIndex: 'lastLoginAt', width: 170, render: formatTime },
          {
            title: t('common.actions'),
            width: 130,
            render: (_, row) =>
              row.id === me?.id ? null : row.status === 'active' ? (
                <ActionButton
                  danger
                  label={t('operators.disable')}
                  run={() => api.post(`/admin/operators/${row.id}/disable`)}
                  onDone={done}
                >
                  {t('operators.disableConfirm', { email: row.email })}
                </ActionButton>
              ) : (
                <ActionButton
                  label={t('operators.enable')}
                  run={() => api.post(`/admin/operators/${row.id}/enable`)}
                  onDone={done}
                />
              ),
          },
        ]}
      />
      {creating && <CreateDialog onClose={() => setCreating(false)} />}
    </>
  );
}
