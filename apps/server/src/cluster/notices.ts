import type { NatsConnection, Subscription } from '@nats-io/transport-node';
import { decodeJson, encodeJson } from './protocol.ts';

/** What a listener of a notice channel is told: each notice, and when notices may be lost or arrive again. */
export interface NoticeListener<T> {
  notice(notice: T): void;
  /**
   * `true`: notices may be lost from now on (the connection dropped, or this
   * process fell behind and NATS dropped some); `false`: they arrive again,
   * and whatever was sent meanwhile is lost. A view kept on notices trusts
   * nothing it holds across a deaf spell.
   */
  deaf(deaf: boolean): void;
}

/**
 * A view's notices between the gateways of a cluster (docs/cluster.md, "What
 * the gateways share"): a gateway that changed something others keep in
 * memory says so after its write committed, and every gateway (itself
 * included) hears it. Plain NATS publish and subscribe: at most once, in
 * order per publisher, in well under a millisecond on a LAN; what a gateway
 * misses while its connection is down it is told about (`deaf`).
 */
export interface NoticeChannel<T> {
  /** Sends the notice to every gateway; never throws (a lost notice is what `deaf` covers). */
  publish(notice: T): void;
  listen(listener: NoticeListener<T>): () => void;
}

/**
 * The notice channels of one gateway's NATS connection, each on its own
 * subject of the cluster (`subjects.views(view)`). It watches the
 * connection's status once for all of them.
 */
export class ClusterNotices {
  private readonly listeners = new Set<{ deaf(deaf: boolean): void }>();
  private deaf = false;
  private readonly watching: Promise<void>;

  constructor(
    private readonly nc: NatsConnection,
    private readonly subject: (view: string) => string,
    private readonly onError: (error: unknown) => void,
  ) {
    this.watching = this.watch().catch(onError);
  }

  channel<T>(view: string): NoticeChannel<T> {
    const subject = this.subject(view);
    return {
      publish: (notice) => {
        try {
          this.nc.publish(subject, encodeJson(notice));
        } catch (error) {
          this.onError(error);
        }
      },
      listen: (listener) => {
        const subscription: Subscription = this.nc.subscribe(subject, {
          callback: (error, message) => {
            if (error) return this.onError(error);
            try {
              listener.notice(decodeJson<T>(message.data));
            } catch (cause) {
              this.onError(cause);
            }
          },
        });
        this.listeners.add(listener);
        if (this.deaf) listener.deaf(true);
        return () => {
          this.listeners.delete(listener);
          subscription.unsubscribe();
        };
      },
    };
  }

  /** Ends with the connection. */
  closed(): Promise<void> {
    return this.watching;
  }

  private async watch(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === 'disconnect') this.setDeaf(true);
      else if (status.type === 'reconnect') this.setDeaf(false);
      else if (status.type === 'slowConsumer') {
        // Messages were dropped: a blip of deafness makes every listener drop what it holds.
        this.setDeaf(true);
        this.setDeaf(false);
      }
    }
  }

  private setDeaf(deaf: boolean): void {
    if (deaf && this.deaf) return;
    this.deaf = deaf;
    for (const listener of this.listeners) listener.deaf(deaf);
  }
}
