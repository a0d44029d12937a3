/**
 * The longest text a customer field (CustomerId included) may hold, in characters. Shared by the
 * customer rules and the custom-field routes, which check a CustomerId the same way; it lives below
 * both modules so that neither imports the other for it.
 */
export const MAX_FIELD_LENGTH = 255;
