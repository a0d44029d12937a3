import { CreateReturnRequest, CreateShipmentRequest, OrderShipmentsService, returnView, shipmentView } from '../orders/index.js';
import { validRequest } from '../wire/request-validation.js';
import { toJson } from '../wire/serializer.js';
import { parseCommandArgs, refusalInCliTerms, UsageError, type RunCommand } from './command.js';
import { dateOf, given, orderIdOf } from './order-life-command.js';
import { withStore } from './with-store.js';

/** `--line 2:3` (LineNumber 2, 3 units), once per line; the numbers' ranges are the request's rules. */
function linesOf(texts: readonly string[] | undefined): Array<{ LineNumber: number; Quantity: number }> | undefined {
  if (texts === undefined || texts.length === 0) return undefined;
  return texts.map((text) => {
    const match = /^\s*(\d+)\s*:\s*(\d+)\s*$/.exec(text);
    if (!match) throw new UsageError(`--line: '${text}' is not LINE:QUANTITY (e.g. --line 1:2)`);
    return { LineNumber: Number(match[1]), Quantity: Number(match[2]) };
  });
}

export const ordersShipCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: {
      line: { type: 'string', multiple: true },
      carrier: { type: 'string' },
      tracking: { type: 'string' },
      'tracking-url': { type: 'string' },
      date: { type: 'string' },
    },
  });
  const request = given({
    OrderId: orderIdOf(positionals),
    Lines: linesOf(values.line),
    Carrier: values.carrier,
    TrackingNumber: values.tracking,
    TrackingUrl: values['tracking-url'],
    ShippedAt: dateOf(values.date),
  });
  const { record } = await withStore(config, (store, writes) =>
    refusalInCliTerms(() => new OrderShipmentsService(store, writes).ship(validRequest(CreateShipmentRequest, request))),
  );
  process.stdout.write(`${toJson(shipmentView(record), config.jsonCasing, config.dateFormat, true)}\n`);
};

export const ordersReturnCommand: RunCommand = async (args, config) => {
  const { values, positionals } = parseCommandArgs({
    args,
    allowPositionals: true,
    options: { line: { type: 'string', multiple: true }, reason: { type: 'string' }, date: { type: 'string' } },
  });
  const lines = linesOf(values.line);
  if (lines === undefined) throw new UsageError('--line LINE:QUANTITY is required, once per line returned');
  const request = given({ OrderId: orderIdOf(positionals), Lines: lines, Reason: values.reason, ReceivedAt: dateOf(values.date) });
  const { record } = await withStore(config, (store, writes) =>
    refusalInCliTerms(() => new OrderShipmentsService(store, writes).return(validRequest(CreateReturnRequest, request))),
  );
  process.stdout.write(`${toJson(returnView(record), config.jsonCasing, config.dateFormat, true)}\n`);
};
