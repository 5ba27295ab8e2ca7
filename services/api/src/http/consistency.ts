import type { ProjectionProgress } from '@astra/projections';
import type { Request } from 'express';
import type { ReadReplicas } from './readReplicas.ts';
import type { Sessions } from './sessions.ts';

/**
 * Read-your-writes: a command waits until the read models have passed its position before it
 * answers, and the session remembers the position so that its later reads (on any API replica)
 * wait for it too (see `Sessions`). The wait is bounded; reads then answer with what there is.
 */
export class Consistency {
  constructor(
    private readonly progress: ProjectionProgress,
    private readonly sessions: Sessions,
    private readonly timeoutMs: number,
    private readonly replicas: ReadReplicas | null = null,
  ) {}

  async settle(req: Request, position: bigint | null) {
    if (position === null) return;
    await this.remember(req, position);
    await this.progress.waitFor(position, this.timeoutMs);
  }

  /**
   * For an answer that must not wait (it reads nothing back): the session's later reads wait for
   * the write instead. This request's own later reads go to the primary (`ReadReplicas.wrote`).
   */
  async remember(req: Request, position: bigint | null) {
    if (position === null) return;
    this.replicas?.wrote();
    await this.sessions.wrote(req, position);
  }
}
