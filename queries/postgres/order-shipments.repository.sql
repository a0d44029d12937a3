-- PostgreSQL: the SQL of src/orders/order-shipments.repository.ts. Written by `npm run sql:snapshot`; do not edit.

-- orderShipmentsRepository.lineTallies(orderId)
select ol.line_number, ol.quantity, coalesce(sh.shipped, 0) as shipped, coalesce(rt.returned, 0) as returned from order_lines ol left join (select sl.line_number, sum(sl.quantity) as shipped from order_shipments s join order_shipment_lines sl on sl.shipment_id = s.shipment_id where s.order_id = $1 group by sl.line_number) sh on sh.line_number = ol.line_number left join (select rl.line_number, sum(rl.quantity) as returned from order_returns r join order_return_lines rl on rl.return_id = r.return_id where r.order_id = $2 group by rl.line_number) rt on rt.line_number = ol.line_number where ol.order_id = $3 order by ol.line_number;
-- parameters: [1,1,1]

-- orderShipmentsRepository.insertShipment(shipment: 2 lines)
insert into order_shipments (order_id, carrier, tracking_number, tracking_url, shipped_at, created_at) values ($1, $2, $3, $4, $5, $6) returning shipment_id, order_id, carrier, tracking_number, tracking_url, shipped_at, created_at;
-- parameters: [1,"DHL","0034","https://t.example/0034",1700000000000,1700000000000]

-- orderShipmentsRepository.insertReturn(return: 2 lines)
insert into order_returns (order_id, reason, received_at, created_at) values ($1, $2, $3, $4) returning return_id, order_id, reason, received_at, created_at;
-- parameters: [1,"Wrong size",1700000000000,1700000000000]

-- orderShipmentsRepository.setFulfillment(orderId, status)
update orders set fulfillment_status = $1 where order_id = $2;
-- parameters: ["PartiallyFulfilled",1]
update order_words set states = (select '~s' || lower(status) || ' ~p' || lower(payment_status) || ' ~f' || lower(fulfillment_status) from orders where orders.order_id = $1) where order_id = $2;
-- parameters: [1,1]

-- orderShipmentsRepository.findShipment(shipmentId)
select shipment_id, order_id, carrier, tracking_number, tracking_url, shipped_at, created_at from order_shipments where shipment_id = $1;
-- parameters: [1]

-- orderShipmentsRepository.findReturn(returnId)
select return_id, order_id, reason, received_at, created_at from order_returns where return_id = $1;
-- parameters: [1]

-- orderShipmentsRepository.hasShipments(orderId)
select shipment_id from order_shipments where order_id = $1 limit 1;
-- parameters: [1]
