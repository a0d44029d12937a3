import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Resolver } from './webhook.url-guard.js';

/** How long an answer (or a failure) of the resolver is reused. */
const TTL_MS = 30_000;
const MAX_HOSTS = 1_000;

type Answer = { err: NodeJS.ErrnoException | null; addresses: LookupAddress[] };
type Callback = Parameters<Resolver>[2];

/**
 * dns.lookup runs on libuv's small thread pool (4 threads), and a name that does not resolve can
 * hold a thread for seconds: a burst of deliveries to a dead host would queue every other lookup,
 * file and crypto task of the process behind it. Deliveries therefore share one lookup per host
 * and family (concurrent ones wait for the same answer) and reuse the answer, failures included,
 * for 30 s. Every delivery still checks the addresses it gets (the URL guard), so a cached answer
 * never lets a forbidden address through.
 */
export function sharedLookup(resolve: Resolver = dnsLookup): Resolver {
  const answers = new Map<string, { at: number; answer: Answer }>();
  const waiting = new Map<string, Callback[]>();
  return (hostname, options, callback) => {
    const key = `${options.family ?? 0}:${hostname}`;
    const hit = answers.get(key);
    if (hit && Date.now() - hit.at < TTL_MS) return queueMicrotask(() => callback(hit.answer.err, hit.answer.addresses));
    const queue = waiting.get(key);
    if (queue) return void queue.push(callback);
    waiting.set(key, [callback]);
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      const answer: Answer = { err, addresses: err ? [] : addresses };
      if (answers.size >= MAX_HOSTS) answers.clear();
      answers.set(key, { at: Date.now(), answer });
      const callbacks = waiting.get(key) ?? [];
      waiting.delete(key);
      for (const cb of callbacks) cb(answer.err, answer.addresses);
    });
  };
}

/** The process's shared resolver for webhook deliveries. */
export const deliveryLookup = sharedLookup();
