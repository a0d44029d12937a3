import type { Store } from '../store/store.js';
import { defineOperation, type AnyOperation } from '../wire/operation.js';
import type { WriteDoor } from '../writes/write-door.js';
import { keyOf } from './order-life.operations.js';
import { returnView, shipmentView } from './order-life.views.js';
import { OrderReturnRecord, OrderShipmentRecord } from './order-life.schemas.js';
import { CreateReturnRequest, CreateShipmentRequest } from './order-shipments.schemas.js';
import { OrderShipmentsService } from './order-shipments.service.js';

const RETRIES =
  'An Idempotency-Key header (kept 24 h) replays the first answer instead of recording again; the same key with a different body ' +
  'is a 422, and 409 while the first is still running.';

/** What a warehouse reports back about a confirmed order's goods (permission fulfilment, or admin). */
export function orderShipmentOperations(store: Store, writes: WriteDoor): AnyOperation[] {
  const shipments = new OrderShipmentsService(store, writes);
  return [
    defineOperation({
      name: 'CreateOrderShipment',
      tag: 'Fulfilment',
      summary: 'Record a shipment of a confirmed order: FulfillmentStatus follows.',
      description:
        'Lines omitted: every quantity not yet shipped. More of a line than is left to ship → 400 on Lines[i].Quantity; a LineNumber ' +
        `the order lacks → 400 on Lines[i].LineNumber; nothing left to ship → 409 NothingToShip; 409 OrderNotConfirmed for an open or cancelled order. ${RETRIES}`,
      routes: [{ method: 'POST', path: '/orders/{OrderId}/shipments' }],
      example: {
        OrderId: 1,
        Carrier: 'DHL',
        TrackingNumber: '00340434161094042557',
        TrackingUrl: 'https://www.dhl.de/track?id=00340434161094042557',
      },
      notFound: 'No order with this OrderId.',
      permission: 'fulfilment',
      request: CreateShipmentRequest,
      response: OrderShipmentRecord,
      successStatus: 201,
      writeWatermark: true,
      async handle(req, call) {
        const { record, replayed } = await shipments.ship(req, keyOf(call));
        if (replayed) call.setHeader('Idempotent-Replayed', 'true');
        return shipmentView(record);
      },
    }),
    defineOperation({
      name: 'CreateOrderReturn',
      tag: 'Fulfilment',
      summary: 'Record a return of a confirmed order: at most what was shipped and not yet returned of each line.',
      description:
        'More of a line than was shipped and not yet returned → 400 on Lines[i].Quantity; a LineNumber the order lacks → 400 on ' +
        `Lines[i].LineNumber; 409 OrderNotConfirmed for an open or cancelled order. ${RETRIES}`,
      routes: [{ method: 'POST', path: '/orders/{OrderId}/returns' }],
      example: { OrderId: 1, Lines: [{ LineNumber: 1, Quantity: 1 }], Reason: 'Wrong size' },
      notFound: 'No order with this OrderId.',
      permission: 'fulfilment',
      request: CreateReturnRequest,
      response: OrderReturnRecord,
      successStatus: 201,
      writeWatermark: true,
      async handle(req, call) {
        const { record, replayed } = await shipments.return(req, keyOf(call));
        if (replayed) call.setHeader('Idempotent-Replayed', 'true');
        return returnView(record);
      },
    }),
  ];
}
