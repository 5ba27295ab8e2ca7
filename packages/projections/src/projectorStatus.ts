/** Where one projection stands, and how the projector tells of it. */

/** Where the projector writes its lines: any logger with `info`/`error(fields, message)` (pino). */
export interface ProjectorLogger {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/** Plain lines on the console, when no logger is given. */
export const consoleLogger: ProjectorLogger = {
  info: (_fields, message) => console.log(message),
  error: (_fields, message) => console.error(message),
};

/** Where one projection stands. */
export interface ProjectionStatus {
  name: string;
  /** `failed`: it cannot apply the event after `position`; the others go on without it. */
  state: 'live' | 'failed';
  /** Live: the position the projector has passed. Failed: its checkpoint. */
  position: bigint;
  error: string | null;
  /** When it first failed (at this position or before). */
  since: Date | null;
}

/** An error as a status and `projection_failures` keep it: its message, cut to a bounded size. */
export const messageOf = (error: unknown) =>
  (error instanceof Error ? error.message : String(error)).slice(0, 2000);

/** The default `onStatus`: a line for each failure and each resumption. */
export const logStatus = (status: ProjectionStatus, logger: ProjectorLogger) => {
  const fields = { projection: status.name, position: status.position.toString() };
  if (status.state === 'failed') {
    logger.error(
      { ...fields, error: status.error },
      `Projection ${status.name} cannot apply the event after position ${status.position}; the other projections go on, it retries: ${status.error}`,
    );
  } else {
    logger.info(
      fields,
      `Projection ${status.name} resumed; it is live again at position ${status.position}.`,
    );
  }
};
