import { holdYoungGeneration } from '../heap-settings.js';
import type { Command } from './command.js';

/**
 * Every CLI command, in the order of `ordergate help`. A command's module is imported only when it
 * runs: the store, the HTTP stack and the domain modules are most of a short command's start-up,
 * and `help`, a mistyped command or a configuration error needs none of them.
 */
export const COMMANDS: readonly Command[] = [
  {
    words: ['serve'],
    usage: 'serve',
    summary: 'migrate the store and serve HTTP on HOST:PORT with WORKERS processes',
    load: async () => {
      // Until the first worker listens (server.ts): start-up's long-lived objects need no large young generation.
      holdYoungGeneration();
      return (await import('./serve-command.js')).serveCommand;
    },
  },
  {
    words: ['migrate'],
    usage: 'migrate',
    summary: 'apply pending migrations to DATABASE_URL',
    load: async () => (await import('./migrate-command.js')).migrateCommand,
  },
  {
    words: ['keys', 'create'],
    usage: 'keys create --name NAME --permissions all[,admin][,bank][,fulfilment]',
    summary: 'create an API key; the key is printed alone on the last line, only this once',
    load: async () => (await import('./keys-command.js')).keysCreateCommand,
  },
  {
    words: ['keys', 'list'],
    usage: 'keys list',
    summary: 'one line per key: <id> <name> <permissions> <created> [revoked]',
    load: async () => (await import('./keys-command.js')).keysListCommand,
  },
  {
    words: ['keys', 'revoke'],
    usage: 'keys revoke <id>',
    summary: 'revoke a key; running servers refuse it within a second',
    load: async () => (await import('./keys-command.js')).keysRevokeCommand,
  },
  {
    words: ['audit', 'list'],
    usage: 'audit list [--since DATE]',
    summary: 'one line per audit entry: <sequence> <at> <key id> <action> <resource type> <ids,…>',
    load: async () => (await import('./audit-command.js')).auditListCommand,
  },
  {
    words: ['seed'],
    usage: 'seed [--customers N] [--orders N [--confirmed N]]',
    summary: 'deterministic demo data: customers C00000001… and orders SEED-00000001… (open, or the first --confirmed of them confirmed)',
    load: async () => (await import('./seed-command.js')).seedCommand,
  },
  {
    words: ['backup'],
    usage: 'backup <file> [--force]',
    summary: 'online backup: SQLite backup API, or pg_dump (custom format) on PostgreSQL; --force replaces an existing file',
    load: async () => (await import('./backup-command.js')).backupCommand,
  },
  {
    words: ['restore'],
    usage: 'restore <file> [--yes]',
    summary: 'restore a backup made by `backup` into DATABASE_URL (--yes when it holds data; clients should resync fully after)',
    load: async () => (await import('./backup-command.js')).restoreCommand,
  },
  {
    words: ['customers', 'import'],
    usage: 'customers import <file.csv|file.jsonl> [--skip-invalid]',
    summary: 'upsert customers by CustomerId; every row is checked first, a bad file imports nothing',
    load: async () => (await import('./customers-command.js')).customersImportCommand,
  },
  {
    words: ['customers', 'export'],
    usage: 'customers export [--modified-after DATE]',
    summary: 'every customer as JSON Lines on stdout, in sync order; the sync watermark on stderr',
    load: async () => (await import('./customers-command.js')).customersExportCommand,
  },
  {
    words: ['customfields', 'define'],
    usage: 'customfields define <Number> --label L --type T [--read-only] [--allowed a,b] [--sort n]',
    summary: 'create or replace a custom-field definition (types: Text, Number, Decimal, Boolean, Date, Select, MultiSelect)',
    load: async () => (await import('./customfields-command.js')).customFieldsDefineCommand,
  },
  {
    words: ['customfields', 'list'],
    usage: 'customfields list',
    summary: 'one line per definition: <Number> <FieldType> "<Label>" sort <n> [read-only] [allowed a,b]',
    load: async () => (await import('./customfields-command.js')).customFieldsListCommand,
  },
  {
    words: ['customfields', 'delete'],
    usage: 'customfields delete <Number>',
    summary: 'delete a custom-field definition and every value of it',
    load: async () => (await import('./customfields-command.js')).customFieldsDeleteCommand,
  },
  {
    words: ['orders', 'import'],
    usage: 'orders import <file.csv|file.jsonl> [--skip-invalid]',
    summary: 'create open orders (OrderNumber, Note); every row is checked first, a bad file imports nothing',
    load: async () => (await import('./orders-command.js')).ordersImportCommand,
  },
  {
    words: ['orders', 'export'],
    usage: 'orders export [--status S[,S]] [--modified-after DATE] [--format jsonl|csv|csv-lines] [--include-bank-data]',
    summary: 'the order feed on stdout (JSON Lines or CSV), bank data masked unless asked for (audited); the watermark on stderr',
    load: async () => (await import('./orders-command.js')).ordersExportCommand,
  },
  {
    words: ['orders', 'pay'],
    usage: 'orders pay <OrderId> --amount A [--type PayPal|Unknown] [--name N] [--reference R] [--date DATE]',
    summary: "record a payment of a confirmed order (the order's Paid and PaymentStatus follow); the payment on stdout",
    load: async () => (await import('./order-life-command.js')).ordersPayCommand,
  },
  {
    words: ['orders', 'refund'],
    usage: 'orders refund <OrderId> --amount A [--reason R] [--reference R] [--date DATE]',
    summary: 'record a refund of a confirmed order, at most what was paid and not yet refunded; the refund on stdout',
    load: async () => (await import('./order-life-command.js')).ordersRefundCommand,
  },
  {
    words: ['orders', 'ship'],
    usage: 'orders ship <OrderId> [--line N:Q …] [--carrier C] [--tracking T] [--tracking-url URL] [--date DATE]',
    summary:
      'record a shipment of a confirmed order: the lines given (LineNumber:Quantity), or every quantity not yet shipped; the shipment on stdout',
    load: async () => (await import('./order-shipments-command.js')).ordersShipCommand,
  },
  {
    words: ['orders', 'return'],
    usage: 'orders return <OrderId> --line N:Q [--line N:Q …] [--reason R] [--date DATE]',
    summary: 'record a return of a confirmed order, at most what was shipped and not yet returned of each line; the return on stdout',
    load: async () => (await import('./order-shipments-command.js')).ordersReturnCommand,
  },
  {
    words: ['webhooks', 'add'],
    usage: 'webhooks add <url> [--events a,b] [--description D]',
    summary: 'register a webhook endpoint; its secret is printed alone on the last line, only this once',
    load: async () => (await import('./webhooks-command.js')).webhooksAddCommand,
  },
  {
    words: ['webhooks', 'list'],
    usage: 'webhooks list',
    summary: 'one line per endpoint: <id> <url> <events|*> <enabled|disabled:reason>',
    load: async () => (await import('./webhooks-command.js')).webhooksListCommand,
  },
  {
    words: ['webhooks', 'remove'],
    usage: 'webhooks remove <id>',
    summary: 'remove a webhook endpoint and its deliveries',
    load: async () => (await import('./webhooks-command.js')).webhooksRemoveCommand,
  },
  {
    words: ['webhooks', 'test'],
    usage: 'webhooks test <id>',
    summary: 'send a webhook.test event to the endpoint now and print the outcome (exit 1 when not delivered)',
    load: async () => (await import('./webhooks-command.js')).webhooksTestCommand,
  },
  {
    words: ['webhooks', 'replay'],
    usage: 'webhooks replay <id> --after N',
    summary: 'deliver the kept events after Sequence N again (of the endpoint’s types)',
    load: async () => (await import('./webhooks-command.js')).webhooksReplayCommand,
  },
  {
    words: ['customers', 'export-data'],
    usage: 'customers export-data <CustomerId> [--include-bank-data]',
    summary: 'everything held about one customer as JSON on stdout (bank data masked unless the flag; audited)',
    load: async () => (await import('./privacy-command.js')).exportDataCommand,
  },
  {
    words: ['customers', 'erase'],
    usage: 'customers erase <CustomerId> --yes',
    summary: "erase one customer's personal data for good (accounting fields stay; audited)",
    load: async () => (await import('./privacy-command.js')).eraseCommand,
  },
];
