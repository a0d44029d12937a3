import { Type } from '@sinclair/typebox';
import { ConfigError } from '../config.js';
import { isCurrencyCode } from '../money/index.js';
import { SYNC_CURSOR_HEADER, SYNC_WATERMARK_HEADER } from '../wire/sync-cursor.js';
import { routeRead } from '../store/read-replica.js';
import type { Store } from '../store/store.js';
import { formatWireDate } from '../wire/dates.js';
import { minWatermarkOf } from '../wire/read-your-writes.js';
import { KeptText, StreamedArray, defineOperation, type AnyOperation } from '../wire/operation.js';
import { dateText } from '../wire/serializer.js';
import type { WriteDoor } from '../writes/write-door.js';
import { ConfirmationService } from './confirmation.service.js';
import { IDEMPOTENCY_HEADER } from './idempotency.writes.js';
import { auditBankRead, bankDataFor } from './order.bank-access.js';
import { toConfirmResponse, toFeedItem, toOrderView, type BankData } from './order.mapping.js';
import {
  ConfirmOrderRequest,
  ConfirmOrderResponse,
  CreateOrderResponse,
  OrderFeedItem,
  OrderIdRequest,
  OrderView,
  SearchOrdersRequest,
  orderRequestSchemas,
} from './order.schemas.js';
import { searchOrders } from './order.search.js';
import { shownFeedItemText, shownOrderText } from './order.shown-form.js';
import type { ShownOrder } from './order.repository.js';
import { cancelOrderWrite, contentOfRequest, createOrderWrite, getOrder, orderUpdateOf, updateOrderWrite } from './order.service.js';
import { toValidConfirmation } from './order.validation.js';

/** What an order holds, as the API reference shows CreateOrder and UpdateOrder. */
const ORDER_CONTENT_EXAMPLE = {
  Note: 'Ordered by phone',
  Currency: 'EUR',
  Lines: [
    { Sku: 'PEN-BLUE', Name: 'Ballpoint pen, blue', Quantity: 3, UnitPrice: 0.1, TaxRate: 19 },
    { Sku: 'BOOK-42', Name: 'Paperback', Quantity: 1, UnitPrice: 12.5, TaxRate: 7, Discount: 1.5 },
  ],
  Shipping: { Name: 'DHL', Amount: 4.9, TaxRate: 19 },
};

/** The order operations: the spec's ConfirmOrder and the operator's order routes. */
export function orderOperations(store: Store, writes: WriteDoor, defaultCurrency: string): AnyOperation[] {
  const confirmations = new ConfirmationService(writes);
  const notACode = `'${defaultCurrency}' is not an ISO 4217 currency code in circulation`;
  if (!isCurrencyCode(defaultCurrency)) throw new ConfigError('DEFAULT_CURRENCY', notACode);
  const requests = orderRequestSchemas(defaultCurrency);
  return [
    defineOperation({
      name: 'ConfirmOrder',
      tag: 'Orders',
      summary: 'Confirm an open order with customer, delivery, bank and payment data.',
      description:
        'Validates every field at once (400 with one Errors entry per field). The customer is CustomerId, else the customer whose ' +
        'ExternalId is ExternalCustomerId, else a new one; its name and address are updated. 404 unknown order, 409 cancelled or ' +
        'confirmed with different data; the same body again answers the same 200. An Idempotency-Key header (kept 24 h) replays ' +
        'the first answer; the same key with a different body is a 422, and 409 while the first is still running.',
      routes: [{ method: 'POST', path: '/orders/{OrderId}/confirm' }],
      example: {
        OrderId: 1,
        CustomerFirstName: 'Anna',
        CustomerLastName: 'Müller',
        CustomerPostalCode: '50667',
        CustomerCity: 'Köln',
        CustomerCountry: 'DE',
        CustomerStreet: 'Hauptstraße',
        CustomerEMail: 'anna@example.com',
        CustomerIban: 'DE89370400440532013000',
        Payment: { Amount: 49.9, Name: 'PayPal payment', Type: 'PayPal' },
      },
      notFound: 'No order with this OrderId.',
      permission: 'all',
      request: ConfirmOrderRequest,
      response: ConfirmOrderResponse,
      writeWatermark: true,
      async handle(req, call) {
        const key = call.header(IDEMPOTENCY_HEADER)?.trim() || undefined;
        const outcome = await confirmations.confirm(
          toValidConfirmation(req),
          key === undefined ? undefined : { apiKeyId: call.key.id, key },
        );
        if (outcome.replayed) call.setHeader('Idempotent-Replayed', 'true');
        return toConfirmResponse(outcome.answer);
      },
    }),
    defineOperation({
      name: 'CreateOrder',
      tag: 'Operator',
      summary: 'Create an open order (operator).',
      description:
        'OrderNumber is generated (ORD-000123) when absent; a given one must be unique (409 otherwise). Lines, Shipping, Currency and ' +
        "PricesIncludeTax say what is ordered and what it costs; the service computes each line's and the order's Net, Tax and Gross " +
        '(GetOrder shows them). Each bad field is one Errors entry (Lines[2].Quantity; ScalePrecision for more decimals than the currency has).',
      routes: [{ method: 'POST', path: '/orders' }],
      example: ORDER_CONTENT_EXAMPLE,
      permission: 'admin',
      request: requests.create,
      response: CreateOrderResponse,
      successStatus: 201,
      writeWatermark: true,
      handle: (req) =>
        writes.run(createOrderWrite, { OrderNumber: req.OrderNumber, Note: req.Note, content: contentOfRequest(req, defaultCurrency) }),
    }),
    defineOperation({
      name: 'UpdateOrder',
      tag: 'Operator',
      summary: "Replace an open order's note and content (operator).",
      description:
        'Replaces Note, Currency, PricesIncludeTax, Lines and Shipping as CreateOrder takes them (an absent field is none, or its default) ' +
        'and answers the order. Only an open order: 409 OrderNotOpen once it is confirmed or cancelled.',
      routes: [{ method: 'PUT', path: '/orders/{OrderId}' }],
      example: { OrderId: 3, ...ORDER_CONTENT_EXAMPLE },
      notFound: 'No order with this OrderId.',
      permission: 'admin',
      request: requests.update,
      response: OrderView,
      writeWatermark: true,
      handle: async (req) => toOrderView(await writes.run(updateOrderWrite, orderUpdateOf(req, defaultCurrency))),
    }),
    defineOperation({
      name: 'GetOrder',
      tag: 'Orders',
      summary: 'An order: status, customer and confirmation data (bank data masked without the permission bank).',
      description:
        'IBAN, BIC, SEPA mandate reference and account holder are masked (DE89********3000, COBA****XXX, ***) unless the key has the permission bank.',
      routes: [{ method: 'GET', path: '/orders/{OrderId}' }],
      example: { OrderId: 1 },
      notFound: 'No order with this OrderId.',
      permission: 'all',
      request: OrderIdRequest('GetOrder'),
      response: OrderView,
      async handle(req, call) {
        const order = await getOrder(store, req.OrderId);
        const bank = bankDataFor(call.key);
        // Masked reads, most of them, skip even the call.
        if (bank === 'revealed') await auditBankRead(writes, call.key.id, bank, [order]);
        // A key without `bank` in the default form gets the text kept with the confirmation.
        return new KeptText(() => toOrderView(order, bank), bank === 'masked' ? shownOrderText(order) : undefined);
      },
    }),
    defineOperation({
      name: 'SearchOrders',
      tag: 'Orders',
      summary: 'The order feed: orders by id, number, customer, status, SKU, currency or modification date, for incremental sync.',
      description:
        'Filters combine with AND; none returns every order. Ordered by modification time (moved by create, confirm and cancel), ' +
        'then OrderId. The whole result is streamed unless Take/Skip page it. The X-Sync-Watermark response header is the ' +
        'LastModifiedAfter of the next sync: no change committed after it is missed. A page cut by Take carries X-Sync-Cursor: pass it as ' +
        'Cursor to continue right after the page. Bank data is masked as in GetOrder ' +
        'unless the key has the permission bank.',
      routes: [
        { method: 'GET', path: '/orders/' },
        { method: 'POST', path: '/orders/search' },
      ],
      example: { Statuses: ['Confirmed'], Take: 100 },
      permission: 'all',
      request: SearchOrdersRequest,
      response: Type.Array(OrderFeedItem),
      async handle(req, call) {
        const feed = await routeRead(store, minWatermarkOf(call, 'SearchOrders'), (s) => searchOrders(s, req));
        call.setHeader(SYNC_WATERMARK_HEADER, formatWireDate(feed.watermark, call.dateStyle));
        if (feed.cursor) call.setHeader(SYNC_CURSOR_HEADER, feed.cursor);
        const bank = bankDataFor(call.key);
        const date = dateText(call.dateStyle);
        const view = (order: ShownOrder) => toFeedItem(order, bank, date);
        // A key without `bank` in the default form gets the kept shown texts (order.shown-form.ts).
        const chunks = (writtenAs: 'view' | 'text') =>
          audited(writes, feed.orders(writtenAs === 'text' ? 'shown' : 'stored'), call.key.id, bank);
        return new StreamedArray(chunks, view, bank === 'masked' ? shownFeedItemText : undefined);
      },
    }),
    defineOperation({
      name: 'CancelOrder',
      tag: 'Operator',
      summary: 'Cancel an open or confirmed order (operator); cancelling again changes nothing.',
      description: 'A confirmed order with shipments → 409 OrderShipped (record a return instead).',
      routes: [{ method: 'POST', path: '/orders/{OrderId}/cancel' }],
      example: { OrderId: 2 },
      notFound: 'No order with this OrderId.',
      permission: 'admin',
      request: OrderIdRequest('CancelOrder'),
      response: OrderView,
      writeWatermark: true,
      handle: async (req) => toOrderView(await writes.run(cancelOrderWrite, req.OrderId)),
    }),
  ];
}

/** The feed's chunks, each recorded in the audit log before it is shown where it reveals bank data. */
async function* audited(writes: WriteDoor, orders: AsyncIterable<ShownOrder[]>, keyId: string, bank: BankData) {
  for await (const chunk of orders) {
    if (bank === 'revealed') await auditBankRead(writes, keyId, bank, chunk);
    yield chunk;
  }
}
