import { CODE, type MessageParams } from '@halyard/protocol';

/** What a handler returns: the data, and optionally a message to toast (spec §7 "server msg"). */
export class Ok<T> {
  constructor(
    readonly data: T,
    readonly key: string,
    readonly params: MessageParams,
  ) {}
}

export function ok<T>(data: T, key = 'common.ok', params: MessageParams = {}): Ok<T> {
  return new Ok(data, key, params);
}

export const OK_CODE = CODE.ok;
