import { connect, type NatsConnection } from '@nats-io/transport-node';

export type { NatsConnection };

/** Either the servers to connect to (the connection is then owned and closed with the journal or lease) or a connection to borrow. */
export type NatsSource =
  | { servers: string | string[]; connection?: undefined }
  | { connection: NatsConnection; servers?: undefined };

export interface HeldConnection {
  nc: NatsConnection;
  /** Closes the connection when it was opened here; a borrowed one is left open. */
  release(): Promise<void>;
}

export async function holdConnection(source: NatsSource): Promise<HeldConnection> {
  if (source.connection) return { nc: source.connection, release: async () => {} };
  const nc = await connect({ servers: source.servers, name: 'halyard-core' });
  return { nc, release: () => nc.close() };
}
