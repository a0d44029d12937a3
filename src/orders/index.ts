/**
 * The orders module as the rest of the service sees it: its operations and writes, the rows it
 * stamps, its events' payloads, what an erasure asks of it, and its bank-data rule.
 */
export { auditBankRead, bankDataFor } from './order.bank-access.js';
export { eraseOrdersOf, erasedOrderEventData, PERSONAL_ORDER_COLUMNS } from './order.erasure.js';
export { PERSONAL_PAYMENT_COLUMNS, PERSONAL_REFUND_COLUMNS } from './order-life.erasure.js';
export { orderEventSource } from './order.events.js';
export { exportOrders, type OrderExportFormat } from './order.export.js';
export { importOrders } from './order.import.js';
export { toFeedItem, type BankData } from './order.mapping.js';
export { orderOperations } from './order.operations.js';
export { orderLifeOperations } from './order-life.operations.js';
export { paymentView, refundView, returnView, shipmentView } from './order-life.views.js';
export { CreatePaymentRequest, CreateRefundRequest } from './order-life.schemas.js';
export { OrderLifeService } from './order-life.service.js';
export { orderShipmentOperations } from './order-shipments.operations.js';
export { CreateReturnRequest, CreateShipmentRequest } from './order-shipments.schemas.js';
export { OrderShipmentsService } from './order-shipments.service.js';
export type { ShownOrder } from './order.repository.js';
import { orderRepository } from './order.repository.js';
/** Moves the modification stamp of orders: the write door calls it once per transaction. */
export const stampOrders = orderRepository.touch;
export { OrderFeedItem } from './order.schemas.js';
export { ordersOfCustomer } from './order.search.js';
export { seedOrders } from './order.seed.js';
export { orderWrites } from './order.writes.js';
