import { i18n } from '../i18n/index.ts';
import { ApiError } from './api.ts';

/** What to tell the operator about a failure: the server's own localised `msg` when it answered. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError && error.msg) return error.msg;
  return i18n.t('common.requestFailed');
}
