import { confirmOrderWrite } from './confirmation.service.js';
import { idempotencyWrites } from './idempotency.writes.js';
import { orderLifeWrites } from './order-life.service.js';
import { orderShipmentWrites } from './order-shipments.service.js';
import { cancelOrderWrite, createOrderWrite, updateOrderWrite } from './order.service.js';
import { importOrdersWrite } from './order.import.js';
import { seedOrdersWrite } from './order.seed.js';

/** Every write of the order module (see src/write-registry.ts). */
export const orderWrites = [
  createOrderWrite,
  updateOrderWrite,
  cancelOrderWrite,
  confirmOrderWrite,
  seedOrdersWrite,
  importOrdersWrite,
  ...idempotencyWrites,
  ...orderLifeWrites,
  ...orderShipmentWrites,
];
