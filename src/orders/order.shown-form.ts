import { wcfDateJson } from '../wire/dates.js';
import { dateText, toJson } from '../wire/serializer.js';
import { contentText } from './order.content.js';
import { lifeText } from './order-life.views.js';
import { toConfirmationView, toFeedItem } from './order.mapping.js';
import type { ShownOrder } from './order.statements.js';

// The order feed sends up to 10^6 orders a request, and most of an order's cost was making its
// confirmation's view: parsing the stored JSON, building the view, writing it out again. The view
// that most keys see (no permission `bank`) in the wire's default form (PascalCase, WCF dates) is
// therefore made once, when the confirmation is stored, and kept beside it as JSON text in
// `orders.confirmation_shown` (migration 009). The feed splices it into the order's text. Every
// write of `confirmation` writes it too (order.repository.ts: confirm, seed, erasure); a null is
// "not made" (orders confirmed before the column existed) and the feed makes it as it sends. GetOrder
// answers from it too. A
// change of the view's shape sets the column to null in a migration; the test suite compares the
// kept text with the view made afresh.

const WCF = dateText('wcf');

/** The confirmation (its stored JSON) as the feed shows it to a key without `bank`, as JSON text in the default form. */
export const shownConfirmation = (stored: string): string => toJson(toConfirmationView(stored, 'masked', WCF), 'pascal', 'wcf', true);

const wcfDate = (ms: number | null): string => (ms === null ? 'null' : wcfDateJson(ms));

const jsonText = (v: string | null): string => (v === null ? 'null' : JSON.stringify(v));

/**
 * GetOrder's fields of an order whose shown text was kept (or that has no confirmation), as JSON text;
 * its content is kept as text too (order.content.ts), and its life's fields are written from its
 * columns and records (order-life.views.ts).
 * The id is written by toFixed, not `${}`: that goes through V8's number-to-string cache, which holds
 * each id's string until another number takes its slot, long enough for the feed's scavenges to
 * promote it (about 24 MB of old generation per 10^6 orders; the dates likewise, wire/dates.ts).
 */
const shownFields = (order: ShownOrder): string =>
  `"OrderId":${order.order_id.toFixed(0)},"OrderNumber":${jsonText(order.order_number)},"Status":${jsonText(order.status)},` +
  `"CustomerId":${jsonText(order.customer_id)},"CreatedAt":${wcfDate(order.created_at)},"ConfirmedAt":${wcfDate(order.confirmed_at)},` +
  `"CancelledAt":${wcfDate(order.cancelled_at)},"Note":${jsonText(order.note)},"Confirmation":${order.confirmation_shown ?? 'null'},${contentText(order).slice(1, -1)},` +
  lifeText(order);

const textKept = (order: ShownOrder): boolean => order.confirmation === null || order.confirmation_shown !== null;

/**
 * An order as GetOrder shows it to a key without `bank`, as JSON text in the default form: the same
 * bytes as toJson(toOrderView(order, 'masked')). Undefined where the confirmation's text was not made.
 */
export const shownOrderText = (order: ShownOrder): string | undefined => (textKept(order) ? `{${shownFields(order)}}` : undefined);

/**
 * An order of the feed as JSON text in the default form, for a key without `bank`: the same bytes
 * as toJson(toFeedItem(order, 'masked')), spliced from the kept confirmation where it was made.
 */
export function shownFeedItemText(order: ShownOrder): string {
  if (!textKept(order)) return toJson(toFeedItem(order, 'masked', WCF), 'pascal', 'wcf', true);
  return `{${shownFields(order)},"LastModified":${wcfDate(order.modified_at)}}`;
}
