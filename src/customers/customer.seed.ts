import type { CustomerRow } from '../store/database.js';
import type { WriteDoor } from '../writes/write-door.js';
import { insertNewCustomersWrite } from './customer.writes.js';

const FIRST = ['Anna', 'Ben', 'Clara', 'David', 'Eva', 'Felix', 'Greta', 'Hannes', 'Ida', 'Jonas', 'Klara', 'Lukas'];
const LAST = ['Müller', 'Schmidt', 'Schneider', 'Fischer', 'Weber', 'Meyer', 'Wagner', 'Becker', 'Schulz', 'Hoffmann'];
const CITIES: Array<[string, string]> = [
  ['10115', 'Berlin'],
  ['20095', 'Hamburg'],
  ['50667', 'Köln'],
  ['80331', 'München'],
  ['60311', 'Frankfurt am Main'],
];
const STREETS = ['Hauptstraße', 'Bahnhofstraße', 'Gartenweg', 'Schillerstraße', 'Lindenallee'];

/** The deterministic demo customer number n (1-based): id `C<n padded>`, external id `EXT-<n>`. */
export function demoCustomer(n: number, stamp: number): CustomerRow {
  const [postal, city] = CITIES[n % CITIES.length]!;
  return {
    customer_id: `C${String(n).padStart(8, '0')}`,
    external_id: `EXT-${n}`,
    salutation: n % 2 === 0 ? 'Frau' : 'Herr',
    first_name: FIRST[n % FIRST.length]!,
    last_name: LAST[(n * 7) % LAST.length]!,
    postal_code: postal,
    city,
    country: 'DE',
    street: STREETS[(n * 3) % STREETS.length]!,
    street_number: String((n % 120) + 1),
    company: n % 5 === 0 ? `Firma ${n}` : null,
    company2: null,
    addition_to_address: null,
    quarter: null,
    modified_at: stamp,
    created_at: stamp,
    custom_fields_version: 0,
  };
}

const BATCH = 5000;

/**
 * Inserts demo customers 1..count (existing ids are left as they are), through the write door in
 * units of 5,000, each committed with its stamp. Returns how many rows were new.
 */
export async function seedCustomers(
  writes: WriteDoor,
  count: number,
  onProgress: (done: number) => void = () => undefined,
): Promise<number> {
  let inserted = 0;
  for (let start = 1; start <= count; start += BATCH) {
    const end = Math.min(count, start + BATCH - 1);
    const now = Date.now();
    const rows: CustomerRow[] = [];
    for (let k = start; k <= end; k++) rows.push(demoCustomer(k, now));
    inserted += await writes.run(insertNewCustomersWrite, rows);
    onProgress(end);
  }
  return inserted;
}
