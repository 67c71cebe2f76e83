import { Alert, Button, type ButtonProps, Form, Input, Modal } from 'antd';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from './errors.ts';

/** What the operator typed in the action's dialog. */
export interface ActionInput {
  reason: string;
  totp: string;
}

interface ActionButtonProps {
  label: ReactNode;
  /** The dialog's title; the label when not given. */
  title?: ReactNode;
  /** Asks for a reason (shown to the user or kept in the audit log). */
  reason?: boolean;
  /** A money action: asks for a fresh code of the operator's authenticator app. */
  money?: boolean;
  danger?: boolean;
  type?: ButtonProps['type'];
  size?: ButtonProps['size'];
  disabled?: boolean;
  /** Runs the action; a refusal stays in the dialog with the server's message. */
  run(input: ActionInput): Promise<unknown>;
  onDone?(): void;
  /** Extra words in the dialog, e.g. what the action will do. */
  children?: ReactNode;
}

/**
 * One operator action behind a confirming dialog: a reason when the server wants one, a TOTP
 * code for money actions, and the server's refusal shown where the operator is looking.
 */
export function ActionButton(props: ActionButtonProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [form] = Form.useForm<ActionInput>();

  const close = () => {
    setOpen(false);
    setRefusal(null);
    form.resetFields();
  };
  const submit = async () => {
    const values = await form.validateFields();
    setBusy(true);
    setRefusal(null);
    try {
      await props.run({ reason: values.reason?.trim() ?? '', totp: values.totp ?? '' });
      close();
      props.onDone?.();
    } catch (error) {
      setRefusal(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button
        danger={props.danger}
        type={props.type}
        size={props.size ?? 'small'}
        disabled={props.disabled}
        onClick={() => setOpen(true)}
      >
        {props.label}
      </Button>
      <Modal
        open={open}
        title={props.title ?? props.label}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: props.danger, loading: busy }}
        onOk={submit}
        onCancel={close}
        destroyOnHidden
      >
        {props.children}
        <Form form={form} layout="vertical" preserve={false}>
          {props.reason && (
            <Form.Item
              name="reason"
              label={t('common.reason')}
              rules={[{ required: true, whitespace: true }]}
            >
              <Input.TextArea rows={3} maxLength={500} showCount />
            </Form.Item>
          )}
          {props.money && (
            <Form.Item
              name="totp"
              label={t('common.totpCode')}
              extra={t('common.totpWhy')}
              rules={[{ required: true, pattern: /^\d{6}$/, message: t('common.totpSixDigits') }]}
            >
              <Input.OTP length={6} />
            </Form.Item>
          )}
        </Form>
        {refusal && <Alert type="error" showIcon title={refusal} />}
      </Modal>
    </>
  );
}
