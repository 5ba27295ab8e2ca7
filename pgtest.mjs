import { PGlite } from '@electric-sql/pglite';

let t = performance.now();
const a = await PGlite.create();
console.log('create', performance.now() - t);
const dump = await a.dumpDataDir('none');
t = performance.now();
const b = await PGlite.create({ loadDataDir: dump });
console.log('from dump', performance.now() - t);
t = performance.now();
const c = await PGlite.create();
console.log('create again', performance.now() - t);
