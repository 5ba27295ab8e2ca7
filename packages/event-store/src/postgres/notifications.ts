import pg from 'pg';

/**
 * Told of a notification on its channel: the payload, or null after the listening connection was
 * lost and made again (notifications sent meanwhile are gone: look for yourself).
 */
export type NotificationHandler = (payload: string | null) => void;

export interface Listen {
  /** Calls `handler` for every notification on `channel` until the returned function is called. */
  listen(channel: string, handler: NotificationHandler): () => void;
}

export interface NotificationsOptions {
  /** The first wait before connecting again after the connection is lost; it doubles up to 5 s. */
  reconnectMs?: number;
}

/** Who listens: the backend's `application_name` (operators and tests find it by that). */
export const LISTENER_APPLICATION = 'astra-listener';

const MAX_RECONNECT_MS = 5_000;

/**
 * PostgreSQL's LISTEN/NOTIFY for one process: one connection of its own (a pooled one would be
 * handed to others, and a LISTEN belongs to its session), opened on the first `listen`. When it
 * is lost it is made again, with backoff, and every handler is told (with null). Notifications
 * only wake: whoever listens still reads for itself, and keeps polling for the time the
 * connection is down.
 */
export class Notifications implements Listen {
  private readonly handlers = new Map<string, Set<NotificationHandler>>();
  private client: pg.Client | undefined;
  private connecting: Promise<void> | undefined;
  private retry: NodeJS.Timeout | undefined;
  private reconnectMs: number;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly options: NotificationsOptions = {},
  ) {
    this.reconnectMs = options.reconnectMs ?? 100;
  }

  listen(channel: string, handler: NotificationHandler): () => void {
    if (this.closed) return () => {};
    let handlers = this.handlers.get(channel);
    if (!handlers) {
      handlers = new Set();
      this.handlers.set(channel, handlers);
      // Connected: this channel's LISTEN now; otherwise the connection listens to all of them.
      if (this.client) this.client.query(`LISTEN ${quote(channel)}`).catch(() => {});
      else this.connect();
    }
    handlers.add(handler);
    return () => {
      handlers.delete(handler);
    };
  }

  async close() {
    this.closed = true;
    clearTimeout(this.retry);
    await this.connecting;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private connect() {
    if (this.connecting || this.closed) return;
    this.connecting = this.open()
      .then(
        () => {
          this.reconnectMs = this.options.reconnectMs ?? 100;
        },
        () => this.reconnectLater(),
      )
      .finally(() => {
        this.connecting = undefined;
      });
  }

  private async open() {
    const client = new pg.Client({
      connectionString: this.databaseUrl,
      application_name: LISTENER_APPLICATION,
      keepAlive: true,
    });
    let lost = false;
    const onLost = () => {
      if (lost) return;
      lost = true;
      if (this.client === client) this.client = undefined;
      client.end().catch(() => {});
      this.reconnectLater();
    };
    client.on('error', onLost);
    client.on('end', onLost);
    client.on('notification', ({ channel, payload }) => {
      for (const handler of this.handlers.get(channel) ?? []) handler(payload ?? '');
    });
    await client.connect();
    const channels = [...this.handlers.keys()];
    if (channels.length) await client.query(channels.map((c) => `LISTEN ${quote(c)}`).join(';'));
    if (this.closed || lost) {
      await client.end().catch(() => {});
      if (!lost) return;
      throw new Error('the listening connection was lost while it was being made');
    }
    this.client = client;
    // Channels first listened to while this connection was being made.
    const added = [...this.handlers.keys()].filter((channel) => !channels.includes(channel));
    if (added.length)
      client.query(added.map((c) => `LISTEN ${quote(c)}`).join(';')).catch(() => {});
    // Whatever was sent while no connection listened is lost: every handler looks for itself.
    for (const handlers of this.handlers.values()) for (const handler of handlers) handler(null);
  }

  private reconnectLater() {
    if (this.closed || this.retry) return;
    const delay = this.reconnectMs;
    this.reconnectMs = Math.min(delay * 2, MAX_RECONNECT_MS);
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect();
    }, delay);
    this.retry.unref();
  }
}

/** A channel name as an SQL identifier. */
const quote = (channel: string) => `"${channel.replace(/"/g, '""')}"`;
