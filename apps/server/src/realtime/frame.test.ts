import { describe, expect, it } from 'vitest';
import * as ws from 'ws';
import { textFrame } from './frame.ts';

/** ws's own framing, which @types/ws does not declare: the reference the pre-built frames must equal. */
const { Sender } = ws as unknown as {
  Sender: {
    frame(
      data: Buffer,
      options: { fin: boolean; opcode: number; mask: boolean; readOnly: boolean; rsv1: boolean },
    ): Buffer[];
  };
};

function wsTextFrame(text: string): Buffer {
  const options = { fin: true, opcode: 1, mask: false, readOnly: false, rsv1: false };
  return Buffer.concat(Sender.frame(Buffer.from(text), options));
}

describe('textFrame', () => {
  it.each([
    ['empty', ''],
    ['a pong', 'pong'],
    ['125 bytes, the last with a 7-bit length', 'x'.repeat(125)],
    ['126 bytes, the first with a 16-bit length', 'x'.repeat(126)],
    ['65,535 bytes, the last with a 16-bit length', 'x'.repeat(65_535)],
    ['65,536 bytes, the first with a 64-bit length', 'x'.repeat(65_536)],
    ['multi-byte UTF-8, counted in bytes', 'Неизвестная подписка: '.repeat(4)],
  ])('frames %s as ws does', (_, text) => {
    expect(textFrame(text).equals(wsTextFrame(text))).toBe(true);
  });
});
