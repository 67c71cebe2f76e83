import { Alert, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { errorText } from './errors.ts';

/** A screen's title with its tools on the right. */
export function PageHeader({ title, extra }: { title: ReactNode; extra?: ReactNode }) {
  return (
    <div
      style={{
        display: 'flex',
        justifyContent: 'space-between',
        alignItems: 'center',
        marginBottom: 16,
        gap: 16,
      }}
    >
      <Typography.Title level={3} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      {extra && <Space wrap>{extra}</Space>}
    </div>
  );
}

/** A read that failed: the server's message where the data would be. */
export function LoadError({ error }: { error: unknown }) {
  return error ? <Alert type="error" showIcon title={errorText(error)} style={{ marginBottom: 16 }} /> : null;
}
