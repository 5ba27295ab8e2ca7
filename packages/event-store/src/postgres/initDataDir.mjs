// Creates a PGlite database in the directory given as the first argument, then exits.
// Run as its own process: initdb grows PGlite's WebAssembly memory to several hundred MB,
// which a process never gives back; the app then opens the ready directory at a fraction of it.
import { PGlite } from '@electric-sql/pglite';

const db = await PGlite.create(process.argv[2]);
await db.close();
