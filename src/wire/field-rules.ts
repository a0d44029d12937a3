import { ValidationError, type FieldError } from '../errors.js';

// Simple but strict enough: one @, no spaces, a dot in the domain, no empty labels.
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** FluentValidation's NotEmpty: missing, null, blank text or an empty list. */
export const isEmpty = (value: unknown): boolean =>
  value === undefined ||
  value === null ||
  (typeof value === 'string' && value.trim() === '') ||
  (Array.isArray(value) && value.length === 0);

/**
 * Collects FluentValidation-style failures for one request. Each field is reported once, with its
 * first failing rule; `throwIfAny()` raises them all together.
 */
export class FieldRules {
  readonly errors: FieldError[] = [];
  // Made at the first failure: most requests pass, and every one makes a FieldRules.
  #failed: Set<string> | undefined;

  fail(fieldName: string, errorCode: string, message: string): this {
    const failed = (this.#failed ??= new Set<string>());
    if (!failed.has(fieldName)) {
      failed.add(fieldName);
      this.errors.push({ errorCode, fieldName, message });
    }
    return this;
  }

  hasFailed(fieldName: string): boolean {
    return this.#failed !== undefined && this.#failed.has(fieldName);
  }

  notEmpty(fieldName: string, value: unknown): this {
    return isEmpty(value) ? this.fail(fieldName, 'NotEmpty', `'${fieldName}' must not be empty.`) : this;
  }

  notNull(fieldName: string, value: unknown): this {
    return value === undefined || value === null ? this.fail(fieldName, 'NotNull', `'${fieldName}' must not be empty.`) : this;
  }

  maxLength(fieldName: string, value: unknown, max: number): this {
    if (typeof value === 'string' && value.length > max) {
      this.fail(
        fieldName,
        'Length',
        `The length of '${fieldName}' must be ${max} characters or fewer. You entered ${value.length} characters.`,
      );
    }
    return this;
  }

  email(fieldName: string, value: unknown): this {
    if (typeof value === 'string' && value !== '' && !EMAIL.test(value))
      this.fail(fieldName, 'Email', `'${fieldName}' is not a valid email address.`);
    return this;
  }

  oneOf(fieldName: string, value: unknown, allowed: readonly unknown[]): this {
    if (value !== undefined && value !== null && !allowed.includes(value)) {
      this.fail(fieldName, 'Enum', `'${fieldName}' has a range of values which does not include '${String(value).slice(0, 40)}'.`);
    }
    return this;
  }

  greaterThan(fieldName: string, value: unknown, min: number): this {
    if (typeof value === 'number' && value <= min) this.fail(fieldName, 'GreaterThan', `'${fieldName}' must be greater than '${min}'.`);
    return this;
  }

  between(fieldName: string, value: unknown, min: number, max: number): this {
    if (typeof value === 'number' && (value < min || value > max)) {
      this.fail(fieldName, 'InclusiveBetween', `'${fieldName}' must be between ${min} and ${max}. You entered ${value}.`);
    }
    return this;
  }

  atLeast(fieldName: string, value: unknown, min: number): this {
    if (typeof value === 'number' && value < min)
      this.fail(fieldName, 'GreaterThanOrEqual', `'${fieldName}' must be greater than or equal to '${min}'.`);
    return this;
  }

  atMost(fieldName: string, value: unknown, max: number): this {
    if (typeof value === 'number' && value > max)
      this.fail(fieldName, 'LessThanOrEqual', `'${fieldName}' must be less than or equal to '${max}'.`);
    return this;
  }

  maxItems(fieldName: string, value: unknown, max: number): this {
    if (Array.isArray(value) && value.length > max)
      this.fail(fieldName, 'Length', `'${fieldName}' must have ${max} items or fewer. You sent ${value.length}.`);
    return this;
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw new ValidationError(this.errors);
  }
}
