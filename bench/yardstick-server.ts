import { createServer } from 'node:http';

// The yardstick of `npm run bench`: what plain node:http does with the same answer as a search by
// one identifier — a one-customer JSON array with the 14 spec fields — and nothing else.
const customer = {
  CustomerId: 'C00000042',
  ExternalId: 'EXT-42',
  Salutation: 'Frau',
  FirstName: 'Greta',
  LastName: 'Fischer',
  PostalCode: '80331',
  City: 'München',
  Country: 'DE',
  Street: 'Hauptstraße',
  StreetNumber: '43',
  Company: null,
  Company2: null,
  AdditionToAddress: null,
  Quarter: null,
};

const server = createServer((_req, res) => {
  // Serialized per request, as a service would: the yardstick is cheap, not free.
  const body = JSON.stringify([customer]);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.once('SIGTERM', () => server.close(() => process.exit(0)));
