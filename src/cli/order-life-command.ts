import { CreatePaymentRequest, CreateRefundRequest, OrderLifeService, paymentView, refundView } from '../orders/index.js';
import { parseWireDate } from '../wire/dates.js';
import { validRequest } from '../wire/request-validation.js';
import { toJson } from '../wire/serializer.js';
import { parseCommandArgs, refusalInCliTerms, UsageError, type RunCommand } from './command.js';
import { withStore } from './with-store.js';

/** The one OrderId a command names, as a number (the request's rules then check it as for HTTP). */
export function orderIdOf(positionals: readonly string[]): number {
  const [text, ...more] = positionals;
  if (text === undefined || more.length > 0) throw new UsageError('give one OrderId');
  const id = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(id)) throw new UsageError(`'${text}' is not an OrderId`);
  return id;
}

/** `--amount 12.30`: a decimal number (its range and decimals are the request's rules). */
function amountOf(text: string | undefined): number {
  if (text === undefined) throw new UsageError('--amount is required');
  if (!/^-?\d+(\.\d+)?$/.test(text.trim())) throw new UsageError(`--amount: '${text}' is not a decimal number`);
  return Number(text);
}

export function dateOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = parseWireDate(text);
  if (ms === undefined) throw new UsageError(`--date: '${text}' is not a date`);
  return ms;
}

/** Drops the options not given, so that the request has only what was said. */
export const given = (fields: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));

export const ordersPayCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: {
      amount: { type: 'string' },
      type: { type: 'string' },
      name: { type: 'string' },
      reference: { type: 'string' },
      date: { type: 'string' },
    },
  });
  const request = given({
    OrderId: orderIdOf(positionals),
    Amount: amountOf(values.amount),
    Type: values.type,
    Name: values.name,
    ReferenceNumber: values.reference,
    Date: dateOf(values.date),
  });
  const { record } = await withStore(config, (store, writes) =>
    refusalInCliTerms(() => new OrderLifeService(store, writes).pay(validRequest(CreatePaymentRequest, request))),
  );
  process.stdout.write(`${toJson(paymentView(record), config.jsonCasing, config.dateFormat, true)}\n`);
};

export const ordersRefundCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: { amount: { type: 'string' }, reason: { type: 'string' }, reference: { type: 'string' }, date: { type: 'string' } },
  });
  const request = given({
    OrderId: orderIdOf(positionals),
    Amount: amountOf(values.amount),
    Reason: values.reason,
    ReferenceNumber: values.reference,
    Date: dateOf(values.date),
  });
  const { record } = await withStore(config, (store, writes) =>
    refusalInCliTerms(() => new OrderLifeService(store, writes).refund(validRequest(CreateRefundRequest, request))),
  );
  process.stdout.write(`${toJson(refundView(record), config.jsonCasing, config.dateFormat, true)}\n`);
};
