import { CODE, type MessageParams } from '@halyard/protocol';

/**
 * A refusal the user should read: an envelope code and a message key from
 * @halyard/protocol, localised when the answer is written. Anything else that
 * is thrown is a bug and answers "unknown error" with code 500.
 */
export class AppError extends Error {
  override name = 'AppError';

  constructor(
    readonly key: string,
    readonly params: MessageParams = {},
    readonly code: number = CODE.badRequest,
  ) {
    super(key);
  }
}

export function badRequest(key: string, params?: MessageParams): AppError {
  return new AppError(key, params, CODE.badRequest);
}

export function forbidden(key: string, params?: MessageParams): AppError {
  return new AppError(key, params, CODE.forbidden);
}

export function notFound(key = 'common.notFound', params?: MessageParams): AppError {
  return new AppError(key, params, CODE.notFound);
}

export function conflict(key: string, params?: MessageParams): AppError {
  return new AppError(key, params, CODE.conflict);
}

export function unauthorized(): AppError {
  return new AppError('common.pleaseLogin', {}, CODE.unauthorized);
}
