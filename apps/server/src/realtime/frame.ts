import type { Writable } from 'node:stream';
import type { WebSocket } from '@fastify/websocket';

/** FIN bit and the text opcode: a whole text message in one frame. */
const FIN_TEXT = 0x81;

/**
 * A text message as a complete WebSocket frame (RFC 6455 §5.2): unmasked, as
 * server frames are, and uncompressed (the gateway turns permessage-deflate
 * off). A push is framed once and the same bytes are written to every
 * recipient, so the fan-out does no per-socket encoding or framing.
 */
export function textFrame(text: string): Buffer {
  const length = Buffer.byteLength(text);
  const header = length < 126 ? 2 : length < 65_536 ? 4 : 10;
  const frame = Buffer.allocUnsafe(header + length);
  frame[0] = FIN_TEXT;
  if (header === 2) frame[1] = length;
  else if (header === 4) {
    frame[1] = 126;
    frame.writeUInt16BE(length, 2);
  } else {
    frame[1] = 127;
    frame.writeBigUInt64BE(BigInt(length), 2);
  }
  frame.write(text, header);
  return frame;
}

/**
 * The TCP socket a `ws` WebSocket writes its frames to. `ws` does not expose
 * it (it is the private `_socket` of ws 8), so this fails loudly rather than
 * letting a `ws` upgrade quietly break the fan-out. Writing a frame from
 * {@link textFrame} there keeps the order of the socket's other frames (pongs,
 * close): without compression `ws` writes each frame to this socket at once,
 * and its `bufferedAmount` counts what waits there.
 */
export function transportOf(socket: WebSocket): Writable {
  const transport = (socket as unknown as { _socket?: unknown })._socket;
  if (!isWritable(transport)) throw new Error('ws no longer keeps its TCP socket in _socket');
  return transport;
}

function isWritable(value: unknown): value is Writable {
  return typeof value === 'object' && value !== null && typeof (value as Writable).write === 'function';
}
