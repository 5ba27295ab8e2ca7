import type { ProjectionProgress } from '@astra/projections';
import type { Request, RequestHandler } from 'express';

/**
 * Read-your-writes: a command waits until the read models have passed its position before it
 * answers, and the session remembers the position so that its later reads (on any API replica)
 * wait for it too. The wait is bounded; the reads then answer with what there is.
 */
export class Consistency {
  constructor(
    private readonly progress: ProjectionProgress,
    private readonly timeoutMs: number,
  ) {}

  async settle(req: Request, position: bigint | null) {
    if (position === null) return;
    const known = req.session.lastPosition ? BigInt(req.session.lastPosition) : 0n;
    if (position > known) req.session.lastPosition = position.toString();
    await this.progress.waitFor(position, this.timeoutMs);
  }

  /** Middleware for reads: wait for this session's own last write. */
  readonly ownWrites: RequestHandler = async (req, _res, next) => {
    const position = req.session?.lastPosition;
    if (position) await this.progress.waitFor(BigInt(position), this.timeoutMs);
    next();
  };
}
