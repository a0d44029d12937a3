/** The events module as the rest of the service sees it: the feed, the outbox and an erased customer's payloads. */
export { scrubCustomerEvents, type EventDataEraser } from './event.erasure.js';
export { EventSchema, eventOperations } from './event.operations.js';
export { customerEvents, eventWrites, eventsBySequence, oldestEvent, purgeEventsWrite, toEvent } from './event.service.js';
export { createOutbox, newEventId, type EventData, type EventSource, type EventSources } from './event.outbox.js';
