// Request and response DTOs written by hand, the way a ServiceStack user writes them (or keeps the
// ones "Add ServiceStack Reference" once produced): classes with getTypeName(), getMethod() and
// createResponse(). They are deliberately independent of the server's generators.
import type { IReturn, IReturnVoid } from '@servicestack/client';

export class Customer {
  public CustomerId!: string;
  public ExternalId!: string | null;
  public Salutation!: string | null;
  public FirstName!: string | null;
  public LastName!: string | null;
  public PostalCode!: string | null;
  public City!: string | null;
  public Country!: string | null;
  public Street!: string | null;
  public StreetNumber!: string | null;
  public Company!: string | null;
  public Company2!: string | null;
  public AdditionToAddress!: string | null;
  public Quarter!: string | null;
  public constructor(init?: Partial<Customer>) {
    Object.assign(this, init);
  }
}

export class OrderPayment {
  public Amount?: number;
  public Name?: string;
  public Date?: string;
  public ReferenceNumber?: string;
  public FinancialAccountNumber?: string;
  public Type?: string;
  public constructor(init?: Partial<OrderPayment>) {
    Object.assign(this, init);
  }
}

export class ConfirmOrderResponse {
  public OrderId!: number;
  public OrderNumber!: string;
  public Status!: string;
  public CustomerId!: string;
  public ConfirmedAt!: string;
}

export class CreateOrderResponse {
  public OrderId!: number;
  public OrderNumber!: string;
  public Status!: string;
}

export class Order {
  public OrderId!: number;
  public OrderNumber!: string;
  public Status!: string;
  public CustomerId!: string | null;
  public CreatedAt!: string;
  public ConfirmedAt!: string | null;
  public CancelledAt!: string | null;
  public Note!: string | null;
  public Confirmation!: Record<string, unknown> | null;
  public Currency!: string;
  public PricesIncludeTax!: boolean;
  public Lines!: OrderLine[];
  public Shipping!: Record<string, unknown> | null;
  public Totals!: Record<string, unknown>;
}

export class OrderLineRequest {
  public Sku?: string;
  public Name?: string;
  public Quantity?: number;
  public UnitPrice?: number;
  public TaxRate?: number;
  public Discount?: number;
  public constructor(init?: Partial<OrderLineRequest>) {
    Object.assign(this, init);
  }
}

export class OrderLine extends OrderLineRequest {
  public LineNumber!: number;
  public Net!: number;
  public Tax!: number;
  public Gross!: number;
}

export class OrderFeedItem extends Order {
  public LastModified!: string;
}

export class CustomField {
  public Number!: number;
  public Label!: string;
  public IsReadOnly!: boolean;
  public FieldType!: string;
  public Value!: unknown;
  public AllowedValues!: string[] | null;
  public Sort!: number;
}

export class CustomFieldDefinition {
  public Number!: number;
  public Label!: string;
  public FieldType!: string;
  public IsReadOnly!: boolean;
  public AllowedValues!: string[] | null;
  public Sort!: number;
}

export class CustomFieldValue {
  public Number?: number;
  public Value?: unknown;
  public constructor(init?: Partial<CustomFieldValue>) {
    Object.assign(this, init);
  }
}

// @Route("/customer/", "GET,POST")
export class SearchCustomers implements IReturn<Customer[]> {
  public Identifiers?: string[];
  public LastModifiedAfter?: string;
  public Take?: number;
  public Skip?: number;
  public Cursor?: string;
  public Query?: string;
  public constructor(init?: Partial<SearchCustomers>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'SearchCustomers';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<Customer>();
  }
}

// @Route("/customer/{CustomerId}", "PUT")
export class UpsertCustomer implements IReturn<Customer> {
  public CustomerId?: string;
  public ExternalId?: string;
  public Salutation?: string;
  public FirstName?: string;
  public LastName?: string;
  public PostalCode?: string;
  public City?: string;
  public Country?: string;
  public Street?: string;
  public StreetNumber?: string;
  public Company?: string;
  public Company2?: string;
  public AdditionToAddress?: string;
  public Quarter?: string;
  public constructor(init?: Partial<UpsertCustomer>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'UpsertCustomer';
  }
  public getMethod() {
    return 'PUT';
  }
  public createResponse() {
    return new Customer();
  }
}

// @Route("/orders/{OrderId}/confirm", "POST")
export class ConfirmOrder implements IReturn<ConfirmOrderResponse> {
  public OrderId?: number;
  public CustomerId?: string;
  public CustomerSalutation?: string;
  public CustomerFirstName?: string;
  public CustomerLastName?: string;
  public CustomerPostalCode?: string;
  public CustomerCity?: string;
  public CustomerCountry?: string;
  public CustomerStreet?: string;
  public CustomerStreetNumber?: string;
  public CustomerCompany?: string;
  public CustomerCompany2?: string;
  public AdditionToAddress?: string;
  public DeliveryAddressSalutation?: string;
  public DeliveryAddressFirstName?: string;
  public DeliveryAddressLastName?: string;
  public DeliveryAddressPostalCode?: string;
  public DeliveryAddressCity?: string;
  public DeliveryAddressCountry?: string;
  public DeliveryAddressStreet?: string;
  public DeliveryAddressStreetNumber?: string;
  public DeliveryAddressCompany?: string;
  public AdditionToDeliveryAddress?: string;
  public CustomerIban?: string;
  public CustomerBic?: string;
  public CustomerSepaMandateReference?: string;
  public CustomerSepaMandateDate?: string;
  public AccountHolderName?: string;
  public CustomerEMail?: string;
  public Note?: string;
  public PaymentMethod?: string;
  public ShippingMethod?: string;
  public ExternalCustomerId?: string;
  public DeliveryDate?: string;
  public OrderNumber?: string;
  public Payment?: OrderPayment;
  public MediaCode?: string;
  public constructor(init?: Partial<ConfirmOrder>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'ConfirmOrder';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new ConfirmOrderResponse();
  }
}

// @Route("/orders", "POST")
export class CreateOrder implements IReturn<CreateOrderResponse> {
  public OrderNumber?: string;
  public Note?: string;
  public Currency?: string;
  public PricesIncludeTax?: boolean;
  public Lines?: OrderLineRequest[];
  public Shipping?: { Name?: string; Amount?: number; TaxRate?: number };
  public constructor(init?: Partial<CreateOrder>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateOrder';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new CreateOrderResponse();
  }
}

// @Route("/orders/{OrderId}", "GET")
export class GetOrder implements IReturn<Order> {
  public OrderId?: number;
  public constructor(init?: Partial<GetOrder>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetOrder';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Order();
  }
}

// @Route("/orders/", "GET") @Route("/orders/search", "POST")
export class SearchOrders implements IReturn<OrderFeedItem[]> {
  public OrderIds?: number[];
  public OrderNumbers?: string[];
  public CustomerIds?: string[];
  public Statuses?: string[];
  public Skus?: string[];
  public Currencies?: string[];
  public PaymentStatuses?: string[];
  public FulfillmentStatuses?: string[];
  public LastModifiedAfter?: string;
  public Take?: number;
  public Skip?: number;
  public Query?: string;
  public Cursor?: string;
  public constructor(init?: Partial<SearchOrders>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'SearchOrders';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<OrderFeedItem>();
  }
}

// @Route("/orders/{OrderId}/cancel", "POST")
export class UpdateOrder implements IReturn<Order> {
  public OrderId?: number;
  public Note?: string;
  public Currency?: string;
  public PricesIncludeTax?: boolean;
  public Lines?: OrderLineRequest[];
  public Shipping?: { Name?: string; Amount?: number; TaxRate?: number };
  public constructor(init?: Partial<UpdateOrder>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'UpdateOrder';
  }
  public getMethod() {
    return 'PUT';
  }
  public createResponse() {
    return new Order();
  }
}

export class CancelOrder implements IReturn<Order> {
  public OrderId?: number;
  public constructor(init?: Partial<CancelOrder>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CancelOrder';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new Order();
  }
}

export class OrderPaymentRecord {
  public PaymentId!: number;
  public OrderId!: number;
  public Amount!: number;
  public Type!: string | null;
  public Name!: string | null;
  public ReferenceNumber!: string | null;
  public Date!: string;
}

export class OrderRefundRecord {
  public RefundId!: number;
  public OrderId!: number;
  public Amount!: number;
  public Reason!: string | null;
  public ReferenceNumber!: string | null;
  public Date!: string;
}

// @Route("/orders/{OrderId}/payments", "POST")
export class CreateOrderPayment implements IReturn<OrderPaymentRecord> {
  public OrderId?: number;
  public Amount?: number;
  public Type?: string;
  public Name?: string;
  public ReferenceNumber?: string;
  public Date?: string;
  public constructor(init?: Partial<CreateOrderPayment>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateOrderPayment';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new OrderPaymentRecord();
  }
}

// @Route("/orders/{OrderId}/refunds", "POST")
export class CreateOrderRefund implements IReturn<OrderRefundRecord> {
  public OrderId?: number;
  public Amount?: number;
  public Reason?: string;
  public ReferenceNumber?: string;
  public Date?: string;
  public constructor(init?: Partial<CreateOrderRefund>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateOrderRefund';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new OrderRefundRecord();
  }
}

export class OrderRecordLine {
  public LineNumber!: number;
  public Quantity!: number;
}

export class OrderShipmentRecord {
  public ShipmentId!: number;
  public OrderId!: number;
  public Lines!: OrderRecordLine[];
  public Carrier!: string | null;
  public TrackingNumber!: string | null;
  public TrackingUrl!: string | null;
  public ShippedAt!: string;
}

export class OrderReturnRecord {
  public ReturnId!: number;
  public OrderId!: number;
  public Lines!: OrderRecordLine[];
  public Reason!: string | null;
  public ReceivedAt!: string;
}

// @Route("/orders/{OrderId}/shipments", "POST")
export class CreateOrderShipment implements IReturn<OrderShipmentRecord> {
  public OrderId?: number;
  public Lines?: Array<{ LineNumber: number; Quantity: number }>;
  public Carrier?: string;
  public TrackingNumber?: string;
  public TrackingUrl?: string;
  public ShippedAt?: string;
  public constructor(init?: Partial<CreateOrderShipment>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateOrderShipment';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new OrderShipmentRecord();
  }
}

// @Route("/orders/{OrderId}/returns", "POST")
export class CreateOrderReturn implements IReturn<OrderReturnRecord> {
  public OrderId?: number;
  public Lines?: Array<{ LineNumber: number; Quantity: number }>;
  public Reason?: string;
  public ReceivedAt?: string;
  public constructor(init?: Partial<CreateOrderReturn>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateOrderReturn';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new OrderReturnRecord();
  }
}

// @Route("/customer/{CustomerId}/customfields/", "GET,POST")
// @Route("/customer/{CustomerId}/customfields/{CustomFieldNumbers}", "GET")
export class GetCustomerCustomFields implements IReturn<CustomField[]> {
  public CustomerId?: string;
  public CustomFieldNumbers?: number[];
  public constructor(init?: Partial<GetCustomerCustomFields>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetCustomerCustomFields';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<CustomField>();
  }
}

// @Route("/customer/{CustomerId}/customfields/{Number}", "PUT")
export class SetCustomerCustomField implements IReturn<CustomField> {
  public CustomerId?: string;
  public Number?: number;
  public Value?: unknown;
  public constructor(init?: Partial<SetCustomerCustomField>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'SetCustomerCustomField';
  }
  public getMethod() {
    return 'PUT';
  }
  public createResponse() {
    return new CustomField();
  }
}

// @Route("/customer/{CustomerId}/customfields/", "PATCH")
export class PatchCustomerCustomFields implements IReturn<CustomField[]> {
  public CustomerId?: string;
  public Values?: CustomFieldValue[];
  public constructor(init?: Partial<PatchCustomerCustomFields>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'PatchCustomerCustomFields';
  }
  public getMethod() {
    return 'PATCH';
  }
  public createResponse() {
    return new Array<CustomField>();
  }
}

// @Route("/customfields/", "GET")
export class GetCustomFieldDefinitions implements IReturn<CustomFieldDefinition[]> {
  public constructor(init?: Partial<GetCustomFieldDefinitions>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetCustomFieldDefinitions';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<CustomFieldDefinition>();
  }
}

// @Route("/customfields/{Number}", "PUT")
export class DefineCustomField implements IReturn<CustomFieldDefinition> {
  public Number?: number;
  public Label?: string;
  public FieldType?: string;
  public IsReadOnly?: boolean;
  public AllowedValues?: string[] | null;
  public Sort?: number;
  public constructor(init?: Partial<DefineCustomField>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'DefineCustomField';
  }
  public getMethod() {
    return 'PUT';
  }
  public createResponse() {
    return new CustomFieldDefinition();
  }
}

// @Route("/customfields/{Number}", "DELETE")
export class DeleteCustomField implements IReturnVoid {
  public Number?: number;
  public constructor(init?: Partial<DeleteCustomField>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'DeleteCustomField';
  }
  public getMethod() {
    return 'DELETE';
  }
  public createResponse() {}
}

export class AuditEntry {
  public Sequence!: number;
  public At!: string;
  public KeyId!: string;
  public Action!: string;
  public ResourceType!: string;
  public ResourceIds!: string[];
}

// @Route("/audit/", "GET")
export class GetAuditLog implements IReturn<AuditEntry[]> {
  public After?: number;
  public Take?: number;
  public constructor(init?: Partial<GetAuditLog>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetAuditLog';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<AuditEntry>();
  }
}

export class Event {
  public Id!: string;
  public Type!: string;
  public Sequence!: number;
  public OccurredAt!: string;
  public Data!: unknown;
}

// @Route("/events/", "GET")
export class GetEvents implements IReturn<Event[]> {
  public After?: number;
  public Types?: string[];
  public Take?: number;
  public constructor(init?: Partial<GetEvents>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetEvents';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<Event>();
  }
}

export class WebhookEndpoint {
  public Id!: string;
  public Url!: string;
  public Events!: string[];
  public Description!: string;
  public Enabled!: boolean;
  public DisabledReason!: string | null;
  public CreatedAt!: string;
}

export class WebhookEndpointWithSecret extends WebhookEndpoint {
  public Secret!: string;
}

export class WebhookDelivery {
  public EventId!: string;
  public Attempt!: number;
  public Status!: string;
  public ResponseCode!: number | null;
  public DurationMs!: number | null;
  public At!: string | null;
  public NextAttemptAt!: string | null;
  public Error!: string | null;
}

export class ReplayWebhookResponse {
  public Id!: string;
  public Queued!: number;
}

// @Route("/webhooks", "POST")
export class CreateWebhook implements IReturn<WebhookEndpointWithSecret> {
  public Url?: string;
  public Events?: string[];
  public Description?: string;
  public constructor(init?: Partial<CreateWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateWebhook';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new WebhookEndpointWithSecret();
  }
}

// @Route("/webhooks", "GET")
export class ListWebhooks implements IReturn<WebhookEndpoint[]> {
  public constructor(init?: Partial<ListWebhooks>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'ListWebhooks';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<WebhookEndpoint>();
  }
}

// @Route("/webhooks/{Id}", "GET")
export class GetWebhook implements IReturn<WebhookEndpoint> {
  public Id?: string;
  public constructor(init?: Partial<GetWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetWebhook';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new WebhookEndpoint();
  }
}

// @Route("/webhooks/{Id}", "PUT")
export class UpdateWebhook implements IReturn<WebhookEndpoint> {
  public Id?: string;
  public Url?: string;
  public Events?: string[];
  public Description?: string;
  public Enabled?: boolean;
  public constructor(init?: Partial<UpdateWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'UpdateWebhook';
  }
  public getMethod() {
    return 'PUT';
  }
  public createResponse() {
    return new WebhookEndpoint();
  }
}

// @Route("/webhooks/{Id}", "DELETE")
export class DeleteWebhook implements IReturnVoid {
  public Id?: string;
  public constructor(init?: Partial<DeleteWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'DeleteWebhook';
  }
  public getMethod() {
    return 'DELETE';
  }
  public createResponse() {}
}

// @Route("/webhooks/{Id}/rotate-secret", "POST")
export class RotateWebhookSecret implements IReturn<WebhookEndpointWithSecret> {
  public Id?: string;
  public constructor(init?: Partial<RotateWebhookSecret>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'RotateWebhookSecret';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new WebhookEndpointWithSecret();
  }
}

// @Route("/webhooks/{Id}/deliveries", "GET")
export class GetWebhookDeliveries implements IReturn<WebhookDelivery[]> {
  public Id?: string;
  public Take?: number;
  public constructor(init?: Partial<GetWebhookDeliveries>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetWebhookDeliveries';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<WebhookDelivery>();
  }
}

// @Route("/webhooks/{Id}/test", "POST")
export class TestWebhook implements IReturn<WebhookDelivery> {
  public Id?: string;
  public constructor(init?: Partial<TestWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'TestWebhook';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new WebhookDelivery();
  }
}

// @Route("/webhooks/{Id}/replay", "POST")
export class ReplayWebhook implements IReturn<ReplayWebhookResponse> {
  public Id?: string;
  public After?: number;
  public EventIds?: string[];
  public constructor(init?: Partial<ReplayWebhook>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'ReplayWebhook';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new ReplayWebhookResponse();
  }
}

export class CustomerDataExport {
  public Customer!: Customer;
  public CustomFields!: CustomField[];
  public Orders!: OrderFeedItem[];
  public Events!: Event[];
}

export class EraseCustomerResponse {
  public CustomerId!: string;
  public ErasedAt!: string;
}

// @Route("/customer/{CustomerId}/export", "GET")
export class ExportCustomerData implements IReturn<CustomerDataExport> {
  public CustomerId?: string;
  public constructor(init?: Partial<ExportCustomerData>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'ExportCustomerData';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new CustomerDataExport();
  }
}

// @Route("/customer/{CustomerId}/erase", "POST")
export class EraseCustomer implements IReturn<EraseCustomerResponse> {
  public CustomerId?: string;
  public constructor(init?: Partial<EraseCustomer>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'EraseCustomer';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new EraseCustomerResponse();
  }
}

export class ApiKey {
  public Id!: string;
  public Name!: string;
  public Permissions!: string[];
  public CreatedAt!: string;
  public RevokedAt!: string | null;
  public LastUsedAt!: string | null;
}

export class ApiKeyWithKey extends ApiKey {
  public Key!: string;
}

export class CurrentKey {
  public Id!: string;
  public Name!: string;
  public Permissions!: string[];
  public CreatedAt!: string;
  public LastUsedAt!: string | null;
}

// @Route("/keys/current", "GET")
export class GetCurrentKey implements IReturn<CurrentKey> {
  public constructor(init?: Partial<GetCurrentKey>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'GetCurrentKey';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new CurrentKey();
  }
}

// @Route("/keys", "GET")
export class ListKeys implements IReturn<ApiKey[]> {
  public constructor(init?: Partial<ListKeys>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'ListKeys';
  }
  public getMethod() {
    return 'GET';
  }
  public createResponse() {
    return new Array<ApiKey>();
  }
}

// @Route("/keys", "POST")
export class CreateKey implements IReturn<ApiKeyWithKey> {
  public Name?: string;
  public Permissions?: string[];
  public constructor(init?: Partial<CreateKey>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'CreateKey';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new ApiKeyWithKey();
  }
}

// @Route("/keys/{Id}/revoke", "POST")
export class RevokeKey implements IReturn<ApiKey> {
  public Id?: string;
  public constructor(init?: Partial<RevokeKey>) {
    Object.assign(this, init);
  }
  public getTypeName() {
    return 'RevokeKey';
  }
  public getMethod() {
    return 'POST';
  }
  public createResponse() {
    return new ApiKey();
  }
}
