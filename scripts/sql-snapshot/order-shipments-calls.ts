import * as orderShipmentsModule from '../../src/orders/order-shipments.repository.js';
import { call, objectCalls, STAMP, type SnapshotSource } from './snapshot-calls.js';

const { orderShipmentsRepository } = orderShipmentsModule;

const LINES = [
  { line_number: 1, quantity: 2 },
  { line_number: 3, quantity: 1 },
];
const SHIPMENT = {
  order_id: 1,
  carrier: 'DHL',
  tracking_number: '0034',
  tracking_url: 'https://t.example/0034',
  shipped_at: STAMP,
  created_at: STAMP,
  lines: LINES,
};
const RETURN = { order_id: 1, reason: 'Wrong size', received_at: STAMP, created_at: STAMP, lines: LINES };

/** orders/order-shipments.repository.ts: the shipments and returns of a confirmed order. */
export const orderShipmentsCalls: SnapshotSource = {
  source: 'src/orders/order-shipments.repository.ts',
  exports: orderShipmentsModule,
  calls: objectCalls('orderShipmentsRepository', orderShipmentsRepository, {
    lineTallies: [call('orderId', ({ db }) => orderShipmentsRepository.lineTallies(db, 1))],
    insertShipment: [call('shipment: 2 lines', ({ db }) => orderShipmentsRepository.insertShipment(db, SHIPMENT))],
    insertReturn: [call('return: 2 lines', ({ db }) => orderShipmentsRepository.insertReturn(db, RETURN))],
    setFulfillment: [call('orderId, status', ({ db }) => orderShipmentsRepository.setFulfillment(db, 1, 'PartiallyFulfilled'))],
    findShipment: [call('shipmentId', ({ db }) => orderShipmentsRepository.findShipment(db, 1))],
    findReturn: [call('returnId', ({ db }) => orderShipmentsRepository.findReturn(db, 1))],
    hasShipments: [call('orderId', ({ db }) => orderShipmentsRepository.hasShipments(db, 1))],
  }),
};
