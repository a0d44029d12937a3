import type { JSX } from 'preact';
import type { CustomField } from '../api/types.js';
import { count } from '../format.js';

type InputProps = { id: string; 'aria-invalid'?: 'true'; 'aria-describedby'?: string; name?: string };

/** The value of an input as the API takes it for the field's type (null: cleared). */
export function readValue(field: CustomField, form: HTMLFormElement, name: string): unknown {
  const elements = form.elements;
  if (field.FieldType === 'MultiSelect') {
    const select = elements.namedItem(name) as HTMLSelectElement;
    return Array.from(select.selectedOptions).map((o) => o.value);
  }
  const input = elements.namedItem(name) as HTMLInputElement | HTMLSelectElement;
  if (field.FieldType === 'Boolean') {
    const v = input.value;
    return v === '' ? null : v === 'true';
  }
  const text = input.value.trim();
  if (text === '') return null;
  // Numbers go as typed: the API names the field when the text is not a number of its type.
  if (field.FieldType === 'Number' || field.FieldType === 'Decimal') return Number.isFinite(Number(text)) ? Number(text) : text;
  return text;
}

const dateOf = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 10) : '');

/**
 * An input per field type: text, number, decimal, yes/no, date, one choice, several choices. A
 * select's first choice is marked on its option (`selected`): Preact has no `defaultValue` for selects.
 */
export function CustomFieldInput({ field, props, disabled }: { field: CustomField; props: InputProps; disabled: boolean }): JSX.Element {
  const v = field.Value;
  // A number the key may not change is read, not typed: written as the browser's locale writes it
  // (a date input does that by itself). It is never sent back, so its text need not be the API's.
  if (disabled && (field.FieldType === 'Number' || field.FieldType === 'Decimal'))
    return (
      <input {...props} type="text" value={typeof v === 'number' ? count(v) : v === null || v === undefined ? '' : String(v)} disabled />
    );
  switch (field.FieldType) {
    case 'Number':
      return (
        <input
          {...props}
          type="number"
          step="1"
          inputMode="numeric"
          defaultValue={v === null || v === undefined ? '' : String(v)}
          disabled={disabled}
        />
      );
    case 'Decimal':
      return (
        <input
          {...props}
          type="text"
          inputMode="decimal"
          defaultValue={v === null || v === undefined ? '' : String(v)}
          disabled={disabled}
        />
      );
    case 'Boolean':
      return (
        <select {...props} disabled={disabled}>
          <option value="" selected={v !== true && v !== false}>
            —
          </option>
          <option value="true" selected={v === true}>
            Yes
          </option>
          <option value="false" selected={v === false}>
            No
          </option>
        </select>
      );
    case 'Date':
      return <input {...props} type="date" defaultValue={dateOf(v)} disabled={disabled} />;
    case 'Select':
      return (
        <select {...props} disabled={disabled}>
          <option value="" selected={typeof v !== 'string'}>
            —
          </option>
          {(field.AllowedValues ?? []).map((a) => (
            <option key={a} value={a} selected={a === v}>
              {a}
            </option>
          ))}
        </select>
      );
    case 'MultiSelect': {
      const chosen = new Set(Array.isArray(v) ? (v as string[]) : []);
      return (
        <select {...props} multiple size={Math.min(5, Math.max(2, field.AllowedValues?.length ?? 2))} disabled={disabled}>
          {(field.AllowedValues ?? []).map((a) => (
            <option key={a} value={a} selected={chosen.has(a)}>
              {a}
            </option>
          ))}
        </select>
      );
    }
    default:
      return (
        <input
          {...props}
          type="text"
          defaultValue={typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v)}
          disabled={disabled}
        />
      );
  }
}
