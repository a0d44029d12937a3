-- PostgreSQL: the SQL of src/orders/order-shipments.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderShipmentsRepository.lineTallies(orderId)
select ol.line_number, ol.quantity, coalesce((select sum(sl.quantity) from order_shipment_lines sl join order_shipments s on s.shipment_id = sl.shipment_id where s.order_id = ol.order_id and sl.line_number = ol.line_number), 0) as shipped, coalesce((select sum(rl.quantity) from order_return_lines rl join order_returns r on r.return_id = rl.return_id where r.order_id = ol.order_id and rl.line_number = ol.line_number), 0) as returned from order_lines ol where ol.order_id = $1 order by ol.line_number;
-- parameters: [1]

-- orderShipmentsRepository.insertShipment(shipment: 2 lines)
insert into order_shipments (order_id, carrier, tracking_number, tracking_url, shipped_at, created_at) values ($1, $2, $3, $4, $5, $6) returning shipment_id, order_id, carrier, tracking_number, tracking_url, shipped_at, created_at;
-- parameters: [1,"DHL","0034","https://t.example/0034",1700000000000,1700000000000]

-- orderShipmentsRepository.insertReturn(return: 2 lines)
insert into order_returns (order_id, reason, received_at, created_at) values ($1, $2, $3, $4) returning return_id, order_id, reason, received_at, created_at;
-- parameters: [1,"Wrong size",1700000000000,1700000000000]

-- orderShipmentsRepository.setFulfillment(orderId, status)
update orders set fulfillment_status = $1 where order_id = $2;
-- parameters: ["PartiallyFulfilled",1]

-- orderShipmentsRepository.findShipment(shipmentId)
select shipment_id, order_id, carrier, tracking_number, tracking_url, shipped_at, created_at from order_shipments where shipment_id = $1;
-- parameters: [1]

-- orderShipmentsRepository.findReturn(returnId)
select return_id, order_id, reason, received_at, created_at from order_returns where return_id = $1;
-- parameters: [1]

-- orderShipmentsRepository.hasShipments(orderId)
select shipment_id from order_shipments where order_id = $1 limit 1;
-- parameters: [1]
