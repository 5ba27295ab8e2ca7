import { config } from 'zod/v4/core';

/**
 * Zod compiles fast object parsers with `new Function` unless told not to, and even probing for
 * that is an `eval` our Content-Security-Policy (rightly) refuses and reports. Imported first by
 * main.tsx: the setting is read when a schema is built, so it must precede every schema.
 */
config({ jitless: true });
